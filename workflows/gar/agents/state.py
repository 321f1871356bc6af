"""State, reducers and runtime context of GAR's node-agent mode (the paper's execution mode).

Everything in the state is JSON-ready: node ids are strings in the per-node
maps (JSON object keys), states and messages are small dicts.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any

from typing_extensions import TypedDict

from graphreason.workflows.gar.state import Usage, add_usage
from graphreason.workflows.run_context import MAX_CLIENT_TOKENS, RunContext, describe


def collect_replies(left: list[dict] | None, right: list[dict] | None) -> list[dict]:
    """Reducer: worker replies add up within a round; ``None`` (from round end) empties the list."""
    if right is None:
        return []
    return [*(left or []), *right]


class AgentInput(TypedDict, total=False):
    """What the agent subgraph needs: the graph, the algorithm, its parameters and the limits."""

    # the graph: the master run's key (with its question and structured graph, to rebuild it
    # if the run cache dropped it) or, for a standalone run, a small JSON description
    graph_key: str
    question: str
    graph: dict[str, Any] | None
    graph_spec: dict[str, Any]  # num_nodes, edges [[u, v, w]], directed, weighted, node_weights, labels
    algorithm: str
    params: dict[str, Any]
    batch_size: int
    max_rounds: int | None
    max_agent_calls: int


class AgentOutput(TypedDict, total=False):
    result: dict[str, Any]
    llm_usage: Annotated[Usage, add_usage]


class AgentState(AgentInput, AgentOutput, total=False):
    """Internal state: node states, the mail waiting for the next round, and the run's bookkeeping."""

    prepared: dict[str, Any]  # the parameters as the algorithm completed them (node ids, defaults)
    states: dict[str, dict[str, Any]]  # node id -> its current state
    inbox: dict[str, list[dict[str, Any]]]  # node id -> messages it reads next round
    start: list[int]  # nodes told to send without mail (the initially active ones, round 0)
    round: int  # the round about to run (0 = the initial Send)
    calls: int  # LLM calls made so far
    stop_reason: str | None
    stop_text: str
    errors: list[str]
    round_log: list[dict[str, Any]]
    replies: Annotated[list[dict[str, Any]], collect_replies]


class BatchPayload(TypedDict):
    """What one ``Send`` hands to a worker: the algorithm and the node agents it answers for."""

    algorithm: str
    round: int
    directed: bool
    entries: list[dict[str, Any]]


@dataclass(kw_only=True)
class AgentContext(RunContext):
    """Runtime context of the agent subgraph: the node-agent chat model (spec string or model).

    Specs: ``local``, ``openai:MODEL``, ``scripted:FILE.json`` or ``rules`` (the
    rule-following agent of :mod:`graphreason.workflows.gar.agents.rule_agent`, which applies the
    prompt's rules exactly: agent mode's reference run). Endpoint, sampling and
    request limits are the master run's (:func:`graphreason.workflows.run_context.shared_settings`).
    """

    MODEL_FIELDS = ("model",)  # typed Any (a chat model object is allowed): listed for the trust policy
    model: Any = field(default="local", metadata=describe("Node-agent model spec (or chat model)."))
    temperature: float = field(
        default=0.0, metadata=describe("Sampling temperature of the node agents.", server_max=2.0)
    )
    max_tokens: int = field(
        default=1024,
        metadata=describe("Token budget of one batched node-agent reply.", server_max=MAX_CLIENT_TOKENS),
    )
