"""Graph Counselor (planner / thought / executor agents, judge, multi-perspective reflection)."""

from __future__ import annotations

from typing import Any

from workflows.counselor.context import CounselorContext


def solve(question: str, context: CounselorContext | None = None, **config: Any) -> dict:
    """Answer one question; returns the output dict (answer, first_answer, trials, usage, ...)."""
    from workflows.counselor.graph import graph
    from workflows.counselor.state import CounselorInput

    context = context or CounselorContext()
    CounselorInput(question=question)  # clear validation error before anything runs
    return graph.invoke({"question": question}, context=context, config=config)


__all__ = ["CounselorContext", "solve"]
