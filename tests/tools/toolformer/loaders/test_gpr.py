"""The 37 GPR graphs: names, inferred parameters, and the gold answers of the prompts."""

from __future__ import annotations

from collections import Counter

import networkx as nx
import pytest

from benchmarks.toolformer_gpr_gold import (
    PROMPTS,
    RECORD,
    accuracy,
    check_record,
    parser_calls,
    per_function,
    regex_calls,
    run,
)
from graphreason.tools.core.errors import GraphError
from graphreason.tools.toolformer.loaders.gpr import UnknownGPRGraphError, gpr_graph, gpr_key, gpr_names
from tests.conftest import require_data

# (order, size) of the parametric graphs, as the gold order/size answers state them
PARAMETRIC = {
    "balanced_tree": (31, 30),
    "barbell_graph": (19, 60),
    "binomial_tree": (32, 31),
    "circulant_graph": (6, 12),
    "circular_ladder_graph": (30, 45),
    "complete_graph": (15, 105),
    "cycle_graph": (6, 6),
    "dorogovtsev_goltsev_mendes_graph": (15, 27),
    "full_rary_tree": (7, 6),
    "ladder_graph": (7, 6),
    "lollipop_graph": (14, 16),
    "path_graph": (12, 11),
    "star_graph": (8, 7),
    "turan_graph": (15, 75),
    "wheel_graph": (6, 10),
}


def test_all_37_build_and_match_the_papers_averages() -> None:
    names = gpr_names()
    assert len(names) == len(set(names)) == 37
    graphs = [gpr_graph(n) for n in names]
    assert all(nx.is_connected(g) and nx.is_frozen(g) for g in graphs)
    # Table 3: 14.70 nodes and 28.27 edges on average over 37 graphs
    assert sum(g.number_of_nodes() for g in graphs) == 544
    assert sum(g.number_of_edges() for g in graphs) == 1046


@pytest.mark.parametrize("name", sorted(PARAMETRIC))
def test_parametric_sizes(name: str) -> None:
    graph = gpr_graph(name)
    assert (graph.number_of_nodes(), graph.number_of_edges()) == PARAMETRIC[name]
    assert graph.graph["name"] == name


def test_ladder_graph_is_the_ternary_tree_the_data_describes() -> None:
    assert nx.utils.edges_equal(gpr_graph("ladder_graph").edges, nx.full_rary_tree(3, 7).edges)
    assert nx.utils.edges_equal(gpr_graph("lollipop").edges, nx.lollipop_graph(4, 10).edges)


def test_graphs_are_shared_and_read_only() -> None:
    graph = gpr_graph("petersen_graph")
    assert graph is gpr_graph("Petersen Graph")
    with pytest.raises(nx.NetworkXError):
        graph.add_edge(0, 99)
    copy = graph.copy()
    copy.add_edge(0, 99)
    assert gpr_graph("petersen_graph").number_of_nodes() == 10


@pytest.mark.parametrize(
    ("spelling", "key"),
    [
        ("house_x_graph", "house_x_graph"),
        ("house x", "house_x_graph"),
        ("House-X", "house_x_graph"),
        ('{"diamond_graph"}', "diamond_graph"),
        ("  Lollipop  ", "lollipop_graph"),
        ("balanced tree", "balanced_tree"),
        ("moebius kantor graph", "moebius_kantor_graph"),
    ],
)
def test_spelling_variants(spelling: str, key: str) -> None:
    assert gpr_key(spelling) == key


def test_unknown_name_lists_the_valid_ones() -> None:
    with pytest.raises(UnknownGPRGraphError) as info:
        gpr_graph("zachary karate club")
    assert isinstance(info.value, GraphError)
    assert "'zachary karate club'" in str(info.value) and "wheel_graph" in str(info.value)


@pytest.fixture(scope="module")
def gold_lines() -> list[tuple[int, str, str]]:
    """(line, Output, Reasoning Result) of every graph_properties training record."""
    folder = require_data("Graph_Toolformer")
    lines = (folder.parent / PROMPTS).read_text(encoding="utf-8").splitlines()
    matches = [(n, RECORD.match(line)) for n, line in enumerate(lines, start=1)]
    assert all(m for _, m in matches)
    return [(n, m["output"], m["result"]) for n, m in matches if m]


@pytest.mark.data
def test_gold_answers_of_graph_properties_execute() -> None:
    require_data("Graph_Toolformer")
    parser, outcomes = run(parser="regex")
    assert len(outcomes) == 1600
    assert accuracy(outcomes) >= 0.99
    assert all(good == total for good, total in per_function(outcomes).values())
    # the only records not in text order: one template whose gold lists eccentricity, radius, center
    reordered = Counter(tuple(c.func for c in o.calls) for o in outcomes if o.verdict == "reordered")
    assert set(reordered) <= {("toolx:center", "toolx:eccentricity", "toolx:radius")}
    assert accuracy(outcomes, strict=True) >= 0.985


@pytest.mark.data
def test_gold_averages_use_the_networkx_divisor(gold_lines: list[tuple[int, str, str]]) -> None:
    averages = [(n, out, res) for n, out, res in gold_lines if "avg_path_length" in out]
    for convention, expected in (("networkx", "ok"), ("paper", "mismatch")):
        verdicts = {check_record(n, out, res, regex_calls, convention).verdict for n, out, res in averages}
        assert verdicts == {expected}, convention  # n(n-1) fits all of them, n^2 none
    assert len(averages) >= 90


@pytest.mark.data
def test_gold_calls_through_the_project_parser(gold_lines: list[tuple[int, str, str]]) -> None:
    pytest.importorskip("graphreason.tools.toolformer.calls.parse")
    outcomes = [check_record(n, out, res, parser_calls, "networkx") for n, out, res in gold_lines]
    assert accuracy(outcomes) >= 0.99
