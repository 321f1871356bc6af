"""GAR's case study: the most important pages of a real web graph, by PageRank, from a question.

The Wikispeedia link graph (4,604 Wikipedia-for-Schools articles, 119,882
links) is handed to the GraphAgent-Reasoner workflow as a structured graph
whose node names are readable page titles; the question ("Which are the 10
most important pages of this web graph?") goes through the whole workflow
(construct -> retrieve -> choose -> execute -> summarize), so the master
model, the library retrieval and the vertex engine all take part.

The answer is checked against an independent reference: ``networkx.pagerank``
on the same links (not the vertex engine), comparing the top-k titles, their
order and, when the workflow returns them, the scores.

How many pages: the question's own number ("the 10 most important") reaches
the algorithm as ``top_k`` through the workflow's parameter reading. A question
that gives no number gets ``top_k`` in the structured graph's ``params`` (the
structured-input way to pass parameters). The damping factor is pinned there
too, so the comparison is always against PageRank at the stated damping,
whatever parameters the master proposes.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from graphreason.evals.gar.report import execute_note

DATASET = "wikispeedia-web-graph"
QUESTION_TEMPLATE = "Which are the {k} most important pages of this web graph?"
DEFAULT_TOP_K = 10
DEFAULT_QUESTION = QUESTION_TEMPLATE.format(k=DEFAULT_TOP_K)
DAMPING = 0.85
# Scores closer than this count as tied when judging a ranking against the reference
# (the engine stops at a total change below n * 1e-10, so its scores are that close to exact).
SCORE_TIE_TOLERANCE = 1e-8

EventHandler = Callable[[dict[str, Any]], None]


class CaseStudyError(ValueError):
    """The case study's question, top-k or graph is unusable."""


# ------------------------------------------------------------------ the graph
def web_graph(titles: Sequence[str], links: Iterable[tuple[str, str]]) -> dict[str, Any]:
    """A directed GAR structured graph of titled pages.

    Node ids are dense (``0..n-1`` in the order of ``titles``); each node carries
    its ``title``, which the workflow uses as the node's name in answers.
    ``links`` are ``(source title, target title)`` pairs.
    """
    index: dict[str, int] = {}
    for title in titles:
        if title in index:
            raise CaseStudyError(f"the page title {title!r} appears twice; titles must be unique")
        index[title] = len(index)
    edges = []
    for source, target in links:
        missing = [t for t in (source, target) if t not in index]
        if missing:
            raise CaseStudyError(f"the link {source!r} -> {target!r} names unknown page(s) {missing}")
        edges.append([index[source], index[target]])
    if not index:
        raise CaseStudyError("the web graph has no pages")
    return {
        "directed": True,
        "nodes": [{"id": i, "title": title} for i, title in enumerate(index)],
        "edges": edges,
    }


@lru_cache(maxsize=2)
def _wikispeedia_parts(folder: str) -> tuple[list[dict[str, Any]], list[list[int]]]:
    # The loader decodes the URL-encoded article names; its "title" feature is the
    # decoded name with spaces ("Édouard Manet"), which is what a reader expects.
    from graphreason.tools.core.loaders.wikispeedia import load_wikispeedia

    store = load_wikispeedia(folder)
    titles = [str(store.feature(node, "title")) for node in store.nodes()]
    links = [(store.feature(e.src, "title"), store.feature(e.dst, "title")) for e in store.edges()]
    graph = web_graph(titles, links)
    return graph["nodes"], graph["edges"]


def wikispeedia_structured_graph(root: str | Path | None = None) -> dict[str, Any]:
    """The Wikispeedia link graph as a GAR structured graph with readable page titles.

    ``root`` is the dataset folder (default: ``wikispeedia-web-graph`` under the
    data root). Built once per folder and process; each call returns a new
    top-level dict sharing the (read-only) node and edge lists.
    """
    from graphreason.settings import dataset_dir

    folder = Path(root).expanduser() if root is not None else dataset_dir(DATASET)
    nodes, edges = _wikispeedia_parts(str(folder.resolve()))
    return {"directed": True, "nodes": nodes, "edges": edges}


