"""Human review (optional): the execution agent's Action shown to a person before its graph calls run.

With ``review_actions`` the run pauses here (:func:`graphreason.workflows.kit.review.ask_human`);
an edited Action replaces the proposed one (native tool calls included) and is
run by the extractor as written, marked ``edited`` in the trace.
"""

from __future__ import annotations

from langgraph.runtime import Runtime

from graphreason.workflows.counselor.common import emit
from graphreason.workflows.counselor.context import CounselorContext
from graphreason.workflows.counselor.state import CounselorState
from graphreason.workflows.kit.review import ask_human

HOW = (
    "resume with true to run this Action, or with the edited Action in the call language "
    "(e.g. Neighbour[Retrieve[some title], cites] or Finish[the answer])"
)


def review(state: CounselorState, runtime: Runtime[CounselorContext]) -> dict:
    """Pause before the Action runs when the context asks for review; apply the human's edit."""
    if not runtime.context.review_actions:
        return {}
    step = dict(state["pending"])
    edited = ask_human(step.get("action") or "", step=int(step.get("index", 0)), how=HOW)
    if edited is None:
        return {}
    if not isinstance(edited, str) or not edited.strip():
        raise ValueError(f"an edited Action must be a non-empty string in the call language, got {edited!r}")
    for key in ("raw_action", "tool_calls", "tool_problem"):  # the human's text is what runs
        step.pop(key, None)
    step.update(action=edited.strip(), edited=True)
    emit("review", f"Action edited: {step['action']}", state, step.get("index"))
    return {"pending": step}
