"""Human review (optional): the agent's decided command shown to a person before it runs.

With ``review_actions`` the run pauses here (:func:`graphreason.workflows.kit.review.ask_human`)
showing the command and its arguments. The edited command (the JSON reply the
agent is asked for, as a string or an object such as
``{"command": "get_neighbors", "args": {"node_id": "107"}}``) is read by the
agent's own parser, so an edit that names no enabled command or no known label
is corrected the same way as a model's reply; the step is marked ``edited``.
"""

from __future__ import annotations

import json
from typing import Any

from langgraph.runtime import Runtime

from graphreason.workflows.graphagent.context import GraphAgentContext
from graphreason.workflows.graphagent.decide import pending_of
from graphreason.workflows.graphagent.parsing import read_reply
from graphreason.workflows.graphagent.state import GraphAgentState
from graphreason.workflows.kit.events import emit
from graphreason.workflows.kit.review import ask_human

HOW = (
    'resume with true to run this command, or with the edited one, e.g. {"command": "get_neighbors", '
    '"args": {"node_id": "107"}} or {"command": "answer", "args": {"label": "Theory", "reason": "..."}}'
)


def review(state: GraphAgentState, runtime: Runtime[GraphAgentContext]) -> dict[str, Any]:
    """Pause before the command runs when the context asks for review; read the human's edit."""
    context = runtime.context
    if not context.review_actions:
        return {}
    pending = dict(state.get("pending") or {})
    proposed = {"command": pending.get("command"), "args": pending.get("args"), "valid": pending.get("valid")}
    number = int(pending.get("step", state.get("decisions", 0)))
    edited = ask_human(proposed, step=number, how=HOW)
    if edited is None:
        return {}
    if not isinstance(edited, str | dict):
        raise ValueError(f"an edited command must be a JSON object or its text, got {edited!r}")
    text = edited if isinstance(edited, str) else json.dumps(edited, ensure_ascii=False)
    decision = read_reply(text, commands=context.commands(), labels=state["labels"], target=state["node"])
    update = {**pending_of(decision, number, text), "edited": True}
    emit("review", f"command edited: {text[:200]}", step=number, command=decision.command, valid=decision.valid)
    return {"pending": update}
