"""Brute-force answers for graph questions the vertex library has no entry for.

When the master designs a new algorithm for one of these, its output on small
check graphs is compared with these sequential (networkx) answers - an
independent judge, unlike a brute force written by the same model. Keys are
the task names of :func:`graphreason.tools.gar.graph_text.detect_task`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import networkx as nx


def _triangle_count(g: nx.Graph, params: dict[str, Any]) -> int:
    if g.is_directed():  # a triangle of a directed graph: three nodes pairwise linked either way
        g = g.to_undirected()
    return sum(nx.triangles(g).values()) // 3


def _matching_size(g: nx.Graph, params: dict[str, Any]) -> int:
    return len(nx.max_weight_matching(g.to_undirected() if g.is_directed() else g, maxcardinality=True))


ORACLES: dict[str, Callable[[nx.Graph, dict[str, Any]], Any]] = {
    "node_count": lambda g, params: g.number_of_nodes(),
    "edge_count": lambda g, params: g.number_of_edges(),
    "edge_existence": lambda g, params: g.has_edge(params["source"], params["target"]),
    "triangle_count": _triangle_count,
    "matching": _matching_size,
}

# the node parameters each oracle reads
ORACLE_PARAMS: dict[str, tuple[str, ...]] = {"edge_existence": ("source", "target")}


def oracle_for(task: str | None) -> Callable[[nx.Graph, dict[str, Any]], Any] | None:
    """The brute-force answer function of ``task``, or None when there is none."""
    return ORACLES.get(task or "")
