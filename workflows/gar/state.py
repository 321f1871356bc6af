"""Typed input, output and internal state of the GAR workflow.

Heavy objects (the parsed graph, the engine's arrays) stay out of the state:
the state holds JSON-ready values so a checkpointer can store it, and the
graph is looked up by ``graph_key`` (rebuilt from the input when missing).
"""

from __future__ import annotations

import operator
from typing import Annotated, Any

from pydantic import Field

# typing.TypedDict has no schema in pydantic on Python < 3.12: Studio would get no output schema.
from typing_extensions import TypedDict

from graphreason.workflows.inputs import QuestionInput
from graphreason.workflows.kit.chat import Messages
from graphreason.workflows.usage import Usage, add_usage


class GARInput(QuestionInput):
    """What a caller sends: a question, with the graph in its text or given as a structured graph."""

    question: str | None = Field(
        default=None, description="The graph problem: graph text plus question, or just the question."
    )
    graph: dict[str, Any] | None = Field(
        default=None,
        description="Optional structured graph ({'edges': [[u, v, w], ...], 'directed': bool, 'params': {...}}); "
        "large graphs come this way instead of as text.",
    )


class Candidate(TypedDict, total=False):
    """One retrieved library entry."""

    name: str
    score: float
    how: str  # "retrieved" (embedding top-k) or "keyword" (added from the detected task)


class GAROutput(TypedDict, total=False):
    """What a run returns."""

    # Field(description=...) inside Annotated survives into LangGraph's JSON schemas (Studio shows it).
    question: Annotated[str, Field(description="The graph problem as given.")]
    answer: Annotated[str, Field(description="The final answer in words.")]
    structured: Annotated[
        dict[str, Any],
        Field(description="The answer as data: task, kind (yes/no, number, path, order, ranking, mapping), value."),
    ]
    algorithm: Annotated[str, Field(description="The library algorithm (or designed one) that was run.")]
    fallback_used: Annotated[bool, Field(description="Whether a fallback replaced the master's choice.")]
    rounds: Annotated[int, Field(description="Rounds the vertex program (or the node agents) took.")]
    usage: Annotated[
        Usage, Field(description="llm_calls, input/output tokens, tokens, llm_seconds, engine_seconds, seconds.")
    ]
    # the reducer must stay the last Annotated item (LangGraph reads it from there)
    trace: Annotated[
        list[dict[str, Any]], Field(description="One note per workflow step, in order."), operator.add
    ]
    messages: Messages


class GARState(GAROutput, total=False):
    """Internal state: the output fields plus what the steps hand to each other."""

    graph: Annotated[dict[str, Any] | None, Field(description="The structured graph given with the input, if any.")]
    started: Annotated[float, Field(description="perf_counter() when the run started (for its seconds).")]
    graph_key: Annotated[str, Field(description="Lookup key of the parsed problem (see construct.problem_of).")]
    dataset: Annotated[str, Field(description="The edge dataset's name when the graph is the context's dataset.")]
    graph_summary: Annotated[str, Field(description="One line on the parsed graph: kind, nodes, edges, parameters.")]
    detected_task: Annotated[str | None, Field(description="The task the question's wording names, if any.")]
    params: Annotated[dict[str, Any], Field(description="Parameters the parser found, by name (internal node ids).")]
    candidates: Annotated[list[Candidate], Field(description="The library algorithms retrieved for the master.")]
    chosen_params: Annotated[dict[str, Any], Field(description="The parameters of the chosen algorithm.")]
    result: Annotated[dict[str, Any], Field(description="The JSON-ready outcome of the execution step.")]
    llm_usage: Annotated[Usage, Field(description="LLM calls and tokens so far, summed over nodes."), add_usage]
    parse_error: Annotated[
        str, Field(description="What the deterministic parser could not read (the LLM parse step tries next).")
    ]
    design_source: Annotated[
        str, Field(description="The master's latest designed algorithm, when no library entry fitted.")
    ]
    design_attempt: Annotated[int, Field(description="How many designs the master has written in this run.")]
    design_feedback: Annotated[
        str, Field(description="Why the latest design failed (shown to the master on its next attempt).")
    ]
    design_status: Annotated[str, Field(description="The latest design's outcome: ok, retry or failed.")]
