"""Structured graphs: dicts, node-link JSON, networkx, arrays, sparse matrices, edge files."""

from __future__ import annotations

import json
from pathlib import Path

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp

from graphreason.tools.gar.graph_text import EdgeArray, GraphTextError, load_structured_graph


def test_dict_with_named_nodes_and_weights() -> None:
    p = load_structured_graph(
        {"nodes": ["a", "b", "c"], "edges": [["a", "b", 1], ["b", "c", 2.5]], "directed": True}
    )
    assert p.directed and p.weighted and p.n_nodes == 3
    assert list(p.edges) == [(0, 1, 1.0), (1, 2, 2.5)] and p.node_names == {0: "a", 1: "b", 2: "c"}
    assert isinstance(p.edges, EdgeArray) and p.edges == [(0, 1, 1.0), (1, 2, 2.5)]


def test_dict_with_integer_ids_keeps_them_and_says_direction_is_assumed() -> None:
    p = load_structured_graph({"edges": [{"source": 0, "target": 3}, {"source": 3, "target": 1}]})
    assert p.n_nodes == 4 and list(p.edges) == [(0, 3, None), (3, 1, None)] and p.node_names is None
    assert not p.directed and any("does not say whether the graph is directed" in w for w in p.warnings)


def test_dict_errors() -> None:
    with pytest.raises(GraphTextError, match="needs an 'edges'"):
        load_structured_graph({"nodes": [0, 1]})
    with pytest.raises(GraphTextError, match="not in the node list: z"):
        load_structured_graph({"nodes": ["a", "b"], "edges": [["a", "z"]]})
    with pytest.raises(GraphTextError, match="cannot read the edge"):
        load_structured_graph({"edges": [[0, 1, 2, 3]]})
    with pytest.raises(GraphTextError, match=r"edge \(0, 1\) is given 2 times with different weights"):
        load_structured_graph({"edges": [[0, 1, 2], [1, 0, 3]], "directed": False})


def test_node_link_json_file(tmp_path: Path) -> None:
    g = nx.DiGraph()
    g.add_node("x", weight=2.0)
    g.add_edge("x", "y", weight=3)
    g.add_edge("y", "z", weight=1)
    path = tmp_path / "g.json"
    path.write_text(json.dumps(nx.node_link_data(g, edges="links")))
    p = load_structured_graph(path)
    assert p.directed and list(p.edges) == [(0, 1, 3.0), (1, 2, 1.0)]
    assert p.node_names == {0: "x", 1: "y", 2: "z"} and p.node_weights == {0: 2.0}


def test_networkx_graph() -> None:
    p = load_structured_graph(nx.cycle_graph(4))
    assert not p.directed and p.n_nodes == 4 and not p.weighted
    assert {tuple(sorted(e[:2])) for e in p.edges} == {(0, 1), (1, 2), (2, 3), (0, 3)}
    d = load_structured_graph(nx.DiGraph([(0, 1)]), directed=False)
    assert not d.directed


def test_numpy_array_and_sparse_matrix() -> None:
    p = load_structured_graph(np.array([[0, 1, 2.0], [1, 2, 3.0]]), directed=True)
    assert p.directed and list(p.edges) == [(0, 1, 2.0), (1, 2, 3.0)]
    sym = sp.csr_matrix(np.array([[0, 2, 0], [2, 0, 1], [0, 1, 0]]))
    q = load_structured_graph(sym)
    assert not q.directed and list(q.edges) == [(0, 1, 2.0), (1, 2, 1.0)]
    assert (q.to_csr() != sym).nnz == 0
    with pytest.raises(GraphTextError, match="shape"):
        load_structured_graph(np.zeros((3, 4)))
    with pytest.raises(GraphTextError, match="square"):
        load_structured_graph(sp.csr_matrix(np.zeros((2, 3))))


def test_edge_list_text_file(tmp_path: Path) -> None:
    path = tmp_path / "g.txt"
    path.write_text("# a comment\n0 1 2.5\n\n1 2 1\n")
    p = load_structured_graph(path, directed=True)
    assert p.directed and list(p.edges) == [(0, 1, 2.5), (1, 2, 1.0)] and p.n_nodes == 3


