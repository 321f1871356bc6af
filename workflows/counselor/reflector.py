"""Reflection agent: recap, analysis and adjustment, refined strategy for the next trial."""

from __future__ import annotations

from langgraph.runtime import Runtime

from graphreason.workflows.counselor.common import emit, llm, render_scratchpad
from graphreason.workflows.counselor.context import CounselorContext
from graphreason.workflows.counselor.prompts import REFLECTION_PROMPT
from graphreason.workflows.counselor.resources import graph_definition
from graphreason.workflows.counselor.state import CounselorState


def outcome(state: CounselorState, context: CounselorContext) -> str:
    """The recap's outcome category, as the paper's reflection prompt names them."""
    if state.get("finished"):
        return f"the answer '{state.get('trial_answer')}' was judged incorrect"
    return f"it exceeded the step limit ({context.max_steps} steps) without finishing"


def reflect(state: CounselorState, runtime: Runtime[CounselorContext]) -> dict:
    ctx = runtime.context
    prompt = REFLECTION_PROMPT.format(
        outcome=outcome(state, ctx),
        graph_definition=graph_definition(ctx),
        question=state["question"],
        scratchpad=render_scratchpad(state.get("steps") or [], with_plan=ctx.planner_on),
    )
    text, usage = llm(ctx, "reflector", prompt, max_tokens=ctx.reflection_max_tokens)
    reflection = text.strip() or "(the reflector returned nothing)"
    emit("reflection", reflection, state, None)
    return {"reflections": [reflection], "usage": usage}
