"""Distributed execution: the chosen algorithm over the parsed graph.

Library entries run on the compiled vertex-program engine (``tools.vertex.run``)
in supersteps, streaming one ``round`` event per superstep. Hamiltonian path
and substructure go to the bounded exact search; when its budget runs out the
result says so instead of guessing.
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from tools.graph_text import ParsedProblem
from tools.vertex import RoundInfo, VertexProgramError, get_algorithm, run
from tools.vertex.search import hamiltonian_path, subgraph_match
from workflows.gar.agent_forms import AGENT_ALGORITHMS
from workflows.gar.agent_state import AgentContext
from workflows.gar.agents import agent_graph
from workflows.gar.catalogue import CATALOGUE
from workflows.gar.common import MAX_DETAIL_ITEMS, jsonable
from workflows.gar.construct import problem_of
from workflows.gar.context import GARContext
from workflows.gar.run_graphs import vertex_graph
from workflows.gar.state import GARState
from workflows.kit.events import emit
from workflows.run_context import shared_settings


def _details(output: dict[str, Any]) -> dict[str, Any]:
    """The algorithm's result in JSON-ready form; the answer is kept whole, bulky extras are dropped."""
    out: dict[str, Any] = {"answer": jsonable(output.get("answer")), "text": str(output.get("text", ""))}
    for key, value in output.items():
        if key in out:
            continue
        try:
            out[key] = jsonable(value, limit=MAX_DETAIL_ITEMS)
        except OverflowError:
            continue
    return out


def _run_compiled(name: str, problem: ParsedProblem, params: dict[str, Any], ctx: GARContext) -> dict:
    graph = vertex_graph(problem, name)

    def progress(info: RoundInfo) -> None:
        emit(
            "round",
            f"round {info.round}: {info.active} active, {info.messages} messages, {info.changed} changed",
            round=info.round,
            active=info.active,
            messages=info.messages,
            changed=info.changed,
        )

    result = run(get_algorithm(name), graph, params, max_rounds=ctx.max_rounds, on_round=progress)
    details = _details(result.output)
    details.update(
        rounds=result.rounds,
        stop_reason=result.stop_reason,
        complete=result.complete,
        seconds=result.seconds,
        engine="compiled",
    )
    if not result.complete:
        details["text"] += f" (stopped at the round cap of {result.rounds}; the answer may be incomplete)"
    return details


def _run_search(name: str, problem: ParsedProblem, ctx: GARContext) -> dict:
    budget = {"max_steps": ctx.search_max_steps, "time_budget": ctx.search_seconds}
    graph = problem.to_networkx()
    if name == "hamiltonian_path":
        found = hamiltonian_path(graph, **budget)
        what = "a path visiting every node exactly once"
        witness = jsonable(found.witness)
    else:
        pattern = problem.params.get("pattern")
        if not isinstance(pattern, ParsedProblem):
            raise VertexProgramError(
                "the substructure task needs the smaller graph G' in the question (none was found)"
            )
        found = subgraph_match(graph, pattern.to_networkx(), **budget)
        what = "a copy of the subgraph G'"
        witness = None if found.witness is None else {str(k): jsonable(v) for k, v in found.witness.items()}
    if found.status == "bound_exceeded":
        answer = None
        text = (
            f"The exact search for {what} stopped at its budget ({found.steps} steps, "
            f"{found.seconds:.1f} s) without deciding; the answer is unknown."
        )
    else:
        answer = found.status == "found"
        text = f"Yes: the graph has {what}" if answer else f"No: the graph has no {what}"
        text += f": {witness}." if name == "hamiltonian_path" and answer else "."
    emit("search", text, steps=found.steps, status=found.status)
    return {
        "answer": answer,
        "text": text,
        "witness": witness,
        "status": found.status,
        "steps": found.steps,
        "rounds": 0,
        "complete": found.status != "bound_exceeded",
        "seconds": found.seconds,
        "engine": "search",
    }


def _run_agents(name: str, state: GARState, params: dict, ctx: GARContext) -> tuple[dict, dict]:
    """The paper's node-agent mode as a subgraph; its answer is compared with compiled mode.

    The subgraph finds the run's graph under its ``graph_key`` (no copy of the graph in its state).
    """
    inputs = {
        "graph_key": state["graph_key"],
        "question": state["question"],
        "graph": state.get("graph"),
        "algorithm": name,
        "params": params,
        "batch_size": ctx.agent_batch_size,
        "max_rounds": ctx.max_rounds,
        "max_agent_calls": ctx.max_agent_calls,
    }
    agent_ctx = AgentContext(
        **{**shared_settings(ctx), "max_tokens": ctx.agent_max_tokens},
        model=ctx.agent_model or ctx.master_model,
    )
    rounds_cap = ctx.max_rounds or problem_of(state).n_nodes + 2
    out = agent_graph.invoke(inputs, context=agent_ctx, config={"recursion_limit": 3 * rounds_cap + 20})
    result = {k: v for k, v in out["result"].items() if k not in ("states", "round_log")}
    return result, out.get("llm_usage") or {}


def execute(state: GARState, runtime: Runtime[GARContext]) -> dict:
    ctx = runtime.context
    name = state["algorithm"]
    problem = problem_of(state)
    params = dict(state.get("chosen_params") or {})
    update: dict = {}
    notes = []
    if CATALOGUE[name].engine == "search":
        result = _run_search(name, problem, ctx)
    elif ctx.mode == "agents" and name in AGENT_ALGORITHMS:
        result, update["llm_usage"] = _run_agents(name, state, params, ctx)
    else:
        if ctx.mode == "agents":
            notes.append({"step": "execute", "text": f"agent mode does not cover {name}; ran compiled mode"})
        result = _run_compiled(name, problem, params, ctx)
    note = {"step": "execute", "text": result["text"], "engine": result["engine"], "rounds": result["rounds"]}
    if "comparison" in result:  # agents mode: agreement with the compiled engine
        note["comparison"] = result["comparison"]
    notes.append(note)
    return {**update, "result": result, "rounds": result["rounds"], "trace": notes}
