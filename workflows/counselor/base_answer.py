"""Base-LLM baseline: answer from the model's own knowledge, no graph access."""

from __future__ import annotations

from langgraph.runtime import Runtime

from graphreason.workflows.counselor.common import emit, llm
from graphreason.workflows.counselor.context import CounselorContext
from graphreason.workflows.counselor.parsing import clean_line, regularize_answer
from graphreason.workflows.counselor.prompts import BASE_PROMPT
from graphreason.workflows.counselor.state import CounselorState


def answer_directly(state: CounselorState, runtime: Runtime[CounselorContext]) -> dict:
    ctx = runtime.context
    text, usage = llm(ctx, "reasoner", BASE_PROMPT.format(question=state["question"]), stop=["\n\n"])
    answer = regularize_answer(clean_line(text, "answer"))
    emit("answer", answer, state, None)
    return {"trial_answer": answer, "finished": True, "usage": usage}
