"""Human review of an agent's action before it runs (``interrupt()``), shared by the agent methods.

With the context's ``review_actions`` on, the method's ``review`` node pauses the
run and shows the proposed action; the run goes on with ``Command(resume=...)``:
``true`` (or ``None`` where the client can send it) runs the action as proposed, any other value is the edited
action, which the method reads as it reads a model's (and refuses with a clear
error when it cannot). Pausing needs a checkpointer: ``langgraph dev`` and
Studio give one; ``solve()`` runs without one and refuses the setting.
"""

from __future__ import annotations

from typing import Any

REVIEW_HELP = (
    "Pause before each action for a human to approve or edit it (LangGraph interrupt; needs a checkpointer, "
    "as langgraph dev and Studio provide; resume with true to run it as proposed, or with the edited action)."
)
NEEDS_CHECKPOINTER = (
    "review_actions pauses the run for a human, which needs a checkpointer: run the graph in langgraph dev or "
    "Studio, or compile it with build_graph(checkpointer=...) and resume it with Command(resume=...)"
)


def ask_human(proposed: Any, *, step: int, how: str) -> Any | None:
    """Pause with ``proposed``; the edited action, or None when the human keeps the proposed one."""
    from langgraph.types import interrupt

    answer = interrupt({"review": "action", "step": step, "proposed": proposed, "how": how})
    if answer is None or answer is True or answer == "":
        return None
    return answer
