"""GraphAgent-Reasoner (GAR): master LLM + algorithm library + distributed execution (compiled or agents)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from workflows.gar.context import GARContext


def gar_input(question: str, graph: dict[str, Any] | None = None) -> dict[str, Any]:
    """The workflow input for a question (and optional structured graph), validated before anything runs."""
    from workflows.gar.state import GARInput

    checked = GARInput(question=question, graph=graph)  # a clear validation error, not a failed run
    payload: dict[str, Any] = {"question": checked.question}
    if graph is not None:
        payload["graph"] = graph
    return payload


def solve(
    question: str, context: GARContext | None = None, graph: dict[str, Any] | None = None, **config: Any
) -> dict:
    """Answer one graph problem; returns the output dict (answer, structured, algorithm, usage, trace, ...).

    ``graph`` is an optional structured graph (see :class:`workflows.gar.state.GARInput`);
    without it the graph is parsed from the question text.
    """
    from workflows.gar.graph import graph as workflow

    # a copy per call: each solve() is its own run, so a scripted model's script starts over
    context = replace(context) if context is not None else GARContext()
    return workflow.invoke(gar_input(question, graph), context=context, config=config)


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
    from workflows.gar.graph import graph as workflow

    final: dict[str, Any] = {}
    stream = workflow.stream(
        gar_input(question, graph),
        context=replace(context) if context is not None else GARContext(),  # fresh per run, as in solve()
        stream_mode=["custom", "values"],
        subgraphs=True,
    )
    for namespace, mode, chunk in stream:
        if mode == "custom" and isinstance(chunk, dict):
            if on_event is not None:
                on_event(chunk)
        elif mode == "values" and isinstance(chunk, dict) and not namespace:
            final = chunk
    return final


__all__ = ["GARContext", "gar_input", "solve", "stream_solve"]
