"""The conversions between store, parsed problem and vertex graph keep nodes, edges, weights and direction."""

from __future__ import annotations

import networkx as nx
import pytest

from tools.graph_convert import problem_to_store, store_to_vertex, to_networkx
from tools.graph_text import parse_graph_problem
from tools.store import GraphStore
from tools.vertex.graph import VertexGraph

WEIGHTED = (
    "In a directed graph, (i,j,k) means an edge from node i to node j with weight k. "
    "The nodes are numbered from 0 to 4, and the edges are: (0,1,3) (1,2,2) (2,0,5) (3,4,1). "
    "What is the shortest path from node 0 to node 2?"
)
UNWEIGHTED = (
    "In an undirected graph, (i,j) means that node i and node j are connected. "
    "The nodes are numbered from 0 to 5, and the edges are: (0,1) (1,2) (3,4). Is node 0 connected to node 2?"
)


def _edges(graph: nx.Graph) -> dict:
    key = (lambda u, v: (u, v)) if graph.is_directed() else (lambda u, v: tuple(sorted((u, v))))
    return {key(u, v): data.get("weight") for u, v, data in graph.edges(data=True)}


@pytest.mark.parametrize("text", [WEIGHTED, UNWEIGHTED], ids=["directed-weighted", "undirected"])
def test_every_route_from_a_problem_to_networkx_gives_the_same_graph(text):
    problem = parse_graph_problem(text)
    direct = to_networkx(problem)
    via_store = to_networkx(problem_to_store(problem))
    via_vertex = to_networkx(store_to_vertex(problem_to_store(problem)))
    assert direct.is_directed() == via_store.is_directed() == via_vertex.is_directed() == problem.directed
    assert sorted(direct.nodes) == list(range(problem.n_nodes)) == sorted(via_vertex.nodes)
    assert sorted(via_store.nodes) == [str(i) for i in range(problem.n_nodes)]
    expected = {(u, v) if problem.directed else tuple(sorted((u, v))): w for u, v, w in problem.edges}
    assert _edges(direct) == expected
    assert _edges(via_vertex) == {k: (1.0 if w is None else w) for k, w in expected.items()}
    relabelled = nx.relabel_nodes(via_store, int)
    assert _edges(relabelled) == expected
    assert all(data["relation"] == "edge" for _, _, data in via_store.edges(data=True))


def test_store_features_and_relations_survive_and_cannot_clash_with_networkx():
    store = GraphStore(name="g", directed=True)
    store.add_node("a", "paper", {"title": "A", "type": "ignored"})
    store.add_node("b", "author", {"name": "B"})
    store.add_edge("a", "b", "written_by", weight=2.5)
    graph = to_networkx(store)
    assert graph.nodes["a"] == {"title": "A", "type": "paper"}
    assert graph.edges["a", "b"] == {"relation": "written_by", "weight": 2.5}
    vertex = store_to_vertex(store)
    assert isinstance(vertex, VertexGraph) and vertex.labels == ["a", "b"]
    assert vertex.edge_list() == [(0, 1, 2.5)]
    assert store_to_vertex(store, relation="cites").num_edges == 0


def test_the_class_methods_are_the_same_conversions():
    problem = parse_graph_problem(WEIGHTED)
    assert _edges(problem.to_networkx()) == _edges(to_networkx(problem))
    store = problem.to_store("toy")
    assert store.name == "toy" and _edges(store.to_networkx()) == _edges(to_networkx(store))
    vertex = VertexGraph.from_store(store)
    assert vertex.edge_list() == store_to_vertex(store).edge_list()
    assert _edges(vertex.to_networkx()) == _edges(to_networkx(vertex))
