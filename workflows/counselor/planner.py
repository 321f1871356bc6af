"""Planning agent: one Plan line - what the question needs and how to get it from the graph."""

from __future__ import annotations

from langgraph.runtime import Runtime

from graphreason.workflows.counselor.common import STEP_STOPS, charge, emit, llm, next_index, role_prompt
from graphreason.workflows.counselor.context import CounselorContext
from graphreason.workflows.counselor.parsing import clean_line
from graphreason.workflows.counselor.state import CounselorState


def plan(state: CounselorState, runtime: Runtime[CounselorContext]) -> dict:
    ctx = runtime.context
    index = next_index(state)
    prompt = role_prompt("plan", index, state, ctx)
    text, usage = llm(ctx, "reasoner", prompt, stop=STEP_STOPS, max_tokens=ctx.line_tokens("plan"))
    line = clean_line(text, "plan") or "(no plan given)"
    emit("plan", line, state, index)
    return {"pending": charge({"index": index, "plan": line}, usage), "usage": usage}
