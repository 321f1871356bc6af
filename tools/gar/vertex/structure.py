"""Structural vertex programs: cycle detection, topological sort, bipartiteness
and the maximum triangle weight sum."""

from __future__ import annotations

from typing import Any

import numpy as np

from graphreason.tools.gar.vertex.engine import State
from graphreason.tools.gar.vertex.graph import VertexGraph, VertexProgramError
from graphreason.tools.gar.vertex.kernel import KernelAlgorithm
from graphreason.tools.gar.vertex.traversal import as_number


# --------------------------------------------------------------------------- peeling
class _Peeling(KernelAlgorithm):
    """Remove nodes round by round; what is never removed holds a cycle.

    Directed graphs peel nodes with no remaining in-arcs (Kahn); undirected ones
    peel nodes with at most one remaining edge (leaves).
    """

    fields = {"remaining": "int", "removed": "bool", "level": "int"}
    mail = {"signal": "count"}

    def initial(self, x: Any, node: Any, params: dict[str, Any], glob: Any) -> dict[str, Any]:
        if glob["directed"]:
            remaining = node["arcs_in"]  # a self-loop counts: such a node never peels
            peelable = remaining == 0
        else:
            remaining = node["arcs_out"] + x.where(node["self_loop"], 1, 0)  # a self-loop is worth two ends
            peelable = remaining <= 1
        return {"remaining": remaining, "removed": peelable, "level": x.where(peelable, 0, -1)}

    def first_active(self, x: Any, node: Any, params: dict[str, Any], glob: Any) -> Any:
        return self.initial(x, node, params, glob)["removed"]

    def messages(self, x: Any, src: Any, weight: Any, params: dict[str, Any]) -> dict[str, Any]:
        return {"signal": x.lit(1)}

    def send_if(self, x: Any, src: Any, dst: Any, mail: Any, params: dict[str, Any]) -> Any:
        return ~dst["removed"]  # removed neighbours need no news

    def kernel_update(self, x: Any, me: Any, mail: Any, params: dict[str, Any], glob: Any) -> tuple[dict, Any]:
        remaining = me["remaining"] - mail["signal"]
        peel = (remaining <= (0 if glob["directed"] else 1)) & ~me["removed"]
        level = x.where(peel, glob["round"], me["level"])
        return {"remaining": remaining, "removed": me["removed"] | peel, "level": level}, peel


class CycleDetection(_Peeling):
    name = "cycle_detection"
    description = (
        "Cycle detection: does the graph contain a cycle? Directed graphs repeatedly remove nodes with no "
        "incoming edges (Kahn); undirected graphs repeatedly remove leaves (nodes with at most one edge). "
        "Whatever cannot be removed lies on or behind a cycle."
    )
    six_parts = {
        "State": "remaining: in-degree (directed) or degree (undirected) counting only neighbours not yet "
        "removed; removed: whether the node has been peeled off.",
        "Message": "the signal 'I am removed', one per edge.",
        "Initialization": "Step 1: every node sets remaining to its in-degree (directed) or degree "
        "(undirected; a self-loop counts 2). Step 2: nodes with remaining = 0 (directed) or <= 1 "
        "(undirected) set removed = True and are active.",
        "Send": "A node removed in the last round sends the signal to each out-neighbour (directed) or "
        "neighbour (undirected) that is not removed.",
        "Update": "Step 1: subtract the number of signals from remaining. Step 2: if remaining is now 0 "
        "(directed) or <= 1 (undirected), set removed = True.",
        "Termination": "Stop when no node is removed in a round. The graph has a cycle exactly when some node "
        "was never removed.",
    }
    answer_kind = "yes/no"

    def result(self, graph: VertexGraph, state: State, params: dict[str, Any]) -> dict[str, Any]:
        left = np.flatnonzero(~state["removed"])
        has = bool(left.size)
        text = (
            f"Yes, there is a cycle (it lies among the {left.size} nodes that could not be removed)."
            if has
            else "No, the graph has no cycle."
        )
        return {"answer": has, "unremovable": left.tolist(), "text": text}


