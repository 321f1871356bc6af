"""EXECUTE: the decided command run on the graph, or the correction of a reply that cannot run.

Node commands go to :class:`tools.node_actions.NodeEnvironment` (bounded
texts; an unknown id is an observation, not an error). ``analyze_label`` (the
ablation) is an LLM call over the short-term memory. A refused reply's
observation is the parser's correction. Either way the step counts.
"""

from __future__ import annotations

import time
from typing import Any

from langgraph.runtime import Runtime

from workflows.graphagent.common import ask, environment, first_words
from workflows.graphagent.context import GraphAgentContext
from workflows.graphagent.prompts import analyze_prompt
from workflows.graphagent.state import GraphAgentState
from workflows.kit.events import emit
from workflows.usage import Usage

ANALYSIS_WORDS = 80


def execute(state: GraphAgentState, runtime: Runtime[GraphAgentContext]) -> dict[str, Any]:
    context = runtime.context
    pending = dict(state.get("pending") or {})
    usage: Usage = {}
    seconds = 0.0
    if not pending.get("valid"):
        observation = pending.get("problem") or "Your reply could not be used."
    elif pending["command"] == "analyze_label":
        history = "\n".join(state.get("short_term") or []) or "(nothing yet)"
        text, usage = ask(context, analyze_prompt(pending["args"]["node_id"], history), context.summary_tokens)
        observation = first_words(text, ANALYSIS_WORDS) or "(no labels named)"
    else:
        env = environment(context)
        run = {"get_features": env.get_features, "get_neighbors": env.get_neighbors,
               "predict_label": env.predict_label}[pending["command"]]
        tick = time.perf_counter()
        observation = run(pending["args"]["node_id"])
        seconds = time.perf_counter() - tick
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
