"""Graph construction: the problem text (or a structured graph) -> a parsed graph and its parameters.

Parsing is deterministic (``graphreason.tools.gar.graph_text``); what could not be read is a
:class:`GraphTextError` naming it. When the parser read no edges at all, the
run goes on to :mod:`graphreason.workflows.gar.llm_parse` (the master's JSON reading). The parsed problem is kept in a small
process cache, and the state only carries its key: big graphs are never
copied into checkpoints, and a step that finds the cache empty (a resumed run
in another process) simply parses the input again.
"""

from __future__ import annotations

import threading
import uuid
from collections import OrderedDict
from typing import Any

from langgraph.runtime import Runtime

from graphreason.tools.gar.graph_text import (
    GraphTextError,
    GraphTextUnreadable,
    ParsedProblem,
    detect_task,
    load_structured_graph,
    parse_graph_problem,
)
from graphreason.tools.gar.graph_text.budget import reading_time
from graphreason.tools.gar.graph_text.nodes import NodeSpace
from graphreason.tools.gar.graph_text.params import extract_params
from graphreason.workflows.gar.context import GARContext
from graphreason.workflows.gar.state import GARState
from graphreason.workflows.kit.events import emit

_CACHE_SIZE = 8
# Past this many names mentioned in the question, matching them becomes a huge regex;
# such questions should give their parameters in the structured graph's "params".
_MAX_NAMES_IN_QUESTION = 20_000
_NODE_KEYS = ("source", "target", "start", "node")

_lock = threading.Lock()
_problems: OrderedDict[str, ParsedProblem] = OrderedDict()


def build_problem(question: str, graph: dict[str, Any] | None = None) -> ParsedProblem:
    """The parsed problem of a question: from its text, or from ``graph`` plus the question's parameters."""
    if graph is None:
        return parse_graph_problem(question)
    if not isinstance(graph, dict):
        raise GraphTextError(f"the structured graph must be a dict with 'edges', got {type(graph).__name__}")
    problem = load_structured_graph(graph)
    found, warnings = _question_params(question, problem)
    for key, value in found.items():
        problem.params.setdefault(key, value)  # the structured graph's own params win
    problem.warnings.extend(warnings)
    return problem


def _question_params(question: str, problem: ParsedProblem) -> tuple[dict[str, Any], list[str]]:
    """Parameters the question names for a structured graph (node ids resolved through the graph's names).

    Only the names that occur in the question are declared: a regex over every
    title of a big named graph (Wikispeedia: 4,604) costs seconds per run.
    """
    space = NodeSpace()
    mentioned: list[str] = []
    if problem.node_names:
        folded = question.casefold()
        mentioned = [label for label in map(problem.label, range(problem.n_nodes)) if label.casefold() in folded]
        if mentioned and len(mentioned) <= _MAX_NAMES_IN_QUESTION:
            space.declare_list(mentioned)
    found, warnings = extract_params(question, space)
    if not problem.node_names:
        return found, warnings
    out = {k: v for k, v in found.items() if k not in _NODE_KEYS}
    if space.names is not None:  # ids in the declared list -> the graph's own ids
        out.update({k: problem.node_id(mentioned[v]) for k, v in found.items() if k in _NODE_KEYS})
    return out, warnings


def remember(problem: ParsedProblem) -> str:
    key = uuid.uuid4().hex
    with _lock:
        _problems[key] = problem
        while len(_problems) > _CACHE_SIZE:
            _problems.popitem(last=False)
    return key


def forget(key: str) -> None:
    """Drop a finished run's parsed graph from the cache (a 10^6-node graph holds ~100 MB)."""
    with _lock:
        _problems.pop(key, None)


def problem_of(state: GARState) -> ParsedProblem:
    """The parsed problem of this run (parsed again if the cache no longer holds it)."""
    key = state.get("graph_key", "")
    with _lock:
        problem = _problems.get(key)
    if problem is None and state.get("dataset"):
        raise GraphTextError(
            f"this run's edge dataset ({state['dataset']}) is no longer loaded in this process (a resumed run): "
            "ask the question again"
        )
    if problem is None:
        problem = build_problem(state["question"], state.get("graph"))
        with _lock:
            _problems[key] = problem
    return problem


def constructed(problem: ParsedProblem, question: str, how: str = "") -> dict[str, Any]:
    """The state update of a built graph: its cache key, summary, detected task and parameters."""
    if problem.n_nodes < 1:
        raise GraphTextError("the graph has no nodes")
    summary = problem.describe()
    params = {k: v for k, v in problem.params.items() if k != "pattern"}
    task = detect_task(question)
    emit("graph", summary, warnings=list(problem.warnings), unparsed=list(problem.unparsed))
    note: dict[str, Any] = {"step": "construct", "text": summary, "detected_task": task}
    if how:
        note["how"] = how
    if problem.warnings or problem.unparsed:
        note["warnings"] = [*problem.warnings, *(f"not understood: {u}" for u in problem.unparsed)]
    return {
        "graph_key": remember(problem),
        "graph_summary": summary,
        "detected_task": task,
        "params": params,
        "trace": [note],
    }


def construct(state: GARState, runtime: Runtime[GARContext]) -> dict:
    """Build the run's graph from its question (or structured graph, or the owner's edge dataset), within parse_seconds."""
    with reading_time(runtime.context.budget("parse_seconds")):
        return _construct(state, runtime.context)


def _construct(state: GARState, ctx: GARContext) -> dict:
    graph = state.get("graph")
    if ctx.edge_dataset:  # the owner's edge dataset on Spark is the graph of every question
        from graphreason.workflows.gar.datasets import dataset_question

        if graph is not None:
            raise GraphTextError("this server answers questions about its edge dataset: send the question alone")
        problem = dataset_question(ctx, state["question"])
        update = constructed(problem, state["question"], how="the edge dataset on Spark")
        update["dataset"] = problem.name
        return update
    try:
        problem = build_problem(state["question"], graph)
    except GraphTextUnreadable as exc:
        if graph is not None or not ctx.llm_parse:
            raise
        # no edges read at all: the master gets one try at writing the graph as JSON
        emit("graph", f"the parser read no edges; asking the master: {exc}")
        return {"parse_error": str(exc), "trace": [{"step": "construct", "text": str(exc), "parsed": False}]}
    return constructed(problem, state["question"])


def after_construct(state: GARState) -> str:
    """On to retrieval, or to the master's JSON reading when the parser read no edges."""
    return "parse_with_llm" if state.get("parse_error") else "retrieve"
