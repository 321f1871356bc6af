"""Prompts of the node agents and the tolerant parser of their replies.

A node agent only sees itself: its id, its neighbours (with edge weights), its
state and the messages in its inbox. So the algorithms are worded here in an
agent form where Send reads nothing but the sender's own state (the compiled
engine may also peek at the receiver); receivers ignore what does not help
them, which gives the same final states.

One call answers for a batch of nodes: the prompt is a JSON object
``{"round": r, "graph": "directed" | "undirected", "nodes": [{"id", "neighbours", "state",
"inbox", "start"}, ...]}``
and the reply must be ``{"nodes": [{"id", "state", "send": [{"to", "message"}]}]}``.
"""

from __future__ import annotations

import json
import re
from typing import Any

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage

from graphreason.tools.core.lenient_json import first_value

SEND_ON_CHANGE = (
    'Step 1: if your state changed in this round, or you have "start": true, you are active. '
    "Step 2: an active node sends the message below to EVERY neighbour in its list; an inactive node "
    'sends nothing ("send": []).'
)

AGENT_PARTS: dict[str, dict[str, str]] = {
    "bfs_levels": {
        "State": "level: hops from the source (-1 = not reached yet); parent: the node it was reached "
        "from (-1 = none).",
        "Message": '{"level": L} where L = the sender\'s level + 1.',
        "Update": "Step 1: if your level is -1 and the inbox is not empty, set level to the smallest "
        'received level and parent to the sender ("from") of that message (the smallest such id on a '
        "tie). Step 2: otherwise keep your state unchanged.",
        "Example": 'Node 4, state {"level": -1, "parent": -1}, inbox [{"from": 2, "message": {"level": 3}}, '
        '{"from": 1, "message": {"level": 2}}] -> state {"level": 2, "parent": 1}; it changed, so it '
        'sends {"level": 3} to each neighbour.',
    },
    "shortest_path": {
        "State": "distance: the lightest known path weight from the source (null = infinity, not reached); "
        "parent: the neighbour on that path (-1 = none).",
        "Message": '{"distance": D} where D = the sender\'s distance + the weight of the edge to that '
        "neighbour (each neighbour gets its own D).",
        "Update": "Step 1: take the smallest received distance. Step 2: if it is smaller than your distance "
        "(anything is smaller than null), set distance to it and parent to its sender (the smallest id on "
        "a tie). Step 3: otherwise keep your state unchanged.",
        "Example": 'Node 3, state {"distance": 9, "parent": 0}, inbox [{"from": 2, "message": {"distance": '
        '5}}] -> state {"distance": 5, "parent": 2}; neighbours [{"id": 4, "weight": 2}] so it sends '
        '{"to": 4, "message": {"distance": 7}}.',
    },
    "connected_components": {
        "State": "label: the smallest node id known in this node's component.",
        "Message": '{"label": L} where L = the sender\'s label.',
        "Update": "Step 1: take the smallest received label. Step 2: if it is smaller than your label, "
        "adopt it; otherwise keep your state unchanged.",
        "Example": 'Node 6, state {"label": 5}, inbox [{"from": 5, "message": {"label": 2}}] -> state '
        '{"label": 2}; it changed, so it sends {"label": 2} to each neighbour.',
    },
    "cycle_detection": {
        "State": "remaining: how many of your edges (undirected) or incoming edges (directed) still lead "
        "to nodes that are not removed; removed: whether you have been peeled off.",
        "Message": '{"removed": true}: the sender has just been removed.',
        "Send": 'Step 1: you are active if you have "start": true, or if removed became true in this round '
        "(a change of remaining alone does not make you active). Step 2: an active node sends the message "
        'to EVERY neighbour in its list; an inactive node sends nothing ("send": []).',
        "Update": "Step 1: if you are already removed, keep your state unchanged. Step 2: otherwise "
        "subtract the number of inbox messages from remaining. Step 3: if remaining is now <= 1 "
        "(undirected graph) or 0 (directed graph), set removed = true.",
        "Example": 'Undirected. Node 2, state {"remaining": 3, "removed": false}, inbox of 2 messages -> '
        'state {"remaining": 1, "removed": true}; it changed, so it sends {"removed": true} to each '
        "neighbour.",
    },
    "bipartiteness": {
        "State": "root: the smallest node id known in your component; colour: 0 or 1 relative to that "
        "root; conflict: whether two demands on your colour contradict each other.",
        "Message": '{"root": R, "colour": C} where R = the sender\'s root and C = 1 - the sender\'s colour '
        "(the colour the receiver should have).",
        "Update": "Step 1: ignore messages whose root is larger than your root. Step 2: among the rest take "
        "the smallest root R. Step 3: if messages with root R ask for different colours, set conflict = "
        "true. Step 4: if R is smaller than your root, set root = R and colour = the colour asked for. "
        "Step 5: if R equals your root but asks for a colour different from yours, set conflict = true.",
        "Example": 'Node 3, state {"root": 3, "colour": 0, "conflict": false}, inbox [{"from": 1, '
        '"message": {"root": 1, "colour": 1}}] -> state {"root": 1, "colour": 1, "conflict": false}; it '
        'changed, so it sends {"root": 1, "colour": 0} to each neighbour.',
    },
}
AGENT_PARTS["connectivity"] = AGENT_PARTS["bfs_levels"]

