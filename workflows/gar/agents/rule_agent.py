"""A rule-following stand-in for the node-agent LLM (model spec ``rules``).

It answers each batched node-agent call the way a careful LLM would: it reads
the algorithm's name from the system prompt (``## Algorithm: NAME``) and the
batch from the JSON human message, then applies the agent-form Update and Send
rules written in :mod:`graphreason.workflows.gar.agents.prompts` to every node. It only
reads the prompt text - never the engine, the graph or the compiled states -
so agreement of agent mode with compiled mode under this model tests the agent
form of each algorithm and the agent plumbing (batching, mail, termination).

``GARContext(mode="agents", agent_model="rules")`` and
``AgentContext(model="rules")`` resolve to :class:`RuleAgentModel`.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage
from pydantic import ConfigDict, Field, PrivateAttr

from graphreason.llm.chat_result import ReplyChatModel, approx_prompt_tokens, approx_tokens, reply_message

RULES_SPEC = "rules"
_ALGORITHM = re.compile(r"## Algorithm: (\w+)")

# A rule takes one node's prompt entry and the graph kind; it returns the new state
# and the message it would send (None when the message depends on the neighbour).
Rule = Callable[[dict[str, Any], str], tuple[dict[str, Any], dict[str, Any] | None]]


class RuleAgentError(ValueError):
    """A prompt the rule-following agent cannot read (not a node-agent batch prompt)."""


# --------------------------------------------------------------------------- per-algorithm rules
def _levels(node: dict, graph: str) -> tuple[dict, dict | None]:
    """BFS levels / connectivity: an unreached node takes the smallest offered level."""
    state = dict(node["state"])
    if state["level"] == -1 and node["inbox"]:
        best = min(node["inbox"], key=lambda m: (m["message"]["level"], m["from"]))
        state.update(level=best["message"]["level"], parent=best["from"])
    return state, {"level": state["level"] + 1}


def _distances(node: dict, graph: str) -> tuple[dict, dict | None]:
    """Shortest path: keep the lightest offered distance (null is infinity)."""
    state = dict(node["state"])
    if node["inbox"]:
        best = min(node["inbox"], key=lambda m: (m["message"]["distance"], m["from"]))
        if state["distance"] is None or best["message"]["distance"] < state["distance"]:
            state.update(distance=best["message"]["distance"], parent=best["from"])
    return state, None  # each neighbour gets its own distance: built per edge in _answer


def _labels(node: dict, graph: str) -> tuple[dict, dict | None]:
    """Connected components: adopt the smallest label heard."""
    state = dict(node["state"])
    heard = [m["message"]["label"] for m in node["inbox"]]
    if heard and min(heard) < state["label"]:
        state["label"] = min(heard)
    return state, {"label": state["label"]}


def _peeling(node: dict, graph: str) -> tuple[dict, dict | None]:
    """Cycle detection: count removed neighbours and peel off when few enough remain."""
    state = dict(node["state"])
    if not state["removed"] and node["inbox"]:
        state["remaining"] -= len(node["inbox"])
        if state["remaining"] <= (1 if graph == "undirected" else 0):
            state["removed"] = True
    return state, {"removed": True}


def _colours(node: dict, graph: str) -> tuple[dict, dict | None]:
    """Bipartiteness: follow the smallest root's colour demand and flag contradictions."""
    state = dict(node["state"])
    claims = [m["message"] for m in node["inbox"] if m["message"]["root"] <= state["root"]]
    if claims:
        low = min(c["root"] for c in claims)
        asked = {c["colour"] for c in claims if c["root"] == low}
        if len(asked) > 1:
            state["conflict"] = True
        if low < state["root"]:
            state.update(root=low, colour=min(asked))
        elif state["colour"] not in asked:
            state["conflict"] = True
    return state, {"root": state["root"], "colour": 1 - state["colour"]}


RULES: dict[str, Rule] = {
    "bfs_levels": _levels,
    "connectivity": _levels,
    "shortest_path": _distances,
    "connected_components": _labels,
    "cycle_detection": _peeling,
    "bipartiteness": _colours,
}


# --------------------------------------------------------------------------- one call
def read_prompt(messages: list[BaseMessage]) -> tuple[str, dict[str, Any]]:
    """The algorithm's name and the batch (``{"round", "graph", "nodes"}``) of a node-agent prompt."""
    if not messages:
        raise RuleAgentError("the rule-following agent got an empty prompt")
    found = _ALGORITHM.search(str(messages[0].content))
    if found is None:
        raise RuleAgentError("the prompt names no algorithm ('## Algorithm: NAME' is missing)")
    algorithm = found.group(1)
    if algorithm not in RULES:
        raise RuleAgentError(
            f"the rule-following agent has no rules for {algorithm!r}; it knows {', '.join(RULES)}"
        )
    try:
        batch = json.loads(str(messages[-1].content))
    except json.JSONDecodeError as exc:
        raise RuleAgentError(f"the batch message is not JSON ({exc.msg})") from exc
    if not isinstance(batch, dict) or not isinstance(batch.get("nodes"), list):
        raise RuleAgentError('the batch message has no "nodes" list')
    return algorithm, batch


def _answer(node: dict, algorithm: str, graph: str) -> dict[str, Any]:
    """One node's reply entry: new state, and messages to every neighbour when it is active."""
    state, message = RULES[algorithm](node, graph)
    if algorithm == "cycle_detection":  # only a fresh removal is news to the neighbours
        active = node["start"] or (state["removed"] and not node["state"]["removed"])
    else:
        active = node["start"] or state != node["state"]
    sends = []
    if active:
        for neighbour in node["neighbours"]:
            if algorithm == "shortest_path":
                message = {"distance": state["distance"] + neighbour["weight"]}
            sends.append({"to": neighbour["id"], "message": message})
    return {"id": node["id"], "state": state, "send": sends}


def follow_rules(messages: list[BaseMessage]) -> str:
    """The JSON reply of one batched node-agent call, every node's rules applied exactly."""
    algorithm, batch = read_prompt(messages)
    graph = str(batch.get("graph", "undirected"))
    return json.dumps({"nodes": [_answer(node, algorithm, graph) for node in batch["nodes"]]})


def is_rules_spec(value: Any) -> bool:
    """Whether a model value is the ``rules`` spec string."""
    return isinstance(value, str) and value.strip().lower() == RULES_SPEC


class RuleAgentModel(ReplyChatModel):
    """A chat model that answers every node-agent call with :func:`follow_rules` (no call limit).

    Token usage is a whitespace count, like the scripted model. With
    ``record=True`` the prompts are kept in ``calls`` (tests); ``call_count``
    always counts the calls.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    record: bool = False
    calls: list[list[BaseMessage]] = Field(default_factory=list, exclude=True)
    call_count: int = 0
    _lock: Any = PrivateAttr(default_factory=threading.Lock)  # Send workers call from threads

    @property
    def _llm_type(self) -> str:
        return "gar-rule-agent"

    def _reply(self, messages: list[BaseMessage], stop: list[str] | None, **kwargs: Any) -> AIMessage:
        with self._lock:
            self.call_count += 1
            if self.record:
                self.calls.append(list(messages))
        text = follow_rules(messages)
        return reply_message(text, approx_prompt_tokens(messages), approx_tokens(text))
