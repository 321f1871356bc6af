"""GAR's graph forms as networkx keep nodes, edges, weights and direction, whichever form they start from."""

from __future__ import annotations

import networkx as nx
import pytest

from graphreason.tools.gar.conversions import networkx_graph, problem_to_networkx, vertex_to_networkx
from graphreason.tools.gar.graph_text import parse_graph_problem
from graphreason.tools.gar.vertex.graph import VertexGraph

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
def test_a_problem_and_its_engine_graph_give_the_same_networkx_graph(text):
    problem = parse_graph_problem(text)
    direct = problem.to_networkx()
    edges = [(u, v, 1.0 if w is None else w) for u, v, w in problem.edges]
    via_vertex = VertexGraph.from_edges(problem.n_nodes, edges, directed=problem.directed).to_networkx()
    assert direct.is_directed() == via_vertex.is_directed() == problem.directed
    assert sorted(direct.nodes) == list(range(problem.n_nodes)) == sorted(via_vertex.nodes)
    expected = {(u, v) if problem.directed else tuple(sorted((u, v))): w for u, v, w in problem.edges}
    assert _edges(direct) == expected
    assert _edges(via_vertex) == {k: (1.0 if w is None else w) for k, w in expected.items()}


def test_the_class_methods_are_the_module_conversions():
    problem = parse_graph_problem(WEIGHTED)
    assert _edges(problem.to_networkx()) == _edges(problem_to_networkx(problem))
    vertex = VertexGraph.from_edges(3, [(0, 1, 2.0), (1, 2, 4.0)], node_weights=[1, 2, 3])
    assert _edges(vertex.to_networkx()) == _edges(vertex_to_networkx(vertex)) == {(0, 1): 2.0, (1, 2): 4.0}
    assert vertex_to_networkx(vertex).nodes[2] == {"weight": 3.0}


def test_attribute_names_cannot_clash_with_networkx_parameters():
    graph = networkx_graph(True, [("a", {"node_for_adding": 1, "type": "x"})], [("a", "b", {"u_of_edge": 2})])
    assert graph.is_directed() and graph.nodes["a"] == {"node_for_adding": 1, "type": "x"}
    assert graph.edges["a", "b"] == {"u_of_edge": 2}