def test_nlgraph_raw_file_header_and_query_line(tmp_path: Path) -> None:
    path = tmp_path / "graph1.txt"
    path.write_text("5 3\n0 1 2\n1 2 3\n2 3 1\n0 3\n")
    p = load_structured_graph(path)
    assert p.n_nodes == 5 and p.stated_n_nodes == 5 and len(p.edges) == 3
    assert p.params["query"] == [0, 3] and any("'n m' header" in w for w in p.warnings)


def test_csv_with_column_names(tmp_path: Path) -> None:
    path = tmp_path / "g.csv"
    path.write_text("source,target,weight\n0,1,4\n1,2,5\n")
    p = load_structured_graph(path, directed=False)
    assert list(p.edges) == [(0, 1, 4.0), (1, 2, 5.0)]


def test_file_errors(tmp_path: Path) -> None:
    with pytest.raises(GraphTextError, match="not found"):
        load_structured_graph(tmp_path / "missing.txt")
    bad = tmp_path / "g.xyz"
    bad.write_text("0 1")
    with pytest.raises(GraphTextError, match="unknown graph file type"):
        load_structured_graph(bad)
    ragged = tmp_path / "r.txt"
    ragged.write_text("0 1\n1 2 3 4 5\n")
    with pytest.raises(GraphTextError, match="'u v' or 'u v w'"):
        load_structured_graph(ragged)
    empty = tmp_path / "e.txt"
    empty.write_text("# nothing\n")
    with pytest.raises(GraphTextError, match="no edge lines"):
        load_structured_graph(empty)


def test_unsupported_object() -> None:
    with pytest.raises(GraphTextError, match="cannot read a graph from int"):
        load_structured_graph(42)


def test_large_array_stays_in_arrays() -> None:
    n = 20_000
    src = np.arange(n)
    edges = np.c_[src, (src + 1) % n, np.ones(n)]
    p = load_structured_graph(edges, directed=True)
    assert isinstance(p.edges, EdgeArray) and len(p.edges) == n and p.edges[5] == (5, 6, 1.0)
    assert p.to_csr().nnz == n


def test_dict_with_array_edges_keeps_params_names_and_node_weights() -> None:
    data = {
        "edges": np.array([[0, 1, 5], [1, 2, 7]]),
        "directed": True,
        "nodes": [{"id": 0, "title": "Paris"}, {"id": 1, "weight": 2.5}, 2, 3],
        "params": {"source": 0, "target": 2},
    }
    problem = load_structured_graph(data)
    assert problem.n_nodes == 4 and problem.weighted and problem.directed
    assert problem.params == {"source": 0, "target": 2}
    assert problem.node_names == {0: "Paris"} and problem.node_weights == {1: 2.5}
    with pytest.raises(GraphTextError, match="node ids must be integers"):
        load_structured_graph({**data, "nodes": ["a", "b"]})


def test_big_json_edge_lists_take_the_array_path_with_the_same_result() -> None:
    rng = np.random.default_rng(0)
    pairs = {(int(u), int(v)) for u, v in rng.integers(0, 3000, size=(12_000, 2)) if u != v}
    edges = [[u, v, (u + v) % 7 + 1] for u, v in sorted(pairs)]
    fast = load_structured_graph({"edges": edges, "directed": True, "params": {"source": 3}})
    assert isinstance(fast.edges, EdgeArray) and fast.params == {"source": 3}
    slow = load_structured_graph({"edges": edges, "directed": True, "nodes": list(range(fast.n_nodes))})
    assert fast.n_nodes == slow.n_nodes and list(fast.edges) == list(slow.edges)
    labelled = [[f"n{u}", f"n{v}"] for u, v, _ in edges]  # labels: the general path still reads them
    assert load_structured_graph({"edges": labelled}).node_names is not None


def test_edge_checks_without_repeats_still_warn_about_loops_and_negative_weights() -> None:
    problem = load_structured_graph({"edges": [[0, 0, 1], [0, 1, -2]], "directed": True})
    assert any("self-loops on nodes 0" in w for w in problem.warnings)
    assert any("negative edge weights" in w for w in problem.warnings)
