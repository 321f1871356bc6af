"""Distributed execution: the chosen algorithm over the parsed graph.

Library entries run on the compiled vertex-program engine (``graphreason.tools.gar.vertex.run``)
in supersteps, streaming one ``round`` event per superstep. Hamiltonian path
and substructure go to the bounded exact search; when its budget runs out the
result says so instead of guessing. In agents mode, the algorithms that have
an agent form run in the ``node_agents`` node instead: the node-agent subgraph
(:mod:`graphreason.workflows.gar.agents.graph`), checked against compiled mode.
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from graphreason.tools.core.jsonable import jsonable
from graphreason.tools.gar.graph_text import ParsedProblem
from graphreason.tools.gar.vertex import RoundInfo, RunResult, VertexProgramError, get_algorithm, run
from graphreason.tools.gar.vertex.search import hamiltonian_path, subgraph_match
from graphreason.workflows.gar.agents.forms import AGENT_ALGORITHMS
from graphreason.workflows.gar.agents.graph import agent_graph, recursion_limit
from graphreason.workflows.gar.agents.state import AgentContext
from graphreason.workflows.gar.catalogue import CATALOGUE
from graphreason.workflows.gar.construct import problem_of
from graphreason.workflows.gar.context import GARContext
from graphreason.workflows.gar.datasets import spark_settings
from graphreason.workflows.gar.run_graphs import vertex_graph
from graphreason.workflows.gar.state import GARState
from graphreason.workflows.gar.written import bounded
from graphreason.workflows.kit.events import emit
from graphreason.workflows.run_context import shared_settings

# Arrays longer than this are left out of the result (the answer itself is kept whole).
MAX_DETAIL_ITEMS = 1000


def _details(output: dict[str, Any]) -> dict[str, Any]:
    """The algorithm's result in JSON-ready form; the answer is kept whole, bulky extras are dropped."""
    out: dict[str, Any] = {"answer": jsonable(output.get("answer"), int_floats=True), "text": str(output.get("text", ""))}
    for key, value in output.items():
        if key in out:
            continue
        try:
            out[key] = jsonable(value, limit=MAX_DETAIL_ITEMS, int_floats=True)
        except OverflowError:
            continue
    return out


def _progress(info: RoundInfo) -> None:
    """One ``round`` event per superstep (both engines)."""
    emit(
        "round",
        f"round {info.round}: {info.active} active, {info.messages} messages, {info.changed} changed "
        f"({info.seconds:.2f} s)",
        round=info.round,
        active=info.active,
        messages=info.messages,
        changed=info.changed,
        seconds=info.seconds,
    )


def _run_details(result: RunResult, engine: str) -> dict:
    """The JSON-ready result of an engine run (compiled or Spark), with its rounds and how it stopped."""
    details = _details(result.output)
    details.update(
        rounds=result.rounds,
        stop_reason=result.stop_reason,
        complete=result.complete,
        seconds=result.seconds,
        engine=engine,
    )
    if result.stop_reason == "time_limit":
        details["text"] += (
            f" (stopped after {result.seconds:.1f} s, at the end of round {result.rounds}, past the time budget "
            "engine_seconds; the answer may be incomplete)"
        )
    elif not result.complete:
        details["text"] += f" (stopped at the round cap of {result.rounds}; the answer may be incomplete)"
    return details


def _run_compiled(name: str, problem: ParsedProblem, params: dict[str, Any], ctx: GARContext) -> dict:
    graph = vertex_graph(problem, name)
    result = run(
        get_algorithm(name), graph, params, max_rounds=ctx.max_rounds, on_round=_progress, seconds=ctx.budget("engine_seconds")
    )
    return _run_details(result, "compiled")


def _spark_details(name: str, problem: ParsedProblem, params: dict[str, Any], ctx: GARContext) -> dict:
    """The chosen library algorithm on the Spark engine (the graph is the parsed one, sent to Spark)."""
    from graphreason.tools.gar.spark.pregel import run_spark
    from graphreason.tools.gar.spark.session import get_session
    from graphreason.tools.gar.spark.vertex_graphs import from_vertex_graph

    spark = get_session(spark_settings(ctx))
    info = _announce_spark()
    graph = from_vertex_graph(spark, vertex_graph(problem, name))
    try:
        result = run_spark(
            get_algorithm(name), graph, params, max_rounds=ctx.max_rounds, on_round=_progress,
            seconds=ctx.budget("engine_seconds"),
        )  # fmt: skip
    finally:
        graph.release()
    details = _run_details(result, "spark")
    details["spark"] = info
    return details


def _dataset_details(name: str, problem: Any, params: dict[str, Any], ctx: GARContext) -> dict:
    """The chosen library algorithm on the context's edge dataset (already on Spark; node parameters as dataset ids)."""
    from graphreason.tools.gar.spark.pregel import run_spark

    info = _announce_spark()
    result = run_spark(
        get_algorithm(name), problem.graph, problem.dataset_params(params), max_rounds=ctx.max_rounds,
        on_round=_progress, results_dir=ctx.spark_results_dir, seconds=ctx.budget("engine_seconds"),
    )  # fmt: skip
    details = _run_details(result, "spark")
    details["spark"] = info
    return details


def _spark_note() -> dict[str, Any]:
    """Where the run's Spark work can be watched afterwards: application id, master, event log, checkpoints."""
    from graphreason.tools.gar.spark.session import run_info

    return run_info()