class TopologicalSort(_Peeling):
    name = "topological_sort"
    description = (
        "Topological sort of a directed acyclic graph (level-by-level Kahn): an order of all nodes in which "
        "every edge goes from an earlier node to a later one; reports a cycle when no such order exists."
    )
    six_parts = {
        "State": "remaining: number of in-neighbours not yet placed; level: the round in which the node was "
        "placed (-1 = not yet).",
        "Message": "the signal 'I am placed', one per out-edge.",
        "Initialization": "Every node sets remaining = in-degree; nodes with remaining = 0 set level = 0 and "
        "are active.",
        "Send": "A node placed in the last round sends the signal to each out-neighbour.",
        "Update": "Subtract the signals from remaining; a node reaching 0 sets level = the current round.",
        "Termination": "Stop when no node is placed in a round. Listing nodes by level (ties by id) gives a "
        "topological order; unplaced nodes mean the graph has a cycle.",
    }
    answer_kind = "order"
    needs_directed = True

    def result(self, graph: VertexGraph, state: State, params: dict[str, Any]) -> dict[str, Any]:
        level = state["level"]
        if np.any(level < 0):
            left = np.flatnonzero(level < 0).tolist()
            return {
                "answer": None,
                "has_cycle": True,
                "unplaced": left,
                "text": f"No topological order exists: nodes {left[:20]} lie on or behind a cycle.",
            }
        order = np.lexsort((np.arange(level.size), level)).tolist()
        return {
            "answer": order,
            "has_cycle": False,
            "levels": level,
            "text": f"A topological order: {order}.",
        }


# --------------------------------------------------------------------------- bipartite
class Bipartiteness(KernelAlgorithm):
    name = "bipartiteness"
    description = (
        "Bipartite check by two-colouring: can the nodes be split into two groups so that every edge joins "
        "the two groups (no odd cycle)? Edge direction is ignored. Gives a valid colouring when yes."
    )
    six_parts = {
        "State": "root: the smallest node id known in this node's component; colour: 0 or 1 relative to that "
        "root; conflict: whether two neighbours demanded different colours.",
        "Message": "a claim (root, colour the receiver should have = 1 - sender's colour).",
        "Initialization": "Every node sets root = its own id, colour = 0, conflict = False; all are active.",
        "Send": "A node whose root or colour changed in the last round sends its claim to each neighbour "
        "(edge direction ignored) whose root is not smaller than its own.",
        "Update": "Step 1: among received claims keep those with the smallest root. Step 2: if they ask for "
        "different colours, set conflict. Step 3: if that root is smaller than the node's own, adopt it and "
        "the requested colour. Step 4: if it equals the node's own root but asks for the other colour, set "
        "conflict.",
        "Termination": "Stop at the first conflict (not bipartite) or when nothing changed (bipartite; the "
        "colours split the nodes).",
    }
    fields = {"root": "int", "colour": "int", "conflict": "bool"}
    # A claim is (root, colour): claim = 2 * root + colour the receiver should take, flip = the same root
    # with the other colour. Among the claims with the smallest root, the smallest claim and the smallest
    # flip are equal exactly when both colours are demanded.
    mail = {"root": "min", "claim": "min", "flip": "min"}
    answer_kind = "yes/no"

    def direction(self, params: dict[str, Any]) -> str:
        return "any"

    def initial(self, x: Any, node: Any, params: dict[str, Any], glob: Any) -> dict[str, Any]:
        return {"root": node["id"], "colour": x.lit(0), "conflict": x.lit(False)}

    def messages(self, x: Any, src: Any, weight: Any, params: dict[str, Any]) -> dict[str, Any]:
        double = src["root"] * 2
        return {"root": src["root"], "claim": double + (1 - src["colour"]), "flip": double + src["colour"]}

    def send_if(self, x: Any, src: Any, dst: Any, mail: Any, params: dict[str, Any]) -> Any:
        return src["root"] <= dst["root"]

    def kernel_update(self, x: Any, me: Any, mail: Any, params: dict[str, Any], glob: Any) -> tuple[dict, Any]:
        claim_root = mail["root"]
        claim_colour = mail["claim"] - claim_root * 2
        disagree = (mail["claim"] == mail["flip"]) & (claim_root <= me["root"])
        clash = (claim_root == me["root"]) & (claim_colour != me["colour"])
        adopt = claim_root < me["root"]
        return {
            "root": x.where(adopt, claim_root, me["root"]),
            "colour": x.where(adopt, claim_colour, me["colour"]),
            "conflict": me["conflict"] | disagree | clash,
        }, adopt

    def aggregates(self, x: Any, me: Any, changed: Any, params: dict[str, Any]) -> dict[str, tuple[Any, str]]:
        return {"conflict": (x.where(me["conflict"], 1, 0), "max")}

    def halt(self, round: int, totals: Any, params: dict[str, Any], glob: Any) -> bool:
        return bool(totals.get("conflict"))

    def result(self, graph: VertexGraph, state: State, params: dict[str, Any]) -> dict[str, Any]:
        if np.any(state["conflict"]):
            return {
                "answer": False,
                "colouring": None,
                "text": "No, the graph is not bipartite (some odd cycle forces two neighbours to share a colour).",
            }
        colour = state["colour"]
        side = np.flatnonzero(colour == 0).tolist()
        return {
            "answer": True,
            "colouring": colour,
            "text": f"Yes, the graph is bipartite; one side is {side[:30]}"
            + (" ..." if len(side) > 30 else ""),
        }


