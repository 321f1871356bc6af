"""The graphs one GAR run computes on, built once per run and algorithm, and shared by its steps.

The master workflow parses the problem once and keeps it under the run's
``graph_key`` (:mod:`graphreason.workflows.gar.construct`). The engine's CSR graph of it is
built here, once per (run, algorithm), for compiled mode, the design checks and
the node-agent subgraph alike: the subgraph's state names the run's key
instead of carrying the graph as JSON. Standalone agent runs (tests, a graph
given directly) pass a small JSON ``graph_spec`` instead.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

import numpy as np

from graphreason.tools.gar.graph_text import ParsedProblem
from graphreason.tools.gar.vertex import VertexGraph, VertexProgramError
from graphreason.workflows.gar.construct import problem_of

_CACHE_SIZE = 8
_lock = threading.Lock()
_engine_graphs: OrderedDict[tuple[str, str], VertexGraph] = OrderedDict()


def vertex_graph(problem: ParsedProblem, algorithm: str) -> VertexGraph:
    """The engine's CSR graph of a parsed problem (capacities of parallel arcs add up for max flow)."""
    if not isinstance(problem, ParsedProblem):  # an edge dataset on Spark: its arcs never come to this process
        raise VertexProgramError(
            f"{algorithm} needs the graph in one process, and this run's graph is an edge dataset on Spark: "
            "give the graph as a graph file (--graph-file) for it"
        )
    src, dst, weight = problem.edge_arrays()
    columns = [src, dst] if weight is None else [src, dst, weight]
    edges = np.column_stack(columns) if src.size else np.empty((0, len(columns)))
    node_weights = None
    if problem.node_weights:
        node_weights = np.zeros(problem.n_nodes)
        for node, w in problem.node_weights.items():
            node_weights[node] = w
    labels = [problem.label(i) for i in range(problem.n_nodes)] if problem.node_names else None
    return VertexGraph.from_edges(
        problem.n_nodes,
        edges,
        directed=problem.directed,
        node_weights=node_weights,
        parallel="sum" if algorithm == "max_flow" else "min",
        labels=labels,
    )


def engine_graph(state: dict[str, Any]) -> VertexGraph:
    """The engine graph a subgraph state refers to: the run's parsed problem (``graph_key``) or a ``graph_spec``.

    A state with ``graph_key`` also carries the run's ``question`` (and structured
    ``graph``), so a problem that left the run cache is parsed again, as in the
    master workflow.
    """
    if state.get("graph_key"):
        key = (state["graph_key"], state["algorithm"])
        with _lock:
            graph = _engine_graphs.get(key)
            if graph is not None:
                _engine_graphs.move_to_end(key)
                return graph
        graph = vertex_graph(problem_of(state), state["algorithm"])  # type: ignore[arg-type]
        with _lock:
            _engine_graphs[key] = graph
            while len(_engine_graphs) > _CACHE_SIZE:
                _engine_graphs.popitem(last=False)
        return graph
    return graph_from_spec(state["graph_spec"])


def forget_engine_graphs(graph_key: str) -> None:
    """Drop a finished run's engine graphs."""
    with _lock:
        for key in [k for k in _engine_graphs if k[0] == graph_key]:
            del _engine_graphs[key]


def graph_spec(graph: VertexGraph) -> dict[str, Any]:
    """A JSON-ready description of a small ``graph``, for standalone agent runs."""
    return {
        "num_nodes": graph.num_nodes,
        "edges": [list(e) for e in graph.edge_list()],
        "directed": graph.directed,
        "weighted": graph.weighted,
        "node_weights": None if graph.node_weights is None else graph.node_weights.tolist(),
        "labels": graph.labels,
    }


def graph_from_spec(spec: dict[str, Any]) -> VertexGraph:
    """The engine graph of a :func:`graph_spec` description."""
    edges = spec["edges"]
    graph = VertexGraph.from_edges(
        spec["num_nodes"],
        edges if edges else np.empty((0, 3)),
        directed=spec["directed"],
        node_weights=spec.get("node_weights"),
        labels=spec.get("labels"),
    )
    graph.weighted = bool(spec.get("weighted"))
    return graph
