"""Graph-ToolFormer: an LM writes graph API calls into text; they are parsed, executed and substituted back."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from graphreason.workflows.kit.run import run_workflow, stream_workflow
from graphreason.workflows.method import Method
from graphreason.workflows.toolformer.context import ToolformerContext
from graphreason.workflows.toolformer.state import ToolformerInput

# what Studio and `graphreason run --help` say of the method (langgraph.json holds the same line)
DESCRIPTION = "Graph-ToolFormer: an LM writes graph API calls (GL/GR) into a statement or question; the calls are parsed, executed by graph tools and trained graph models, and their results substituted back"


def toolformer_input(text: str, has_calls: bool = False) -> dict[str, Any]:
    """The workflow input, validated before anything runs."""
    from graphreason.workflows.toolformer.state import ToolformerInput

    checked = ToolformerInput(text=text, has_calls=has_calls)
    return {"text": checked.text, "has_calls": checked.has_calls}


def solve(
    text: str, context: ToolformerContext | None = None, *, has_calls: bool = False, **config: Any
) -> dict:
    """Rewrite ``text`` with graph API calls, run them, and return the output (final text, calls, results, usage)."""
    from graphreason.workflows.toolformer.graph import graph as workflow

    return run_workflow(workflow, toolformer_input(text, has_calls), context or ToolformerContext(), **config)


def stream_solve(
    text: str,
    context: ToolformerContext | None = None,
    *,
    has_calls: bool = False,
    on_event: Callable[[dict[str, Any]], None] | None = None,
) -> dict[str, Any]:
    """Like :func:`solve`, passing each custom event (generated, call, result, final) to ``on_event``."""
    from graphreason.workflows.toolformer.graph import graph as workflow

    inputs = toolformer_input(text, has_calls)
    return stream_workflow(workflow, inputs, context or ToolformerContext(), on_event)


METHOD = Method(
    name="toolformer", graph_id="graph_toolformer", description=DESCRIPTION, package=__name__,
    context=ToolformerContext, input_schema=ToolformerInput, solve=solve, stream_solve=stream_solve,
)  # fmt: skip

__all__ = ["METHOD", "ToolformerContext", "solve", "stream_solve", "toolformer_input"]
