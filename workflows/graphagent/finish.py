"""CHECK and the end of a run: the agent's answer through the tool guard, or the fallback at T_max.

``answer`` (the paper's CHECK): the label the agent gave. In tool mode the
guard (:mod:`graphreason.workflows.graphagent.guard`) decides whether it may differ from
the graph model's; a refused override leaves the model's label and says why.

``finish``: at T_max without an answer the fallback picks, in order,

1. tool mode: the graph model's prediction (the run's best-calibrated guess);
2. the label the last reply named (the paper's ``extract_label(r_t)``), when it
   names one or two labels - a reply echoing the whole label set says nothing;
3. the label named most often in the short-term memory (neighbour labels and
   summaries, i.e. a vote of what the agent found);
4. none: ``answer`` is None.

``ended_by`` is ``answer``, ``t_max`` or ``errors``: ``max_bad_replies``
unusable replies in a row ended the run, or the budget was spent without one
usable reply (a model that never speaks the command language).
"""

from __future__ import annotations

import time
from collections import Counter
from typing import Any

from langgraph.runtime import Runtime

from graphreason.workflows.graphagent.context import GraphAgentContext
from graphreason.workflows.graphagent.guard import Calibration, judge_override
from graphreason.workflows.graphagent.parsing import label_mentions, labels_in
from graphreason.workflows.graphagent.state import GraphAgentState
from graphreason.workflows.kit.chat import answer_message
from graphreason.workflows.kit.events import emit
from graphreason.workflows.usage import run_totals


def answer(state: GraphAgentState, runtime: Runtime[GraphAgentContext]) -> dict[str, Any]:
    context = runtime.context
    pending = dict(state.get("pending") or {})
    agent_label = pending["label"]
    final, reason = agent_label, pending.get("reason") or ""
    tool = state.get("tool_prediction")
    guard = dict(state.get("guard") or {})
    if tool is not None:
        stored = guard.get("calibration")
        calibration = Calibration(**stored) if stored else None
        accepted, why = judge_override(
            agent_label, tool["probabilities"], calibration, enabled=context.tool_guard, top=context.override_top
        )
        guard.update(accepted=accepted, why=why, agent_label=agent_label)
        if not accepted:
            final = tool["label"]
            reason = f"{why}; the graph model's {tool['label']} is kept (the agent said {agent_label}: {reason})"
    pending["observation"] = None
    step = {key: pending.get(key) for key in ("step", "reply", "thoughts", "command", "args", "valid")}
    if pending.get("edited"):  # a person replaced the agent's command (human review)
        step["edited"] = True
    step.update(observation=None, summary=None)
    emit("answer", final, step=pending.get("step"), agent_label=agent_label, reason=reason)
    return {
        **_final(state, final, reason, "answer"),
        "agent_answer": agent_label,
        "guard": guard or None,
        "steps": [*(state.get("steps") or []), step],
        "pending": {},
        "trace": [{"step": "answer", "label": final, "agent_label": agent_label}],
    }


def finish(state: GraphAgentState, runtime: Runtime[GraphAgentContext]) -> dict[str, Any]:
    update: dict[str, Any] = {}
    if not state.get("ended_by"):  # T_max (or too many bad replies) without an answer
        label, how = fallback_label(state)
        any_valid = any(step.get("valid") for step in state.get("steps") or [])
        ended = "t_max" if any_valid and state.get("stop") != "bad_replies" else "errors"
        if ended == "errors":
            how = how.replace("no answer within T_max", "no usable reply")
        update = _final(state, label, how, ended)
        emit("answer", label or "(none)", fallback=True, reason=how)
    usage = run_totals(
        state.get("llm_usage"),
        seconds=time.perf_counter() - state.get("started", time.perf_counter()),
        tool_seconds=state.get("tool_seconds", 0.0),
    )
    ended = update.get("ended_by") or state.get("ended_by")
    answer = update.get("answer") if "answer" in update else state.get("answer")
    return {**update, "usage": usage, "trace": [{"step": "finish", "ended_by": ended}], **answer_message(answer)}


def fallback_label(state: GraphAgentState) -> tuple[str | None, str]:
    """The T_max fallback's label and how it was chosen (see the module docstring)."""
    labels = state["labels"]
    tool = state.get("tool_prediction")
    if tool is not None:
        return tool["label"], "no answer within T_max: the graph model's prediction"
    named = labels_in(state.get("last_reply", ""), labels)
    if 1 <= len(named) <= 2:
        return named[0], "no answer within T_max: the label the last reply named"
    votes: Counter[str] = Counter()
    for line in state.get("short_term") or []:
        votes.update(label_mentions(line, labels))
    if votes:
        best = max(labels, key=lambda name: (votes[name], -labels.index(name)))
        return best, "no answer within T_max: the label named most often in the short-term memory"
    return None, "no answer within T_max and no label named anywhere"


def _final(state: GraphAgentState, label: str | None, reason: str, ended_by: str) -> dict[str, Any]:
    labels = state["labels"]
    tool = state.get("tool_prediction")
    return {
        "answer": label,
        "label_id": labels.index(label) if label in labels else None,
        "reason": reason,
        "ended_by": ended_by,
        "changed_tool_answer": (label != tool["label"]) if tool is not None else None,
    }

