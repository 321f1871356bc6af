"""ParsedProblem exports: GraphStore, CSR, networkx, dict round trip, labels."""

from __future__ import annotations

import numpy as np
import pytest

from graphreason.tools.gar.graph_text import GraphTextError, load_structured_graph, parse_graph_problem

WEIGHTED = (
    "In an undirected graph, the nodes are numbered from 0 to 3, and the edges are: (0,1,2) (1,2,0) (2,3,5)."
)


def test_to_csr_is_symmetric_for_undirected_and_keeps_zero_weights() -> None:
    csr = parse_graph_problem(WEIGHTED).to_csr()
    dense = csr.toarray()
    assert csr.shape == (4, 4) and csr.nnz == 6  # three edges, both directions, the zero kept explicitly
    assert dense[0, 1] == dense[1, 0] == 2 and dense[2, 3] == dense[3, 2] == 5
    assert dense[1, 2] == 0 and 2 in csr.indices[csr.indptr[1] : csr.indptr[2]]  # stored, though zero


def test_to_csr_directed_unweighted_uses_ones() -> None:
    csr = parse_graph_problem(
        "In a directed graph with nodes numbered from 0 to 2: (0->1) (1->2) (2->2)."
    ).to_csr()
    assert csr.toarray().tolist() == [[0, 1, 0], [0, 0, 1], [0, 0, 1]]


def test_to_networkx_and_describe() -> None:
    p = parse_graph_problem(WEIGHTED + " Give the weight of the shortest path from node 0 to node 3.")
    g = p.to_networkx()
    assert g.number_of_nodes() == 4 and g[2][3]["weight"] == 5.0
    assert (
        p.describe()
        == "undirected weighted graph with 4 nodes and 3 edges; source=0, target=3, weight_kind=weight"
    )


def test_dict_round_trip_through_the_structured_loader() -> None:
    p = parse_graph_problem(
        "G describes a friendship graph among Ann, Bo, and Cy.\nAnn and Bo are friends.\nQ: What is the degree of node Bo?"
    )
    back = load_structured_graph(p.to_dict())
    assert list(back.edges) == p.edges and back.node_names == p.node_names
    assert back.n_nodes == 3 and back.params["node"] == 1 and back.directed is False


def test_labels_and_ids() -> None:
    p = parse_graph_problem("The web pages are numbered from 1 to 3. Links: 1 -> 2, 2 -> 3.")
    assert [p.label(i) for i in range(3)] == ["1", "2", "3"] and p.node_id(3) == 2
    with pytest.raises(GraphTextError, match="no node is called '7'"):
        p.node_id(7)
    plain = parse_graph_problem("In a directed graph with nodes numbered from 0 to 2: (0->1).")
    assert plain.label(2) == "2" and plain.node_id("1") == 1
    with pytest.raises(GraphTextError, match="not in the graph"):
        plain.node_id(3)


def test_edge_arrays_of_a_text_problem() -> None:
    src, dst, w = parse_graph_problem(WEIGHTED).edge_arrays()
    assert src.tolist() == [0, 1, 2] and dst.tolist() == [1, 2, 3] and np.allclose(w, [2, 0, 5])
