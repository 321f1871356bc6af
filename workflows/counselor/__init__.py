"""Graph Counselor (planner / thought / executor agents, judge, multi-perspective reflection)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from workflows.counselor.context import CounselorContext


def solve(question: str, context: CounselorContext | None = None, **config: Any) -> dict:
    """Answer one question; returns the output dict (answer, first_answer, trials, usage, ...)."""
    from workflows.counselor.graph import graph
    from workflows.counselor.state import CounselorInput

    # a copy per call: each solve() is its own run, so a scripted model's script starts over
    context = replace(context) if context is not None else CounselorContext()
    CounselorInput(question=question)  # clear validation error before anything runs
    return graph.invoke({"question": question}, context=context, config=config)


__all__ = ["CounselorContext", "solve"]
