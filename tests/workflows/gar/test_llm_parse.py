"""Graph construction's second reader: the master writes the graph as JSON when the parser read no edges."""

from __future__ import annotations

import json

import pytest

from graphreason.tools.gar.graph_text import GraphTextError
from graphreason.workflows.gar import GARContext, solve
from graphreason.workflows.gar.llm_parse import graph_from_reply, stated_node_count
from graphreason.workflows.models.scripted import ScriptedChatModel

ROADS = (
    "Town Alpha has a road to Beta. Beta has a road to Gamma. Delta and Epsilon share a road, "
    "and nobody ever goes to Zeta. Is there a path between Alpha and Gamma?"
)
ROADS_GRAPH = {
    "directed": False,
    "nodes": ["Alpha", "Beta", "Gamma", "Delta", "Epsilon", "Zeta"],
    "edges": [["Alpha", "Beta"], ["Beta", "Gamma"], ["Delta", "Epsilon"]],
}


def run(question: str, *replies: str, **kw) -> tuple[dict, ScriptedChatModel]:
    model = ScriptedChatModel(script=list(replies))
    return solve(question, GARContext(master_model=model, embedding_model="hash", **kw)), model


def test_unreadable_text_is_read_by_the_master_and_answered():
    reply = "Sure, here is the graph:\n" + json.dumps(ROADS_GRAPH)
    out, model = run(ROADS, reply, '{"algorithm": "connectivity"}')
    assert out["algorithm"] == "connectivity" and out["structured"]["value"] is True
    steps = [t["step"] for t in out["trace"]]
    assert steps[:2] == ["construct", "construct"]  # the parser's failure, then the master's reading
    assert out["trace"][1]["how"].startswith("the master's JSON reading")
    assert "6 nodes and 3 edges" in out["trace"][1]["text"]
    assert out["usage"]["llm_calls"] == 2 and model.remaining == 0


def test_the_question_parameters_are_read_with_the_masters_node_names():
    question = ROADS.replace("between Alpha and Gamma", "between Alpha and Epsilon")
    out, _ = run(question, json.dumps(ROADS_GRAPH), "connectivity")
    assert out["structured"]["value"] is False


def test_invented_nodes_are_refused_with_both_problems_named():
    invented = {**ROADS_GRAPH, "edges": [*ROADS_GRAPH["edges"], ["Gamma", "Omega"]]}
    with pytest.raises(GraphTextError, match=r"no edges could be read.*not in the text: Omega"):
        run(ROADS, json.dumps(invented))


def test_a_reply_without_a_graph_is_refused():
    with pytest.raises(GraphTextError, match="no JSON object with an 'edges' list"):
        run(ROADS, "The graph has roads between the towns.")


def test_stated_count_fills_isolated_numbered_nodes_and_refuses_too_many():
    text = "A network of 5 nodes: 0 talks to 1, and 1 talks to 3. Can 0 reach 3?"
    graph = graph_from_reply('{"edges": [[0, 1], [1, 3]]}', text)
    assert graph["nodes"] == [0, 1, 2, 3, 4] and graph["edges"] == [[0, 1], [1, 3]]
    with pytest.raises(GraphTextError, match="says 2 nodes but the model's graph has 3"):
        graph_from_reply('{"edges": [[0, 1], [1, 3]]}', "A network of 2 nodes: 0 talks to 1, 1 talks to 3.")
    with pytest.raises(GraphTextError, match=r"\[u, v\] or \[u, v, weight\]"):
        graph_from_reply('{"edges": [[0, 1, 2, 3]]}', text)


def test_stated_counts_are_read():
    assert stated_node_count("the nodes are numbered from 0 to 7") == 8
    assert stated_node_count("a graph with 12 nodes") == 12
    assert stated_node_count("some towns") is None


def test_contradictory_text_is_an_error_not_a_second_reading():
    text = "The nodes are numbered from 0 to 2, and the edges are: (0,1) (1,7). Is there a cycle?"
    with pytest.raises(GraphTextError, match="out of range"):
        run(text)  # no scripted reply: the master is never asked


def test_a_structured_graph_is_never_reread_by_the_master():
    with pytest.raises(GraphTextError):
        solve("Is there a cycle?", GARContext(master_model=ScriptedChatModel(script=[]), embedding_model="hash"),
              graph={"edges": []})  # fmt: skip
