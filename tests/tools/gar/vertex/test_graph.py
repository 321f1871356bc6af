"""VertexGraph: building, merging parallel edges, views, gathering arcs, bad input."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
from scipy.sparse import csr_array

from graphreason.tools.gar.vertex import VertexGraph, VertexProgramError


def arcs(adjacency) -> set[tuple[int, int, float]]:
    return set(
        zip(adjacency.src.tolist(), adjacency.indices.tolist(), adjacency.weights.tolist(), strict=True)
    )


def test_undirected_edges_are_stored_both_ways_once() -> None:
    g = VertexGraph.from_edges(4, [(0, 1, 5), (1, 0, 3), (2, 2, 1), (1, 3, 2)])
    # (0,1) given twice: merged by the default "min" rule; the self-loop stays as one arc
    assert arcs(g.out) == {(0, 1, 3.0), (1, 0, 3.0), (2, 2, 1.0), (1, 3, 2.0), (3, 1, 2.0)}
    assert g.num_edges == 3
    assert g.self_loops.tolist() == [False, False, True, False]
    assert g.inn is g.out and g.both is g.out
    assert g.edge_list() == [(0, 1, 3.0), (1, 3, 2.0), (2, 2, 1.0)]


@pytest.mark.parametrize(("rule", "weight"), [("min", 2.0), ("max", 7.0), ("sum", 9.0), ("first", 7.0)])
def test_parallel_edge_rules(rule: str, weight: float) -> None:
    g = VertexGraph.from_edges(2, [(0, 1, 7), (0, 1, 2)], directed=True, parallel=rule)
    assert arcs(g.out) == {(0, 1, weight)}


def test_directed_views() -> None:
    g = VertexGraph.from_edges(3, [(0, 1, 4), (1, 2, 1), (2, 1, 6)], directed=True)
    assert arcs(g.inn) == {(1, 0, 4.0), (2, 1, 1.0), (1, 2, 6.0)}
    # the undirected view keeps the lighter of two opposite arcs
    assert arcs(g.both) == {(0, 1, 4.0), (1, 0, 4.0), (1, 2, 1.0), (2, 1, 1.0)}
    assert g.view("in") is g.inn
    with pytest.raises(VertexProgramError, match="unknown direction"):
        g.view("sideways")


def test_edges_of_matches_a_plain_loop() -> None:
    rng = np.random.default_rng(3)
    n = 200
    edges = np.column_stack([rng.integers(0, n, 1000), rng.integers(0, n, 1000)])
    g = VertexGraph.from_edges(n, edges, directed=True, weights=rng.uniform(1, 9, 1000))
    nodes = np.array([5, 17, 3, 150, 199, 0])
    batch = g.out.edges_of(nodes)
    expected = [
        (int(u), int(g.out.indices[a]), float(g.out.weights[a]), a)
        for u in nodes
        for a in range(g.out.indptr[u], g.out.indptr[u + 1])
    ]
    got = list(
        zip(batch.src.tolist(), batch.dst.tolist(), batch.weight.tolist(), batch.arc.tolist(), strict=True)
    )
    assert got == expected
    dist = rng.uniform(0, 1, n)
    np.testing.assert_array_equal(batch.at_source(dist), dist[batch.src])
    everything = g.out.edges_of(np.arange(n))
    assert len(everything) == g.num_arcs
    assert len(g.out.edges_of(np.array([], dtype=np.int64))) == 0


def test_from_scipy_and_back() -> None:
    matrix = csr_array(np.array([[0, 2, 0], [0, 0, 3], [1, 0, 0]], dtype=float))
    g = VertexGraph.from_scipy(matrix)
    assert g.directed and g.weighted
    assert (g.to_scipy() != matrix).nnz == 0


def test_labels_name_the_nodes() -> None:
    g = VertexGraph.from_edges(3, [(0, 1), (2, 0)], directed=True, labels=["Home", "About", "Blog"])
    assert g.labels == ["Home", "About", "Blog"]
    assert arcs(g.out) == {(0, 1, 1.0), (2, 0, 1.0)}
    assert g.check_node("Blog") == 2
    with pytest.raises(VertexProgramError, match="or one of the node labels"):
        g.check_node("Shop")


def test_numeric_string_labels_win_over_indexes() -> None:
    g = VertexGraph.from_edges(3, [(0, 1)], labels=["7", "0", "1"])
    assert g.check_node("0") == 1  # the node labelled "0", not index 0
    assert g.check_node(0) == 0  # an int is always an index
    assert g.check_node("2") == 2  # no such label: read as an index


def test_to_networkx_keeps_weights() -> None:
    g = VertexGraph.from_edges(3, [(0, 1, 2), (1, 2, 5)], node_weights=[1, 2, 3])
    h = g.to_networkx()
    assert isinstance(h, nx.Graph) and not h.is_directed()
    assert h[1][2]["weight"] == 5 and h.nodes[2]["weight"] == 3


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"num_nodes": 3, "edges": [(0, 3)]}, r"edge \(0.0, 3.0\) names a node outside 0..2"),
        ({"num_nodes": 3, "edges": [(0, -1)]}, "outside 0..2"),
        ({"num_nodes": 3, "edges": [(0, 1.5)]}, "outside 0..2"),
        ({"num_nodes": 0, "edges": []}, "positive integer"),
        ({"num_nodes": 3, "edges": [(0, 1, 2, 3)]}, "pairs .* or triples"),
        ({"num_nodes": 3, "edges": [(0, 1)], "weights": [1, 2]}, "2 weights given for 1 edges"),
        ({"num_nodes": 3, "edges": [(0, 1, float("nan"))]}, "finite"),
        ({"num_nodes": 2, "edges": [(0, 1)], "node_weights": [1]}, "1 node weights given for 2 nodes"),
        ({"num_nodes": 2, "edges": [(0, 1)], "parallel": "avg"}, "unknown parallel-edge rule"),
    ],
)
def test_bad_graphs_are_rejected_clearly(kwargs: dict, message: str) -> None:
    with pytest.raises(VertexProgramError, match=message):
        VertexGraph.from_edges(**kwargs)


def test_parallel_rule_is_checked_even_without_duplicates() -> None:
    with pytest.raises(VertexProgramError, match="unknown parallel-edge rule"):
        VertexGraph.from_edges(2, [(0, 1)], directed=True, parallel="avg")
