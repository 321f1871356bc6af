"""Generated graph-reasoning questions for the nine GraphInstruct tasks.

Random graphs (seeded) from 5 up to a few hundred nodes, written in several
phrasings so the GAR text parser is exercised on more than one style:

* ``graphinstruct`` - GraphInstruct tuple lists ``(0, 1)`` / ``(0->1,7)``;
* ``nlgraph`` - NLGraph-like sentences ``an edge between node 0 and node 1 with weight 7``;
* ``adjacency`` - ``node 0 is connected to nodes 1, 3`` lists;
* ``arrows`` - ``0 -> 1 (7)`` arcs / ``0 <-> 1`` edges.

Golds come from :func:`graphreason.tools.gar.vertex.reference.solve` (networkx, independent of
the engine). Items are :class:`GraphTask` and can be saved as GraphInstruct
JSONL (one ``<task>_<split>.jsonl`` per task), so ``--path`` reads them back.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import networkx as nx

from graphreason.evals.gar.graphinstruct import GRAPHINSTRUCT_TASKS, GraphTask, save_graphinstruct
from graphreason.tools.gar.vertex.reference import solve as reference_solve

PHRASINGS = ("graphinstruct", "nlgraph", "adjacency", "arrows")
DEFAULT_SIZES = (5, 10, 20, 50, 100, 200)
SPLIT = "generated"
# Exact-search tasks (NP-complete) stay small enough for the reference search.
MAX_NODES = {"hamilton": 30, "substructure": 50}
# The substructure question needs GraphInstruct's "subgraph G'" wording.
ONLY_PHRASINGS = {"substructure": ("graphinstruct",)}

Edge = tuple[int, int, int | None]

_QUESTIONS = {
    "cycle": "Is there a cycle in this graph?",
    "connectivity": "Is there a path between node {s} and node {t}?",
    "bipartite": "Is this graph bipartite?",
    "topology": "Give one topology sorting path of this graph.",
    "shortest": "Give the weight of the shortest path from node {s} to node {t}.",
    "triangle": "What is the maximum sum of the weights of three interconnected nodes?",
    "flow": "What is the maximum flow from node {s} to node {t}?",
    "hamilton": "Is there a Hamiltonian path in this graph?",
    "substructure": "Is subgraph G' present within graph G as a direct substructure?",
}
_DIRECTED = {"topology", "flow", "substructure"}
_WEIGHTED = {"shortest", "flow"}


# ---------------------------------------------------------------------- random graphs
def _tree(n: int, rng: random.Random) -> list[tuple[int, int]]:
    """A random spanning tree (each node hangs on an earlier one), in shuffled labels."""
    order = list(range(n))
    rng.shuffle(order)
    return [(order[rng.randrange(i)], order[i]) for i in range(1, n)]


def _add_random(edges: set[tuple[int, int]], n: int, count: int, rng: random.Random, directed: bool) -> None:
    tries = 0
    while count > 0 and tries < 50 * (count + n):
        tries += 1
        u, v = rng.randrange(n), rng.randrange(n)
        if u == v or (u, v) in edges or (not directed and (v, u) in edges):
            continue
        edges.add((u, v))
        count -= 1


def _add_triangle(edges: set[tuple[int, int]], nodes: Sequence[int]) -> None:
    a, b, c = nodes
    for u, v in ((a, b), (b, c), (a, c)):
        if (v, u) not in edges:
            edges.add((u, v))


def _graph(task: str, n: int, rng: random.Random, yes: bool) -> tuple[list[Edge], dict[str, Any]]:
    """Edges ``(u, v, weight or None)`` and extras (params, node weights, pattern) of one question."""
    extra: dict[str, Any] = {}
    edges: set[tuple[int, int]] = set()
    if task == "cycle":
        edges.update(_tree(n, rng))
        if yes:
            _add_random(edges, n, max(1, n // 10), rng, False)
    elif task == "connectivity":
        cut = rng.randrange(2, n - 1)  # two islands; yes-questions ask within one of them
        nodes = list(range(n))
        rng.shuffle(nodes)
        left, right = nodes[:cut], nodes[cut:]
        for part in (left, right):
            edges.update((part[rng.randrange(i)], part[i]) for i in range(1, len(part)))
        s, t = rng.sample(left, 2) if yes else (rng.choice(left), rng.choice(right))
        extra["params"] = {"source": s, "target": t}
    elif task == "bipartite":
        side = [rng.random() < 0.5 for _ in range(n)]
        side[0], side[1] = True, False
        cross = [(u, v) for u in range(n) for v in range(u + 1, n) if side[u] != side[v]]
        edges.update(rng.sample(cross, min(len(cross), n)))
        if not yes:  # a triangle makes it non-bipartite
            _add_triangle(edges, rng.sample(range(n), 3))
    elif task == "topology":
        order = list(range(n))
        rng.shuffle(order)
        _add_random(edges, n, 2 * n, rng, True)
        rank = {v: i for i, v in enumerate(order)}
        edges = {(u, v) if rank[u] < rank[v] else (v, u) for u, v in edges}
    elif task in ("shortest", "flow"):
        edges.update(_tree(n, rng))
        _add_random(edges, n, n, rng, task == "flow")
        s, t = rng.sample(range(n), 2)
        if task == "flow":  # a planted s -> t path so the flow is positive
            path = [s, *rng.sample([v for v in range(n) if v not in (s, t)], min(3, n - 2)), t]
            edges.update(zip(path, path[1:], strict=False))
        extra["params"] = {"source": s, "target": t}
    elif task == "triangle":
        edges.update(_tree(n, rng))
        _add_random(edges, n, n // 2, rng, False)
        _add_triangle(edges, rng.sample(range(n), 3))
        extra["node_weights"] = [rng.randint(1, 10) for _ in range(n)]
    elif task == "hamilton":
        path = list(range(n))
        rng.shuffle(path)
        if yes:
            edges.update(zip(path, path[1:], strict=False))
            _add_random(edges, n, n // 3, rng, False)
        else:  # three leaves on one hub: a path has only two ends
            hub, *leaves = path[:4]
            rest = path[4:]
            edges.update((hub, leaf) for leaf in leaves)
            edges.update(zip([hub, *rest], rest, strict=False))
    elif task == "substructure":
        edges.update(_tree(n, rng))
        _add_random(edges, n, n, rng, True)
        size = rng.randint(3, 4)
        if yes:
            pattern = [(0, 1), (1, 2), (0, 2)] if size == 3 else [(0, 1), (1, 2), (2, 3), (0, 3)]
            where = rng.sample(range(n), size)
            edges.update((where[a], where[b]) for a, b in pattern)
        else:  # G made acyclic; a directed cycle as the pattern can never be found in it
            edges = {(min(u, v), max(u, v)) for u, v in edges}
            pattern = [(i, (i + 1) % size) for i in range(size)]
        extra["pattern"] = pattern
    else:
        raise ValueError(f"no generator for task {task!r}; tasks: {', '.join(GRAPHINSTRUCT_TASKS)}")
    weighted = [(u, v, rng.randint(1, 10) if task in _WEIGHTED else None) for u, v in sorted(edges)]
    return weighted, extra


def _networkx(task: str, n: int, edges: Sequence[Edge], extra: dict[str, Any]) -> Any:
    g = nx.DiGraph() if task in _DIRECTED else nx.Graph()
    g.add_nodes_from(range(n))
    for u, v, w in edges:
        g.add_edge(u, v, **({} if w is None else {"weight": w}))
    for node, weight in enumerate(extra.get("node_weights") or []):
        g.nodes[node]["weight"] = weight
    return g


# ---------------------------------------------------------------------- phrasings
def _edges_text(phrasing: str, task: str, edges: Sequence[Edge]) -> str:
    directed = task in _DIRECTED
    if phrasing == "graphinstruct":
        arrow = "->" if directed else ", "
        return " ".join(
            f"({u}{arrow}{v})"
            if w is None
            else f"({u}{arrow.strip()}{v},{w})"
            if directed
            else f"({u},{v},{w})"
            for u, v, w in edges
        )
    if phrasing == "nlgraph":
        how = "an edge from node {u} to node {v}" if directed else "an edge between node {u} and node {v}"
        return ", ".join(
            how.format(u=u, v=v) + ("" if w is None else f" with weight {w}") for u, v, w in edges
        )
    if phrasing == "arrows":
        arrow = " -> " if directed else " <-> "
        return ", ".join(f"{u}{arrow}{v}" + ("" if w is None else f" ({w})") for u, v, w in edges)
    if phrasing == "adjacency":
        out: dict[int, list[str]] = {}
        for u, v, w in edges:
            out.setdefault(u, []).append(f"node {v}" + ("" if w is None else f" (weight {w})"))
        verb = "has an edge to" if directed else "is connected to"
        return "; ".join(f"node {u} {verb} {', '.join(near)}" for u, near in sorted(out.items()))
    raise ValueError(f"unknown phrasing {phrasing!r}; phrasings: {', '.join(PHRASINGS)}")


def _question(phrasing: str, task: str, n: int, edges: Sequence[Edge], extra: dict[str, Any]) -> str:
    kind = "a directed" if task in _DIRECTED else "an undirected"
    params = extra.get("params") or {}
    asked = _QUESTIONS[task].format(s=params.get("source"), t=params.get("target"))
    weights = ""
    if extra.get("node_weights"):
        weights = "weights of nodes are: " + " ".join(
            f"[{i}, {w}]" for i, w in enumerate(extra["node_weights"])
        )
        if phrasing != "graphinstruct":
            weights = "node weights: " + ", ".join(
                f"node {i} has weight {w}" for i, w in enumerate(extra["node_weights"])
            )
    edge_text = _edges_text(phrasing, task, edges)
    if phrasing == "graphinstruct":
        body = f"In {kind} graph. Q: The nodes are numbered from 0 to {n - 1}, "
        body += (
            f"{weights}, and the edges are: {edge_text}." if weights else f"and the edges are: {edge_text}."
        )
        if task == "substructure":
            letters = "abcd"
            pattern = extra["pattern"]
            last = letters[max(max(e) for e in pattern)]
            body = body.replace("The nodes are", "The nodes of graph G are")
            body += f" The nodes of subgraph G' are numbered from a to {last}, and the edges are: "
            body += " ".join(f"({letters[a]}->{letters[b]})" for a, b in pattern) + "."
        return f"{body} {asked}"
    weights = f" ({weights})" if weights else ""
    return (
        f"In {kind} graph with nodes numbered from 0 to {n - 1}{weights}, the edges are: {edge_text}. {asked}"
    )


# ---------------------------------------------------------------------- question sets
def _gold_text(gold: Any) -> str:
    if isinstance(gold, bool):
        return "Yes" if gold else "No"
    return str(gold)


def generate_gar_tasks(
    tasks: Iterable[str] | None = None,
    sizes: Sequence[int] = DEFAULT_SIZES,
    phrasings: Sequence[str] = PHRASINGS,
    per_size: int = 1,
    seed: int = 0,
) -> list[GraphTask]:
    """Seeded questions: for every task, size and phrasing, ``per_size`` random graphs.

    Yes/no tasks alternate planted yes and no cases. Hamilton and substructure
    sizes are capped (:data:`MAX_NODES`); substructure only has the GraphInstruct
    phrasing. Raises :class:`ValueError` for unknown tasks/phrasings or sizes below 5.
    """
    chosen = list(tasks) if tasks is not None else list(GRAPHINSTRUCT_TASKS)
    unknown = [t for t in chosen if t not in GRAPHINSTRUCT_TASKS]
    if unknown:
        raise ValueError(f"unknown task(s) {unknown}; tasks: {', '.join(GRAPHINSTRUCT_TASKS)}")
    bad = [p for p in phrasings if p not in PHRASINGS]
    if bad:
        raise ValueError(f"unknown phrasing(s) {bad}; phrasings: {', '.join(PHRASINGS)}")
    if any(n < 5 for n in sizes):
        raise ValueError(f"sizes must be at least 5 nodes, got {list(sizes)}")
    items: list[GraphTask] = []
    for task in chosen:
        task_sizes = sorted({min(n, MAX_NODES.get(task, n)) for n in sizes})
        number = 0
        for n in task_sizes:
            for phrasing in phrasings:
                if phrasing not in ONLY_PHRASINGS.get(task, PHRASINGS):
                    continue
                for copy in range(per_size):
                    rng = random.Random(f"{seed}/{task}/{n}/{phrasing}/{copy}")
                    items.append(_one(task, n, phrasing, rng, yes=number % 2 == 0, index=number))
                    number += 1
    return items


def _one(task: str, n: int, phrasing: str, rng: random.Random, yes: bool, index: int) -> GraphTask:
    edges, extra = _graph(task, n, rng, yes)
    g = _networkx(task, n, edges, extra)
    params = dict(extra.get("params") or {})
    if task == "substructure":
        params["pattern"] = nx.DiGraph(extra["pattern"])
    gold = reference_solve(task, g, params)
    question = _question(phrasing, task, n, edges, extra)
    meta = {
        "index": index,
        "phrasing": phrasing,
        "node_range": [n, n],
        "edge_range": [len(edges), len(edges)],
    }
    return GraphTask(f"{task}/{index}", task, question, f"### {_gold_text(gold)}", gold, None, meta)


def save_gar_tasks(items: Iterable[GraphTask], folder: str | Path, split: str = SPLIT) -> list[Path]:
    """Write one GraphInstruct JSONL file per task (``<task>_<split>.jsonl``); returns the files."""
    by_task: dict[str, list[GraphTask]] = {}
    for item in items:
        by_task.setdefault(item.task, []).append(item)
    return [
        save_graphinstruct(group, Path(folder) / f"{task}_{split}.jsonl") for task, group in by_task.items()
    ]
