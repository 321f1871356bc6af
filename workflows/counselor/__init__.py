"""Graph Counselor (planner / thought / executor agents, judge, multi-perspective reflection)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from graphreason.workflows.counselor.context import CounselorContext
from graphreason.workflows.counselor.state import CounselorInput
from graphreason.workflows.kit.run import run_workflow, stream_workflow
from graphreason.workflows.method import Method

# what Studio and `graphreason run --help` say of the method (langgraph.json holds the same line)
DESCRIPTION = "Graph Counselor: planner / thought / executor agents over graph functions, with judge and multi-perspective self-reflection"


def solve(question: str, context: CounselorContext | None = None, **config: Any) -> dict:
    """Answer one question; returns the output dict (answer, first_answer, trials, usage, ...)."""
    from graphreason.workflows.counselor.graph import graph, recursion_limit

    context = context or CounselorContext()
    config.setdefault("recursion_limit", recursion_limit(context))
    return run_workflow(graph, counselor_input(question), context, **config)


def stream_solve(
    question: str,
    context: CounselorContext | None = None,
    on_event: Callable[[dict[str, Any]], None] | None = None,
) -> dict[str, Any]:
    """Like :func:`solve`, passing each custom event to ``on_event`` as it happens; returns the final state."""
    from graphreason.workflows.counselor.graph import graph, recursion_limit

    context = context or CounselorContext()
    return stream_workflow(graph, counselor_input(question), context, on_event,
                           recursion_limit=recursion_limit(context))


def counselor_input(question: str) -> dict[str, Any]:
    """The workflow input for a question, validated before anything runs."""
    from graphreason.workflows.counselor.state import CounselorInput

    CounselorInput(question=question)  # a clear validation error, not a failed run
    return {"question": question}


METHOD = Method(
    name="counselor", graph_id="graph_counselor", description=DESCRIPTION, package=__name__,
    context=CounselorContext, input_schema=CounselorInput, solve=solve, stream_solve=stream_solve,
)  # fmt: skip

__all__ = ["METHOD", "CounselorContext", "counselor_input", "solve", "stream_solve"]
