"""A GAR run's usage tells the master's calls from the node agents', counted inside the workflow.

Checked against an independent count: a LangChain callback that sees every
chat-model call and tells roles apart by the LangGraph node that made it.
"""

from __future__ import annotations

import threading
from uuid import UUID

from langchain_core.callbacks import BaseCallbackHandler

from graphreason.workflows.gar import solve
from graphreason.workflows.gar.context import GARContext
from graphreason.workflows.models.scripted import ScriptedChatModel

QUESTION = (
    "Determine whether two nodes are connected in an undirected graph. Q: The nodes are numbered from 0 to 5, "
    "and the edges are: (0,1) (1,2) (2,3) (4,5). Is there a path between node 0 and node 3?"
)


class CallsByNode(BaseCallbackHandler):
    """Chat-model calls and tokens per LangGraph node."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._nodes: dict[UUID, str] = {}
        self.calls: dict[str, int] = {}
        self.tokens: dict[str, int] = {}

    def on_chat_model_start(self, serialized, messages, *, run_id: UUID, metadata=None, **kwargs) -> None:
        with self._lock:
            self._nodes[run_id] = str((metadata or {}).get("langgraph_node"))

    def on_llm_end(self, response, *, run_id: UUID, **kwargs) -> None:
        message = response.generations[0][0].message
        usage = message.usage_metadata or {}
        with self._lock:
            node = self._nodes.pop(run_id)
            self.calls[node] = self.calls.get(node, 0) + 1
            self.tokens[node] = self.tokens.get(node, 0) + usage["input_tokens"] + usage["output_tokens"]


def test_agent_and_master_shares_match_an_independent_count():
    counter = CallsByNode()
    context = GARContext(
        master_model=ScriptedChatModel(script=['{"algorithm": "connectivity"}']),
        embedding_model="hash",
        mode="agents",
        agent_model="rules",
        agent_batch_size=2,
    )
    usage = solve(QUESTION, context, callbacks=[counter])["usage"]
    assert usage["agent_calls"] == counter.calls["agent_batch"] >= 2
    assert usage["master_calls"] == counter.calls["choose"] == 1
    assert usage["agent_tokens"] == counter.tokens["agent_batch"]
    assert usage["master_tokens"] == counter.tokens["choose"]
    assert usage["llm_calls"] == usage["agent_calls"] + usage["master_calls"]
    assert usage["tokens"] == usage["agent_tokens"] + usage["master_tokens"]
    assert usage["agent_bad_replies"] == 0


def test_unreadable_node_agent_replies_are_counted():
    context = GARContext(
        master_model=ScriptedChatModel(script=['{"algorithm": "connectivity"}']),
        embedding_model="hash",
        mode="agents",
        agent_model=ScriptedChatModel(script=["Sure! {not json"] * 3),
        agent_batch_size=8,
    )
    usage = solve(QUESTION, context)["usage"]
    assert usage["agent_calls"] >= 1 and usage["agent_bad_replies"] == usage["agent_calls"]