def page_titles(graph: dict[str, Any]) -> list[str]:
    """The titles of a :func:`web_graph`-style graph, by node id (a clear error for other shapes)."""
    nodes = graph.get("nodes") if isinstance(graph, dict) else None
    if not isinstance(nodes, list) or not nodes:
        raise CaseStudyError("the case-study graph needs a non-empty 'nodes' list of {'id', 'title'} dicts")
    titles = []
    for position, node in enumerate(nodes):
        if not isinstance(node, dict) or node.get("id") != position or "title" not in node:
            raise CaseStudyError(
                f"node {position} of the case-study graph is {node!r}; expected {{'id': {position}, 'title': ...}}"
            )
        titles.append(str(node["title"]))
    return titles


# ------------------------------------------------------------------ the reference
def reference_pagerank(graph: dict[str, Any], damping: float = DAMPING) -> np.ndarray:
    """PageRank of every node (by id) computed by ``networkx.pagerank``, independently of the vertex engine.

    Repeated links count once and self-links are kept, as in the workflow's graph.
    """
    import networkx as nx

    n = len(page_titles(graph))
    g = nx.DiGraph() if graph.get("directed", True) else nx.Graph()
    g.add_nodes_from(range(n))
    g.add_edges_from((int(edge[0]), int(edge[1])) for edge in graph["edges"])
    ranks = nx.pagerank(g, alpha=damping, tol=1e-13, max_iter=100_000)
    return np.array([ranks[i] for i in range(n)])


def ranking(scores: np.ndarray) -> np.ndarray:
    """Node ids by score, highest first; equal scores by id (the engine's tie order)."""
    return np.lexsort((np.arange(scores.size), -scores))


# ------------------------------------------------------------------ top-k
def requested_top_k(question: str) -> int | None:
    """How many pages the question asks for ("the 10 most important", "top five"), or None."""
    from graphreason.tools.gar.graph_text.nodes import NodeSpace
    from graphreason.tools.gar.graph_text.params import extract_params

    params, _ = extract_params(question, NodeSpace())
    return params.get("k")


def settle_question(question: str | None, top_k: int | None) -> tuple[str, int, str]:
    """The question to ask, how many pages, and where that number goes: ``"question"`` or ``"params"``.

    No question: :data:`QUESTION_TEMPLATE` with ``top_k`` (default 10). A question
    stating its number must agree with ``top_k``; one without gets ``top_k``
    (default 10) through the structured graph's params.
    """
    if top_k is not None and top_k < 1:
        raise CaseStudyError(f"top_k must be at least 1, got {top_k}")
    if question is None:
        k = top_k or DEFAULT_TOP_K
        return QUESTION_TEMPLATE.format(k=k), k, "question"
    if not question.strip():
        raise CaseStudyError("the question must not be empty")
    asked = requested_top_k(question)
    if asked is None:
        return question, top_k or DEFAULT_TOP_K, "params"
    if top_k is not None and top_k != asked:
        raise CaseStudyError(
            f"the question asks for {asked} pages but top_k is {top_k}; drop top_k or make them agree"
        )
    return question, asked, "question"


# ------------------------------------------------------------------ the run
def _stream(
    question: str, graph: dict[str, Any], context: Any, on_event: EventHandler | None
) -> dict[str, Any]:
    """Run the GAR workflow; custom events go to ``on_event``; returns the GAR output fields."""
    from graphreason.workflows.gar import stream_solve
    from graphreason.workflows.gar.state import GAROutput

    choice: dict[str, Any] = {}

    def note(event: dict[str, Any]) -> None:
        if event.get("event") == "choice":
            choice.update(event)
        if on_event is not None:
            on_event(event)

    final = stream_solve(question, context, graph, note)
    keep = set(GAROutput.__annotations__)
    output = {k: v for k, v in final.items() if k in keep}  # drops the input graph and internal state
    output["chosen_params"] = choice.get("params")
    return output


