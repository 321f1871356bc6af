"""Running a compiled workflow once: invoke, or stream with the custom events passed on as they happen."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from graphreason.workflows.kit.review import NEEDS_CHECKPOINTER
from graphreason.workflows.models.factory import check_context_models

Event = dict[str, Any]


def fresh(context: Any) -> Any:
    """A copy of ``context`` for one run: a scripted model's script then starts over with each run."""
    return replace(context)


def check_before_run(workflow: Any, context: Any) -> None:
    """What must hold before a run starts: usable model specs, and a checkpointer when a human reviews actions."""
    check_context_models(context)
    if getattr(context, "review_actions", False) and getattr(workflow, "checkpointer", None) is None:
        raise ValueError(NEEDS_CHECKPOINTER)


def run_workflow(workflow: Any, inputs: dict[str, Any], context: Any, **config: Any) -> dict[str, Any]:
    """One run of ``workflow`` on ``inputs``; returns its output.

    The context's model specs are checked first (``check_context_models``), so a
    bad spec or a missing key fails at once, as on the CLI, not after set-up.
    """
    check_before_run(workflow, context)
    return workflow.invoke(inputs, context=fresh(context), config=config)


def stream_workflow(
    workflow: Any,
    inputs: dict[str, Any],
    context: Any,
    on_event: Callable[[Event], None] | None = None,
    *,
    subgraphs: bool = False,
    **config: Any,
) -> dict[str, Any]:
    """Like :func:`run_workflow`, passing each custom event to ``on_event``; returns the final state.

    With ``subgraphs`` the events of nested graphs are passed on too; the final
    state is always the outer graph's. The returned state holds internal fields
    besides the output ones.
    """
    check_before_run(workflow, context)
    final: dict[str, Any] = {}
    stream = workflow.stream(
        inputs,
        context=fresh(context),
        config=config or None,
        stream_mode=["custom", "values"],
        subgraphs=subgraphs,
    )
    for part in stream:
        namespace, mode, chunk = part if subgraphs else ((), *part)
        if mode == "custom" and isinstance(chunk, dict):
            if on_event is not None:
                on_event(chunk)
        elif mode == "values" and isinstance(chunk, dict) and not namespace:
            final = chunk
    return final