def _announce_spark() -> dict[str, Any]:
    """One ``spark`` event naming the application, its master, the web UI and the event log; returns that."""
    info = _spark_note()
    parts = [f"Spark application {info.get('application_id')} on {info.get('master')}"]
    if info.get("ui"):
        parts.append(f"UI {info['ui']}")
    if info.get("event_log"):
        parts.append(f"event log {info['event_log']}")
    emit("spark", "; ".join(parts), **{k: v for k, v in info.items() if v is not None})
    return info


def engine_for(name: str, ctx: GARContext) -> tuple[str, str]:
    """(engine, note): where library algorithm ``name`` runs; the note says why when it is not the asked one."""
    if ctx.engine != "spark" and not ctx.edge_dataset:
        return "compiled", ""
    from graphreason.tools.gar.spark.pregel import spark_support

    reason = spark_support(get_algorithm(name))
    if reason is None:
        return "spark", ""
    return "compiled", f"{name} runs on one machine only (not a vertex program for Spark); ran the compiled engine"


def _run_search(name: str, problem: ParsedProblem, ctx: GARContext) -> dict:
    budget = {"max_steps": ctx.search_max_steps, "time_budget": ctx.search_seconds}
    graph = problem.to_networkx()
    if name == "hamiltonian_path":
        found = hamiltonian_path(graph, **budget)
        what = "a path visiting every node exactly once"
        witness = jsonable(found.witness, int_floats=True)
    else:
        pattern = problem.params.get("pattern")
        if not isinstance(pattern, ParsedProblem):
            raise VertexProgramError(
                "the substructure task needs the smaller graph G' in the question (none was found)"
            )
        found = subgraph_match(graph, pattern.to_networkx(), **budget)
        what = "a copy of the subgraph G'"
        witness = None if found.witness is None else jsonable(found.witness, str_keys=True, int_floats=True)
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


def runs_with_agents(name: str, ctx: GARContext) -> bool:
    """Whether ``name`` runs with the node agents: agents mode and an algorithm that has an agent form."""
    return ctx.mode == "agents" and name in AGENT_ALGORITHMS and CATALOGUE[name].engine != "search"


def node_agents(state: GARState, runtime: Runtime[GARContext]) -> dict:
    """The paper's node-agent mode: the agent subgraph runs the chosen algorithm, checked against compiled mode.

    The subgraph finds the run's graph under its ``graph_key`` (no copy of the
    graph in its state) and gets its own context (the node-agent model and
    budget) derived from the run's. It is invoked from this node rather than
    added as a bare node because its state and context differ from the master
    workflow's; LangGraph still draws it as this node's subgraph
    (``get_graph(xray=True)``) and streams its events under ``subgraphs=True``.
    """
    ctx = runtime.context
    name = state["algorithm"]
    inputs = {
        "graph_key": state["graph_key"],
        "question": state["question"],
        "graph": state.get("graph"),
        "algorithm": name,
        "params": dict(state.get("chosen_params") or {}),
        "batch_size": ctx.agent_batch_size,
        "max_rounds": ctx.max_rounds,
        "max_agent_calls": ctx.max_agent_calls,
    }
    agent_ctx = AgentContext(
        **{**shared_settings(ctx), "max_tokens": ctx.agent_max_tokens},
        model=ctx.agent_model or ctx.master_model,
    )
    limit = recursion_limit(ctx.max_rounds or problem_of(state).n_nodes + 2)
    out = agent_graph.invoke(inputs, context=agent_ctx, config={"recursion_limit": limit})
    result = bounded({k: v for k, v in out["result"].items() if k not in ("states", "round_log")}, ctx, name)
    note = {
        "step": "execute",
        "text": result["text"],
        "engine": result["engine"],
        "rounds": result["rounds"],
        "comparison": result["comparison"],
    }
    return {
        "result": result,
        "rounds": result["rounds"],
        "llm_usage": out.get("llm_usage") or {},
        "trace": [note],
    }


def execute(state: GARState, runtime: Runtime[GARContext]) -> dict:
    ctx = runtime.context
    name = state["algorithm"]
    problem = problem_of(state)
    params = dict(state.get("chosen_params") or {})
    notes = []
    if CATALOGUE[name].engine == "search":
        if ctx.engine == "spark":
            why = f"{name} is an exact search, not a vertex program: it runs on one machine only"
            emit("engine", why)
            notes.append({"step": "execute", "text": why})
        result = _run_search(name, problem, ctx)
    else:
        if ctx.mode == "agents":
            notes.append({"step": "execute", "text": f"agent mode does not cover {name}; ran compiled mode"})
        engine, why = engine_for(name, ctx)
        if ctx.edge_dataset and engine != "spark":
            raise VertexProgramError(
                f"{name} runs on one machine only, and this run's graph is an edge dataset on Spark: "
                "give the graph as a graph file (--graph-file) for it"
            )
        if why:
            emit("engine", why)
            notes.append({"step": "execute", "text": why})
        if ctx.edge_dataset:
            result = _dataset_details(name, problem, params, ctx)
        elif engine == "spark":
            result = _spark_details(name, problem, params, ctx)
        else:
            result = _run_compiled(name, problem, params, ctx)
    result = bounded(result, ctx, name)
    note = {"step": "execute", "text": result["text"], "engine": result["engine"], "rounds": result["rounds"]}
    if result.get("spark"):
        note["spark"] = result["spark"]  # application id, master, event log: the supersteps in Spark's own UI
    notes.append(note)
    return {"result": result, "rounds": result["rounds"], "trace": notes}
