"""Trial bookkeeping: start a run, close a trial, open the next one, finish."""

from __future__ import annotations

import time

from langgraph.runtime import Runtime

from graphreason.tools.counselor.answers import grounded
from graphreason.workflows.counselor.context import CounselorContext
from graphreason.workflows.counselor.resources import graph_functions
from graphreason.workflows.counselor.state import CounselorState, Trial
from graphreason.workflows.inputs import question_of
from graphreason.workflows.kit.chat import answer_message
from graphreason.workflows.run_context import names_embedded_model

# a question about the graph, not a document: longer inputs are refused before any model or graph work
MAX_QUESTION_CHARS = 20_000


def _fresh_trial(index: int) -> dict:
    """Working fields of a trial that has not taken a step yet."""
    return {
        "trial_index": index,
        "steps": [],
        "pending": {},
        "trial_answer": None,
        "finished": False,
        "verdict": None,
        "judge_text": None,
    }


def start(state: CounselorState, runtime: Runtime[CounselorContext]) -> dict:
    """Check the question and load the graph up front, so bad input fails before any LLM call."""
    question = question_of(state, MAX_QUESTION_CHARS)  # QuestionError (a ValueError) with what is wrong
    if runtime.context.mode != "base":
        graph_functions(runtime.context)
    return {
        **_fresh_trial(0),
        "question": question,
        "started": time.perf_counter(),
        "answer": "",
        "answer_grounded": False,
        "first_answer": "",
        "accepted": None,
    }


def close_trial(state: CounselorState, runtime: Runtime[CounselorContext]) -> dict:
    """Record the trial; a finished trial's answer becomes the current final answer."""
    index = state.get("trial_index", 0)
    trial: Trial = {
        "index": index,
        "steps": list(state.get("steps") or []),
        "answer": state.get("trial_answer"),
        "finished": bool(state.get("finished")),
        "verdict": state.get("verdict"),
        "judge_text": state.get("judge_text"),
    }
    update: dict = {"trials": [trial]}
    if state.get("finished"):
        answer = state.get("trial_answer") or ""
        # what the graph showed before the Finish (the last step, whose observation only repeats the answer)
        observations = [str(s.get("observation") or "") for s in trial["steps"][:-1] if s.get("ok") is not False]
        trial["grounded"] = grounded(answer, observations, state.get("question") or "")
        if index > 0 and _keeps_earlier(state, trial, runtime.context):
            trial["kept_earlier"] = True
        else:
            update["answer"] = answer
            update["answer_grounded"] = trial["grounded"]
        if index == 0:
            update["first_answer"] = answer
    if state.get("verdict") is not None and not trial.get("kept_earlier"):  # the verdict on the final answer
        update["accepted"] = state["verdict"] == "yes"
    return update


def _keeps_earlier(state: CounselorState, trial: Trial, ctx: CounselorContext) -> bool:
    """Whether a later trial's answer leaves the earlier, grounded final answer in place.

    The embedded judge's verdicts are mostly "unclear", so reflection trials ran on right
    answers and replaced them: there a later answer counts only when it is grounded and the
    judge said yes to it. With any other judge the paper's rule holds (the latest answer),
    except that an ungrounded answer never replaces a grounded one.
    """
    if not state.get("answer_grounded"):
        return False
    if names_embedded_model(ctx.model_of("judge")):
        return not (trial.get("grounded") and state.get("verdict") == "yes")
    return not trial.get("grounded")


def next_trial(state: CounselorState) -> dict:
    """Fresh scratchpad for the next trial; the reflections stay in state and enter the prompt."""
    return _fresh_trial(state.get("trial_index", 0) + 1)


def finish(state: CounselorState) -> dict:
    """The run's time, and its answer on the chat channel."""
    return {"seconds": time.perf_counter() - state.get("started", time.perf_counter()),
            **answer_message(state.get("answer"))}
