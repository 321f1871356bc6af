"""GAR's PageRank case study: the real workflow (scripted master) against networkx.pagerank.

A scripted master keeps the LLM out: its reply is unusable on purpose in most
tests, so the workflow picks the algorithm by its deterministic fallback, or
proposes parameters that the question's own values must override.
"""

from __future__ import annotations

import json
from pathlib import Path

import networkx as nx
import numpy as np
import pytest

from graphreason.evals.gar.case_study import (
    DEFAULT_QUESTION,
    CaseStudyError,
    agreement,
    case_study_markdown,
    page_titles,
    reference_pagerank,
    requested_top_k,
    run_pagerank_case_study,
    settle_question,
    web_graph,
    wikispeedia_structured_graph,
    write_case_study,
)
from graphreason.workflows.models.scripted import ScriptedChatModel
from tests.conftest import require_data

MINI = Path(__file__).resolve().parents[2] / "fixtures" / "wikispeedia_mini"
UNUSABLE_REPLY = "I would rather talk about the weather."


def master(reply: str = UNUSABLE_REPLY) -> ScriptedChatModel:
    return ScriptedChatModel(script=[reply])


def run_mini(question: str | None = None, **options):
    options.setdefault("model", master())
    return run_pagerank_case_study(question, embedding="hash", root=MINI, **options)


# ------------------------------------------------------------------ the real Wikispeedia graph
@pytest.fixture(scope="module")
def wikispeedia_result():
    root = require_data("wikispeedia-web-graph")
    return run_pagerank_case_study(DEFAULT_QUESTION, model=master(), embedding="hash", root=root)


@pytest.mark.data
def test_wikispeedia_top10_titles_match_networkx_in_order(wikispeedia_result):
    result = wikispeedia_result
    found = [page["title"] for page in result["pages"]]
    assert result["graph"] == {"nodes": 4604, "links": 119882}
    assert result["output"]["algorithm"] == "pagerank" and result["top_k"] == 10
    assert len(found) == 10 and found == result["reference"]["titles"]
    assert found[0] == "United States"  # the well-known Wikispeedia hub
    agree = result["agreement"]
    assert agree["same_order"] and agree["overlap"] == 10 and agree["consistent_with_scores"]
    assert [page["reference_rank"] for page in result["pages"]] == list(range(1, 11))


@pytest.mark.data
def test_wikispeedia_question_number_reaches_the_algorithm_and_titles_reach_the_answer(wikispeedia_result):
    result = wikispeedia_result
    assert result["top_k_source"] == "question"
    assert result["output"]["chosen_params"] == {"damping": 0.85, "top_k": 10}
    answer = result["output"]["answer"]
    assert result["agreement"]["titles_in_answer"]
    assert all(page["title"] in answer for page in result["pages"])
    assert result["output"]["structured"]["labels"] == result["reference"]["titles"]


@pytest.mark.data
def test_wikispeedia_titles_are_decoded():
    titles = page_titles(wikispeedia_structured_graph(require_data("wikispeedia-web-graph")))
    assert len(titles) == len(set(titles)) == 4604
    for title in ("Édouard Manet", "Åland", "€2 commemorative coins", "United States"):
        assert title in titles
    assert not [t for t in titles if "%" in t or "_" in t]


# ------------------------------------------------------------------ a hand-made web graph (no data)
def test_mini_graph_titles_are_decoded_from_the_url_encoded_files():
    graph = wikispeedia_structured_graph(MINI)
    titles = page_titles(graph)
    assert titles[:3] == ["France", "Paris", "Édouard Manet"] and "Café" in titles
    assert graph["directed"] is True and len(graph["edges"]) == 24  # as listed: repeat and self-link kept


def test_mini_graph_workflow_matches_networkx_with_scores():
    result = run_mini("Which are the 3 most important pages of this web graph?")
    titles = [page["title"] for page in result["pages"]]
    # France has the most in-links, but it links only to Paris and hands it all its rank
    assert titles == result["reference"]["titles"] == ["Paris", "France", "Louvre"]
    agree = result["agreement"]
    assert agree["same_order"] and agree["titles_in_answer"]
    # small graphs come back with every score: compare them all, not only the order
    assert agree["max_abs_score_diff"] is not None and agree["max_abs_score_diff"] < 1e-8
    assert result["output"]["fallback_used"] is True
    assert result["output"]["usage"]["llm_calls"] == 1
    assert set(result["timings"]) >= {"workflow_seconds", "reference_seconds", "total_seconds"}


def test_question_values_win_over_the_masters_proposal():
    reply = json.dumps({"algorithm": "pagerank", "params": {"damping": 0.3, "top_k": 2}})
    result = run_mini("Which are the top 4 pages by PageRank?", model=master(reply))
    assert result["output"]["fallback_used"] is False
    assert result["output"]["chosen_params"] == {"damping": 0.85, "top_k": 4}
    assert len(result["pages"]) == 4 and result["agreement"]["same_order"]


