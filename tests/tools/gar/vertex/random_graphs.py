"""Seeded random graphs for the vertex-program tests, built twice: as a VertexGraph
and, independently, as a networkx graph from the same raw edge list."""

from __future__ import annotations

import random
from dataclasses import dataclass

import networkx as nx

from graphreason.tools.gar.vertex import VertexGraph


@dataclass
class Case:
    n: int
    edges: list[tuple[int, int, float]]
    directed: bool
    node_weights: list[float]

    def vertex_graph(self, parallel: str = "min") -> VertexGraph:
        return VertexGraph.from_edges(
            self.n, self.edges, directed=self.directed, node_weights=self.node_weights, parallel=parallel
        )

    def nx_graph(self) -> nx.Graph:
        g = nx.DiGraph() if self.directed else nx.Graph()
        for v in range(self.n):
            g.add_node(v, weight=self.node_weights[v])
        g.add_weighted_edges_from(self.edges)
        return g


def random_case(
    rng: random.Random,
    *,
    directed: bool,
    n: int | None = None,
    density: float | None = None,
    self_loops: bool = False,
    dag: bool = False,
    max_weight: int = 20,
    zero_weights: bool = False,
) -> Case:
    """A simple graph (no parallel edges, so both builders agree without a merge rule)."""
    n = n if n is not None else rng.randint(1, 14)
    density = density if density is not None else rng.choice([0.05, 0.15, 0.3, 0.6])
    low = 0 if zero_weights else 1
    seen: set[tuple[int, int]] = set()
    edges = []
    for u in range(n):
        for v in range(n):
            if u == v and not self_loops:
                continue
            if dag and u >= v:
                continue
            if not directed and v < u:
                continue
            if rng.random() < density and (u, v) not in seen:
                seen.add((u, v))
                edges.append((u, v, float(rng.randint(low, max_weight))))
    if dag:  # hide the order behind a random relabelling
        perm = list(range(n))
        rng.shuffle(perm)
        edges = [(perm[u], perm[v], w) for u, v, w in edges]
    rng.shuffle(edges)
    node_weights = [float(rng.randint(1, 10)) for _ in range(n)]
    return Case(n, edges, directed, node_weights)
