"""Typed input, output and internal state of the Graph-ToolFormer workflow (all JSON-ready)."""

from __future__ import annotations

import operator
from typing import Annotated, Any

from pydantic import BaseModel, Field, field_validator

# typing.TypedDict has no schema in pydantic on Python < 3.12: Studio would get no output schema.
from typing_extensions import TypedDict

from graphreason.workflows.inputs import check_text
from graphreason.workflows.kit.chat import Messages
from graphreason.workflows.usage import Usage, add_usage

MAX_TEXT_CHARS = 20_000  # one statement or question; longer inputs are refused, not truncated


class ToolformerInput(BaseModel):
    """What a caller sends: a statement or question, or a text that already holds its calls."""

    text: str | None = Field(
        default=None, description="The statement or question (e.g. 'What is the order of the bull graph?')."
    )
    has_calls: bool = Field(
        default=False,
        description="True when `text` already holds its graph API calls: generation is skipped.",
    )

    messages: Messages = Field(default_factory=list)

    @field_validator("text")
    @classmethod
    def _bounded(cls, value: str | None) -> str | None:
        return None if value is None else checked_text(value)


def checked_text(value: str) -> str:
    """The text if it is neither blank nor longer than MAX_TEXT_CHARS (``ValueError`` otherwise)."""
    empty = "text is empty: give a statement or question about a graph"
    return check_text(value, name="text", limit=MAX_TEXT_CHARS, empty=empty)


class ToolformerOutput(TypedDict, total=False):
    """What a run returns."""

    text: Annotated[str, Field(description="The input text.")]
    annotated: Annotated[str, Field(description="The text with graph API calls, as generated (or given).")]
    calls: Annotated[list[str], Field(description="Every bracket call found, canonically printed, in order.")]
    parse_errors: Annotated[
        list[str], Field(description="Brackets that looked like calls but did not parse, with the reason.")
    ]
    results: Annotated[
        list[dict[str, Any]],
        Field(description="One per call: bracket, target, ok, value, text, error, cached, seconds."),
    ]
    memory: Annotated[dict[str, Any], Field(description="Working-memory counters: hits, misses, cached, variables.")]
    final: Annotated[str, Field(description="The text with -->r results substituted in.")]
    examples: Annotated[list[str], Field(description="The few-shot examples the generator was shown (their ids).")]
    usage: Annotated[Usage, Field(description="llm_calls, tokens, llm_seconds, tool_seconds, seconds.")]
    trace: Annotated[list[dict[str, Any]], Field(description="One note per workflow step."), operator.add]
    messages: Messages


class ToolformerState(ToolformerOutput, total=False):
    """Internal state: output fields plus what the steps hand each other."""

    has_calls: Annotated[bool, Field(description="The input already holds its calls: generation is skipped.")]
    started: Annotated[float, Field(description="perf_counter() when the run started (for its seconds).")]
    llm_usage: Annotated[Usage, Field(description="LLM calls and tokens of the generator."), add_usage]
    tool_seconds: Annotated[float, Field(description="Seconds spent executing the graph calls.")]
