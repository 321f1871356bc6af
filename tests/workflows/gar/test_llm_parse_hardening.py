"""The master's JSON reading is untrusted: odd replies are GraphTextErrors, never TypeErrors or huge lists."""

from __future__ import annotations

import json
from typing import Any

import pytest

from graphreason.settings import DEFAULT_MAX_NODES
from graphreason.tools.gar.graph_text import GraphTextError, load_structured_graph
from graphreason.workflows.gar.construct import build_problem
from graphreason.workflows.gar.llm_parse import graph_from_reply, stated_node_count

TEXT = "Town a has a road to b, and b has one to c. Places 0, 1, 2 and 3 exist. Can a reach c?"


def reply(**graph: Any) -> str:
    return "Here it is: " + json.dumps(graph)


@pytest.mark.parametrize(
    ("text", "match"),
    [
        # finding 7: unhashable labels were a TypeError in dict.fromkeys
        (reply(edges=[[{"name": "a"}, "b"]]), r"nodes must be names or numbers; got \{'name': 'a'\}"),
        (reply(edges=[[["a"], "b"]]), r"got \['a'\] in the edge"),
        (reply(edges=[["a", None]]), "got None in the edge"),
        (reply(edges=[["a", True]]), "got True in the edge"),
        (reply(edges=[["a", "b"]], nodes=[{"id": "a"}]), "got .* in the 'nodes' list"),
        ("{'edges': [[{1, 2}, 'b']]}", r"got \{1, 2\}"),  # a Python literal: ast gives a set
        (
            reply(edges=[["a", "b", "heavy"]]),
            "the weight of the model's edge .* must be a number, got 'heavy'",
        ),
        (reply(edges=[["a", "b", [1]]]), "must be a number"),
        ('{"edges": [["a", "b", Infinity]]}', "weights must be finite"),
        ('{"edges": [["a", "b", NaN]]}', "weights must be finite"),
        (reply(edges=[["a", "b"]], directed="sideways"), "'directed' must be true or false"),
        (reply(edges=[["a", "b"]], directed=[True]), "'directed' must be true or false"),
    ],
)
def test_odd_replies_are_graph_text_errors(text: str, match: str) -> None:
    with pytest.raises(GraphTextError, match=match):
        graph_from_reply(text, TEXT)


@pytest.mark.parametrize(
    ("value", "directed"),
    [
        ("no", False),
        ("false", False),
        ("0", False),
        (0, False),
        (None, False),
        ("yes", True),
        ("True", True),
        (1, True),
    ],
)
def test_the_replys_direction_is_read_as_a_word(value: Any, directed: bool) -> None:
    """finding 9: ``bool("false")`` made an undirected graph directed."""
    graph = graph_from_reply(reply(edges=[["a", "b"]], directed=value), TEXT)
    assert graph["directed"] is directed
    assert build_problem(TEXT, graph).directed is directed


def test_a_stated_count_past_the_limit_is_refused_before_listing_nodes() -> None:
    text = "The nodes are numbered from 0 to 99999999. 0 talks to 1."
    with pytest.raises(GraphTextError, match=f"says 100000000 nodes; the limit is {DEFAULT_MAX_NODES}"):
        graph_from_reply(reply(edges=[[0, 1]]), text)
    with pytest.raises(GraphTextError, match="too large"):
        stated_node_count("A network of " + "9" * 5000 + " nodes.")


def test_many_isolated_numbered_nodes_are_given_as_a_count_not_a_list() -> None:
    text = "The nodes are numbered from 0 to 19999. 0 talks to 1, and 1 talks to 3."
    graph = graph_from_reply(reply(edges=[["0", 1], [1, 3]]), text)
    assert "nodes" not in graph and graph["n_nodes"] == 20_000 and graph["edges"] == [[0, 1], [1, 3]]
    problem = load_structured_graph(graph)
    assert problem.n_nodes == 20_000 and list(problem.edges) == [(0, 1, None), (1, 3, None)]


def test_digit_like_labels_that_are_not_numbers_do_not_count_as_numbered_nodes() -> None:
    text = "A network of 5 nodes: ² talks to 1."
    with pytest.raises(GraphTextError, match="says 5 nodes but the model's graph has 2"):
        graph_from_reply(reply(edges=[["²", 1]]), text)


def test_a_sound_reply_still_reads_and_keeps_its_values() -> None:
    graph = graph_from_reply(reply(edges=[["a", "b", 2], ["b", "c", "3"]], directed="no"), TEXT)
    assert graph == {"directed": False, "nodes": ["a", "b", "c"], "edges": [["a", "b", 2], ["b", "c", "3"]]}
    assert list(build_problem(TEXT, graph).edges) == [(0, 1, 2.0), (1, 2, 3.0)]
