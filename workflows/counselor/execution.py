"""Execution agent: one Action line - graph function call(s), or Finish with the answer."""

from __future__ import annotations

from langgraph.runtime import Runtime

from tools.calls import parse_action
from workflows.counselor.common import charge, emit, llm, next_index, shared_prompt
from workflows.counselor.context import CounselorContext
from workflows.counselor.parsing import clean_line
from workflows.counselor.prompts import step_prompt
from workflows.counselor.resources import graph_definition
from workflows.counselor.state import CounselorState


def act(state: CounselorState, runtime: Runtime[CounselorContext]) -> dict:
    ctx = runtime.context
    index = next_index(state)
    pending = dict(state.get("pending") or {"index": index})
    prompt = step_prompt("action", index, shared_prompt(state, ctx, graph_definition(ctx)))
    # No blank-line stop here: a JSON-style call may span lines; the call parser
    # reads the raw reply and takes the first line that parses.
    text, usage = llm(ctx, "reasoner", prompt, stop=["\nObservation", "\nPlan ", "\nThought "])
    line = executed_text(text) or clean_line(text, "action")
    pending.update(index=index, action=line, raw_action=text)
    emit("action", line, state, index)
    return {"pending": charge(pending, usage), "usage": usage}


def executed_text(reply: str) -> str | None:
    """The calls the parser will run for ``reply``, rendered; None if it holds none.

    The parser may take a call from a later line than the first (prose often
    comes first), so the trace and the scratchpad show what is executed rather
    than the reply's first line.
    """
    try:
        return ", ".join(call.render() for call in parse_action(reply))
    except Exception:  # noqa: BLE001 - unreadable: observe() reports it as a corrective observation
        return None
