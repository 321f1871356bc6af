"""Typed input, output and internal state of the Graph Counselor workflow."""

from __future__ import annotations

import operator
from typing import Annotated, TypedDict

from pydantic import Field

from workflows.inputs import QuestionInput
from workflows.usage import Usage, add_usage


class CounselorInput(QuestionInput):
    """What a caller sends: one natural-language question."""

    question: str = Field(description="The question to answer from the graph.")


class Step(TypedDict, total=False):
    """One Plan - Thought - Action - Observation step of a trial."""

    index: int
    plan: str
    thought: str
    action: str
    raw_action: str
    observation: str
    calls: list[str]
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


class CounselorOutput(TypedDict, total=False):
    """What a run returns: final and first-trial answers with the full trace."""

    question: str
    answer: str
    first_answer: str
    accepted: bool
    trials: list[Trial]
    reflections: list[str]
    usage: Usage
    seconds: float


class CounselorState(CounselorOutput, total=False):
    """Internal state: the output fields plus the current trial's working data."""

    started: float
    trial_index: int
    steps: list[Step]  # scratchpad of the current trial
    pending: Step  # the step being built (plan/thought/action before its observation)
    trial_answer: str | None
    finished: bool
    verdict: str | None
    judge_text: str | None
    trials: Annotated[list[Trial], operator.add]
    reflections: Annotated[list[str], operator.add]
    usage: Annotated[Usage, add_usage]