def run_pagerank_case_study(
    question: str | None = None,
    *,
    top_k: int | None = None,
    model: Any = "local",
    embedding: str = "minilm",
    base_url: str | None = None,
    root: str | Path | None = None,
    graph: dict[str, Any] | None = None,
    damping: float = DAMPING,
    max_tokens: int | None = None,
    on_event: EventHandler | None = None,
    engine: str = "auto",
    spark_master: str | None = None,
    spark_conf: str | None = None,
) -> dict[str, Any]:
    """Ask GAR for the most important pages and check its answer against ``networkx.pagerank``.

    ``question`` defaults to :data:`QUESTION_TEMPLATE` with ``top_k`` (10 when
    unset); a question that states its own number must agree with ``top_k``.
    ``model`` is the master's spec (``local``, ``openai:MODEL``,
    ``scripted:FILE.json``) or a chat model object. ``graph`` replaces
    Wikispeedia with another :func:`web_graph`-style graph (``root``: the
    Wikispeedia folder). ``on_event`` receives the workflow's stream events.
    ``engine="spark"`` runs the PageRank supersteps on Spark (``spark_master``,
    default ``local[*]``; ``spark_conf``: extra ``spark.key=value`` settings).

    Returns ``question``, ``top_k`` / ``top_k_source``, ``graph`` (size),
    ``output`` (the workflow's answer, structured answer, trace, usage and the
    chosen parameters), ``pages`` (rank, title, score when the workflow gives
    scores, reference score and rank), ``reference`` (top-k titles and scores),
    ``agreement`` and ``timings`` (seconds).
    """
    from graphreason.workflows.gar.context import GARContext

    question, k, k_source = settle_question(question, top_k)
    started = time.perf_counter()
    base = graph if graph is not None else wikispeedia_structured_graph(root)
    titles = page_titles(base)
    graph_seconds = time.perf_counter() - started

    params: dict[str, Any] = {"damping": damping}
    if k_source == "params":  # the question gives no number: pass top_k the structured way
        params["top_k"] = k
    with_params = {**base, "params": {**base.get("params", {}), **params}}
    extra = {} if max_tokens is None else {"max_tokens": max_tokens}
    context = GARContext(
        master_model=model, embedding_model=embedding, base_url=base_url, engine=engine,  # type: ignore[arg-type]
        spark_master=spark_master, spark_conf=spark_conf, **extra,
    )  # fmt: skip
    clock = time.perf_counter()
    output = _stream(question, with_params, context, on_event)
    workflow_seconds = time.perf_counter() - clock

    clock = time.perf_counter()
    reference = reference_pagerank(base, damping)
    reference_seconds = time.perf_counter() - clock

    structured = output.get("structured") or {}
    found = [int(i) for i in structured.get("value") or []] if structured.get("task") == "pagerank" else []
    scores = structured.get("scores")
    workflow_scores = np.asarray(scores, dtype=float) if scores is not None else None
    if workflow_scores is None and structured.get("top_scores") is not None and found:
        # big graphs keep only the ranked pages' scores: compare those (NaN elsewhere)
        workflow_scores = np.full(len(titles), np.nan)
        workflow_scores[found] = structured["top_scores"][: len(found)]
    order = ranking(reference)
    usage = output.get("usage") or {}
    return {
        "question": question,
        "top_k": k,
        "top_k_source": k_source,
        "damping": damping,
        "graph": {"nodes": len(titles), "links": len(base["edges"])},
        "output": output,
        "engine": execute_note(output).get("engine"),  # the executor that ran it; None when nothing ran
        "pages": _pages(found, titles, workflow_scores, reference, order),
        "reference": {
            "method": "networkx.pagerank",
            "titles": [titles[i] for i in order[:k]],
            "scores": [float(reference[i]) for i in order[:k]],
        },
        "agreement": agreement(found, reference, k, titles, output.get("answer", ""), workflow_scores),
        "timings": {
            "graph_seconds": graph_seconds,
            "workflow_seconds": workflow_seconds,
            "llm_seconds": float(usage.get("llm_seconds", 0.0)),
            "engine_seconds": float(usage.get("engine_seconds", 0.0)),
            "reference_seconds": reference_seconds,
            "total_seconds": time.perf_counter() - started,
        },
    }


def _pages(
    found: list[int],
    titles: list[str],
    workflow_scores: np.ndarray | None,
    reference: np.ndarray,
    order: np.ndarray,
) -> list[dict[str, Any]]:
    reference_rank = np.empty(order.size, dtype=np.int64)
    reference_rank[order] = np.arange(1, order.size + 1)
    return [
        {
            "rank": rank,
            "title": titles[node],
            "score": None if workflow_scores is None else float(workflow_scores[node]),
            "reference_score": float(reference[node]),
            "reference_rank": int(reference_rank[node]),
        }
        for rank, node in enumerate(found, 1)
    ]


