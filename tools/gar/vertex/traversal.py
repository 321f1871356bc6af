"""Wave-like vertex programs: BFS levels, connectivity, neighbourhoods, degrees,
connected components and weighted single-source shortest paths.

Every one of them sends only from the frontier (nodes whose state just
changed), so a round costs time proportional to the arcs of that frontier.
Each is a :class:`KernelAlgorithm`: Send and Update are column expressions that
the compiled engine and the Spark executor both run.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from graphreason.tools.gar.vertex.engine import State, VertexAlgorithm
from graphreason.tools.gar.vertex.graph import VertexGraph, VertexProgramError
from graphreason.tools.gar.vertex.kernel import NO_NODE, KernelAlgorithm


class NegativeWeightError(VertexProgramError):
    """An algorithm that needs non-negative edge weights met a negative one."""


def as_number(x: float) -> int | float:
    """Whole floats as ints (answers read ``10``, not ``10.0``)."""
    x = float(x)
    return int(x) if x.is_integer() else x


def number_map(nodes: np.ndarray, values: np.ndarray) -> dict[int, int | float]:
    """``{node: value}`` with whole values as ints, built from arrays (no per-node Python calls)."""
    keys = nodes.tolist()
    whole = values == np.floor(values)
    if whole.all():
        return dict(zip(keys, values.astype(np.int64).tolist(), strict=True))
    mixed = [int(v) if w else v for v, w in zip(values.tolist(), whole.tolist(), strict=True)]
    return dict(zip(keys, mixed, strict=True))


def walk_parents(parent: np.ndarray, source: int, target: int) -> list[int] | None:
    """Follow parent pointers from ``target`` back to ``source``; ``None`` if they do not lead there."""
    path = [target]
    for _ in range(parent.size):
        if path[-1] == source:
            return path[::-1]
        nxt = int(parent[path[-1]])
        if nxt < 0:
            return None
        path.append(nxt)
    return None  # a pointer cycle would be a bug; never loop forever


def required_node(graph: VertexGraph, params: dict[str, Any], key: str, algorithm: str) -> int:
    if params.get(key) is None:
        raise VertexProgramError(
            f"{algorithm} needs the parameter {key!r} (a node id 0..{graph.num_nodes - 1})"
        )
    return graph.check_node(params[key], key)


def optional_node(graph: VertexGraph, params: dict[str, Any], key: str) -> int | None:
    return None if params.get(key) is None else graph.check_node(params[key], key)


def check_direction(params: dict[str, Any], default: str) -> str:
    direction = params.get("direction") or default
    if direction not in ("out", "in", "any"):
        raise VertexProgramError(f"direction must be out, in or any; got {direction!r}")
    return direction


# --------------------------------------------------------------------------- BFS
class BFSLevels(KernelAlgorithm):
    name = "bfs_levels"
    description = (
        "Breadth-first search from a source node: the number of hops (unweighted distance) from the "
        "source to every node, the hop distance to one target node and a shortest path by hops, "
        "and which nodes can be reached at all."
    )
    params = {
        "source": "start node (required)",
        "target": "optional node whose hop distance and path are wanted (stops early when reached)",
        "direction": "arcs to follow in a directed graph: out (default), in or any",
        "max_hops": "optional: stop after this many hops",
    }
    six_parts = {
        "State": "level: hops from the source (-1 = not reached yet); parent: the neighbour it was reached from.",
        "Message": "new_level = sender's level + 1, sent with the sender's id.",
        "Initialization": "Step 1: every node sets level = -1 and parent = -1. "
        "Step 2: the source sets level = 0; only the source is active.",
        "Send": "Step 1: a node whose level changed in the last round is active. Step 2: it sends "
        "new_level = level + 1 to each neighbour that is not reached yet.",
        "Update": "Step 1: a node not yet reached that receives messages takes the smallest new_level "
        "as its level and that message's sender as parent. Step 2: an already reached node ignores messages.",
        "Termination": "Stop when no level changed, when the target is reached, or after max_hops rounds.",
    }
    fields = {"level": "int", "parent": "int"}
    mail = {"level": "min"}
    with_sender = True
    answer_kind = "mapping"
    default_direction = "out"

    def prepare(self, graph: VertexGraph, params: dict[str, Any]) -> dict[str, Any]:
        return self._complete(graph, super().prepare(graph, params))

    def _complete(self, graph: VertexGraph, params: dict[str, Any]) -> dict[str, Any]:
        params["source"] = required_node(graph, params, "source", self.name)
        params["target"] = optional_node(graph, params, "target")
        params["direction"] = check_direction(params, self.default_direction)
        hops = params.get("max_hops")
        if hops is not None and (not isinstance(hops, int | np.integer) or hops < 0):
            raise VertexProgramError(f"max_hops must be a non-negative integer, got {hops!r}")
        params["max_hops"] = hops
        return params

    def direction(self, params: dict[str, Any]) -> str:
        return params["direction"]

    def initial(self, x: Any, node: Any, params: dict[str, Any], glob: Any) -> dict[str, Any]:
        return {"level": x.where(node["id"] == params["source"], 0, -1), "parent": x.lit(NO_NODE)}

    def first_active(self, x: Any, node: Any, params: dict[str, Any], glob: Any) -> Any:
        return node["id"] == params["source"]

    def messages(self, x: Any, src: Any, weight: Any, params: dict[str, Any]) -> dict[str, Any]:
        return {"level": src["level"] + 1}

    def send_if(self, x: Any, src: Any, dst: Any, mail: Any, params: dict[str, Any]) -> Any:
        return dst["level"] < 0  # triplet read: skip neighbours that already have a level

    def kernel_update(self, x: Any, me: Any, mail: Any, params: dict[str, Any], glob: Any) -> tuple[dict, Any]:
        fresh = me["level"] < 0
        level = x.where(fresh, mail["level"], me["level"])
        return {"level": level, "parent": x.where(fresh, mail["sender"], me["parent"])}, fresh

    def aggregates(self, x: Any, me: Any, changed: Any, params: dict[str, Any]) -> dict[str, tuple[Any, str]]:
        target = params["target"]
        if target is None:
            return {}
        return {"target_reached": (x.where((me["id"] == target) & (me["level"] >= 0), 1, 0), "max")}

    def halt(self, round: int, totals: Any, params: dict[str, Any], glob: Any) -> bool:
        hops = params["max_hops"]
        return bool(totals.get("target_reached")) or (hops is not None and round >= hops)

    def max_rounds(self, graph: VertexGraph, params: dict[str, Any]) -> int:
        return graph.num_nodes + 1 if params["max_hops"] is None else params["max_hops"]

    def result(self, graph: VertexGraph, state: State, params: dict[str, Any]) -> dict[str, Any]:
        level, source, target = state["level"], params["source"], params["target"]
        out: dict[str, Any] = {"distances": level, "reached": int(np.count_nonzero(level >= 0))}
        if target is None:
            reached = np.flatnonzero(level >= 0)
            out["answer"] = dict(zip(reached.tolist(), level[reached].tolist(), strict=True))
            out["text"] = f"{out['reached']} nodes are reachable from node {source}."
            return out
        if level[target] < 0:
            out.update(answer=None, path=None, text=f"Node {target} cannot be reached from node {source}.")
        else:
            path = walk_parents(state["parent"], source, target)
            out.update(
                answer=int(level[target]),
                path=path,
                text=f"Node {target} is {level[target]} hops from node {source} (path {path}).",
            )
        return out


class Connectivity(BFSLevels):
    name = "connectivity"
    description = (
        "Connectivity / reachability: is there a path between node s and node t (from s to t in a "
        "directed graph)? Answers yes or no and gives one connecting path."
    )
    params = {
        "source": "start node s (required)",
        "target": "node t to reach (required)",
        "direction": "arcs to follow in a directed graph: out (default: paths from s to t), in or any",
    }
    six_parts = {
        "State": "reached: whether a path from the source to this node has been found; parent: "
        "the neighbour that reached it.",
        "Message": "a 'reached' signal carrying the sender's id.",
        "Initialization": "Step 1: every node sets reached = False. Step 2: the source sets reached = True "
        "and is the only active node.",
        "Send": "A node that became reached in the last round sends the signal to every neighbour that is "
        "not reached yet.",
        "Update": "A node that is not reached and receives a signal sets reached = True and remembers one "
        "sender as parent.",
        "Termination": "Stop as soon as the target is reached (answer Yes) or when no node became reached in a "
        "round (answer No).",
    }
    answer_kind = "yes/no"

    def prepare(self, graph: VertexGraph, params: dict[str, Any]) -> dict[str, Any]:
        params = super().prepare(graph, params)
        if params["target"] is None:
            raise VertexProgramError(
                f"connectivity needs the parameter 'target' (a node id 0..{graph.num_nodes - 1})"
            )
        return params

    def result(self, graph: VertexGraph, state: State, params: dict[str, Any]) -> dict[str, Any]:
        s, t = params["source"], params["target"]
        ok = bool(state["level"][t] >= 0)
        path = walk_parents(state["parent"], s, t) if ok else None
        text = (
            f"Yes, node {s} and node {t} are connected (path {path})."
            if ok
            else (f"No, there is no path from node {s} to node {t}.")
        )
        return {"answer": ok, "path": path, "text": text}


class Neighbourhood(BFSLevels):
    name = "neighbourhood"
    description = (
        "Neighbourhood query: the neighbours of a node, or every node within k hops of it, grouped by "
        "hop count (out-, in- or all neighbours in a directed graph)."
    )
    params = {
        "node": "the node asked about (required)",
        "hops": "how many hops out to collect (default 1: the direct neighbours)",
        "direction": "arcs to follow in a directed graph: out (default), in or any",
    }
    six_parts = {
        "State": "hop: how many hops this node is from the asked node (-1 = not within reach yet).",
        "Message": "new_hop = sender's hop + 1.",
        "Initialization": "Every node sets hop = -1; the asked node sets hop = 0 and is the only active node.",
        "Send": "A node whose hop was set in the last round sends new_hop to its neighbours without a hop.",
        "Update": "A node without a hop that receives messages sets hop = new_hop.",
        "Termination": "Stop after `hops` rounds or when no hop changed.",
    }

    def prepare(self, graph: VertexGraph, params: dict[str, Any]) -> dict[str, Any]:
        params = VertexAlgorithm.prepare(self, graph, params)
        hops = params.pop("hops", None)
        if hops is not None and (
            isinstance(hops, bool) or not isinstance(hops, int | np.integer) or hops < 1
        ):
            raise VertexProgramError(f"hops must be a positive integer, got {hops!r}")
        if params.get("node") is None:
            raise VertexProgramError(
                f"neighbourhood needs the parameter 'node' (a node id 0..{graph.num_nodes - 1})"
            )
        params["source"] = params.pop("node")
        params["max_hops"] = 1 if hops is None else hops
        return self._complete(graph, params)

    def result(self, graph: VertexGraph, state: State, params: dict[str, Any]) -> dict[str, Any]:
        level, node = state["level"], params["source"]
        within = np.flatnonzero((level > 0) & (level <= params["max_hops"]))
        nodes = within.tolist()
        return {
            "answer": nodes,
            "by_hop": _by_hop(level, within, params["max_hops"]),
            "text": f"Node {node} has {len(nodes)} nodes within {params['max_hops']} hop(s): {nodes[:50]}"
            + (" ..." if len(nodes) > 50 else ""),
        }


def _by_hop(level: np.ndarray, within: np.ndarray, hops: int) -> dict[int, list[int]]:
    """``{hop: nodes}`` for hop 1 .. ``hops``, in one sort: O(n log n) however large ``hops`` is.

    Hop counts beyond the graph's node count cannot be reached, so only those up to it get a
    (possibly empty) entry: a model-chosen ``hops=10**9`` must not build a billion empty lists.
    """
    last = min(hops, level.size)
    hop_of = level[within]
    groups = np.split(
        within[np.argsort(hop_of, kind="stable")], np.cumsum(np.bincount(hop_of, minlength=last + 1)[1:-1])
    )
    return {h: group.tolist() for h, group in enumerate(groups, start=1)}


# --------------------------------------------------------------------------- degree
class _AsksAboutOneNode(KernelAlgorithm):
    """An algorithm over every node whose answer may be narrowed to one ``node`` (checked here)."""

    def prepare(self, graph: VertexGraph, params: dict[str, Any]) -> dict[str, Any]:
        params = super().prepare(graph, params)
        params["node"] = optional_node(graph, params, "node")
        return params


class Degree(_AsksAboutOneNode):
    name = "degree"
    description = (
        "Degree query: how many edges touch a node (in-degree and out-degree in a directed graph), "
        "for one node or for every node; also the highest-degree nodes."
    )
    params = {"node": "optional: the node asked about (default: all nodes)"}
    six_parts = {
        "State": "out_degree (its own neighbour count) and in_degree (arcs arriving).",
        "Message": "the signal 1.",
        "Initialization": "Every node sets out_degree = number of its out-neighbours and in_degree = 0.",
        "Send": "Every node sends 1 to each out-neighbour.",
        "Update": "Each node sets in_degree = number of signals received (a self-loop counts twice in an "
        "undirected graph, as usual).",
        "Termination": "After one round.",
    }
    fields = {"out_degree": "int", "in_degree": "int"}
    mail = {"signal": "count"}
    answer_kind = "number"

    def initial(self, x: Any, node: Any, params: dict[str, Any], glob: Any) -> dict[str, Any]:
        return {"out_degree": node["arcs_out"], "in_degree": x.lit(0)}

    def messages(self, x: Any, src: Any, weight: Any, params: dict[str, Any]) -> dict[str, Any]:
        return {"signal": x.lit(1)}

    def kernel_update(self, x: Any, me: Any, mail: Any, params: dict[str, Any], glob: Any) -> tuple[dict, Any]:
        return {"in_degree": mail["signal"]}, x.lit(True)

    def halt(self, round: int, totals: Any, params: dict[str, Any], glob: Any) -> bool:
        return True

    def result(self, graph: VertexGraph, state: State, params: dict[str, Any]) -> dict[str, Any]:
        node = params["node"]
        if graph.directed:
            out_d, in_d = state["out_degree"], state["in_degree"]
            total = out_d + in_d
            if node is None:
                return {
                    "answer": total.tolist(),
                    "in_degree": in_d,
                    "out_degree": out_d,
                    "text": f"Maximum total degree {int(total.max())} at node {int(total.argmax())}.",
                }
            return {
                "answer": int(total[node]),
                "in_degree": int(in_d[node]),
                "out_degree": int(out_d[node]),
                "text": f"Node {node} has in-degree {in_d[node]} and out-degree {out_d[node]}.",
            }
        degree = state["in_degree"] + graph.self_loops  # a self-loop adds 2, as networkx counts it
        if node is None:
            return {
                "answer": degree.tolist(),
                "degree": degree,
                "text": f"Maximum degree {int(degree.max())} at node {int(degree.argmax())}.",
            }
        return {"answer": int(degree[node]), "text": f"Node {node} has degree {degree[node]}."}


# --------------------------------------------------------------------------- components
class ConnectedComponents(_AsksAboutOneNode):
    name = "connected_components"
    description = (
        "Connected components by minimum-label propagation: how many components the graph has (weakly "
        "connected for a directed graph), their sizes, and which nodes share a component."
    )
    params = {"node": "optional: report the component containing this node"}
    six_parts = {
        "State": "label: the smallest node id known in this node's component.",
        "Message": "the sender's label.",
        "Initialization": "Every node sets label = its own id; all nodes are active.",
        "Send": "A node whose label changed in the last round (all nodes in round 1) sends its label to each "
        "neighbour (edge direction ignored) whose label is larger.",
        "Update": "A node takes the smallest label among the received ones if it is smaller than its own.",
        "Termination": "Stop when no label changed; nodes with equal labels form one component.",
    }
    fields = {"label": "int"}
    mail = {"label": "min"}
    answer_kind = "number"

    def direction(self, params: dict[str, Any]) -> str:
        return "any"

    def initial(self, x: Any, node: Any, params: dict[str, Any], glob: Any) -> dict[str, Any]:
        return {"label": node["id"]}

    def messages(self, x: Any, src: Any, weight: Any, params: dict[str, Any]) -> dict[str, Any]:
        return {"label": src["label"]}

    def send_if(self, x: Any, src: Any, dst: Any, mail: Any, params: dict[str, Any]) -> Any:
        return src["label"] < dst["label"]

    def kernel_update(self, x: Any, me: Any, mail: Any, params: dict[str, Any], glob: Any) -> tuple[dict, Any]:
        better = mail["label"] < me["label"]
        return {"label": x.where(better, mail["label"], me["label"])}, better

    def result(self, graph: VertexGraph, state: State, params: dict[str, Any]) -> dict[str, Any]:
        label = state["label"]
        roots, sizes = np.unique(label, return_counts=True)
        order = np.argsort(label, kind="stable")
        groups = np.split(order, np.cumsum(sizes)[:-1])
        out = {
            "answer": int(roots.size),
            "labels": label,
            "sizes": sizes.tolist(),
            "components": [g.tolist() for g in groups],
        }
        node = params["node"]
        if node is not None:
            members = np.flatnonzero(label == label[node]).tolist()
            out["component_of_node"] = members
            out["text"] = (
                f"The graph has {roots.size} components; node {node} is in one of {len(members)} nodes."
            )
        else:
            out["text"] = (
                f"The graph has {roots.size} connected components (largest: {int(sizes.max())} nodes)."
            )
        return out


# --------------------------------------------------------------------------- shortest path
class ShortestPath(KernelAlgorithm):
    name = "shortest_path"
    description = (
        "Single-source shortest path with non-negative edge weights (Bellman-Ford style min-plus "
        "relaxation in rounds): the minimum total weight from a source to a target or to every node, "
        "and one optimal path."
    )
    params = {
        "source": "start node (required)",
        "target": "optional: the node whose distance and path are wanted",
    }
    six_parts = {
        "State": "distance: the lightest known path weight from the source (infinity if none yet); "
        "parent: the neighbour on that path.",
        "Message": "new_distance = sender's distance + weight of the edge to the receiver, with the sender's id.",
        "Initialization": "Step 1: every node sets distance = infinity and parent = none. Step 2: the source "
        "sets distance = 0 and is the only active node. Negative weights are rejected.",
        "Send": "Step 1: a node whose distance dropped in the last round is active. Step 2: for each neighbour, "
        "it computes new_distance = distance + edge weight. Step 3: it sends new_distance only if that is "
        "smaller than the neighbour's current distance.",
        "Update": "Step 1: take the smallest received new_distance. Step 2: if it is smaller than the current "
        "distance, set distance to it and parent to its sender; otherwise keep the state.",
        "Termination": "Stop when no distance changed in a round (at most n - 1 rounds).",
    }
    fields = {"distance": "float", "parent": "int"}
    mail = {"distance": "min"}
    with_sender = True
    answer_kind = "number"

    def prepare(self, graph: VertexGraph, params: dict[str, Any]) -> dict[str, Any]:
        return self._complete(graph, super().prepare(graph, params))

    def _complete(self, graph: VertexGraph, params: dict[str, Any]) -> dict[str, Any]:
        params["source"] = required_node(graph, params, "source", self.name)
        params["target"] = optional_node(graph, params, "target")
        w = graph.out.weights
        if w.size and w.min() < 0:
            i = int(np.argmin(w))
            u, v = int(graph.out.src[i]), int(graph.out.indices[i])
            raise NegativeWeightError(
                f"shortest_path needs non-negative edge weights; edge ({u}, {v}) has weight {as_number(w[i])}"
            )
        return params

    def initial(self, x: Any, node: Any, params: dict[str, Any], glob: Any) -> dict[str, Any]:
        return {"distance": x.where(node["id"] == params["source"], 0.0, x.inf), "parent": x.lit(NO_NODE)}

    def first_active(self, x: Any, node: Any, params: dict[str, Any], glob: Any) -> Any:
        return node["id"] == params["source"]

    def messages(self, x: Any, src: Any, weight: Any, params: dict[str, Any]) -> dict[str, Any]:
        return {"distance": src["distance"] + weight}

    def send_if(self, x: Any, src: Any, dst: Any, mail: Any, params: dict[str, Any]) -> Any:
        # triplet read: drop offers that cannot help the receiver (most of them, late in a run)
        return mail["distance"] < dst["distance"]

    def kernel_update(self, x: Any, me: Any, mail: Any, params: dict[str, Any], glob: Any) -> tuple[dict, Any]:
        better = mail["distance"] < me["distance"]
        distance = x.where(better, mail["distance"], me["distance"])
        return {"distance": distance, "parent": x.where(better, mail["sender"], me["parent"])}, better

    def result(self, graph: VertexGraph, state: State, params: dict[str, Any]) -> dict[str, Any]:
        dist, source, target = state["distance"], params["source"], params["target"]
        if target is None:
            reached = np.flatnonzero(np.isfinite(dist))
            answer = number_map(reached, dist[reached])
            return {
                "answer": answer,
                "distances": dist,
                "parent": state["parent"],
                "text": f"Shortest distances from node {source} to the {reached.size} reachable nodes.",
            }
        if not np.isfinite(dist[target]):
            return {
                "answer": None,
                "path": None,
                "distances": dist,
                "text": f"There is no path from node {source} to node {target}.",
            }
        path = walk_parents(state["parent"], source, target)
        d = as_number(dist[target])
        return {
            "answer": d,
            "path": path,
            "distances": dist,
            "text": f"The shortest path from node {source} to node {target} has weight {d}: {path}.",
        }
