"""Graph knowledge extractor: runs the Action's graph calls and records the Observation.

The calls are the Action text's (text path) or the execution agent's native
tool calls (:func:`graphreason.workflows.counselor.execution.run_tool_calls`);
either way the Observation goes into the step, where the next prompt reads it.
"""

from __future__ import annotations

import time

from langgraph.runtime import Runtime

from graphreason.tools.counselor.answers import check_final
from graphreason.tools.counselor.calls import is_placeholder_answer, placeholder_message, run_action
from graphreason.tools.counselor.calls.execute import ExecutionResult
from graphreason.tools.counselor.functions import recording_retrievals
from graphreason.tools.counselor.registry import counting_without
from graphreason.tools.counselor.wording import left_out_names, question_names
from graphreason.workflows.counselor.common import emit
from graphreason.workflows.counselor.context import CounselorContext
from graphreason.workflows.counselor.execution import bracket_form, run_tool_calls
from graphreason.workflows.counselor.parsing import clean_line, regularize_answer
from graphreason.workflows.counselor.resources import graph_functions
from graphreason.workflows.counselor.state import CounselorState


def observe(state: CounselorState, runtime: Runtime[CounselorContext]) -> dict:
    ctx = runtime.context
    step = dict(state["pending"])
    start = time.perf_counter()
    raw = step.get("raw_action") or step.get("action") or ""
    functions = graph_functions(ctx)
    left_out = left_out_names(state["question"], question_names(functions.store, state["question"]))
    with recording_retrievals() as retrievals, counting_without(left_out):  # "not counting X itself": Count leaves X out
        if step.get("tool_calls") or step.get("tool_problem"):  # native tool calling
            result = _native_result(step, ctx)
        else:
            result = run_action(raw, functions, allow_compound=ctx.compound, max_depth=ctx.max_depth)
    seconds = time.perf_counter() - start
    if retrievals:  # the trace says which ranking tier chose each Retrieve's node
        step["retrieval"] = retrievals
    update: dict = {"pending": {}, "usage": {"tool_seconds": seconds}}
    answer = regularize_answer(result.finish) if result.finish is not None else None
    check = None
    if answer is not None and not is_placeholder_answer(answer) and ctx.mode != "base":
        steps = state.get("steps") or []
        failed = [str(s.get("observation") or "") for s in steps if s.get("ok") is False]
        seen = [str(s.get("observation") or "") for s in steps if s.get("ok") is not False]
        raw_finish = str(step.get("raw_action") or "").partition("Finish[")[2]
        cut = bool(raw_finish) and "]" not in raw_finish  # the reply ran out of tokens before the Finish closed
        check = check_final(answer, graph_functions(ctx), state["question"], failed, seen, cut=cut)
        if check.action != "kept":  # the trace says what was refused or mapped, and from what
            step["final_check"] = check.record(answer)
    if answer is not None and is_placeholder_answer(answer):  # e.g. Finish[Answer: answer]
        message = placeholder_message(answer)
        step.update(observation=message, ok=False, calls=result.calls, seconds=seconds)
        emit("observation", message, state, step["index"])
    elif check is not None and check.answer is None:  # not an answer: a call, a relation name, an error text
        step.update(observation=check.message, ok=False, calls=result.calls, seconds=seconds)
        emit("observation", check.message, state, step["index"])
    elif answer is not None:
        answer = check.answer if check is not None and check.answer is not None else answer
        step.update(observation=f"Answer is {answer}", ok=True, calls=result.calls, seconds=seconds)
        update.update(trial_answer=answer, finished=True)
        emit("answer", answer, state, step["index"])
    else:
        step.update(observation=result.observation, ok=result.ok, calls=result.calls, seconds=seconds)
        emit("observation", result.observation, state, step["index"])
    if not step.get("raw_action") or clean_line(step["raw_action"], "action") == step.get("action"):
        # the trace keeps the raw reply only where its first line differs from what ran
        step.pop("raw_action", None)
    step.pop("tool_problem", None)  # it is the observation now
    update["steps"] = [*(state.get("steps") or []), step]
    return update


def _native_result(step: dict, ctx: CounselorContext) -> ExecutionResult:
    """The native tool calls of ``step`` run (or the reason none could be read), as the text path's result."""
    calls = list(step.get("tool_calls") or [])
    if not calls:
        problem = str(step.get("tool_problem"))
        return ExecutionResult(problem, ok=False, errors=[problem])
    functions = graph_functions(ctx)
    observation, ok, answer = run_tool_calls(calls, functions, allow_compound=ctx.compound)
    shown = [bracket_form(functions, call) for call in calls]
    return ExecutionResult(observation, ok=ok, finish=answer, calls=shown, errors=[] if ok else [observation])