def agreement(
    found: Sequence[int],
    reference: np.ndarray,
    k: int,
    titles: Sequence[str],
    answer: str = "",
    workflow_scores: np.ndarray | None = None,
) -> dict[str, Any]:
    """How the workflow's top-k (node ids, best first) agrees with the reference scores.

    ``same_order``: identical top-k lists; ``overlap``: pages in both;
    ``matching_positions``: ranks holding the same page; ``first_difference``:
    the first rank that differs (None if none); ``consistent_with_scores``: the
    list is a valid top-k under the reference up to ties within
    :data:`SCORE_TIE_TOLERANCE`; ``titles_in_answer``: every listed title
    appears in the answer text; ``max_abs_score_diff``: over all nodes, only
    when the workflow returned every score.
    """
    expected = ranking(reference)[:k].tolist()
    found = list(found)
    positions = [a == b for a, b in zip(found, expected, strict=False)]
    first_difference = next((r for r, same in enumerate(positions, 1) if not same), None)
    if first_difference is None and len(found) != len(expected):
        first_difference = min(len(found), len(expected)) + 1
    kth = reference[expected[-1]] if expected else 0.0
    listed = reference[found] if found else np.zeros(0)
    consistent = (
        len(found) == min(k, reference.size)
        and len(set(found)) == len(found)
        and bool(np.all(listed >= kth - SCORE_TIE_TOLERANCE))
        and bool(np.all(np.diff(listed) <= SCORE_TIE_TOLERANCE))
    )
    max_diff = None
    if workflow_scores is not None and workflow_scores.shape == reference.shape:
        max_diff = float(np.nanmax(np.abs(workflow_scores - reference)))
    return {
        "k": k,
        "returned": len(found),
        "same_order": found == expected,
        "overlap": len(set(found) & set(expected)),
        "matching_positions": int(sum(positions)),
        "first_difference": first_difference,
        "consistent_with_scores": consistent,
        "titles_in_answer": bool(found) and all(titles[i] in answer for i in found),
        "max_abs_score_diff": max_diff,
    }


# ------------------------------------------------------------------ report
def _number(value: float | None, digits: int = 6) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def case_study_markdown(result: dict[str, Any]) -> str:
    """The case study as a short Markdown report (question, answer, table, agreement, times)."""
    output, agree, times = result["output"], result["agreement"], result["timings"]
    usage = output.get("usage") or {}
    lines = [
        "# GraphAgent-Reasoner case study: PageRank on the Wikispeedia web graph",
        "",
        f"- Question: {result['question']}",
        f"- Graph: {result['graph']['nodes']:,} pages, {result['graph']['links']:,} links",
        f"- Algorithm: {output.get('algorithm')} (parameters {output.get('chosen_params')}; "
        f"top_k from the {result['top_k_source']}; master fallback "
        f"{'used' if output.get('fallback_used') else 'not used'}; engine {result.get('engine') or '-'})",
        "",
        "## Answer",
        "",
        str(output.get("answer") or "(no answer)"),
        "",
        "## Ranking",
        "",
        "| rank | title | score | reference score | reference rank |",
        "|---|---|---|---|---|",
    ]
    for page in result["pages"]:
        lines.append(
            f"| {page['rank']} | {page['title']} | {_number(page['score'])} | "
            f"{_number(page['reference_score'])} | {page['reference_rank']} |"
        )
    lines += ["", "## Agreement with networkx.pagerank", ""]
    lines += [f"- {key}: {value}" for key, value in agree.items()]
    lines += ["", "## Time (seconds)", ""]
    lines += [f"- {key.removesuffix('_seconds')}: {value:.2f}" for key, value in times.items()]
    lines.append(f"- LLM calls: {usage.get('llm_calls', 0)}, tokens: {usage.get('tokens', 0)}")
    return "\n".join(lines) + "\n"


def write_case_study(result: dict[str, Any], out_dir: str | Path) -> tuple[Path, Path]:
    """Write ``case_study.md`` and ``case_study.json`` into ``out_dir``; returns their paths."""
    import json

    folder = Path(out_dir).expanduser()
    folder.mkdir(parents=True, exist_ok=True)
    markdown, data = folder / "case_study.md", folder / "case_study.json"
    markdown.write_text(case_study_markdown(result), encoding="utf-8")
    data.write_text(json.dumps(result, indent=2, ensure_ascii=False, default=str), encoding="utf-8")
    return markdown, data
