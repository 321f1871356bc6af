"""GraphAgent-Reasoner's agent mode: every node is an LLM agent, rounds fan out with ``Send``.

    setup ─► (router) ─Send×k─► agent_batch ─► round_end ─► (router) ─► ... ─► finish ─► END

Per round the router sends the nodes that have mail (round 0: the initially
active ones) to ``agent_batch`` workers, ``batch_size`` node agents per LLM
call. A worker's reply gives each node's new state and its outgoing messages;
replies merge through a reducer. ``round_end`` validates them (a malformed
reply keeps the old state, sends nothing and is recorded), delivers the mail,
checks termination (no state changed / the algorithm's own rule / the round
cap) and streams one ``agent_round`` event. Before each round the LLM-call cap
is checked: a round that would exceed ``max_agent_calls`` is not started and
the run stops saying so. ``finish`` reads the answer from the final states
with the compiled algorithm's Result part and compares it with compiled mode
(``tools.vertex.run`` on the same graph and parameters).

Supported algorithms (exact in the agent form): ``AGENT_ALGORITHMS``. The
node-agent model is any model spec; ``rules`` is the rule-following agent
(:mod:`workflows.gar.rule_agent`), which must agree with compiled mode.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime
from langgraph.types import Send

from tools.vertex import VertexAlgorithm, VertexGraph, VertexProgramError, get_algorithm, run
from tools.vertex.graph import Adjacency
from workflows.gar.agent_prompts import AgentReplyError, batch_messages, parse_reply
from workflows.gar.agent_state import AgentContext, AgentInput, AgentOutput, AgentState, BatchPayload
from workflows.gar.common import jsonable
from workflows.gar.rule_agent import RuleAgentModel, is_rules_spec
from workflows.kit.events import emit
from workflows.kit.llm import ask_role


# --------------------------------------------------------------------------- field codecs
def _int(value: Any) -> int:
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


_LEVEL = (Field("level", _int), Field("parent", _int))
AGENT_ALGORITHMS: dict[str, AgentSpec] = {
    "bfs_levels": AgentSpec(_LEVEL, lambda g, p: g.view(p["direction"])),
    "connectivity": AgentSpec(_LEVEL, lambda g, p: g.view(p["direction"])),
    "shortest_path": AgentSpec(
        (Field("distance", _distance, to_array=_to_array_distance), Field("parent", _int)),
        lambda g, p: g.out,
    ),
    "connected_components": AgentSpec((Field("label", _int),), lambda g, p: g.both),
    "cycle_detection": AgentSpec((Field("remaining", _int), Field("removed", _bool)), lambda g, p: g.out),
    "bipartiteness": AgentSpec(
        (Field("root", _int), Field("colour", _int), Field("conflict", _bool)), lambda g, p: g.both
    ),
}


def agent_spec(name: str) -> AgentSpec:
    """The agent form of ``name`` (a clear error listing the supported ones otherwise)."""
    if name not in AGENT_ALGORITHMS:
        raise VertexProgramError(
            f"agent mode does not support {name!r}; supported: {', '.join(AGENT_ALGORITHMS)}"
        )
    return AGENT_ALGORITHMS[name]


# --------------------------------------------------------------------------- graph and states
def graph_spec(graph: VertexGraph) -> dict[str, Any]:
    """A JSON-ready description of ``graph`` (what the subgraph's state carries)."""
    return {
        "num_nodes": graph.num_nodes,
        "edges": [list(e) for e in graph.edge_list()],
        "directed": graph.directed,
        "weighted": graph.weighted,
        "node_weights": None if graph.node_weights is None else graph.node_weights.tolist(),
        "labels": graph.labels,
    }


@lru_cache(maxsize=16)
def _graph_from_key(key: str) -> VertexGraph:
    import json

    spec = json.loads(key)
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


def graph_of(spec: dict[str, Any]) -> VertexGraph:
    """The engine graph of a spec (cached: every round needs it)."""
    import json

    return _graph_from_key(json.dumps(spec, sort_keys=True, default=str))


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


def _initial_states(algorithm: VertexAlgorithm, graph: VertexGraph, params: dict) -> dict[str, dict]:
    spec = agent_spec(algorithm.name)
    arrays = algorithm.init_state(graph, params)
    states: dict[str, dict] = {}
    for i in range(graph.num_nodes):
        node: dict[str, Any] = {}
        for field in spec.fields:
            if field.name == "conflict":
                node["conflict"] = False
            else:
                node[field.name] = field.decode(jsonable(arrays[field.key][i]))
        states[str(i)] = node
    return states


def _neighbour_lists(spec: AgentSpec, graph: VertexGraph, params: dict) -> dict[int, list[dict]]:
    adjacency = spec.neighbours(graph, params)
    out: dict[int, list[dict]] = {}
    for i in range(graph.num_nodes):
        lo, hi = adjacency.indptr[i], adjacency.indptr[i + 1]
        out[i] = [
            {"id": int(j), "weight": jsonable(w)}
            for j, w in zip(adjacency.indices[lo:hi].tolist(), adjacency.weights[lo:hi].tolist(), strict=True)
        ]
    return out


def _calls_needed(nodes: int, batch_size: int) -> int:
    return -(-nodes // batch_size)


def _check_cap(state: dict, to_call: list[int]) -> dict:
    """Stop before a round whose calls would pass ``max_agent_calls``."""
    needed = _calls_needed(len(to_call), state["batch_size"])
    cap, made = state["max_agent_calls"], state.get("calls", 0)
    if made + needed <= cap:
        return {}
    text = (
        f"agent mode stopped: round {state.get('round', 0)} needs {needed} more LLM call(s) for "
        f"{len(to_call)} node agent(s), but max_agent_calls={cap} and {made} were already made; "
        "the answer comes from the unfinished states"
    )
    emit("agent_stop", text, calls=made, cap=cap)
    return {"stop_reason": "call_cap", "stop_text": text}


# --------------------------------------------------------------------------- nodes
def setup(state: AgentState, runtime: Runtime[AgentContext]) -> dict:
    if state.get("batch_size", 0) < 1:
        raise VertexProgramError(f"batch_size must be at least 1, got {state.get('batch_size')!r}")
    if state.get("max_agent_calls", 0) < 1:
        raise VertexProgramError(f"max_agent_calls must be at least 1, got {state.get('max_agent_calls')!r}")
    algorithm = get_algorithm(state["algorithm"])
    agent_spec(algorithm.name)
    graph = graph_of(state["graph_spec"])
    params = algorithm.prepare(graph, state.get("params") or {})
    arrays = algorithm.init_state(graph, params)
    start = sorted(int(i) for i in algorithm.initial_active(graph, arrays, params))
    cap = state.get("max_rounds")
    update = {
        "algorithm": algorithm.name,
        "prepared": jsonable(params),
        "max_rounds": algorithm.max_rounds(graph, params) if cap is None else cap,
        "states": _initial_states(algorithm, graph, params),
        "inbox": {},
        "start": start,
        "round": 0,
        "calls": 0,
        "stop_reason": None if start else "no_active",
        "stop_text": "" if start else "no node is active at the start",
        "errors": [],
        "round_log": [],
        "replies": None,
    }
    if start:
        update.update(_check_cap({**state, **update}, start))
    return update


def route(state: AgentState) -> list[Send] | str:
    """Fan the round's node agents out in batches, or finish."""
    if state.get("stop_reason"):
        return "finish"
    algorithm = get_algorithm(state["algorithm"])
    graph = graph_of(state["graph_spec"])
    neighbours = _neighbour_lists(agent_spec(algorithm.name), graph, state["prepared"])
    starting = set(state.get("start") or [])
    to_call = sorted(starting | {int(k) for k, v in state["inbox"].items() if v})
    entries = [
        {
            "id": i,
            "neighbours": neighbours[i],
            "state": state["states"][str(i)],
            "inbox": state["inbox"].get(str(i), []),
            "start": i in starting,
        }
        for i in to_call
    ]
    size = state["batch_size"]
    return [
        Send(
            "agent_batch",
            BatchPayload(
                algorithm=algorithm.name,
                round=state["round"],
                directed=graph.directed,
                entries=entries[k : k + size],
            ),
        )
        for k in range(0, len(entries), size)
    ]


def _check_node(entry: dict, reply: dict | None, spec: AgentSpec) -> dict:
    """One node's reply validated: new state and messages, or an error (old state kept, nothing sent)."""
    node = entry["id"]
    if reply is None:
        return {"node": node, "error": f"node {node}: missing from the reply"}
    raw = reply.get("state")
    if not isinstance(raw, dict):
        return {"node": node, "error": f"node {node}: reply has no state object"}
    new = dict(entry["state"])
    try:
        for field in spec.fields:
            if field.name in raw:
                new[field.name] = field.decode(raw[field.name])
    except (TypeError, ValueError) as exc:
        return {"node": node, "error": f"node {node}: bad state value ({exc})"}
    allowed = {n["id"] for n in entry["neighbours"]}
    sends, errors = [], []
    for item in reply.get("send") or []:
        to = item.get("to") if isinstance(item, dict) else None
        try:
            to = _int(to)
        except (TypeError, ValueError):
            to = None
        if to not in allowed or not isinstance(item.get("message"), dict):
            errors.append(
                f"node {node}: dropped a message to {item.get('to') if isinstance(item, dict) else item!r}"
            )
            continue
        sends.append({"to": to, "message": item["message"]})
    out = {"node": node, "state": new, "send": sends}
    if errors:
        out["error"] = "; ".join(errors)
    return out


def agent_model(ctx: AgentContext) -> Any:
    """The node agents' model: ``rules`` is the rule-following agent, other specs go to the factory."""
    if is_rules_spec(ctx.model):
        return RuleAgentModel()  # stateless apart from its call count: a fresh one per call is fine
    return ctx.model


def agent_batch(payload: BatchPayload, runtime: Runtime[AgentContext]) -> dict:
    """One LLM call acting for a batch of node agents."""
    ctx = runtime.context or AgentContext()
    algorithm = get_algorithm(payload["algorithm"])
    messages = batch_messages(
        algorithm.name, algorithm.description, payload["round"], payload["directed"], payload["entries"]
    )
    reply = ask_role(ctx, agent_model(ctx), messages, temperature=ctx.temperature, max_tokens=ctx.max_tokens)
    usage = reply.usage()
    spec = agent_spec(algorithm.name)
    try:
        by_id: dict[int, dict] = {}
        for item in parse_reply(reply.text):
            try:
                by_id.setdefault(_int(item.get("id")), item)
            except (TypeError, ValueError):
                continue
    except AgentReplyError as exc:
        return {
            "replies": [{"node": e["id"], "error": f"node {e['id']}: {exc}"} for e in payload["entries"]],
            "llm_usage": usage,
        }
    return {
        "replies": [_check_node(e, by_id.get(e["id"]), spec) for e in payload["entries"]],
        "llm_usage": usage,
    }


def round_end(state: AgentState, runtime: Runtime[AgentContext]) -> dict:
    """Apply the round's replies, deliver mail, check termination, stream progress."""
    rnd = state["round"]
    replies = sorted(state.get("replies") or [], key=lambda r: r["node"])
    states = dict(state["states"])
    inbox: dict[str, list[dict]] = {}
    changed: list[int] = []
    errors = list(state.get("errors") or [])
    sent = 0
    for reply in replies:
        if reply.get("error"):
            errors.append(f"round {rnd}: {reply['error']}")
        if "state" not in reply:
            continue
        key = str(reply["node"])
        if reply["state"] != states[key]:
            changed.append(reply["node"])
            states[key] = reply["state"]
        for item in reply["send"]:
            inbox.setdefault(str(item["to"]), []).append({"from": reply["node"], "message": item["message"]})
            sent += 1
    for mail in inbox.values():
        mail.sort(key=lambda m: m["from"])
    calls = state.get("calls", 0) + _calls_needed(len(replies), state["batch_size"])
    algorithm = get_algorithm(state["algorithm"])
    stop, text = None, ""
    if rnd >= 1:
        graph = graph_of(state["graph_spec"])
        arrays = compiled_state(algorithm, graph, state["prepared"], states)
        if algorithm.terminated(rnd, arrays, np.asarray(changed, dtype=np.int64)):
            stop, text = "rule", f"the algorithm's termination rule fired after round {rnd}"
        elif not changed:
            stop, text = "no_change", f"all agents' states unchanged in round {rnd}"
    if stop is None and rnd >= state["max_rounds"]:
        stop, text = "max_rounds", f"stopped at the round cap of {state['max_rounds']}"
    if stop is None and not inbox:
        stop, text = "no_active", f"no messages were sent in round {rnd}"
    entry = {
        "round": rnd,
        "called": len(replies),
        "calls": calls,
        "changed": len(changed),
        "messages": sent,
        "errors": sum(1 for r in replies if r.get("error")),
    }
    emit(
        "agent_round",
        f"agent round {rnd}: {entry['called']} node agents in {calls - state.get('calls', 0)} call(s), "
        f"{len(changed)} changed, {sent} messages, {entry['errors']} errors",
        **entry,
    )
    update = {
        "states": states,
        "inbox": inbox,
        "start": [],
        "round": rnd + 1,
        "calls": calls,
        "errors": errors,
        "round_log": [*(state.get("round_log") or []), entry],
        "replies": None,
        "stop_reason": stop,
        "stop_text": text,
    }
    if stop is None:
        to_call = [int(k) for k in inbox]
        update.update(_check_cap({**state, **update}, to_call))
    return update


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


def finish(state: AgentState, runtime: Runtime[AgentContext]) -> dict:
    """Read the answer from the final states and compare it with compiled mode."""
    algorithm = get_algorithm(state["algorithm"])
    graph = graph_of(state["graph_spec"])
    prepared = state["prepared"]
    arrays = compiled_state(algorithm, graph, prepared, state["states"])
    output = algorithm.result(graph, arrays, prepared)
    compiled = run(algorithm, graph, state.get("params") or {}, max_rounds=state["max_rounds"])
    answer = jsonable(output.get("answer"))
    comparison = compare(answer, jsonable(compiled.answer))
    comparison["compiled_rounds"] = compiled.rounds
    stop = state.get("stop_reason") or "no_active"
    text = str(output.get("text", ""))
    if stop in ("call_cap", "max_rounds"):
        text += f" ({state.get('stop_text')}; the answer may be incomplete)"
    rounds = max(state.get("round", 1) - 1, 0)  # round 0 is the initial Send
    emit("agent_compare", comparison["detail"], agree=comparison["agree"])
    result = {
        "answer": answer,
        "text": text,
        "engine": "agents",
        "rounds": rounds,
        "stop_reason": stop,
        "stop_text": state.get("stop_text", ""),
        "complete": stop not in ("call_cap", "max_rounds"),
        "llm_calls": state.get("calls", 0),
        "errors": list(state.get("errors") or []),
        "round_log": list(state.get("round_log") or []),
        "states": state["states"],
        "comparison": comparison,
    }
    return {"result": result}


def build_agent_graph(checkpointer=None, *, name: str = "GAR node agents"):
    """Compile the agent-mode subgraph (input: :class:`AgentInput`; output: ``result``, ``llm_usage``)."""
    builder = StateGraph(
        AgentState, context_schema=AgentContext, input_schema=AgentInput, output_schema=AgentOutput
    )
    builder.add_node("setup", setup)
    builder.add_node("agent_batch", agent_batch)
    builder.add_node("round_end", round_end)
    builder.add_node("finish", finish)
    builder.add_edge(START, "setup")
    builder.add_conditional_edges("setup", route, ["agent_batch", "finish"])
    builder.add_edge("agent_batch", "round_end")
    builder.add_conditional_edges("round_end", route, ["agent_batch", "finish"])
    builder.add_edge("finish", END)
    # rounds are capped by the caller's recursion limit (3 per round), set per run from the graph size
    return builder.compile(checkpointer=checkpointer, name=name)


agent_graph = build_agent_graph()


def run_agent_mode(
    graph: Any,
    algorithm_name: str,
    params: dict[str, Any] | None = None,
    model: Any = "local",
    batch_size: int = 8,
    max_rounds: int | None = None,
    max_agent_calls: int = 200,
) -> dict[str, Any]:
    """Run ``algorithm_name`` with LLM node agents on ``graph`` (a VertexGraph or a parsed problem).

    ``model`` is a spec string (``local``, ``openai:MODEL``, ``scripted:FILE``,
    ``rules`` for the rule-following agent) or a chat model.

    Returns the agent-mode result: ``answer``, ``text``, ``rounds``, ``stop_reason``,
    ``llm_calls``, ``errors``, ``round_log``, the final ``states`` and the
    ``comparison`` with compiled mode; plus ``usage`` (LLM tokens and seconds).
    """
    if not isinstance(graph, VertexGraph):
        from workflows.gar.execute import vertex_graph

        graph = vertex_graph(graph, algorithm_name)
    agent_spec(get_algorithm(algorithm_name).name)
    inputs = AgentInput(
        graph_spec=graph_spec(graph),
        algorithm=algorithm_name,
        params=dict(params or {}),
        batch_size=batch_size,
        max_rounds=max_rounds,
        max_agent_calls=max_agent_calls,
    )
    # each round is about three supersteps; leave room for the longest allowed run
    limit = 3 * (max_rounds if max_rounds is not None else graph.num_nodes + 2) + 20
    out = agent_graph.invoke(inputs, context=AgentContext(model=model), config={"recursion_limit": limit})
    result = dict(out["result"])
    result["usage"] = dict(out.get("llm_usage") or {})
    return result
