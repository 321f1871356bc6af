"""The master designs a new distributed algorithm when no library entry fits.

    design ─► test_design ─┬─► summarize   (checked and run: the answer)
       ▲                   │
       └──── feedback ◄────┘               (refused, wrong or failed, and attempts remain)

``design`` asks the master for the six parts as restricted Python (one LLM
call; later attempts get the previous code and what went wrong).
``test_design`` checks it on small graphs (:mod:`graphreason.workflows.gar.design.check`)
and then runs it on the question's graph in the sandbox. After
``design_attempts`` failures the run ends with no answer and says why - a
designed algorithm is never trusted unchecked, and never hangs the run.
"""

from __future__ import annotations

import math
import time
from typing import Any

from langgraph.runtime import Runtime

from graphreason.tools.core.jsonable import jsonable
from graphreason.tools.gar.sandbox import SandboxResult
from graphreason.workflows.gar.construct import problem_of
from graphreason.workflows.gar.context import GARContext
from graphreason.workflows.gar.design.check import check_design, extract_code, run_on_problem
from graphreason.workflows.gar.design.prompts import design_prompt, repair_prompt
from graphreason.workflows.gar.retrieve import question_focus
from graphreason.workflows.gar.state import GARState
from graphreason.workflows.gar.written import bounded
from graphreason.workflows.kit.events import emit
from graphreason.workflows.kit.llm import ask_role


def design(state: GARState, runtime: Runtime[GARContext]) -> dict:
    ctx = runtime.context
    if ctx.design_attempts == 0:  # designing switched off: say so instead of running an unfitting entry
        update = _failed("designing new algorithms is switched off (design_attempts=0)", 0, ctx)
        return {
            **update,
            "design_source": "",
            "trace": [{"step": "design", "text": update["result"]["text"]}],
        }
    question = question_focus(state["question"])
    feedback = state.get("design_feedback")
    if feedback:
        prompt = repair_prompt(question, state.get("design_source", ""), feedback)
    else:
        prompt = design_prompt(question, state["graph_summary"], state.get("chosen_params") or {})
    reply = ask_role(ctx, ctx.master_model, prompt, temperature=ctx.temperature, max_tokens=ctx.design_max_tokens)
    attempt = state.get("design_attempt", 0) + 1
    source = extract_code(reply.text)
    text = (
        f"design attempt {attempt}: {len(source.splitlines())} lines of code"
        if source
        else (f"design attempt {attempt}: no code in the reply")
    )
    emit("design", text, attempt=attempt, source=source)
    return {
        "design_source": source,
        "design_attempt": attempt,
        "llm_usage": reply.usage(),
        "trace": [{"step": "design", "text": text, "attempt": attempt, "reply": reply.text}],
    }


def _unusable(run: SandboxResult) -> str:
    """Why the run on the question's graph gave no usable answer ('' when it did)."""
    if run.status not in ("ok", "round_cap") or (run.status == "round_cap" and run.answer is None):
        return f"on the question's graph: {run.status} - {run.message}"
    if _holds_nan(run.answer):  # e.g. 0 * inf: it ran cleanly, yet answered nothing
        return "on the question's graph: the answer holds NaN (not a number); return a real value"
    return ""


def _holds_nan(value: Any) -> bool:
    """True when a designed answer is or contains a NaN (decoded answers nest at most 64 deep)."""
    if isinstance(value, float):
        return math.isnan(value)
    if isinstance(value, dict):
        return any(_holds_nan(k) or _holds_nan(v) for k, v in value.items())
    if isinstance(value, list | tuple | set | frozenset):
        return any(_holds_nan(v) for v in value)
    return False


def _failed(problem: str, attempt: int, ctx: GARContext) -> dict:
    """State update after a failed attempt: feedback for the next one, or the final no-answer result."""
    if attempt < ctx.design_attempts:
        return {"design_feedback": problem, "design_status": "retry"}
    text = (
        f"No answer: none of the library algorithms fits this question, and the designed algorithm "
        f"failed after {attempt} attempt(s). Last problem: {problem}"
    )
    result = {
        "answer": None,
        "text": text,
        "rounds": 0,
        "complete": False,
        "seconds": 0.0,
        "engine": "designed",
    }
    return {"design_feedback": problem, "design_status": "failed", "result": result, "rounds": 0}


def test_design(state: GARState, runtime: Runtime[GARContext]) -> dict:
    ctx = runtime.context
    source, attempt = state.get("design_source", ""), state.get("design_attempt", 1)
    params = dict(state.get("chosen_params") or {})
    problem = problem_of(state)
    started = time.perf_counter()
    note: dict[str, Any] = {"step": "test_design", "attempt": attempt}
    if not source:
        check_text = (
            "the reply held no code: reply with one ```python block defining init, send, update and result"
        )
        note["text"] = check_text
        emit("design_check", check_text, passed=False)
        return {**_failed(check_text, attempt, ctx), "trace": [note]}
    check = check_design(
        source, problem, params, state.get("detected_task"), n_graphs=ctx.design_check_graphs,
        cpu_seconds=ctx.design_cpu_seconds,
    )  # fmt: skip
    note.update(judge=check.judge, graphs_checked=check.graphs_checked, passed=check.passed)
    emit("design_check", f"{check.judge} check: {check.message}", passed=check.passed, judge=check.judge)
    if not check.passed:
        note["text"] = f"{check.judge} check failed: {check.message}"
        return {**_failed(check.message, attempt, ctx), "trace": [note]}
    run = run_on_problem(
        source, problem, params, cpu_seconds=ctx.design_cpu_seconds, memory_mb=ctx.design_memory_mb
    )
    message = _unusable(run)
    if message:
        note["text"] = message
        emit("design_run", message, status=run.status)
        return {**_failed(message, attempt, ctx), "trace": [note]}
    complete = run.status == "ok"
    checked = {"oracle": "checked against brute force", "brute_force": "checked against its own brute force",
               "smoke": "not checkable against a reference: only ran cleanly"}[check.judge]  # fmt: skip
    text = f"Designed algorithm ({checked} on {check.graphs_checked} small graphs) answered: {run.answer!r}"
    if ctx.engine == "spark":
        # the sandbox's limits (CPU seconds, memory, no imports) hold for one child process, not on a cluster
        text += " (designed programs run only in the sandbox on this machine, never on Spark)"
    if not complete:
        text += f" (stopped at the round cap of {run.rounds}; the answer may be incomplete)"
    result = {
        "answer": jsonable(run.answer, int_floats=True),
        "text": text,
        "rounds": run.rounds,
        "complete": complete,
        "seconds": time.perf_counter() - started,
        "engine": "designed",
        "check": check.judge,
        "source": source,
    }
    result = bounded(result, ctx, "designed")  # a long answer is written to a file, and its sentence cut
    note["text"] = result["text"]
    emit("design_run", result["text"], status=run.status, rounds=run.rounds)
    return {"design_status": "ok", "result": result, "rounds": run.rounds, "trace": [note]}


def after_test(state: GARState) -> str:
    """Another design attempt, or on to the summary."""
    return "design" if state.get("design_status") == "retry" else "summarize"


def after_design(state: GARState) -> str:
    """Test the new design, or go straight to the summary when designing is switched off."""
    return "summarize" if state.get("design_status") == "failed" else "test_design"
