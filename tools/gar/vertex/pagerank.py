"""PageRank as a vertex program (power iteration, the networkx conventions)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from graphreason.tools.gar.vertex.engine import Inbox, Messages, State, VertexAlgorithm
from graphreason.tools.gar.vertex.graph import VertexGraph, VertexProgramError


class PageRank(VertexAlgorithm):
    name = "pagerank"
    description = (
        "PageRank: how important each node (web page) is from the link structure, with damping 0.85 and "
        "dangling pages spreading their rank evenly; answers 'which pages are most important', ranking "
        "the nodes by score."
    )
    params = {
        "damping": "probability of following a link (default 0.85)",
        "tol": "stop when the total rank change is below n * tol (default 1e-10)",
        "top_k": "how many top nodes to list (default 10)",
        "weighted": "split rank in proportion to edge weights (default False: every link counts the same)",
    }
    six_parts = {
        "State": "rank: the node's current PageRank; out_weight: its number (or total weight) of out-links.",
        "Message": "share = rank * (edge weight / out_weight), sent along each out-link.",
        "Initialization": "Every node sets rank = 1 / n. All nodes are active in every round.",
        "Send": "Each node with out-links sends its share to each out-neighbour. Nodes without out-links "
        "(dangling) add their rank to a global 'dangling' total instead.",
        "Update": "Step 1: sum the received shares. Step 2: rank = (1 - d) / n + d * (sum + dangling / n), "
        "with d the damping factor. Step 3: add |new rank - old rank| to the round's total change.",
        "Termination": "Stop when the total change of a round is below n * tol (or at the round cap); rank "
        "the nodes by final score, highest first.",
    }
    combine = "sum"
    answer_kind = "ranking"
    stop_on_no_change = False

    def prepare(self, graph: VertexGraph, params: dict[str, Any]) -> dict[str, Any]:
        params = super().prepare(graph, params)
        damping = _number(params, "damping", 0.85)
        if not 0.0 <= damping < 1.0:
            raise VertexProgramError(f"damping must be in [0, 1), got {damping}")
        tol = _number(params, "tol", 1e-10)
        if tol <= 0:
            raise VertexProgramError(f"tol must be positive, got {tol}")
        top_k = _whole(params, "top_k", 10)
        if top_k < 1:
            raise VertexProgramError(f"top_k must be at least 1, got {top_k}")
        weighted = _flag(params, "weighted", False)
        if weighted and graph.out.weights.size and graph.out.weights.min() < 0:
            raise VertexProgramError("weighted PageRank needs non-negative edge weights")
        return {"damping": damping, "tol": tol, "top_k": top_k, "weighted": weighted}

    def init_state(self, graph: VertexGraph, params: dict[str, Any]) -> State:
        n = graph.num_nodes
        w = graph.out.weights if params["weighted"] else np.ones(graph.num_arcs)
        out_weight = np.bincount(graph.out.src, weights=w, minlength=n)
        share = np.divide(
            w, out_weight[graph.out.src], out=np.zeros_like(w), where=out_weight[graph.out.src] > 0
        )
        return {
            "rank": np.full(n, 1.0 / n),
            "arc_share": share,  # fraction of the sender's rank each arc carries
            "dangling": out_weight == 0,
            "damping": params["damping"],
            "tol": params["tol"],
            "change": np.inf,
        }

    def send(self, graph: VertexGraph, state: State, active: np.ndarray) -> Messages:
        arcs = graph.out.edges_of(active)
        return Messages(arcs.dst, state["rank"][arcs.src] * state["arc_share"][arcs.arc])

    def update(self, graph: VertexGraph, state: State, inbox: Inbox) -> tuple[State, np.ndarray]:
        n, d, rank = graph.num_nodes, state["damping"], state["rank"]
        received = np.zeros(n)
        received[inbox.nodes] = inbox.values
        dangling = rank[state["dangling"]].sum()  # a global aggregator, as in Pregel
        new = (1.0 - d) / n + d * (received + dangling / n)
        state["change"] = float(np.abs(new - rank).sum())
        state["rank"] = new
        return state, np.flatnonzero(new != rank)

    def next_active(self, graph: VertexGraph, state: State, changed: np.ndarray) -> np.ndarray:
        return np.arange(graph.num_nodes, dtype=np.int64)

    def terminated(self, round: int, state: State, changed: np.ndarray) -> bool:
        return state["change"] < state["rank"].size * state["tol"]

    def max_rounds(self, graph: VertexGraph, params: dict[str, Any]) -> int:
        return 1000

    def result(self, graph: VertexGraph, state: State, params: dict[str, Any]) -> dict[str, Any]:
        rank = state["rank"]
        order = np.lexsort((np.arange(rank.size), -rank))
        top = order[: params["top_k"]].tolist()
        names = [graph.label(i) for i in top]
        return {
            "answer": top,
            "labels": names,
            "scores": rank,
            "top_scores": rank[top].tolist(),  # small enough to keep when the full vector is dropped
            "converged": bool(state["change"] < rank.size * state["tol"]),
            "text": f"The {len(top)} most important nodes by PageRank (damping {params['damping']}), "
            f"most important first: {', '.join(str(n) for n in names)}.",
        }


# ----------------------------------------------------------------- parameter reading
# Parameters may come from a model's reply: strings, NaN, 1e400 or lists must give a clear
# VertexProgramError, not a TypeError / OverflowError or a silent NaN (NaN passes every
# comparison-based range check).
def _number(params: dict[str, Any], key: str, default: float) -> float:
    """``params[key]`` as a finite float (``default`` when absent)."""
    value = params.get(key, default)
    try:
        number = float(value) if not isinstance(value, bool) else math.nan
    except (TypeError, ValueError, OverflowError):
        number = math.nan
    if not math.isfinite(number):
        raise VertexProgramError(f"{key} must be a finite number, got {value!r}")
    return number


def _whole(params: dict[str, Any], key: str, default: int) -> int:
    """``params[key]`` as an int (a whole float or numeric string counts; ``default`` when absent)."""
    value = params.get(key, default)
    if isinstance(value, int | np.integer) and not isinstance(value, bool):
        return int(value)
    number = _number(params, key, default)
    if not number.is_integer():
        raise VertexProgramError(f"{key} must be a whole number, got {value!r}")
    return int(number)


def _flag(params: dict[str, Any], key: str, default: bool) -> bool:
    """``params[key]`` as a bool: True/False, 1/0 or the words true/false/yes/no."""
    value = params.get(key, default)
    if isinstance(value, bool | np.bool_) or (isinstance(value, int | np.integer) and value in (0, 1)):
        return bool(value)
    words = {"true": True, "yes": True, "false": False, "no": False}
    if isinstance(value, str) and value.strip().lower() in words:
        return words[value.strip().lower()]
    raise VertexProgramError(f"{key} must be true or false, got {value!r}")
