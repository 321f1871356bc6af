"""Typed input, output and internal state of the GraphAgent workflow (all JSON-ready).

Memory policy. The short-term memory (``short_term``) holds one line per
executed command: the command and the LLM's summary of its observation toward
the goal (or the observation itself when it is a correction or summaries are
off), under the :func:`graphreason.memory.summaries.bounded_summaries` reducer: oldest
lines dropped past ``summary_words`` (4,000 words, the paper's limit). The raw
message history is *not* replayed: the next decision sees the short-term
memory plus only the previous reply's JSON (``last_reply``), so the model can
follow its own plan without older replies crowding a small model's context.
Every raw reply and observation stays in ``steps`` for the output, the trace
and the experience store.
"""

from __future__ import annotations

import operator
from typing import Annotated, Any

from pydantic import BaseModel, Field, field_validator

# typing.TypedDict has no schema in pydantic on Python < 3.12: Studio would get no output schema.
from typing_extensions import TypedDict

from graphreason.memory.summaries import bounded_summaries
from graphreason.workflows.inputs import check_text
from graphreason.workflows.kit.chat import Messages
from graphreason.workflows.usage import Usage, add_usage

MAX_ID_CHARS = 200


class GraphAgentInput(BaseModel):
    """What a caller sends: the node to classify (and, optionally, the label set it expects)."""

    node: str | None = Field(
        default=None, description="Id of the node to classify (e.g. '31336' or 'paper#31336' on Cora)."
    )
    labels: list[str] | None = Field(
        default=None,
        description="Optional label set (names); it must be the dataset's, and its order numbers the labels.",
    )

    messages: Messages = Field(default_factory=list)

    @field_validator("node", mode="before")
    @classmethod
    def _as_text(cls, value: Any) -> str | None:
        return None if value is None else checked_node(value)


def checked_node(value: Any) -> str:
    """The node id as text, neither blank nor longer than MAX_ID_CHARS (``ValueError`` otherwise)."""
    text = str(value).strip() if value is not None else ""
    return check_text(
        text, name="node id", limit=MAX_ID_CHARS, empty="node is empty: give the id of the node to classify"
    )


class GraphAgentOutput(TypedDict, total=False):
    """What a run returns."""

    node: Annotated[str, Field(description="The node classified (the dataset's id).")]
    title: Annotated[str, Field(description="Its title ('' when it has none).")]
    dataset: Annotated[str, Field(description="The dataset's name.")]
    labels: Annotated[list[str], Field(description="The label set; a label id is a position in it.")]
    answer: Annotated[str | None, Field(description="The final label name (None when none could be given).")]
    label_id: Annotated[int | None, Field(description="Its position in `labels`.")]
    reason: Annotated[str, Field(description="The agent's reason, or how the fallback chose.")]
    gold: Annotated[str | None, Field(description="The true label, when the dataset has one.")]
    ended_by: Annotated[str, Field(description="answer, t_max (budget spent) or errors (no valid reply at all).")]
    agent_answer: Annotated[str | None, Field(description="What the agent answered, before the tool guard.")]
    steps: Annotated[
        list[dict[str, Any]],
        Field(description="One per decision: reply, thoughts, command, args, observation, summary, valid."),
    ]  # no reducer: each role writes the whole list, so a new run on a thread starts from []
    lessons: Annotated[list[dict[str, Any]], Field(description="Replayed lessons: episode, score, success, lesson.")]
    tool_prediction: Annotated[
        dict[str, Any] | None, Field(description="The graph model's label and probabilities (tool mode).")
    ]
    changed_tool_answer: Annotated[
        bool | None, Field(description="Tool mode: whether the final answer differs from the graph model's.")
    ]
    guard: Annotated[dict[str, Any] | None, Field(description="Tool mode: threshold, decision and why.")]
    usage: Annotated[Usage, Field(description="llm_calls, tokens, llm_seconds, tool_seconds, seconds.")]
    trace: Annotated[list[dict[str, Any]], Field(description="One note per workflow step."), operator.add]
    messages: Messages


class GraphAgentState(GraphAgentOutput, total=False):
    """Internal state: output fields plus what the roles hand each other."""

    started: Annotated[float, Field(description="perf_counter() when the run started (for its seconds).")]
    goal: Annotated[str, Field(description="The task prompt: the node, its title and the label set.")]
    reliability: Annotated[str, Field(description="The graph model's validation record, shown in the prompt.")]
    short_term: Annotated[
        list[str], Field(description="Short-term memory: a bounded list of step summaries."), bounded_summaries
    ]
    last_reply: Annotated[str, Field(description="The agent's latest reply as written.")]
    pending: Annotated[
        dict[str, Any], Field(description="The decision being carried out: its parsed reply, then its observation.")
    ]
    decisions: Annotated[int, Field(description="Decisions taken so far (the T_max budget counts them).")]
    stop: Annotated[str, Field(description='Why the loop ends: "" (go on), "t_max" (budget spent) or "bad_replies".')]
    llm_usage: Annotated[Usage, Field(description="LLM calls and tokens so far."), add_usage]
    # set, not added: a new run on the same thread starts from 0
    tool_seconds: Annotated[float, Field(description="Seconds spent in graph commands and the graph model.")]
