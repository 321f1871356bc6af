"""GAR agent mode with the rule-following agent: agreement with compiled mode, errors, caps, batching.

The rule-following agent (:mod:`graphreason.workflows.gar.agents.rule_agent`) reads each prompt
(the algorithm from the system message, the batch from the JSON human message)
and applies the agent-form Update and Send rules to every node, as a careful
LLM would. It knows nothing of the compiled engine; agreement therefore tests
the agent form of each algorithm.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from langchain_core.messages import HumanMessage, SystemMessage

from graphreason.tools.gar.vertex import VertexGraph, VertexProgramError
from graphreason.workflows.gar.agents.graph import (
    AGENT_ALGORITHMS,
    AgentContext,
    agent_graph,
    graph_spec,
    run_agent_mode,
)
from graphreason.workflows.gar.agents.prompts import parse_reply
from graphreason.workflows.gar.agents.rule_agent import RULES, RuleAgentError, RuleAgentModel, follow_rules
from graphreason.workflows.models.scripted import ScriptedChatModel


# --------------------------------------------------------------------------- the rule-following "LLM"
def rule_model(extra: list | None = None, calls: int = 2000) -> ScriptedChatModel:
    """The rule-following agent behind a script: ``extra`` replies first, then at most ``calls`` calls."""
    return ScriptedChatModel(script=[*(extra or []), *([follow_rules] * calls)])


# --------------------------------------------------------------------------- graphs
def _random_graph(n: int, p: float, seed: int, directed: bool = False, weighted: bool = False) -> VertexGraph:
    rng = np.random.default_rng(seed)
    edges = [
        (u, v, int(rng.integers(1, 9)) if weighted else 1)
        for u in range(n)
        for v in range(n)
        if u != v and (directed or u < v) and rng.random() < p
    ]
    return VertexGraph.from_edges(n, edges or [(0, 0, 1)], directed=directed)


GRAPHS = {
    "path5": VertexGraph.from_edges(5, [(0, 1), (1, 2), (2, 3), (3, 4)]),
    "two_parts": VertexGraph.from_edges(7, [(0, 1), (1, 2), (2, 0), (3, 4), (5, 6)]),
    "odd_cycle_tail": VertexGraph.from_edges(6, [(0, 1), (1, 2), (2, 0), (2, 3), (3, 4), (4, 5)]),
    "square": VertexGraph.from_edges(4, [(0, 1), (1, 2), (2, 3), (3, 0)]),
    "weighted": VertexGraph.from_edges(
        6, [(0, 1, 7), (0, 2, 2), (2, 1, 3), (1, 3, 1), (2, 4, 9), (3, 4, 2), (4, 5, 0.5)]
    ),
    "random9": _random_graph(9, 0.3, seed=1, weighted=True),
    "random12": _random_graph(12, 0.18, seed=7, weighted=True),
    "dag": VertexGraph.from_edges(5, [(0, 1), (0, 2), (1, 3), (2, 3), (3, 4)], directed=True),
    "directed_cycle": VertexGraph.from_edges(5, [(0, 1), (1, 2), (2, 0), (2, 3), (4, 3)], directed=True),
    "random_directed": _random_graph(8, 0.2, seed=3, directed=True, weighted=True),
}

# (algorithm, params) cases; every supported algorithm appears with and without optional targets
CASES = [
    ("bfs_levels", {"source": 0}),
    ("bfs_levels", {"source": 0, "target": 4}),
    ("connectivity", {"source": 0, "target": 4}),
    ("connectivity", {"source": 3, "target": 1}),
    ("shortest_path", {"source": 0}),
    ("shortest_path", {"source": 0, "target": 3}),
    ("connected_components", {}),
    ("cycle_detection", {}),
    ("bipartiteness", {}),
]


def test_cases_cover_every_supported_algorithm():
    assert {name for name, _ in CASES} == set(AGENT_ALGORITHMS)


@pytest.mark.parametrize("graph_name", sorted(GRAPHS))
@pytest.mark.parametrize("algorithm,params", CASES, ids=[f"{a}-{'-'.join(p)}" for a, p in CASES])
def test_rule_following_agents_agree_with_compiled(graph_name, algorithm, params):
    graph = GRAPHS[graph_name]
    params = {k: v % graph.num_nodes for k, v in params.items()}  # targets inside small graphs
    result = run_agent_mode(graph, algorithm, params, model=rule_model(), batch_size=4, max_agent_calls=500)
    comparison = result["comparison"]
    if result["llm_calls"] == 0:  # e.g. leaf peeling on a graph without leaves: the start states are the answer
        assert comparison["agree"] is None and comparison["states_equal"], comparison["detail"]
        assert comparison["detail"].startswith("not compared: no node agent was called")
    else:
        assert comparison["agree"], comparison["detail"]
    assert result["errors"] == []
    assert result["complete"] and result["stop_reason"] in ("no_change", "rule", "no_active")
    assert result["answer"] == comparison["compiled_answer"]
    assert result["llm_calls"] == result["usage"].get("llm_calls", 0)


def test_known_answers_on_hand_made_graphs():
    model = rule_model()
    sp = run_agent_mode(GRAPHS["weighted"], "shortest_path", {"source": 0, "target": 5}, model=model)
    assert sp["answer"] == 8.5  # 0-2-1-3-4-5: 2 + 3 + 1 + 2 + 0.5
    cc = run_agent_mode(GRAPHS["two_parts"], "connected_components", {}, model=model)
    assert cc["answer"] == 3
    assert run_agent_mode(GRAPHS["square"], "bipartiteness", {}, model=model)["answer"] is True
    assert run_agent_mode(GRAPHS["odd_cycle_tail"], "bipartiteness", {}, model=model)["answer"] is False
    assert run_agent_mode(GRAPHS["path5"], "cycle_detection", {}, model=model)["answer"] is False
    assert run_agent_mode(GRAPHS["directed_cycle"], "cycle_detection", {}, model=model)["answer"] is True
    assert run_agent_mode(GRAPHS["dag"], "cycle_detection", {}, model=model)["answer"] is False


def test_prompt_gives_each_agent_its_id_neighbours_state_and_inbox():
    model = rule_model()
    run_agent_mode(GRAPHS["weighted"], "shortest_path", {"source": 0}, model=model, batch_size=8)
    system, human = model.calls[1][0].content, json.loads(model.calls[1][-1].content)
    for part in (
        "### State",
        "### Message",
        "### Initialization",
        "### Send",
        "### Update",
        "### Termination",
    ):
        assert part in system
    assert human["round"] == 1 and human["graph"] == "undirected"
    node1 = next(n for n in human["nodes"] if n["id"] == 1)
    assert {"id": 3, "weight": 1} in node1["neighbours"]
    assert node1["state"] == {"distance": None, "parent": -1}
    assert node1["inbox"] == [{"from": 0, "message": {"distance": 7}}]


# --------------------------------------------------------------------------- robustness
def test_malformed_replies_are_survived_and_recorded():
    def misbehave(messages):
        """Rules for every node except: node 1 answers a non-number, node 3 also mails a stranger."""
        reply = json.loads(follow_rules(messages))
        for node in reply["nodes"]:
            if node["id"] == 1:
                node.update(state={"level": "far"}, send=[])
            if node["id"] == 3:
                node["send"].append({"to": 99, "message": {"level": 1}})
        return "Here you go:\n```json\n" + json.dumps(reply) + "\n```"

    graph = GRAPHS["path5"]
    # round 0: not JSON at all -> the source keeps its state and sends nothing -> the run ends early
    garbage = run_agent_mode(graph, "bfs_levels", {"source": 0}, model=rule_model(["Sure! {not json"]))
    assert any("not valid JSON" in e for e in garbage["errors"])
    assert garbage["stop_reason"] == "no_active" and garbage["rounds"] == 0
    assert garbage["comparison"]["agree"] is None  # no agent answered: neither agreement nor disagreement
    assert garbage["comparison"]["detail"].startswith("not compared: no node agent answered; 1 problem(s)")
    assert garbage["comparison"]["states_equal"] is False and "differ" in garbage["comparison"]["detail"]

    # a bad state value and a message to a non-neighbour: old state kept / message dropped, run goes on
    model = ScriptedChatModel(script=[misbehave] * 20)
    result = run_agent_mode(graph, "bfs_levels", {"source": 2}, model=model, batch_size=1)
    assert any("node 1: bad state value" in e for e in result["errors"])
    assert any("node 3: dropped a message to 99" in e for e in result["errors"])
    assert result["states"]["1"]["level"] == -1  # its only update was malformed, so 0 is never reached
    assert result["states"]["4"]["level"] == 2  # the rest of the run went on
    assert result["answer"] == {2: 0, 3: 1, 4: 2} and result["comparison"]["agree"] is None
    assert "not compared: 3 problem(s) in node agent replies" in result["comparison"]["detail"]


def test_call_cap_stops_the_run_clearly():
    model = rule_model(calls=10)
    result = run_agent_mode(GRAPHS["path5"], "bfs_levels", {"source": 0}, model=model, max_agent_calls=2)
    assert result["stop_reason"] == "call_cap"
    assert "max_agent_calls=2" in result["stop_text"] and "max_agent_calls=2" in result["text"]
    assert result["llm_calls"] == 2 == len(model.calls)
    assert result["complete"] is False
    assert result["comparison"]["agree"] is None  # cut short by the cap: levels 3 and 4 were never reached
    assert "the run stopped early" in result["comparison"]["detail"]


def test_batching_reduces_calls():
    graph = _random_graph(10, 0.3, seed=5)
    by_size = {}
    for size in (1, 3, 8):
        model = rule_model()
        result = run_agent_mode(graph, "connected_components", {}, model=model, batch_size=size)
        assert result["comparison"]["agree"]
        for before, entry in zip([{"calls": 0}, *result["round_log"]], result["round_log"], strict=False):
            assert entry["calls"] - before["calls"] == math.ceil(entry["called"] / size)
        assert result["llm_calls"] == len(model.calls)
        by_size[size] = result["llm_calls"]
    assert by_size[1] > by_size[3] > by_size[8]
    assert result["round_log"][0]["called"] == 10 and result["round_log"][0]["calls"] == 2


def test_rounds_stream_progress_events():
    inputs = {
        "graph_spec": graph_spec(GRAPHS["path5"]),
        "algorithm": "bfs_levels",
        "params": {"source": 0},
        "batch_size": 8,
        "max_rounds": None,
        "max_agent_calls": 50,
    }
    events = [
        e
        for e in agent_graph.stream(inputs, context=AgentContext(model=rule_model()), stream_mode="custom")
        if e.get("event") == "agent_round"
    ]
    assert [e["round"] for e in events] == [0, 1, 2, 3, 4, 5]
    assert events[0]["called"] == 1 and events[1]["changed"] == 1


def test_round_cap_marks_the_answer_incomplete():
    result = run_agent_mode(GRAPHS["path5"], "bfs_levels", {"source": 0}, model=rule_model(), max_rounds=2)
    assert result["stop_reason"] == "max_rounds" and not result["complete"]
    assert result["answer"] == {0: 0, 1: 1, 2: 2}
    assert result["comparison"]["agree"]  # compiled mode gets the same cap


def test_unsupported_algorithm_and_bad_limits_are_named():
    with pytest.raises(VertexProgramError, match="agent mode does not support 'pagerank'"):
        run_agent_mode(GRAPHS["path5"], "pagerank", {}, model=rule_model())
    with pytest.raises(VertexProgramError, match="batch_size"):
        run_agent_mode(GRAPHS["path5"], "bfs_levels", {"source": 0}, model=rule_model(), batch_size=0)


def test_parse_reply_is_tolerant():
    assert parse_reply('```json\n{"nodes": [{"id": 1}]}\n```') == [{"id": 1}]
    assert parse_reply("noise [{'id': 2, 'state': {'removed': True}}] trailing") == [
        {"id": 2, "state": {"removed": True}}
    ]
    assert parse_reply('{"id": 3, "state": {}}') == [{"id": 3, "state": {}}]


@pytest.mark.integration
def test_embedded_model_runs_on_a_tiny_graph():
    """One short batched call of the embedded model; only that the run ends with a verdict is checked."""
    inputs = {
        "graph_spec": graph_spec(VertexGraph.from_edges(4, [(0, 1), (1, 2), (2, 3)])),
        "algorithm": "connected_components",
        "params": {},
        "batch_size": 4,
        "max_rounds": None,
        "max_agent_calls": 1,
    }
    out = agent_graph.invoke(inputs, context=AgentContext(model="local", max_tokens=96))
    result = out["result"]
    assert result["llm_calls"] == 1 == out["llm_usage"]["llm_calls"]
    assert result["stop_reason"] in ("call_cap", "no_active", "no_change")
    assert result["comparison"]["agree"] in (True, False, None) and result["comparison"]["detail"]


def test_master_workflow_runs_agent_mode_and_checks_it_against_compiled():
    from graphreason.workflows.gar import solve
    from graphreason.workflows.gar.context import GARContext

    question = (
        "In an undirected graph, the nodes are numbered from 0 to 3, and the edges are: (0,1) (1,2) (2,3). "
        "Is there a path between node 0 and node 3?"
    )
    agents = rule_model()
    master = ScriptedChatModel(script=["connectivity"])
    out = solve(
        question,
        GARContext(
            master_model=master, agent_model=agents, embedding_model="hash", mode="agents", agent_batch_size=4
        ),
    )
    assert out["structured"]["value"] is True
    executed = next(n for n in out["trace"] if n.get("step") == "execute" and "engine" in n)
    assert executed["engine"] == "agents" and executed["comparison"]["agree"] is True
    assert out["usage"]["llm_calls"] > 1  # the master call plus the node-agent calls


# --------------------------------------------------------------------------- the "rules" model spec
def rules_context(algorithm: str, batch_size: int):
    """A GAR context in agents mode: the master names ``algorithm``, the rule-following agent runs it."""
    from graphreason.workflows.gar.context import GARContext

    return GARContext(
        master_model=ScriptedChatModel(script=[algorithm]),
        agent_model="rules",
        embedding_model="hash",
        mode="agents",
        agent_batch_size=batch_size,
    )


def test_rules_spec_resolves_to_the_rule_following_agent_everywhere():
    assert set(RULES) == set(AGENT_ALGORITHMS)
    for name in ("random12", "directed_cycle"):
        for algorithm, params in CASES:
            graph = GRAPHS[name]
            params = {k: v % graph.num_nodes for k, v in params.items()}
            result = run_agent_mode(graph, algorithm, params, model="rules", batch_size=3)
            assert result["comparison"]["agree"], (name, algorithm, result["comparison"]["detail"])
            assert result["llm_calls"] == result["usage"]["llm_calls"] > 0
            assert result["usage"]["input_tokens"] > 0 and result["usage"]["output_tokens"] > 0
    inputs = {
        "graph_spec": graph_spec(GRAPHS["two_parts"]),
        "algorithm": "connected_components",
        "params": {},
        "batch_size": 2,
        "max_rounds": None,
        "max_agent_calls": 50,
    }
    out = agent_graph.invoke(inputs, context=AgentContext(model=" Rules "))
    assert out["result"]["answer"] == 3 and out["result"]["comparison"]["agree"]


def test_master_workflow_accepts_the_rules_agent_model():
    from graphreason.workflows.gar import solve

    question = (
        "Determine whether or not a graph is bipartite. In an undirected graph, (i,j) means that node i and "
        "node j are connected with an undirected edge. Q: The nodes are numbered from 0 to 5, and the edges "
        "are: (0,1) (1,2) (2,3) (3,4) (4,5) (5,0). Is this graph bipartite?"
    )
    context = rules_context("bipartiteness", batch_size=2)
    out = solve(question, context)
    executed = next(n for n in out["trace"] if n.get("step") == "execute" and "engine" in n)
    assert executed["engine"] == "agents" and executed["comparison"]["agree"] is True
    assert out["structured"]["value"] is True
    assert out["usage"]["llm_calls"] >= 1 + 3  # the master plus three node-agent calls for round 0


def test_rule_agent_model_records_prompts_and_rejects_foreign_ones():
    model = RuleAgentModel(record=True)
    result = run_agent_mode(GRAPHS["path5"], "bfs_levels", {"source": 0}, model=model, batch_size=2)
    assert result["answer"] == {0: 0, 1: 1, 2: 2, 3: 3, 4: 4}
    # one node agent per round: 0 starts, 1..4 are reached, in round 5 node 3 hears 4 and nothing changes
    assert model.call_count == len(model.calls) == result["llm_calls"] == 6
    with pytest.raises(RuleAgentError, match="names no algorithm"):
        follow_rules([SystemMessage("Be helpful."), HumanMessage("{}")])
    with pytest.raises(RuleAgentError, match="no rules for 'pagerank'"):
        follow_rules([SystemMessage("## Algorithm: pagerank"), HumanMessage('{"nodes": []}')])
    with pytest.raises(RuleAgentError, match="not JSON"):
        follow_rules([SystemMessage("## Algorithm: bfs_levels"), HumanMessage("nodes: 1, 2")])
    with pytest.raises(RuleAgentError, match='no "nodes" list'):
        follow_rules([SystemMessage("## Algorithm: bfs_levels"), HumanMessage('{"round": 0}')])


# --------------------------------------------------------------------------- the subgraph inside the GAR graph
def test_gar_graph_draws_the_agent_subgraph_as_a_node():
    """Studio's drawing (xray) of the compiled GAR graph shows the node-agent subgraph's own nodes."""
    from graphreason.workflows.gar.graph import graph as gar_graph

    drawing = gar_graph.get_graph(xray=True)
    agent_nodes = {"setup", "agent_batch", "round_end", "finish"}
    assert {f"node_agents:{name}" for name in agent_nodes} <= set(drawing.nodes)
    assert {name for name, _ in gar_graph.get_subgraphs()} == {"node_agents"}
    assert set(gar_graph.get_graph().nodes) >= {"execute", "node_agents", "summarize"}
    # the drawing's edges go into and out of the subgraph: choose -> setup, finish -> summarize
    edges = {(e.source, e.target) for e in drawing.edges}
    assert ("choose", "node_agents:setup") in edges and ("node_agents:finish", "summarize") in edges


def test_stream_solve_passes_on_the_subgraph_round_events():
    from graphreason.workflows.gar import stream_solve

    question = (
        "In an undirected graph, the nodes are numbered from 0 to 3, and the edges are: (0,1) (1,2) (2,3). "
        "Is there a path between node 0 and node 3?"
    )
    context = rules_context("connectivity", batch_size=4)
    events: list[dict] = []
    final = stream_solve(question, context, on_event=events.append)
    rounds = [e for e in events if e.get("event") == "agent_round"]
    assert rounds and [e["round"] for e in rounds] == list(range(len(rounds)))
    assert final["result"]["engine"] == "agents" and final["result"]["comparison"]["agree"] is True
    assert "states" not in final["result"]  # the per-node states stay inside the subgraph
