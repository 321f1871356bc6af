"""PageRank as a vertex program (power iteration, the networkx conventions)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from graphreason.tools.gar.vertex.engine import State
from graphreason.tools.gar.vertex.graph import VertexGraph, VertexProgramError
from graphreason.tools.gar.vertex.kernel import KernelAlgorithm


class PageRank(KernelAlgorithm):
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
    fields = {"rank": "float", "delta": "float"}
    mail = {"share": "sum"}
    answer_kind = "ranking"
    stop_on_no_change = False
    update_all = True  # a node without in-links still takes the teleport and dangling share
    all_active = True

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

    def initial(self, x: Any, node: Any, params: dict[str, Any], glob: Any) -> dict[str, Any]:
        return {"rank": x.lit(1.0 / glob["num_nodes"]), "delta": x.inf}

    def _out(self, node: Any, params: dict[str, Any]) -> Any:
        return node["weight_out"] if params["weighted"] else node["arcs_out"]

    def messages(self, x: Any, src: Any, weight: Any, params: dict[str, Any]) -> dict[str, Any]:
        out = self._out(src, params)
        carried = src["rank"] * weight if params["weighted"] else src["rank"]
        return {"share": x.where(out > 0, carried / out, 0.0)}

    def before_round(self, x: Any, node: Any, params: dict[str, Any]) -> dict[str, tuple[Any, str]]:
        # a global aggregator, as in Pregel: the rank of pages without out-links, spread evenly
        return {"dangling": (x.where(self._out(node, params) > 0, 0.0, node["rank"]), "sum")}

    def kernel_update(self, x: Any, me: Any, mail: Any, params: dict[str, Any], glob: Any) -> tuple[dict, Any]:
        n, d = glob["num_nodes"], params["damping"]
        rank = (1.0 - d) / n + d * (mail["share"] + (glob["dangling"] or 0.0) / n)
        return {"rank": rank, "delta": x.abs(rank - me["rank"])}, rank != me["rank"]

    def aggregates(self, x: Any, me: Any, changed: Any, params: dict[str, Any]) -> dict[str, tuple[Any, str]]:
        return {"change": (me["delta"], "sum")}

    def halt(self, round: int, totals: Any, params: dict[str, Any], glob: Any) -> bool:
        return totals["change"] < glob["num_nodes"] * params["tol"]

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
            "converged": bool(state["_totals"]["change"] < rank.size * params["tol"]),
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
