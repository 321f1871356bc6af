"""The run's set-up: the node checked, the goal written, the graph model consulted (tool mode)."""

from __future__ import annotations

import time
from typing import Any

from langgraph.runtime import Runtime

from graphreason.tools.graphagent.registry import PREDICT
from graphreason.workflows.graphagent import resources
from graphreason.workflows.graphagent.context import GraphAgentContext
from graphreason.workflows.graphagent.prompts import goal_prompt
from graphreason.workflows.graphagent.resources import GraphAgentInputError, check_labels
from graphreason.workflows.graphagent.state import GraphAgentState, checked_node
from graphreason.workflows.kit.chat import input_from_chat


def start(state: GraphAgentState, runtime: Runtime[GraphAgentContext]) -> dict[str, Any]:
    began = time.perf_counter()
    context = runtime.context
    asked_node = input_from_chat(state, "node")  # a chat client sends the node id as its message
    if asked_node is None:
        raise GraphAgentInputError(
            "the input has no 'node': send {\"node\": \"<node id>\"} (or the node id as a human message)"
        )
    asked_node = checked_node(asked_node)
    node = resources.find_node(context, asked_node)  # before any graph model is trained or loaded
    labels = list(resources.node_data(context.source, context.split).graph.classes)
    asked = state.get("labels")
    if asked:
        check_labels(labels, list(asked), "the label set given")
        labels = list(dict.fromkeys(asked))  # the caller's order numbers the labels
    env = resources.environment(context)
    title = env.title(node)
    memory: list[str] = []
    update: dict[str, Any] = {
        "started": began,
        "node": node,
        "title": title,
        "dataset": env.name,
        "labels": labels,
        "gold": env.gold(node),
        "goal": goal_prompt(node, title, labels),
        "decisions": 0,
        "stop": "",
        "steps": [],
        "lessons": [],
        "last_reply": "",
        "pending": {},
        "answer": None,
        "label_id": None,
        "agent_answer": None,
        "reason": "",
        "ended_by": "",
        "reliability": "",
        "tool_prediction": None,
        "changed_tool_answer": None,
        "guard": None,
    }
    tool_seconds = 0.0
    if context.graph_tool and env.classifier is not None:
        calibration = resources.calibration(context, env)
        tick = time.perf_counter()
        try:
            label, probabilities = env.classifier.predict(node)
        except Exception as exc:  # the run goes on without the tool's answer (and says why)
            return _without_tool(update, memory, context, exc)
        tool_seconds = time.perf_counter() - tick
        update["tool_prediction"] = {
            "label": label,
            "probabilities": {k: round(float(v), 4) for k, v in probabilities.items()},
            "confidence": round(float(probabilities.get(label, 0.0)), 4),
        }
        update["guard"] = {"calibration": calibration.as_dict() if calibration else None}
        update["reliability"] = calibration.describe() if calibration else ""
        if context.tool_first:  # the agent starts from the model's answer instead of from nothing
            memory.append(given_line(node, env.predict_label(node)))
    return {
        **update,
        "short_term": {"reset": memory, "max_words": context.summary_words},
        "tool_seconds": tool_seconds,
        "trace": [{"step": "start", "node": node, "tool": update["tool_prediction"] is not None}],
    }


def given_line(node: str, prediction: str) -> str:
    """The short-term memory line of the graph model's prediction given before the first decision."""
    return f"step 0 (given): {PREDICT.name}({node}) -> {prediction}"


def _without_tool(update: dict[str, Any], memory: list[str], context: GraphAgentContext, exc: Exception) -> dict:
    return {
        **update,
        "short_term": {"reset": memory, "max_words": context.summary_words},
        "tool_seconds": 0.0,
        "trace": [{"step": "start", "node": update["node"], "tool": False,
                   "note": f"the graph model could not classify this node: {exc}"}],
    }
