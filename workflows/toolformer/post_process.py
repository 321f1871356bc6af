"""Post-processing (the paper's module 5): results go into the text, background calls leave it."""

from __future__ import annotations

import time
from typing import Any

from langgraph.runtime import Runtime

from graphreason.tools.toolformer.calls.ast import Bracket, Text
from graphreason.tools.toolformer.calls.parse import parse_text_spans
from graphreason.workflows.kit.chat import answer_message
from graphreason.workflows.kit.events import emit
from graphreason.workflows.toolformer.context import ToolformerContext
from graphreason.workflows.toolformer.execute import CallOutcome
from graphreason.workflows.toolformer.state import ToolformerState
from graphreason.workflows.usage import run_totals


def substitute_results(text: str, outcomes: list[CallOutcome]) -> str:
    """The final text: ``-->r`` brackets replaced by their results, recorded-only and binding brackets removed.

    ``outcomes`` are the executor's, one per parsed bracket of ``text`` in
    order. A failed bracket, and one that did not parse, stays exactly as
    written, so nothing the model wrote is lost and the reader sees where a call
    could not run; ``[TBR]`` stays when no call filled it. Where a bracket is
    removed, the space it leaves is not doubled.
    """
    results = iter(outcomes)
    pieces: list[str] = []
    removed_before = False
    for start, end, segment in parse_text_spans(text):
        written = text[start:end]
        if isinstance(segment, Text):
            if removed_before and pieces and pieces[-1].endswith(" ") and written[:1] in {" ", ".", ",", ";", ":"}:
                pieces[-1] = pieces[-1].rstrip(" ")  # "The [GL(...)] dataset" reads "The dataset"
            pieces.append(written)
            removed_before = False
            continue
        removed_before = False
        if isinstance(segment, Bracket):
            outcome = next(results, None)
            if outcome is not None and outcome.ok:
                if segment.substitutes:
                    pieces.append(outcome.text)
                else:
                    removed_before = True
                continue
        pieces.append(written)  # [TBR], a bracket that did not parse, a call that failed
    return "".join(pieces).strip()


def post_process(state: ToolformerState, runtime: Runtime[ToolformerContext]) -> dict[str, Any]:
    outcomes = [CallOutcome(**r) for r in state.get("results", [])]
    final = substitute_results(state.get("annotated", ""), outcomes)
    emit("final", final)
    seconds = round(time.perf_counter() - state.get("started", time.perf_counter()), 3)
    usage = run_totals(state.get("llm_usage"), seconds=seconds, tool_seconds=state.get("tool_seconds", 0.0))
    return {"final": final, "usage": usage, "trace": [{"step": "post_process", "final": final}],
            **answer_message(final)}
