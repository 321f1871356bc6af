"""Judge agent: accepts or rejects a finished trial from its trajectory alone (no gold answer)."""

from __future__ import annotations

from langgraph.runtime import Runtime

from graphreason.workflows.counselor.common import emit, llm, render_scratchpad
from graphreason.workflows.counselor.context import CounselorContext
from graphreason.workflows.counselor.parsing import parse_verdict
from graphreason.workflows.counselor.prompts import JUDGE_PROMPT
from graphreason.workflows.counselor.resources import graph_definition
from graphreason.workflows.counselor.state import CounselorState


def judge(state: CounselorState, runtime: Runtime[CounselorContext]) -> dict:
    ctx = runtime.context
    prompt = JUDGE_PROMPT.format(
        graph_definition=graph_definition(ctx),
        question=state["question"],
        scratchpad=render_scratchpad(state.get("steps") or [], with_plan=ctx.planner_on),
        answer=state.get("trial_answer") or "",
    )
    text, usage = llm(ctx, "judge", prompt, max_tokens=160)
    verdict = parse_verdict(text)
    emit("verdict", verdict, state, None, explanation=text.strip())
    return {"verdict": verdict, "judge_text": text.strip(), "usage": usage}
