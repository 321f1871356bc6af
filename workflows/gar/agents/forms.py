"""How each library algorithm runs as LLM node agents: per-node state fields, their codecs, neighbours.

An agent form names the fields a node agent keeps (``level``, ``parent``,
``distance`` ...), how a value in a reply is decoded and checked, and which
array of the compiled engine's state it maps to, so agent states and compiled
states convert both ways and the two modes can be compared answer for answer.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from graphreason.tools.core.jsonable import jsonable
from graphreason.tools.gar.vertex import VertexAlgorithm, VertexGraph, VertexProgramError
from graphreason.tools.gar.vertex.graph import Adjacency


# --------------------------------------------------------------------------- field codecs
def as_int(value: Any) -> int:
    if isinstance(value, bool):
        raise ValueError(f"expected an integer, got {value!r}")
    if isinstance(value, str):
        value = value.strip()
    number = float(value)
    if not number.is_integer():
        raise ValueError(f"expected an integer, got {value!r}")
    return int(number)


def _bool(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        return value.strip().lower() == "true"
    if value in (0, 1):
        return bool(value)
    raise ValueError(f"expected true or false, got {value!r}")


def _distance(value: Any) -> float | None:
    """A distance; None stands for infinity (JSON has none)."""
    if value is None or (isinstance(value, str) and value.strip().lower() in ("inf", "infinity", "null")):
        return None
    if isinstance(value, bool):
        raise ValueError(f"expected a number or null, got {value!r}")
    number = float(value)
    if math.isnan(number) or number < 0:
        raise ValueError(f"expected a non-negative number or null, got {value!r}")
    return None if math.isinf(number) else number


def _to_array_distance(value: float | None) -> float:
    return np.inf if value is None else value


@dataclass(frozen=True)
class Field:
    """One state field of the agent form: its codec and the compiled state's array it maps to."""

    name: str
    decode: Callable[[Any], Any]
    array_key: str | None = None  # None: the same name
    to_array: Callable[[Any], Any] = lambda v: v

    @property
    def key(self) -> str:
        return self.array_key or self.name


@dataclass(frozen=True)
class AgentSpec:
    """How an algorithm of the library runs as node agents."""

    fields: tuple[Field, ...]
    neighbours: Callable[[VertexGraph, dict[str, Any]], Adjacency]


_LEVEL = (Field("level", as_int), Field("parent", as_int))
AGENT_ALGORITHMS: dict[str, AgentSpec] = {
    "bfs_levels": AgentSpec(_LEVEL, lambda g, p: g.view(p["direction"])),
    "connectivity": AgentSpec(_LEVEL, lambda g, p: g.view(p["direction"])),
    "shortest_path": AgentSpec(
        (Field("distance", _distance, to_array=_to_array_distance), Field("parent", as_int)),
        lambda g, p: g.out,
    ),
    "connected_components": AgentSpec((Field("label", as_int),), lambda g, p: g.both),
    "cycle_detection": AgentSpec((Field("remaining", as_int), Field("removed", _bool)), lambda g, p: g.out),
    "bipartiteness": AgentSpec(
        (Field("root", as_int), Field("colour", as_int), Field("conflict", _bool)), lambda g, p: g.both
    ),
}


def agent_spec(name: str) -> AgentSpec:
    """The agent form of ``name`` (a clear error listing the supported ones otherwise)."""
    if name not in AGENT_ALGORITHMS:
        raise VertexProgramError(
            f"agent mode does not support {name!r}; supported: {', '.join(AGENT_ALGORITHMS)}"
        )
    return AGENT_ALGORITHMS[name]


# --------------------------------------------------------------------------- states
def compiled_state(algorithm: VertexAlgorithm, graph: VertexGraph, params: dict, states: dict) -> dict:
    """The compiled engine's state with the agents' per-node values written into its arrays."""
    spec = agent_spec(algorithm.name)
    arrays = algorithm.init_state(graph, params)
    for field in spec.fields:
        values = [field.to_array(states[str(i)][field.name]) for i in range(graph.num_nodes)]
        if field.name == "conflict":  # a per-node flag for agents, one global flag for the engine
            arrays["conflict"] = any(values)
        else:
            arrays[field.key][:] = values
    return arrays


def initial_states(algorithm: VertexAlgorithm, graph: VertexGraph, params: dict) -> dict[str, dict]:
    spec = agent_spec(algorithm.name)
    arrays = algorithm.init_state(graph, params)
    states: dict[str, dict] = {}
    for i in range(graph.num_nodes):
        node: dict[str, Any] = {}
        for field in spec.fields:
            if field.name == "conflict":
                node["conflict"] = False
            else:
                node[field.name] = field.decode(jsonable(arrays[field.key][i], int_floats=True))
        states[str(i)] = node
    return states


def neighbour_lists(spec: AgentSpec, graph: VertexGraph, params: dict) -> dict[int, list[dict]]:
    adjacency = spec.neighbours(graph, params)
    out: dict[int, list[dict]] = {}
    for i in range(graph.num_nodes):
        lo, hi = adjacency.indptr[i], adjacency.indptr[i + 1]
        out[i] = [
            {"id": int(j), "weight": jsonable(w, int_floats=True)}
            for j, w in zip(adjacency.indices[lo:hi].tolist(), adjacency.weights[lo:hi].tolist(), strict=True)
        ]
    return out


# --------------------------------------------------------------------------- agreement with compiled mode
def _same(a: Any, b: Any) -> bool:
    """Equal answers, numbers compared with a small tolerance."""
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b or a == b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return a == b


def compare(agent_answer: Any, compiled_answer: Any) -> dict[str, Any]:
    """Agreement of the two modes' answers, with the details when they differ."""
    agree = _same(agent_answer, compiled_answer)
    detail = "agent mode and compiled mode give the same answer"
    if not agree:
        detail = f"agent mode answered {agent_answer!r} but compiled mode answered {compiled_answer!r}"
        if isinstance(agent_answer, dict) and isinstance(compiled_answer, dict):
            keys = sorted(set(agent_answer) | set(compiled_answer), key=str)
            diff = [k for k in keys if not _same(agent_answer.get(k), compiled_answer.get(k))]
            detail = f"the answers differ at {len(diff)} key(s), e.g. " + ", ".join(
                f"{k}: agents {agent_answer.get(k)!r} vs compiled {compiled_answer.get(k)!r}"
                for k in diff[:5]
            )
    return {
        "agree": agree,
        "agent_answer": agent_answer,
        "compiled_answer": compiled_answer,
        "detail": detail,
    }
