"""EXECUTE: the decided command run on the graph, or the correction of a reply that cannot run.

A valid command runs through its LangChain tool object: the registry entry
(:data:`graphreason.tools.graphagent.registry.COMMANDS`) as a tool
(:func:`~graphreason.workflows.graphagent.common.command_tools`), invoked as a
tool call whose message content is the observation. In the text path the call
is built from the parsed command; in the native path it is the model's own
call (its id kept), with the node id read leniently as the parser reads it.
Node commands answer with the bounded texts of
:class:`graphreason.tools.graphagent.actions.NodeEnvironment` (an unknown id is
an observation, not an error); ``analyze_label`` (the ablation) is an LLM call
over the short-term memory, made through the same tool. A refused reply's
observation is the parser's correction. Either way the step counts.
"""

from __future__ import annotations

import time
from typing import Any

from langgraph.runtime import Runtime

from graphreason.tools.core.registry.tools import tool_name
from graphreason.tools.graphagent.registry import COMMANDS
from graphreason.workflows.graphagent.common import ask, command_tools, first_words
from graphreason.workflows.graphagent.context import GraphAgentContext
from graphreason.workflows.graphagent.prompts import analyze_prompt
from graphreason.workflows.graphagent.state import GraphAgentState
from graphreason.workflows.kit.events import emit
from graphreason.workflows.kit.native import run_tool_call
from graphreason.workflows.usage import Usage, add_usage

ANALYSIS_WORDS = 80


def execute(state: GraphAgentState, runtime: Runtime[GraphAgentContext]) -> dict[str, Any]:
    context = runtime.context
    pending = dict(state.get("pending") or {})
    usage: Usage = {}
    seconds = 0.0
    if not pending.get("valid"):
        observation = pending.get("problem") or "Your reply could not be used."
    else:
        entry = COMMANDS.get(pending["command"])
        spent: list[Usage] = []

        def analyst(node: str) -> str:  # the analyze_label ablation: an LLM call over the history
            history = "\n".join(state.get("short_term") or []) or "(nothing yet)"
            text, call_usage = ask(context, analyze_prompt(node, history), context.summary_tokens)
            spent.append(call_usage)
            return first_words(text, ANALYSIS_WORDS) or "(no labels named)"

        call = {"name": tool_name(entry), "args": dict(pending.get("args") or {}),
                "id": pending.get("call_id") or f"step-{pending.get('step')}"}
        tick = time.perf_counter()
        observation, _ = run_tool_call(command_tools(context, [entry.name], analyst), call)
        elapsed = time.perf_counter() - tick
        for item in spent:
            usage = add_usage(usage, item)
        seconds = 0.0 if spent else elapsed  # an analysis is LLM time, counted in its usage
        if pending.get("extra_calls"):
            observation += (f"\n(Only the first of your {pending['extra_calls'] + 1} tool calls was run: "
                            "one command per step.)")
    pending["observation"] = observation
    emit("command", f"{pending.get('command') or '(none)'} {pending.get('args') or ''}".strip(),
         step=pending.get("step"), valid=pending.get("valid"))
    emit("observation", observation, step=pending.get("step"))
    return {
        "pending": pending,
        "llm_usage": usage,
        "tool_seconds": state.get("tool_seconds", 0.0) + seconds,
        "trace": [{"step": "execute", "index": pending.get("step"), "command": pending.get("command")}],
    }