TERMINATION = (
    "The framework stops the run when no node's state changed in a round, when the algorithm's own rule "
    "fires (a target reached, a conflict found), or at the round cap."
)

REPLY_FORMAT = (
    'Reply with JSON only, one entry per node you were given: {"nodes": [{"id": <node id>, "state": '
    '{<your new state, every field>}, "send": [{"to": <neighbour id>, "message": {...}}]}]}. '
    "Send only to ids in that node's neighbour list."
)


def system_prompt(algorithm: str, description: str) -> str:
    """The shared instructions: the agents' role, the algorithm in six parts, the reply format."""
    parts = AGENT_PARTS[algorithm]
    lines = [
        "You act as the node agents of a graph in a distributed algorithm. Each node knows only its own id, "
        "its neighbours (with edge weights), its state and the messages in its inbox. For every node you are "
        "given, apply Update to its inbox, then Send, exactly as written.",
        f"## Algorithm: {algorithm}",
        description.strip(),
        "### State",
        parts["State"],
        "### Message",
        parts["Message"],
        "### Initialization",
        "Done by the framework: each node is given its starting state; nodes that must send first have "
        '"start": true and an empty inbox (they keep their state and send).',
        "### Send",
        parts.get("Send", SEND_ON_CHANGE),
        "### Update",
        parts["Update"],
        "### Example",
        parts["Example"],
        "### Termination",
        TERMINATION,
        "## Output",
        REPLY_FORMAT,
    ]
    return "\n".join(lines)


def batch_messages(
    algorithm: str, description: str, round: int, directed: bool, entries: list[dict]
) -> list[BaseMessage]:
    """The prompt of one batched call: system instructions plus the batch as JSON."""
    payload = {"round": round, "graph": "directed" if directed else "undirected", "nodes": entries}
    return [SystemMessage(system_prompt(algorithm, description)), HumanMessage(json.dumps(payload))]


class AgentReplyError(ValueError):
    """A node agents' reply that is not the expected JSON."""


_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.DOTALL)


def _decode_first(text: str) -> Any:
    """The first JSON (or Python-literal) object or list in ``text``."""
    try:
        return first_value(text)
    except ValueError as exc:
        raise AgentReplyError(f"the reply contains no usable JSON: {exc}") from exc


def parse_reply(text: str) -> list[dict[str, Any]]:
    """The per-node entries of a reply: ``{"nodes": [...]}``, a bare list, or one node's object."""
    fenced = _FENCE.search(text)
    data = _decode_first(fenced.group(1) if fenced else text)
    if isinstance(data, dict) and isinstance(data.get("nodes"), list):
        data = data["nodes"]
    elif isinstance(data, dict) and "id" in data:
        data = [data]
    if not isinstance(data, list):
        raise AgentReplyError('the reply has no "nodes" list')
    return [entry for entry in data if isinstance(entry, dict)]
