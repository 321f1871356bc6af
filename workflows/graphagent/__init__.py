"""GraphAgent: an LLM agent classifies a node by gathering its features and neighbours through JSON commands.

Short-term memory summarises each observation; long-term memory replays
lessons from similar past episodes (LangGraph store); in tool mode a trained
graph model is one more command, behind a guard calibrated on validation data.
See :mod:`graphreason.workflows.graphagent.graph` for the loop.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from graphreason.workflows.graphagent.collect import collect_experience
from graphreason.workflows.graphagent.context import GraphAgentContext
from graphreason.workflows.graphagent.resources import GraphAgentInputError, provide
from graphreason.workflows.graphagent.state import GraphAgentInput
from graphreason.workflows.kit.run import run_workflow, stream_workflow
from graphreason.workflows.method import Method

# what Studio and `graphreason run --help` say of the method (langgraph.json holds the same line)
DESCRIPTION = "GraphAgent: an LLM agent classifies a node of a text graph through JSON commands (get_features, get_neighbors, predict_label from a trained graph model, answer), summarising each observation and replaying lessons from past episodes"


def graphagent_input(node: Any, labels: Sequence[str] | None = None) -> dict[str, Any]:
    """The workflow input, validated before anything runs."""
    from graphreason.workflows.graphagent.state import GraphAgentInput

    checked = GraphAgentInput(node=node, labels=list(labels) if labels is not None else None)
    return {"node": checked.node, "labels": checked.labels}


def output_of(state: dict[str, Any]) -> dict[str, Any]:
    """The output fields of a final state (a stream's last state holds internal fields too)."""
    from graphreason.workflows.graphagent.state import GraphAgentOutput

    return {key: state[key] for key in GraphAgentOutput.__annotations__ if key in state}


def solve(
    node: str, context: GraphAgentContext | None = None, *, labels: Sequence[str] | None = None, **config: Any
) -> dict:
    """Classify ``node``; returns the answer, label id, reason, steps, lessons, tool prediction, usage."""
    from graphreason.workflows.graphagent.graph import graph as workflow
    from graphreason.workflows.graphagent.graph import recursion_limit

    context = context or GraphAgentContext()
    config.setdefault("recursion_limit", recursion_limit(context))
    return run_workflow(workflow, graphagent_input(node, labels), context, **config)


def stream_solve(
    node: str,
    context: GraphAgentContext | None = None,
    *,
    labels: Sequence[str] | None = None,
    on_event: Callable[[dict[str, Any]], None] | None = None,
) -> dict[str, Any]:
    """Like :func:`solve`, passing each event (decide, command, observation, summary, lesson, answer) on."""
    from graphreason.workflows.graphagent.graph import graph as workflow
    from graphreason.workflows.graphagent.graph import recursion_limit

    context = context or GraphAgentContext()
    final = stream_workflow(
        workflow, graphagent_input(node, labels), context, on_event, recursion_limit=recursion_limit(context)
    )
    return output_of(final)


METHOD = Method(
    name="graphagent", graph_id="graph_agent", description=DESCRIPTION, package=__name__,
    context=GraphAgentContext, input_schema=GraphAgentInput, solve=solve, stream_solve=stream_solve,
)  # fmt: skip

__all__ = [
    "METHOD",
    "GraphAgentContext",
    "GraphAgentInputError",
    "collect_experience",
    "graphagent_input",
    "output_of",
    "provide",
    "solve",
    "stream_solve",
]
