"""SUMMARISE (short-term memory): the observation condensed toward the goal, added under the word budget.

The LLM summarises what a command returned (the paper's ``M_s``); corrections
are kept as they are (they are short, and the exact wording is what the model
must follow); with ``summarise`` off, or when the budget is spent (no decision
would read it), the bounded observation itself is kept and no call is made.
An empty summary falls back to the observation's first words.
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from graphreason.workflows.graphagent.common import ask, first_words, step_line
from graphreason.workflows.graphagent.context import GraphAgentContext
from graphreason.workflows.graphagent.prompts import summary_prompt
from graphreason.workflows.graphagent.state import GraphAgentState
from graphreason.workflows.kit.events import emit
from graphreason.workflows.usage import Usage

SUMMARY_WORDS = 100  # one summary; the prompt asks for 80
RAW_WORDS = 120  # an observation kept without a summary


def summarise(state: GraphAgentState, runtime: Runtime[GraphAgentContext]) -> dict[str, Any]:
    context = runtime.context
    step = dict(state.get("pending") or {})
    observation = str(step.get("observation", ""))
    usage: Usage = {}
    steps = [*(state.get("steps") or []), _public(step)]
    stop = _stop(steps, state.get("decisions", 0), context)
    if step.get("valid") and context.llm_summaries and not stop:
        command = f"{step['command']}({step['args'].get('node_id', '')})"
        text, usage = ask(context, summary_prompt(state["node"], state.get("title", ""), command, observation),
                          context.summary_tokens)
        step["summary"] = first_words(text, SUMMARY_WORDS) or first_words(observation, RAW_WORDS)
    elif step.get("valid"):
        step["summary"] = kept_observation(observation)
    else:
        step["summary"] = None
    line = step_line(step)
    emit("summary", line, step=step.get("step"))
    return {
        "short_term": {"add": [line], "max_words": context.summary_words},
        "steps": [*steps[:-1], _public(step)],
        "pending": {},
        "stop": stop,
        "llm_usage": usage,
        "trace": [{"step": "summarise", "index": step.get("step"), "llm": bool(usage)}],
    }


def kept_observation(observation: str) -> str:
    """What the short-term memory keeps of an observation when no summary is written."""
    return first_words(observation, RAW_WORDS)


def after_summarise(state: GraphAgentState) -> str:
    """Back to DECIDE while decisions are left; at T_max (or after too many bad replies), the fallback."""
    return "finish" if state.get("stop") else "decide"


def _stop(steps: list[dict[str, Any]], decisions: int, context: GraphAgentContext) -> str:
    """``t_max`` when the budget is spent, ``bad_replies`` after too many unusable replies in a row."""
    if decisions >= context.max_steps:
        return "t_max"
    limit = context.max_bad_replies
    if limit and len(steps) >= limit and not any(s.get("valid") for s in steps[-limit:]):
        return "bad_replies"
    return ""


def _public(step: dict[str, Any]) -> dict[str, Any]:
    keep = ("step", "reply", "thoughts", "command", "args", "observation", "summary", "valid")
    return {key: step.get(key) for key in keep}
