"""Thought agent: one Thought line - which graph information is needed now."""

from __future__ import annotations

from langgraph.runtime import Runtime

from graphreason.workflows.counselor.common import STEP_STOPS, charge, emit, llm, next_index, role_prompt
from graphreason.workflows.counselor.context import CounselorContext
from graphreason.workflows.counselor.parsing import clean_line
from graphreason.workflows.counselor.state import CounselorState


def think(state: CounselorState, runtime: Runtime[CounselorContext]) -> dict:
    ctx = runtime.context
    index = next_index(state)
    pending = dict(state.get("pending") or {"index": index})
    prompt = role_prompt("thought", index, state, ctx)
    text, usage = llm(ctx, "reasoner", prompt, stop=STEP_STOPS, max_tokens=ctx.line_tokens("thought"))
    line = clean_line(text, "thought") or "(no thought given)"
    pending.update(index=index, thought=line)
    emit("thought", line, state, index)
    return {"pending": charge(pending, usage), "usage": usage}
