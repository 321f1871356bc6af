"""Typed input, output and internal state of the Graph Counselor workflow."""

from __future__ import annotations

import operator
from typing import Annotated

from pydantic import Field

# typing.TypedDict has no schema in pydantic on Python < 3.12: Studio would get no output schema.
from typing_extensions import TypedDict

from graphreason.workflows.inputs import QuestionInput
from graphreason.workflows.kit.chat import Messages
from graphreason.workflows.usage import Usage, add_usage


class CounselorInput(QuestionInput):
    """What a caller sends: one natural-language question."""

    question: str | None = Field(default=None, description="The question to answer from the graph.")


class Step(TypedDict, total=False):
    """One Plan - Thought - Action - Observation step of a trial."""

    index: int
    plan: str
    thought: str
    action: str
    raw_action: str
    tool_calls: list[dict]  # native tool calling: the execution agent's calls (name, args, id)
    tool_problem: str  # native tool calling: why no call could be read (until observe reports it)
    observation: str
    calls: list[str]
    retrieval: list[dict]  # each Retrieve of the action: query, node, and the ranking tier that chose it
    final_check: dict  # a Finish refused (a call, a relation name, an error text) or mapped (ids to names, a left-out name dropped)
    ok: bool
    seconds: float  # graph-function time of the action
    llm_calls: int
    input_tokens: int
    output_tokens: int
    llm_seconds: float


class Trial(TypedDict, total=False):
    """One attempt at the question; trials after the first see the reflections."""

    index: int
    steps: list[Step]
    answer: str | None
    finished: bool
    verdict: str | None
    judge_text: str | None
    grounded: bool  # a finished trial: every item of its answer occurs in its observations (a number if asked how many)
    kept_earlier: bool  # its answer was not grounded, so the earlier, grounded answer stayed the final one


class CounselorOutput(TypedDict, total=False):
    """What a run returns: final and first-trial answers with the full trace."""

    # Field(description=...) inside Annotated survives into LangGraph's JSON schemas (Studio shows it).
    question: Annotated[str, Field(description="The question, stripped of surrounding blanks.")]
    answer: Annotated[str, Field(description="The final answer (after reflection trials, if any).")]
    first_answer: Annotated[str, Field(description="The first trial's answer, before any reflection.")]
    accepted: Annotated[bool, Field(description="Whether the in-loop judge accepted the final answer.")]
    trials: Annotated[
        list[Trial], Field(description="Every trial with its Plan / Thought / Action / Observation steps.")
    ]
    reflections: Annotated[list[str], Field(description="The reflector's advice between trials.")]
    usage: Annotated[Usage, Field(description="LLM calls, tokens and seconds spent by the run.")]
    seconds: Annotated[float, Field(description="Wall-clock seconds of the run.")]
    messages: Messages


class CounselorState(CounselorOutput, total=False):
    """Internal state: the output fields plus the current trial's working data."""

    started: Annotated[float, Field(description="perf_counter() when the run started (for its seconds).")]
    trial_index: Annotated[int, Field(description="The current trial: 0 first, then one more per reflection.")]
    steps: Annotated[list[Step], Field(description="The current trial's finished steps (its scratchpad).")]
    pending: Annotated[Step, Field(description="The step being built: plan, thought, action before the observation.")]
    trial_answer: Annotated[str | None, Field(description="The current trial's Finish answer, if it gave one.")]
    answer_grounded: Annotated[bool, Field(description="Whether the final answer so far is grounded in its trial.")]
    finished: Annotated[bool, Field(description="Whether the current trial ended with Finish.")]
    verdict: Annotated[str | None, Field(description="The judge's verdict on the current trial: yes or no.")]
    judge_text: Annotated[str | None, Field(description="The judge's reply as written.")]
    # the reducer must stay the last Annotated item (LangGraph reads it from there)
    trials: Annotated[list[Trial], Field(description="Every trial with its steps."), operator.add]
    reflections: Annotated[list[str], Field(description="The reflector's advice between trials."), operator.add]
    usage: Annotated[Usage, Field(description="LLM calls, tokens and seconds spent by the run."), add_usage]
