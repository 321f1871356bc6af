"""Planning agent: one Plan line - what the question needs and how to get it from the graph."""

from __future__ import annotations

from langgraph.runtime import Runtime

from workflows.counselor.common import STEP_STOPS, charge, emit, llm, next_index, shared_prompt
from workflows.counselor.context import CounselorContext
from workflows.counselor.parsing import clean_line
from workflows.counselor.prompts import step_prompt
from workflows.counselor.resources import graph_definition
from workflows.counselor.state import CounselorState


def plan(state: CounselorState, runtime: Runtime[CounselorContext]) -> dict:
    ctx = runtime.context
    index = next_index(state)
    prompt = step_prompt("plan", index, shared_prompt(state, ctx, graph_definition(ctx)))
    text, usage = llm(ctx, "reasoner", prompt, stop=STEP_STOPS)
    line = clean_line(text, "plan") or "(no plan given)"
    emit("plan", line, state, index)
    return {"pending": charge({"index": index, "plan": line}, usage), "usage": usage}
