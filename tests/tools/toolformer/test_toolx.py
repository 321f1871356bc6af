"""toolx graph properties: the paper's lollipop example, the conventions, every error path."""

from __future__ import annotations

import math

import networkx as nx
import pytest

from graphreason.tools.core.errors import GraphError
from graphreason.tools.toolformer import toolx
from graphreason.tools.toolformer.toolx import ToolxError, UnknownToolxNodeError

# Graph-ToolFormer Table 1 / spec §3.4: the "lollipop graph" is lollipop_graph(4, 6)
LOLLIPOP_ECC = {0: 7, 1: 7, 2: 7, 3: 6, 4: 5, 5: 4, 6: 4, 7: 5, 8: 6, 9: 7}


@pytest.fixture
def lollipop() -> nx.Graph:
    return nx.lollipop_graph(4, 6)


def test_lollipop_values_from_the_paper(lollipop: nx.Graph) -> None:
    assert toolx.order(lollipop) == 10
    assert toolx.size(lollipop) == 12
    assert toolx.density(lollipop) == pytest.approx(4 / 15)
    assert toolx.eccentricity(lollipop) == LOLLIPOP_ECC
    assert toolx.eccentricity(lollipop, "4") == 5
    assert toolx.radius(lollipop) == 4
    assert toolx.center(lollipop) == [5, 6]
    assert toolx.shortest_path(lollipop, "1", "5") == 3
    assert toolx.diameter(lollipop) == 7
    assert toolx.max_path_length(lollipop) == 7
    assert toolx.min_path_length(lollipop) == 1
    assert toolx.periphery(lollipop) == [0, 1, 2, 9]


def test_average_conventions(lollipop: nx.Graph) -> None:
    # distance sum 286: networkx divides by n(n-1) = 90, the paper's table by n^2 = 100
    assert toolx.avg_path_length(lollipop) == pytest.approx(286 / 90)
    assert toolx.avg_path_length(lollipop) == pytest.approx(nx.average_shortest_path_length(lollipop))
    assert toolx.avg_path_length(lollipop, convention="paper") == pytest.approx(2.86)
    with pytest.raises(ToolxError, match="networkx"):
        toolx.avg_path_length(lollipop, convention="mean")  # type: ignore[arg-type]


def test_eccentricity_of_a_node_subset(lollipop: nx.Graph) -> None:
    assert toolx.eccentricity(lollipop, ["node#4", 9]) == {4: 5, 9: 7}
    assert toolx.call("toolx:eccentricity", lollipop, "4", "5") == {4: 5, 5: 4}


def test_density_direction() -> None:
    undirected = nx.path_graph(4)  # 3 edges over 6 pairs
    assert toolx.density(undirected) == pytest.approx(0.5)
    assert toolx.density(undirected, is_directed=True) == pytest.approx(0.25)
    assert toolx.call("density", undirected, **{"is-directed": "True"}) == pytest.approx(0.25)
    digraph = nx.DiGraph([(0, 1), (1, 2)])
    assert toolx.density(digraph) == pytest.approx(2 / 6)
    assert toolx.density(digraph, is_directed=False) == pytest.approx(4 / 6)
    with pytest.raises(ToolxError, match="True or False"):
        toolx.density(undirected, is_directed="maybe")


def test_table5_examples() -> None:
    assert toolx.center(nx.path_graph(12)) == [5, 6]
    assert toolx.eccentricity(nx.wheel_graph(6)) == {0: 1, 1: 2, 2: 2, 3: 2, 4: 2, 5: 2}
    assert toolx.order(nx.diamond_graph()) == 4


def test_disconnected_graph_is_infinite() -> None:
    graph = nx.Graph([(0, 1), (1, 2), (3, 4)])
    ecc = toolx.eccentricity(graph)
    assert all(math.isinf(v) for v in ecc.values())
    assert math.isinf(toolx.radius(graph)) and math.isinf(toolx.diameter(graph))
    assert toolx.center(graph) == toolx.periphery(graph) == [0, 1, 2, 3, 4]
    assert math.isinf(toolx.shortest_path(graph, 0, 4))
    assert toolx.shortest_path(graph, 0, 2) == 2
    assert math.isinf(toolx.avg_path_length(graph))
    assert toolx.min_path_length(graph) == 1
    assert math.isinf(toolx.min_path_length(nx.empty_graph(3)))


def test_directed_distances_follow_the_arcs() -> None:
    graph = nx.DiGraph([(0, 1), (1, 2)])
    assert toolx.shortest_path(graph, 0, 2) == 2
    assert math.isinf(toolx.shortest_path(graph, 2, 0))
    assert toolx.eccentricity(graph, 0) == 2
    assert math.isinf(toolx.eccentricity(graph, 2))


def test_tiny_graphs() -> None:
    single = nx.empty_graph(1)
    assert toolx.eccentricity(single) == {0: 0}
    assert toolx.avg_path_length(single) == 0.0
    assert toolx.min_path_length(single) == 0
    assert toolx.density(single) == 0.0
    with pytest.raises(ToolxError, match="no nodes"):
        toolx.radius(nx.Graph())
    with pytest.raises(ToolxError, match="networkx graph"):
        toolx.radius({0: [1]})  # type: ignore[arg-type]


def test_node_ids_resolve_from_call_text() -> None:
    graph = nx.Graph([("a", "b"), ("b", 3)])
    assert toolx.shortest_path(graph, "node#a", "3") == 2
    assert toolx.resolve_node(graph, " #3 ") == 3
    assert toolx.resolve_node(graph, '"b"') == "b"


def test_unknown_node_names_valid_ids_briefly() -> None:
    graph = nx.path_graph(100)
    with pytest.raises(UnknownToolxNodeError) as info:
        toolx.shortest_path(graph, "node#5", "node#500")
    message = str(info.value)
    assert isinstance(info.value, GraphError)
    assert "'node#500'" in message and "0, 1, 2" in message and "(100 in all)" in message
    assert len(message) < 200
    with pytest.raises(UnknownToolxNodeError):
        toolx.eccentricity(graph, True)  # a bool is not node 1


@pytest.mark.parametrize(
    ("spelling", "key"),
    [
        ("toolx:avg_path_length", "avg_path_length"),
        ("toolx:avg-shortest-path", "avg_path_length"),
        ("max-shortest-path", "max_path_length"),
        ("Toolx:Min_Shortest_Path", "min_path_length"),
        ('"toolx:shortest-path"', "shortest_path"),
        ("periphery", "periphery"),
    ],
)
def test_function_spellings(spelling: str, key: str) -> None:
    assert toolx.function_key(spelling) == key


def test_call_dispatches_and_reports_bad_calls(lollipop: nx.Graph) -> None:
    assert toolx.call("toolx:shortest-path", lollipop, "node#1", "node#5") == 3
    assert toolx.call("toolx:avg-shortest-path", lollipop, convention="paper") == pytest.approx(2.86)
    with pytest.raises(ToolxError, match="valid: order, size"):
        toolx.call("toolx:girth", lollipop)
    with pytest.raises(ToolxError, match="not a toolx function"):
        toolx.call("graph_bert:topic", lollipop)
    with pytest.raises(ToolxError, match=r"shortest_path takes \(source, target\)"):
        toolx.call("shortest_path", lollipop, "1")
    with pytest.raises(ToolxError, match="order takes"):
        toolx.call("order", lollipop, "1")
