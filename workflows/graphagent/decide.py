"""DECIDE: one LLM reply - thoughts and one command - read by the tolerant parser.

The reply is untrusted text: whatever it holds, the decision is recorded and
the run goes on (a reply that cannot run becomes a corrective observation in
``execute``). A valid ``answer`` ends the loop.
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from workflows.graphagent.common import MAX_REPLY_KEPT, ask, first_words
from workflows.graphagent.context import GraphAgentContext
from workflows.graphagent.parsing import read_reply
from workflows.graphagent.prompts import decision_prompt, main_prompt
from workflows.graphagent.state import GraphAgentState
from workflows.kit.events import emit


def decide(state: GraphAgentState, runtime: Runtime[GraphAgentContext]) -> dict[str, Any]:
    context = runtime.context
    commands = context.commands()
    number = state.get("decisions", 0) + 1
    prompt = decision_prompt(
        main=main_prompt(commands, context.summary_words, state.get("reliability", "")),
        lessons=[item["lesson"] for item in state.get("lessons") or [] if item.get("lesson")],
        goal=state["goal"],
        memory=state.get("short_term") or [],
        last_reply=state.get("last_reply", ""),
        reasoning=context.reasoning_field,
        plan=context.plan_field,
        step=number,
        max_steps=context.max_steps,
    )
    text, usage = ask(context, prompt, context.max_tokens)
    decision = read_reply(text, commands=commands, labels=state["labels"], target=state["node"])
    args = dict(decision.args)
    if decision.node is not None:
        args = {"node_id": decision.node}
    elif decision.command == "answer" and decision.valid:
        args = {"label": decision.label, "reason": decision.reason}
    pending = {
        "step": number,
        "reply": text[:MAX_REPLY_KEPT],
        "thoughts": decision.thoughts,
        "command": decision.command,
        "args": _json_ready(args),
        "valid": decision.valid,
        "problem": decision.problem,
        "label": decision.label,
        "reason": decision.reason,
    }
    said = decision.thoughts.get("text") or decision.thoughts.get("speak") or first_words(text, 30)
    emit("decide", str(said), step=number, command=decision.command, args=pending["args"], valid=decision.valid)
    return {
        "pending": pending,
        "decisions": number,
        "last_reply": text.strip()[:MAX_REPLY_KEPT],
        "llm_usage": usage,
        "trace": [{"step": "decide", "index": number, "command": decision.command, "valid": decision.valid}],
    }


def after_decide(state: GraphAgentState) -> str:
    """A valid answer ends the loop; anything else is executed (or corrected)."""
    pending = state.get("pending") or {}
    return "answer" if pending.get("valid") and pending.get("command") == "answer" else "execute"


def _json_ready(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _json_ready(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_json_ready(v) for v in value]
    if value is None or isinstance(value, str | int | float | bool):
        return value
    return str(value)
