"""GraphAgent-Reasoner's agent mode: every node is an LLM agent, rounds fan out with ``Send``.

    setup ─► (router) ─Send×k─► agent_batch ─► round_end ─► (router) ─► ... ─► finish ─► END

Per round the router sends the nodes that have mail (round 0: the initially
active ones) to ``agent_batch`` workers, ``batch_size`` node agents per LLM
call. A worker's reply gives each node's new state and its outgoing messages;
replies merge through a reducer. ``round_end`` validates them (a malformed
reply keeps the old state, sends nothing and is recorded), delivers the mail,
checks termination (no state changed / the algorithm's own rule / the round
cap) and streams one ``agent_round`` event. Before each round the LLM-call cap
is checked: a round that would exceed ``max_agent_calls`` is not started and
the run stops saying so. ``finish`` reads the answer from the final states
with the compiled algorithm's Result part and compares it with compiled mode
(``graphreason.tools.gar.vertex.run`` on the same graph and parameters).

In the master workflow this subgraph is the ``node_agents`` node
(:func:`graphreason.workflows.gar.execute.node_agents`); Studio draws its nodes
inside the GAR graph. :func:`run_agent_mode` runs it alone on a given graph.

Supported algorithms (exact in the agent form): ``AGENT_ALGORITHMS``. The
node-agent model is any model spec; ``rules`` is the rule-following agent
(:mod:`graphreason.workflows.gar.agents.rule_agent`), which must agree with compiled mode.
"""

from __future__ import annotations

from typing import Any

from langgraph.graph import END, START, StateGraph

from graphreason.tools.gar.vertex import VertexGraph, get_algorithm
from graphreason.workflows.gar.agents.forms import AGENT_ALGORITHMS, agent_spec, compare
from graphreason.workflows.gar.agents.nodes import agent_batch, finish, round_end, route, setup
from graphreason.workflows.gar.agents.state import AgentContext, AgentInput, AgentOutput, AgentState
from graphreason.workflows.gar.run_graphs import graph_spec, vertex_graph
from graphreason.workflows.kit.compile import add_nodes, compile_workflow

__all__ = [
    "AGENT_ALGORITHMS",
    "AgentContext",
    "agent_graph",
    "build_agent_graph",
    "compare",
    "graph_spec",
    "recursion_limit",
    "run_agent_mode",
]

# Each run sets its own limit (:func:`recursion_limit`); this default covers graphs up to about 300 nodes.
RECURSION_LIMIT = 1000


def recursion_limit(max_rounds: int) -> int:
    """The super-step limit of a run allowed ``max_rounds`` rounds (about three super-steps per round)."""
    return 3 * max_rounds + 20


def build_agent_graph(checkpointer=None, *, name: str = "GAR node agents"):
    """Compile the agent-mode subgraph (input: :class:`AgentInput`; output: ``result``, ``llm_usage``)."""
    builder = StateGraph(
        AgentState, context_schema=AgentContext, input_schema=AgentInput, output_schema=AgentOutput
    )
    add_nodes(builder, setup, agent_batch, round_end, finish)
    builder.add_edge(START, "setup")
    builder.add_conditional_edges("setup", route, ["agent_batch", "finish"])
    builder.add_edge("agent_batch", "round_end")
    builder.add_conditional_edges("round_end", route, ["agent_batch", "finish"])
    builder.add_edge("finish", END)
    # rounds are capped by the caller's recursion limit (3 per round), set per run from the graph size
    return compile_workflow(builder, name=name, recursion_limit=RECURSION_LIMIT, checkpointer=checkpointer)


agent_graph = build_agent_graph()


def run_agent_mode(
    graph: Any,
    algorithm_name: str,
    params: dict[str, Any] | None = None,
    model: Any = "local",
    batch_size: int = 8,
    max_rounds: int | None = None,
    max_agent_calls: int = 200,
) -> dict[str, Any]:
    """Run ``algorithm_name`` with LLM node agents on ``graph`` (a VertexGraph or a parsed problem).

    ``model`` is a spec string (``local``, ``openai:MODEL``, ``scripted:FILE``,
    ``rules`` for the rule-following agent) or a chat model.

    Returns the agent-mode result: ``answer``, ``text``, ``rounds``, ``stop_reason``,
    ``llm_calls``, ``errors``, ``round_log``, the final ``states`` and the
    ``comparison`` with compiled mode; plus ``usage`` (LLM tokens and seconds).
    """
    if not isinstance(graph, VertexGraph):
        graph = vertex_graph(graph, algorithm_name)
    agent_spec(get_algorithm(algorithm_name).name)
    inputs = AgentInput(
        graph_spec=graph_spec(graph),
        algorithm=algorithm_name,
        params=dict(params or {}),
        batch_size=batch_size,
        max_rounds=max_rounds,
        max_agent_calls=max_agent_calls,
    )
    # leave room for the longest allowed run
    limit = recursion_limit(max_rounds if max_rounds is not None else graph.num_nodes + 2)
    out = agent_graph.invoke(inputs, context=AgentContext(model=model), config={"recursion_limit": limit})
    result = dict(out["result"])
    result["usage"] = dict(out.get("llm_usage") or {})
    return result
