"""GraphAgent-Reasoner (GAR): master LLM + algorithm library + distributed execution (compiled mode)."""

from __future__ import annotations

from typing import Any

from workflows.gar.context import GARContext


def solve(
    question: str, context: GARContext | None = None, graph: dict[str, Any] | None = None, **config: Any
) -> dict:
    """Answer one graph problem; returns the output dict (answer, structured, algorithm, usage, trace, ...).

    ``graph`` is an optional structured graph (see :class:`workflows.gar.state.GARInput`);
    without it the graph is parsed from the question text.
    """
    from workflows.gar.graph import graph as workflow
    from workflows.gar.state import GARInput

    context = context or GARContext()
    checked = GARInput(question=question, graph=graph)  # clear validation error before anything runs
    payload: dict[str, Any] = {"question": checked.question}
    if graph is not None:
        payload["graph"] = graph
    return workflow.invoke(payload, context=context, config=config)


__all__ = ["GARContext", "solve"]
