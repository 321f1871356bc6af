"""GraphAgent-Reasoner (GAR): master LLM + algorithm library + distributed execution (compiled or agents)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from graphreason.workflows.gar.context import GARContext
from graphreason.workflows.gar.state import GARInput
from graphreason.workflows.kit.run import run_workflow, stream_workflow
from graphreason.workflows.method import Method

# what Studio and `graphreason run --help` say of the method (langgraph.json holds the same line)
DESCRIPTION = "GraphAgent-Reasoner: parse the graph problem (LLM reading as fallback), retrieve top-k library algorithms, master LLM picks one or designs a new one (sandboxed and checked), compiled vertex engine or node agents run it, structured answer"


def gar_input(question: str, graph: dict[str, Any] | None = None) -> dict[str, Any]:
    """The workflow input for a question (and optional structured graph), validated before anything runs."""
    from graphreason.workflows.gar.state import GARInput

    checked = GARInput(question=question, graph=graph)  # a clear validation error, not a failed run
    payload: dict[str, Any] = {"question": checked.question}
    if graph is not None:
        payload["graph"] = graph
    return payload


def solve(
    question: str, context: GARContext | None = None, graph: dict[str, Any] | None = None, **config: Any
) -> dict:
    """Answer one graph problem; returns the output dict (answer, structured, algorithm, usage, trace, ...).

    ``graph`` is an optional structured graph (see :class:`graphreason.workflows.gar.state.GARInput`);
    without it the graph is parsed from the question text.
    """
    from graphreason.workflows.gar.graph import graph as workflow

    return run_workflow(workflow, gar_input(question, graph), context or GARContext(), **config)


def stream_solve(
    question: str,
    context: GARContext | None = None,
    graph: dict[str, Any] | None = None,
    on_event: Callable[[dict[str, Any]], None] | None = None,
) -> dict[str, Any]:
    """Like :func:`solve`, passing each custom event to ``on_event`` as it happens; returns the final state.

    Events of the agents-mode subgraph (per-round ``agent_round``) are passed on too.
    The returned state holds internal fields besides the output ones.
    """
    from graphreason.workflows.gar.graph import graph as workflow

    inputs = gar_input(question, graph)
    return stream_workflow(workflow, inputs, context or GARContext(), on_event, subgraphs=True)


METHOD = Method(
    name="gar", graph_id="gar", description=DESCRIPTION, package=__name__,
    context=GARContext, input_schema=GARInput, solve=solve, stream_solve=stream_solve,
)  # fmt: skip

__all__ = ["METHOD", "GARContext", "gar_input", "solve", "stream_solve"]
