"""Brute-force answers used to judge designed algorithms, against hand-counted graphs."""

from __future__ import annotations

import networkx as nx

from graphreason.tools.gar.sandbox.oracles import ORACLES, oracle_for

# a square 0-1-2-3 with the diagonal 0-2 (two triangles) and a pendant node 4 on 3
SQUARE = nx.Graph([(0, 1), (1, 2), (2, 3), (3, 0), (0, 2), (3, 4)])


def test_counts_match_hand_counts():
    assert ORACLES["node_count"](SQUARE, {}) == 5
    assert ORACLES["edge_count"](SQUARE, {}) == 6
    assert ORACLES["triangle_count"](SQUARE, {}) == 2
    assert ORACLES["matching"](SQUARE, {}) == 2  # five nodes: at most two disjoint edges


def test_edge_existence_reads_the_node_parameters():
    assert ORACLES["edge_existence"](SQUARE, {"source": 0, "target": 2}) is True
    assert ORACLES["edge_existence"](SQUARE, {"source": 1, "target": 3}) is False


def test_directed_triangles_ignore_direction_and_unknown_tasks_have_none():
    assert ORACLES["triangle_count"](nx.DiGraph([(0, 1), (1, 2), (0, 2)]), {}) == 1
    assert oracle_for("diameter") is None and oracle_for(None) is None