def test_a_question_without_a_number_gets_top_k_through_params():
    result = run_mini("Rank the pages of this web graph by importance.", top_k=2)
    assert result["top_k_source"] == "params" and result["output"]["chosen_params"]["top_k"] == 2
    assert [p["title"] for p in result["pages"]] == result["reference"]["titles"][:2]


def test_any_web_graph_can_replace_wikispeedia():
    graph = web_graph(["Hub", "Leaf A", "Leaf B"], [("Leaf A", "Hub"), ("Leaf B", "Hub"), ("Hub", "Leaf A")])
    result = run_pagerank_case_study(
        "Which are the 2 most important pages?", model=master(), embedding="hash", graph=graph
    )
    assert [p["title"] for p in result["pages"]] == ["Hub", "Leaf A"]
    assert result["graph"] == {"nodes": 3, "links": 3}


# ------------------------------------------------------------------ pieces
def test_reference_pagerank_matches_the_closed_form():
    # pages 0 -> 1, page 1 dangling: r0 = 0.075 + 0.425 r1 and r0 + r1 = 1, so r0 = 0.5 / 1.425
    scores = reference_pagerank(web_graph(["a", "b"], [("a", "b")]))
    assert scores == pytest.approx([0.5 / 1.425, 1 - 0.5 / 1.425], abs=1e-12)


def test_reference_pagerank_counts_repeated_links_once_and_keeps_self_links():
    graph = wikispeedia_structured_graph(MINI)
    g = nx.DiGraph()
    g.add_edges_from(map(tuple, graph["edges"]))
    g.add_nodes_from(range(len(graph["nodes"])))
    assert g.number_of_edges() == 23 and g.has_edge(6, 6)
    expected = nx.pagerank(g, tol=1e-13, max_iter=10_000)
    assert reference_pagerank(graph) == pytest.approx([expected[i] for i in range(10)], abs=1e-12)


def test_top_k_comes_from_the_question_or_the_argument():
    assert requested_top_k(DEFAULT_QUESTION) == 10 and requested_top_k("Top five pages?") == 5
    assert requested_top_k("Rank the pages.") is None
    assert settle_question(None, 7) == (
        "Which are the 7 most important pages of this web graph?",
        7,
        "question",
    )
    assert settle_question("Rank the pages.", None) == ("Rank the pages.", 10, "params")
    with pytest.raises(CaseStudyError, match="asks for 10 pages but top_k is 3"):
        settle_question(DEFAULT_QUESTION, 3)
    with pytest.raises(CaseStudyError, match="must not be empty"):
        settle_question("   ", None)
    with pytest.raises(CaseStudyError, match="at least 1"):
        settle_question(None, 0)


def test_bad_graphs_are_named():
    with pytest.raises(CaseStudyError, match="appears twice"):
        web_graph(["A", "A"], [])
    with pytest.raises(CaseStudyError, match="unknown page"):
        web_graph(["A"], [("A", "B")])
    with pytest.raises(CaseStudyError, match="expected \\{'id': 1"):
        page_titles({"nodes": [{"id": 0, "title": "A"}, {"id": 5, "title": "B"}], "edges": []})
    with pytest.raises(CaseStudyError, match="non-empty 'nodes'"):
        run_pagerank_case_study(model=master(), embedding="hash", graph={"edges": [[0, 1]]})


def test_agreement_tells_a_tie_swap_from_a_wrong_ranking():
    scores = np.array([0.3, 0.3, 0.25, 0.15])
    titles = ["a", "b", "c", "d"]
    tie_swap = agreement([1, 0], scores, 2, titles, "b, a")
    assert not tie_swap["same_order"] and tie_swap["first_difference"] == 1
    assert tie_swap["overlap"] == 2 and tie_swap["consistent_with_scores"] and tie_swap["titles_in_answer"]
    wrong = agreement([0, 2], scores, 2, titles, "a")
    assert wrong["overlap"] == 1 and wrong["matching_positions"] == 1 and wrong["first_difference"] == 2
    assert not wrong["consistent_with_scores"] and not wrong["titles_in_answer"]
    short = agreement([0], scores, 2, titles, "a", workflow_scores=scores + 1e-3)
    assert short["first_difference"] == 2 and not short["consistent_with_scores"]
    assert short["max_abs_score_diff"] == pytest.approx(1e-3)


def test_report_files(tmp_path):
    result = run_mini("Which are the 3 most important pages of this web graph?")
    markdown, data = write_case_study(result, tmp_path / "out")
    text = markdown.read_text(encoding="utf-8")
    assert text == case_study_markdown(result)
    assert "| 1 | Paris |" in text and "same_order: True" in text
    assert result["engine"] == "compiled" and "; engine compiled)" in text
    saved = json.loads(data.read_text(encoding="utf-8"))
    assert saved["reference"]["titles"] == result["reference"]["titles"]
    assert "graph" not in saved["output"]  # the input graph is not copied into the result
