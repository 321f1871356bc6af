"""The query parser step (the paper's module 2): find and read every call in the annotated text.

The grammar lives in :mod:`graphreason.tools.toolformer.calls`; this step only records
what it found, canonically printed, and the brackets that looked like calls
but did not parse (they are reported, never fatal: the rest still runs).
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from graphreason.tools.toolformer.calls.ast import Document
from graphreason.tools.toolformer.calls.parse import parse_text
from graphreason.tools.toolformer.calls.printer import print_bracket
from graphreason.workflows.kit.events import emit
from graphreason.workflows.toolformer.context import ToolformerContext
from graphreason.workflows.toolformer.state import ToolformerState


def parsed(text: str) -> tuple[Document, list[str]]:
    """The document of ``text`` and a readable line per bracket that did not parse."""
    document = parse_text(text)
    problems = [f"{bad.raw}: {bad.message}" for bad in document.problems]
    return document, problems


def parse(state: ToolformerState, runtime: Runtime[ToolformerContext]) -> dict[str, Any]:
    document, problems = parsed(state.get("annotated", ""))
    calls = [print_bracket(b) for b in document.brackets]
    for call in calls:
        emit("call", call)
    for problem in problems:
        emit("parse_error", problem)
    note = {"step": "parse", "calls": len(calls), "parse_errors": len(problems)}
    return {"calls": calls, "parse_errors": problems, "trace": [note]}
