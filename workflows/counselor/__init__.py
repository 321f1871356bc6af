"""Graph Counselor (planner / thought / executor agents, judge, multi-perspective reflection)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from workflows.counselor.context import CounselorContext
from workflows.kit.run import run_workflow, stream_workflow


def solve(question: str, context: CounselorContext | None = None, **config: Any) -> dict:
    """Answer one question; returns the output dict (answer, first_answer, trials, usage, ...)."""
    from workflows.counselor.graph import graph

    return run_workflow(graph, counselor_input(question), context or CounselorContext(), **config)


def stream_solve(
    question: str,
    context: CounselorContext | None = None,
    on_event: Callable[[dict[str, Any]], None] | None = None,
) -> dict[str, Any]:
    """Like :func:`solve`, passing each custom event to ``on_event`` as it happens; returns the final state."""
    from workflows.counselor.graph import graph

    return stream_workflow(graph, counselor_input(question), context or CounselorContext(), on_event)


def counselor_input(question: str) -> dict[str, Any]:
    """The workflow input for a question, validated before anything runs."""
    from workflows.counselor.state import CounselorInput

    CounselorInput(question=question)  # a clear validation error, not a failed run
    return {"question": question}


__all__ = ["CounselorContext", "counselor_input", "solve", "stream_solve"]
