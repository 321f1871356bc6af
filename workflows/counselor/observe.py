"""Graph knowledge extractor: runs the Action's graph calls and records the Observation."""

from __future__ import annotations

import time

from langgraph.runtime import Runtime

from tools.calls import is_placeholder_answer, placeholder_message, run_action
from workflows.counselor.common import emit
from workflows.counselor.context import CounselorContext
from workflows.counselor.parsing import clean_line, regularize_answer
from workflows.counselor.resources import graph_functions
from workflows.counselor.state import CounselorState


def observe(state: CounselorState, runtime: Runtime[CounselorContext]) -> dict:
    ctx = runtime.context
    step = dict(state["pending"])
    start = time.perf_counter()
    raw = step.get("raw_action") or step.get("action") or ""
    result = run_action(raw, graph_functions(ctx), allow_compound=ctx.compound, max_depth=ctx.max_depth)
    seconds = time.perf_counter() - start
    update: dict = {"pending": {}, "usage": {"tool_seconds": seconds}}
    answer = regularize_answer(result.finish) if result.finish is not None else None
    if answer is not None and is_placeholder_answer(answer):  # e.g. Finish[Answer: answer]
        message = placeholder_message(answer)
        step.update(observation=message, ok=False, calls=result.calls, seconds=seconds)
        emit("observation", message, state, step["index"])
    elif answer is not None:
        step.update(observation=f"Answer is {answer}", ok=True, calls=result.calls, seconds=seconds)
        update.update(trial_answer=answer, finished=True)
        emit("answer", answer, state, step["index"])
    else:
        step.update(observation=result.observation, ok=result.ok, calls=result.calls, seconds=seconds)
        emit("observation", result.observation, state, step["index"])
    if clean_line(step.get("raw_action", ""), "action") == step.get("action"):
        # the trace keeps the raw reply only where its first line differs from what ran
        step.pop("raw_action", None)
    update["steps"] = [*(state.get("steps") or []), step]
    return update
