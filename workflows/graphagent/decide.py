"""DECIDE: one LLM reply - thoughts and one command - read by the tolerant parser.

The reply is untrusted text: whatever it holds, the decision is recorded and
the run goes on (a reply that cannot run becomes a corrective observation in
``execute``). A valid answer (the registry's terminal command) ends the loop.

With ``tool_calling="native"`` the offered commands are bound to the model as
tools (:meth:`~graphreason.tools.core.registry.Registry.as_tools`, plus the
answer as a tool schema that is read, never run) and the decision is the
reply's first tool call, checked exactly as a JSON command is
(:func:`~graphreason.workflows.graphagent.parsing.read_call`): a command not
offered, an unknown label, arguments that are not JSON are corrections. One
command per step: further calls in the same reply are not run, and the
observation says so. A reply without any tool call is read as the text path
reads it, so a JSON command or a bare ``answer[...]`` in its text still counts,
and anything else is corrected.
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from graphreason.tools.core.jsonable import jsonable
from graphreason.tools.graphagent.constraint import AgentReply
from graphreason.tools.graphagent.registry import COMMANDS, final_command
from graphreason.workflows.graphagent.common import MAX_REPLY_KEPT, ask, command_tools, first_words
from graphreason.workflows.graphagent.context import GraphAgentContext
from graphreason.workflows.graphagent.parsing import Decision, read_call, read_reply
from graphreason.workflows.graphagent.prompts import decision_prompt, main_prompt
from graphreason.workflows.graphagent.state import GraphAgentState
from graphreason.workflows.graphagent.tuned import tuned_grammar, tuned_prompt
from graphreason.workflows.kit.events import emit
from graphreason.workflows.kit.native import ask_with_tools, render_call, terminal_schema
from graphreason.workflows.usage import Usage

THOUGHT_WORDS = 60  # of a native reply's text, kept as its thought


def decide(state: GraphAgentState, runtime: Runtime[GraphAgentContext]) -> dict[str, Any]:
    context = runtime.context
    commands = context.commands()
    number = state.get("decisions", 0) + 1
    native = context.tool_calling == "native"
    tuned = context.tuned_spec  # the tuned agent gets its own short prompt, as in its training
    prompt = tuned_prompt(
        node=state["node"], title=state.get("title", ""), dataset=state["dataset"], labels=state["labels"],
        commands=commands, memory=state.get("short_term") or [], step=number, max_steps=context.max_steps,
    ) if tuned is not None else decision_prompt(
        main=main_prompt(commands, context.summary_words, state.get("reliability", "")),
        lessons=[item["lesson"] for item in state.get("lessons") or [] if item.get("lesson")],
        goal=state["goal"],
        memory=state.get("short_term") or [],
        last_reply=state.get("last_reply", ""),
        reasoning=context.reasoning_field,
        plan=context.plan_field,
        step=number,
        max_steps=context.max_steps,
        native=native,
    )
    call: dict[str, Any] | None = None
    extra_calls = 0
    if native:
        decision, text, usage, call, extra_calls = _native_decision(context, state, prompt, commands)
    else:
        grammar = reply_grammar(context, commands, state["labels"], last=number >= context.max_steps)
        text, usage = ask(context, prompt, context.max_tokens, grammar, model=tuned)
        decision = read_reply(text, commands=commands, labels=state["labels"], target=state["node"])
    pending = pending_of(decision, number, text)
    if call is not None:  # native: the id the tool's message answers, and calls beyond the first
        pending.update(call_id=call["id"], extra_calls=extra_calls)
    said = decision.thoughts.get("text") or decision.thoughts.get("speak") or first_words(text, 30)
    emit("decide", str(said), step=number, command=decision.command, args=pending["args"], valid=decision.valid)
    return {
        "pending": pending,
        "decisions": number,
        "last_reply": text.strip()[:MAX_REPLY_KEPT],
        "llm_usage": usage,
        "trace": [{"step": "decide", "index": number, "command": decision.command, "valid": decision.valid}],
    }


def reply_grammar(
    context: GraphAgentContext, commands: list[str], labels: list[str], *, last: bool = False
) -> AgentReply | None:
    """The decoding constraint of one decision: the embedded model with ``grammar`` on, else none.

    On the ``last`` decision T_max allows, the grammar offers the final command only: the
    constrained model answers from what it gathered instead of running out of steps.
    """
    if not (context.grammar and context.embedded_agent):
        return None
    if last:
        commands = [final_command(COMMANDS).name]
    if context.tuned_spec is not None:
        return tuned_grammar(commands, labels)
    return AgentReply(commands, labels, reasoning=context.reasoning_field, plan=context.plan_field)


def _native_decision(
    context: GraphAgentContext, state: GraphAgentState, prompt: str, commands: list[str]
) -> tuple[Decision, str, Usage, dict[str, Any] | None, int]:
    """The decision of a reply from the model bound to the command tools.

    Returns the decision, the reply as recorded (its text, then the call it
    made), the usage, the call read (None without one) and how many more
    calls the reply made.
    """
    tools: list[Any] = [*command_tools(context, commands), terminal_schema(final_command())]
    reply = ask_with_tools(
        context, context.agent_model, prompt, tools, temperature=context.temperature, max_tokens=context.max_tokens
    )
    text = reply.text.strip()
    labels, target = state["labels"], state["node"]
    if reply.tool_calls:
        call = reply.tool_calls[0]
        thoughts = {"text": first_words(text, THOUGHT_WORDS)} if text else {}
        shown = "\n".join(part for part in (text, f"[tool call] {render_call(call)}") if part)
        decision = read_call(
            call["name"], call["args"], reply=shown, thoughts=thoughts, commands=commands, labels=labels,
            target=target,
        )
        return decision, shown, reply.usage, call, len(reply.tool_calls) - 1
    if reply.invalid:
        shown = "\n".join(part for part in (text, f"[unreadable tool call] {reply.invalid[0]}") if part)
        decision = Decision(reply=shown, problem=(
            f"Your tool call could not be read ({reply.invalid[0]}). Call exactly one of the tools, "
            "with its arguments as a JSON object."
        ))
        return decision, shown, reply.usage, None, 0
    decision = read_reply(text, commands=commands, labels=labels, target=target)  # no tool call: the text path
    if decision.command is None:  # nothing readable: the correction asks for a tool call, not for JSON
        decision.problem = (
            f"Your reply called no tool. Call exactly one of the tools; to give the final label, "
            f"call {final_command().name}."
        )
    return decision, text, reply.usage, None, 0


def pending_of(decision: Decision, number: int, text: str) -> dict[str, Any]:
    """The decision as the state carries it to ``execute`` / ``answer`` (its command's arguments made plain)."""
    args = dict(decision.args)
    if decision.node is not None:
        args = {"node_id": decision.node}
    elif decision.valid and COMMANDS.is_terminal(decision.command or ""):
        args = {"label": decision.label, "reason": decision.reason}
    return {
        "step": number,
        "reply": text[:MAX_REPLY_KEPT],
        "thoughts": decision.thoughts,
        "command": decision.command,
        "args": jsonable(args, str_keys=True),
        "valid": decision.valid,
        "problem": decision.problem,
        "label": decision.label,
        "reason": decision.reason,
    }


def after_decide(state: GraphAgentState) -> str:
    """A valid answer ends the loop; anything else is executed (or corrected)."""
    pending = state.get("pending") or {}
    return "answer" if pending.get("valid") and COMMANDS.is_terminal(pending.get("command") or "") else "execute"
