"""The agent subgraph's nodes: set up the node agents, fan a round out, one batched LLM call, end a round, finish.

See :mod:`graphreason.workflows.gar.agents.graph` for the graph they form.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from langgraph.runtime import Runtime
from langgraph.types import Send

from graphreason.tools.core.jsonable import jsonable
from graphreason.tools.gar.vertex import VertexProgramError, get_algorithm, run
from graphreason.workflows.gar.agents.forms import (
    AgentSpec,
    agent_spec,
    as_int,
    compare,
    compiled_state,
    initial_states,
    neighbour_lists,
)
from graphreason.workflows.gar.agents.prompts import AgentReplyError, batch_messages, parse_reply
from graphreason.workflows.gar.agents.rule_agent import RuleAgentModel, is_rules_spec
from graphreason.workflows.gar.agents.state import AgentContext, AgentState, BatchPayload
from graphreason.workflows.gar.run_graphs import engine_graph
from graphreason.workflows.kit.events import emit
from graphreason.workflows.kit.llm import ask_role


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


def setup(state: AgentState, runtime: Runtime[AgentContext]) -> dict:
    if state.get("batch_size", 0) < 1:
        raise VertexProgramError(f"batch_size must be at least 1, got {state.get('batch_size')!r}")
    if state.get("max_agent_calls", 0) < 1:
        raise VertexProgramError(f"max_agent_calls must be at least 1, got {state.get('max_agent_calls')!r}")
    algorithm = get_algorithm(state["algorithm"])
    agent_spec(algorithm.name)
    graph = engine_graph(state)
    params = algorithm.prepare(graph, state.get("params") or {})
    arrays = algorithm.init_state(graph, params)
    start = sorted(int(i) for i in algorithm.initial_active(graph, arrays, params))
    cap = state.get("max_rounds")
    update = {
        "algorithm": algorithm.name,
        "prepared": jsonable(params, int_floats=True),
        "max_rounds": algorithm.max_rounds(graph, params) if cap is None else cap,
        "states": initial_states(algorithm, graph, params),
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
    graph = engine_graph(state)
    neighbours = neighbour_lists(agent_spec(algorithm.name), graph, state["prepared"])
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
            to = as_int(to)
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
    # the run's usage tells node-agent calls from the master's (evals report them apart)
    usage.update(agent_calls=1, agent_tokens=usage["input_tokens"] + usage["output_tokens"])
    spec = agent_spec(algorithm.name)
    try:
        by_id: dict[int, dict] = {}
        for item in parse_reply(reply.text):
            try:
                by_id.setdefault(as_int(item.get("id")), item)
            except (TypeError, ValueError):
                continue
    except AgentReplyError as exc:
        usage["agent_bad_replies"] = 1
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
        graph = engine_graph(state)
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


def why_not_the_agents_answer(answered: int, stop: str, errors: list[str], stop_text: str = "") -> str:
    """Why the final node states are not the node agents' own answer ("" when they are).

    Agreement with compiled mode is claimed only for an answer the agents
    produced: ``answered`` node agents replied usably, none of their replies
    had a problem (a failed node keeps its previous state, a bad message is
    dropped) and the call cap did not cut the run short (a round cap is applied
    to compiled mode too, so it is compared).
    """
    reasons = []
    if answered == 0 and not errors:
        reasons.append("no node agent was called (no node was active at the start)")
    elif answered == 0:
        reasons.append("no node agent answered")
    if errors:
        reasons.append(f"{len(errors)} problem(s) in node agent replies (first: {errors[0][:200]})")
    if stop == "call_cap":
        reasons.append(f"the run stopped early ({stop_text or stop})")
    return "; ".join(reasons)


def finish(state: AgentState, runtime: Runtime[AgentContext]) -> dict:
    """Read the answer from the final states and compare it with compiled mode."""
    algorithm = get_algorithm(state["algorithm"])
    graph = engine_graph(state)
    prepared = state["prepared"]
    arrays = compiled_state(algorithm, graph, prepared, state["states"])
    output = algorithm.result(graph, arrays, prepared)
    compiled = run(algorithm, graph, state.get("params") or {}, max_rounds=state["max_rounds"])
    answer = jsonable(output.get("answer"), int_floats=True)
    stop = state.get("stop_reason") or "no_active"
    rounds = max(state.get("round", 1) - 1, 0)  # round 0 is the initial Send
    errors = list(state.get("errors") or [])
    compiled_answer = jsonable(compiled.answer, int_floats=True)
    log = state.get("round_log") or []
    answered = sum(int(entry.get("called", 0)) - int(entry.get("errors", 0)) for entry in log)
    missing = why_not_the_agents_answer(answered, stop, errors, state.get("stop_text", ""))
    comparison = compare(answer, compiled_answer)
    if missing:  # the states as read are not the agents' answer: no verdict either way
        comparison.update(
            agree=None, states_equal=comparison["agree"], detail=f"not compared: {missing}; {comparison['detail']}"
        )
    comparison["compiled_rounds"] = compiled.rounds
    text = str(output.get("text", ""))
    if stop in ("call_cap", "max_rounds"):
        text += f" ({state.get('stop_text')}; the answer may be incomplete)"
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
        "errors": errors,
        "round_log": list(state.get("round_log") or []),
        "states": state["states"],
        "comparison": comparison,
    }
    return {"result": result}