# --------------------------------------------------------------------------- triangles
class MaxTriangleSum(KernelAlgorithm):
    name = "max_triangle_sum"
    description = (
        "Maximum triangle weight sum: among all triples of mutually connected nodes (triangles), the largest "
        "sum of the three node weights; found by intersecting neighbour sets. Edge direction is ignored."
    )
    six_parts = {
        "State": "weight: the node's own weight; best: the heaviest triangle this node has confirmed.",
        "Message": "a candidate pair: 'my neighbour w is also your neighbour?', sent from u to v, with u's id.",
        "Initialization": "Every node sets best = none. Nodes are ranked by (degree, id); each node keeps the "
        "neighbours ranked above it (its forward list).",
        "Send": "Each node u sends, for every two nodes v < w (by rank) in its forward list, the candidate w "
        "to v.",
        "Update": "Step 1: node v checks each candidate w against its own neighbour list. Step 2: a hit means "
        "u, v, w form a triangle; its sum is weight(u) + weight(v) + weight(w). Step 3: best = the largest sum.",
        "Termination": "After one round. The answer is the largest best over all nodes (none: no triangle).",
    }
    answer_kind = "number"
    # one wedge round: u sends each closed wedge (v, w) of its forward list to v, with the triangle's sum
    wedges = True
    fields = {"best": "float", "best_from": "int"}
    mail = {"total": "max"}
    with_sender = True

    def prepare(self, graph: VertexGraph, params: dict[str, Any]) -> dict[str, Any]:
        if graph.node_weights is None:
            raise VertexProgramError("max_triangle_sum needs node weights; build the graph with node_weights=[...]")
        return super().prepare(graph, params)

    def initial(self, x: Any, node: Any, params: dict[str, Any], glob: Any) -> dict[str, Any]:
        return {"best": -x.inf, "best_from": x.no_node}

    def wedge_messages(self, x: Any, u: Any, v: Any, w: Any, params: dict[str, Any]) -> dict[str, Any]:
        return {"total": u["node_weight"] + v["node_weight"] + w["node_weight"]}

    def kernel_update(self, x: Any, me: Any, mail: Any, params: dict[str, Any], glob: Any) -> tuple[dict, Any]:
        # Update: the heaviest triangle this node closes (and the node that found it)
        return {"best": mail["total"], "best_from": mail["sender"]}, x.lit(True)

    def halt(self, round: int, totals: Any, params: dict[str, Any], glob: Any) -> bool:
        return True  # Termination: after one round

    def max_rounds(self, graph: VertexGraph, params: dict[str, Any]) -> int:
        return 1

    def result(self, graph: VertexGraph, state: State, params: dict[str, Any]) -> dict[str, Any]:
        best = state["best"]
        if not np.isfinite(best).any():
            return {
                "answer": None,
                "triangle": None,
                "text": "The graph has no triangle (no three mutually connected nodes).",
            }
        v = int(np.argmax(best))
        u, total = int(state["best_from"][v]), best[v]
        weights = graph.node_weights
        # the third node: a common neighbour that gives the same sum, summed in the same order as Send did
        w = next(int(c) for c in graph.common_neighbours(u, v) if weights[u] + weights[v] + weights[c] == total)
        tri = sorted([u, v, w])
        value = as_number(total)
        return {
            "answer": value,
            "triangle": tri,
            "text": f"The heaviest triangle is {tri} with total node weight {value}.",
        }
