"""Exact reference answers (networkx / scipy, independent of the engine) and
structural answer checkers for every task.

:func:`solve` gives the structured reference answer of a task;
:func:`check_answer` decides whether a predicted answer is right *by
structure*: any valid topological order, any path of optimal weight, any valid
Hamiltonian path, yes/no in any spelling, numbers within a tolerance.

Task names are the library's (``shortest_path`` ...) or GraphInstruct's
(``shortest``, ``topology``, ``triplet``, ``hamilton``, ``substructure`` ...).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

import numpy as np

from graphreason.tools.gar.vertex.graph import VertexProgramError
from graphreason.tools.gar.vertex.search import (
    BoundExceededError,
    SearchResult,
    as_networkx,
    hamiltonian_path,
    subgraph_match,
)

__all__ = [
    "BoundExceededError",
    "SearchResult",
    "TASK_ALIASES",
    "check_answer",
    "hamiltonian_path",
    "normalize_task",
    "parse_node_list",
    "parse_number",
    "parse_yes_no",
    "solve",
    "subgraph_match",
]

TASK_ALIASES = {
    "connectivity": "connectivity",
    "connect": "connectivity",
    "cycle": "cycle_detection",
    "cycle_detection": "cycle_detection",
    "bipartite": "bipartiteness",
    "bipartiteness": "bipartiteness",
    "topology": "topological_sort",
    "topological_sort": "topological_sort",
    "topological": "topological_sort",
    "shortest": "shortest_path",
    "shortest_path": "shortest_path",
    "triplet": "max_triangle_sum",
    "triangle": "max_triangle_sum",
    "max_triangle_sum": "max_triangle_sum",
    "flow": "max_flow",
    "max_flow": "max_flow",
    "maximum_flow": "max_flow",
    "hamilton": "hamiltonian_path",
    "hamiltonian": "hamiltonian_path",
    "hamiltonian_path": "hamiltonian_path",
    "substructure": "substructure",
    "subgraph": "substructure",
    "subgraph_matching": "substructure",
    "pagerank": "pagerank",
    "components": "connected_components",
    "connected_components": "connected_components",
    "bfs": "bfs_levels",
    "bfs_levels": "bfs_levels",
    "degree": "degree",
    "neighbourhood": "neighbourhood",
    "neighborhood": "neighbourhood",
    "neighbors": "neighbourhood",
}


def normalize_task(task: str) -> str:
    """Canonical task name for a library or GraphInstruct name."""
    key = task.strip().lower().replace("-", "_").replace(" ", "_")
    if key not in TASK_ALIASES:
        raise VertexProgramError(
            f"unknown task {task!r}; known: {', '.join(sorted(set(TASK_ALIASES.values())))}"
        )
    return TASK_ALIASES[key]


# --------------------------------------------------------------------------- answer parsing
_YES = {"yes", "y", "true", "t"}
_NO = {"no", "n", "false", "f"}
_NONE_WORDS = ("none", "no path", "unreachable", "infinity", "inf", "null", "no triangle", "not reachable")


def parse_yes_no(value: Any) -> bool | None:
    """True / False from a bool or text such as "### Yes", "no.", "TRUE"; None when unclear."""
    if isinstance(value, bool | np.bool_):
        return bool(value)
    if isinstance(value, dict):
        return parse_yes_no(value.get("answer"))
    if not isinstance(value, str):
        return None
    words = re.findall(r"[a-z]+", value.lower())
    return True if words and words[0] in _YES else False if words and words[0] in _NO else None


def parse_number(value: Any) -> float | None:
    """A number from a number or text ("### 10", "weight 7.5"); None for none/unreachable/unclear."""
    if isinstance(value, dict):
        value = value.get("answer", value.get("distance", value.get("value")))
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, int | float | np.integer | np.floating):
        return None if math.isinf(float(value)) or math.isnan(float(value)) else float(value)
    if isinstance(value, str):
        text = value.lower()
        match = re.search(r"-?\d+(?:\.\d+)?(?:e-?\d+)?", text)
        if match and not any(word in text[: match.start()] for word in _NONE_WORDS):
            return float(match.group())
    return None


def parse_node_list(value: Any) -> list[int] | None:
    """A list of node ids from a list or text ("[[3, 1, 0]]", "0->2->4", "0, 2, 4"); None if absent."""
    if isinstance(value, dict):
        value = value.get("path", value.get("answer"))
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, list | tuple | np.ndarray):
        flat = np.asarray(value).ravel().tolist()
        return [int(v) for v in flat] if all(float(v).is_integer() for v in flat) else None
    if isinstance(value, str):
        found = re.findall(r"-?\d+", value)
        return [int(v) for v in found] if found else None
    return None


def _close(a: float | None, b: float | None, tol: float) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) <= tol * max(1.0, abs(b))


# --------------------------------------------------------------------------- reference solvers
def _node(params: dict[str, Any], key: str, g: Any) -> Any:
    if params.get(key) is None:
        raise VertexProgramError(f"the task needs the parameter {key!r}")
    node = params[key]
    if node not in g:
        raise VertexProgramError(f"the {key} {node!r} is not a node of the graph")
    return node


def _ref_connectivity(g: Any, params: dict[str, Any]) -> bool:
    import networkx as nx

    return nx.has_path(g, _node(params, "source", g), _node(params, "target", g))


def _ref_cycle(g: Any, params: dict[str, Any]) -> bool:
    import networkx as nx

    try:
        nx.find_cycle(g)
    except nx.NetworkXNoCycle:
        return False
    return True


def _ref_bipartite(g: Any, params: dict[str, Any]) -> bool:
    import networkx as nx

    return nx.is_bipartite(g.to_undirected(as_view=True))


def _ref_topological(g: Any, params: dict[str, Any]) -> list[Any] | None:
    import networkx as nx

    if not g.is_directed():
        raise VertexProgramError("topological sort needs a directed graph")
    try:
        return list(nx.topological_sort(g))
    except nx.NetworkXUnfeasible:
        return None


def _check_weights(g: Any, what: str) -> None:
    for u, v, w in g.edges(data="weight", default=1):
        if w < 0:
            raise VertexProgramError(f"{what} needs non-negative weights; edge ({u}, {v}) has {w}")


def _ref_shortest(g: Any, params: dict[str, Any]) -> Any:
    import networkx as nx

    _check_weights(g, "shortest path")
    source = _node(params, "source", g)
    dist = nx.single_source_dijkstra_path_length(g, source, weight="weight")
    if params.get("target") is None:
        return dict(dist)
    target = _node(params, "target", g)
    return dist.get(target)


def _ref_triangle(g: Any, params: dict[str, Any]) -> float | None:
    weight = dict(g.nodes(data="weight", default=None))
    if any(w is None for w in weight.values()):
        raise VertexProgramError("the triangle task needs a weight on every node")
    u_g = g.to_undirected(as_view=True)
    best = None
    for u, v in u_g.edges():
        if u == v:
            continue
        for w in set(u_g[u]) & set(u_g[v]):
            if w not in (u, v):
                total = weight[u] + weight[v] + weight[w]
                best = total if best is None else max(best, total)
    return best


def _ref_flow(g: Any, params: dict[str, Any]) -> float:
    import networkx as nx

    _check_weights(g, "max flow")
    s, t = _node(params, "source", g), _node(params, "target", g)
    if s == t:
        raise VertexProgramError("max flow needs different source and target nodes")
    h = nx.DiGraph() if g.is_directed() else nx.Graph()
    h.add_nodes_from(g)
    h.add_edges_from((u, v, {"capacity": w}) for u, v, w in g.edges(data="weight", default=1) if u != v)
    return nx.maximum_flow_value(h, s, t)


def _ref_hamilton(g: Any, params: dict[str, Any]) -> bool:
    return hamiltonian_path(g, **params.get("budget", {})).answer


def _ref_substructure(g: Any, params: dict[str, Any]) -> bool:
    if params.get("pattern") is None:
        raise VertexProgramError("the substructure task needs the parameter 'pattern' (the smaller graph)")
    return subgraph_match(g, params["pattern"], induced=bool(params.get("induced", False))).answer


def _ref_pagerank(g: Any, params: dict[str, Any]) -> dict[Any, float]:
    import networkx as nx

    weight = "weight" if params.get("weighted") else None
    return nx.pagerank(g, alpha=params.get("damping", 0.85), tol=1e-13, max_iter=100_000, weight=weight)


def _ref_components(g: Any, params: dict[str, Any]) -> int:
    import networkx as nx

    return nx.number_weakly_connected_components(g) if g.is_directed() else nx.number_connected_components(g)


def _directed_view(g: Any, direction: str) -> Any:
    if not g.is_directed() or direction == "out":
        return g
    if direction == "in":
        return g.reverse(copy=False)
    return g.to_undirected(as_view=True)


def _ref_bfs(g: Any, params: dict[str, Any]) -> Any:
    import networkx as nx

    h = _directed_view(g, params.get("direction") or "out")
    levels = nx.single_source_shortest_path_length(
        h, _node(params, "source", g), cutoff=params.get("max_hops")
    )
    if params.get("target") is None:
        return dict(levels)
    return levels.get(_node(params, "target", g))


def _ref_degree(g: Any, params: dict[str, Any]) -> Any:
    if params.get("node") is None:
        return [g.degree(v) for v in g]
    return g.degree(_node(params, "node", g))  # in + out for a directed graph; a self-loop counts 2


def _ref_neighbourhood(g: Any, params: dict[str, Any]) -> list[Any]:
    import networkx as nx

    h = _directed_view(g, params.get("direction") or "out")
    node = _node(params, "node", g)
    near = nx.single_source_shortest_path_length(h, node, cutoff=params.get("hops", 1))
    return sorted(v for v, d in near.items() if d > 0)


_SOLVERS: dict[str, Callable[[Any, dict[str, Any]], Any]] = {
    "connectivity": _ref_connectivity,
    "cycle_detection": _ref_cycle,
    "bipartiteness": _ref_bipartite,
    "topological_sort": _ref_topological,
    "shortest_path": _ref_shortest,
    "max_triangle_sum": _ref_triangle,
    "max_flow": _ref_flow,
    "hamiltonian_path": _ref_hamilton,
    "substructure": _ref_substructure,
    "pagerank": _ref_pagerank,
    "connected_components": _ref_components,
    "bfs_levels": _ref_bfs,
    "degree": _ref_degree,
    "neighbourhood": _ref_neighbourhood,
}


def solve(task: str, graph: Any, params: dict[str, Any] | None = None) -> Any:
    """The exact reference answer of ``task`` on ``graph`` (a VertexGraph or networkx graph).

    Answers: bool for yes/no tasks, a number (None: no path / no triangle), a
    list for orders and neighbourhoods, a dict of scores for PageRank, a dict of
    distances for shortest path / BFS without a target. Hamiltonian path and
    substructure raise :class:`BoundExceededError` if their search budget
    (``params["budget"]``) runs out.
    """
    return _SOLVERS[normalize_task(task)](as_networkx(graph), dict(params or {}))


# --------------------------------------------------------------------------- checkers
def _valid_order(g: Any, order: list[int] | None) -> bool:
    if order is None or sorted(order) != sorted(g.nodes()):
        return False
    pos = {v: i for i, v in enumerate(order)}
    return all(pos[u] < pos[v] for u, v in g.edges())


def _path_weight(g: Any, path: list[int]) -> float | None:
    """Total weight of ``path`` if every step is an edge (lightest parallel copy), else None."""
    if any(v not in g for v in path):
        return None
    total = 0.0
    for u, v in zip(path, path[1:], strict=False):
        if not g.has_edge(u, v):
            return None
        total += g[u][v].get("weight", 1)
    return total


def _is_hamiltonian_path(g: Any, path: list[int] | None) -> bool:
    return (
        path is not None
        and len(path) == g.number_of_nodes()
        and set(path) == set(g.nodes())
        and _path_weight(g, path) is not None
    )


def _check_shortest(g: Any, params: dict[str, Any], predicted: Any, tol: float) -> bool:
    expected = _ref_shortest(g, params)
    if params.get("target") is None:
        if not isinstance(predicted, dict):
            return False
        got = {int(k): parse_number(v) for k, v in predicted.items() if parse_number(v) is not None}
        return set(got) == set(expected) and all(_close(got[k], float(expected[k]), tol) for k in expected)
    expected = None if expected is None else float(expected)
    path = parse_node_list(predicted) if isinstance(predicted, list | tuple | np.ndarray | dict) else None
    if path is not None:  # a path: it must be a real path from source to target of optimal weight
        if expected is None or path[0] != params["source"] or path[-1] != params["target"]:
            return False
        if not _close(_path_weight(g, path), expected, tol):
            return False
        if isinstance(predicted, dict) and "distance" in predicted:
            return _close(parse_number(predicted["distance"]), expected, tol)
        return True
    return _close(parse_number(predicted), expected, tol)


def _check_ranking(g: Any, params: dict[str, Any], predicted: Any, tol: float) -> bool:
    scores = _ref_pagerank(g, params)
    if isinstance(predicted, dict) and "answer" not in predicted:
        return set(predicted) == set(scores) and all(abs(predicted[k] - scores[k]) <= tol for k in scores)
    ranking = parse_node_list(predicted)
    if not ranking or len(set(ranking)) != len(ranking) or any(v not in scores for v in ranking):
        return False
    best = sorted(scores.values(), reverse=True)
    # position i must hold a node whose score equals the i-th best (ties may come in any order)
    return all(abs(scores[v] - best[i]) <= tol for i, v in enumerate(ranking))


def check_answer(
    task: str, graph: Any, params: dict[str, Any] | None, predicted: Any, tol: float = 1e-6
) -> bool:
    """Is ``predicted`` a correct answer to ``task`` on ``graph``? Checked by structure, not by string.

    * yes/no tasks: any spelling ("### Yes", True, "no."); a Hamiltonian-path
      prediction may also be the path itself (it must visit every node once);
    * topological sort: any valid order (None / "no" when the graph has a cycle);
    * shortest path: the optimal weight within ``tol`` (relative), or any valid
      source-to-target path of optimal weight; None for "no path";
    * numbers (triangle sum, flow, degree, component count) within ``tol``;
    * PageRank: a ranking consistent with the reference scores (ties in any order).

    Raises :class:`BoundExceededError` when an NP-complete reference search ran
    out of budget (the prediction cannot be judged).
    """
    name = normalize_task(task)
    params = dict(params or {})
    g = as_networkx(graph)
    if name == "topological_sort":
        order = parse_node_list(predicted)
        if _ref_topological(g, params) is None:
            return order is None or order == [] or parse_yes_no(predicted) is False
        return _valid_order(g, order)
    if name == "shortest_path":
        return _check_shortest(g, params, predicted, tol)
    if name == "pagerank":
        return _check_ranking(g, params, predicted, tol)
    if name == "hamiltonian_path":
        path = parse_node_list(predicted) if not isinstance(predicted, str) else None
        if path is None and isinstance(predicted, str) and "[" in predicted:
            path = parse_node_list(predicted[predicted.index("[") :])
        if path is not None and len(path) > 0:
            return _is_hamiltonian_path(g, path)
    if name in ("connectivity", "cycle_detection", "bipartiteness", "hamiltonian_path", "substructure"):
        said = parse_yes_no(predicted)
        return said is not None and said == solve(name, g, params)
    if name in ("max_triangle_sum", "max_flow", "connected_components"):
        expected = solve(name, g, params)
        got = parse_number(predicted)
        if name == "max_triangle_sum" and expected is None:
            return got is None or got == 0  # "no triangle", or GraphInstruct-style 0
        return _close(got, None if expected is None else float(expected), tol)
    if name in ("bfs_levels", "degree"):
        expected = solve(name, g, params)
        if isinstance(expected, dict):
            return isinstance(predicted, dict) and {int(k): int(v) for k, v in predicted.items()} == expected
        if isinstance(expected, list):
            return parse_node_list(predicted) == expected
        return _close(parse_number(predicted), None if expected is None else float(expected), tol)
    if name == "neighbourhood":
        got = parse_node_list(predicted)
        return got is not None and sorted(set(got)) == solve(name, g, params)
    raise VertexProgramError(
        f"no checker for task {task!r}"
    )  # pragma: no cover - every task is handled above
