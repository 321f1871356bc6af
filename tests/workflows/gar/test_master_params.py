"""The master's proposed parameters are untrusted: a bad one is dropped with a note, never the end of the run."""

from __future__ import annotations

import json

import pytest

from graphreason.tools.gar.vertex import VertexProgramError
from graphreason.workflows.gar import solve
from graphreason.workflows.gar.catalogue import CATALOGUE
from graphreason.workflows.gar.choose import merge_params, parse_choice
from graphreason.workflows.gar.construct import build_problem
from tests.workflows.gar.test_graph import GARBAGE, PROBLEMS, context

RANKING = "The web graph has pages 0 to 3 with links: (0->1) (2->1) (3->1) (1->0). Which pages are the most important?"
NEIGHBOURS = (
    "In an undirected graph, (i,j) means that node i and node j are connected with an undirected edge. "
    "Q: The nodes are numbered from 0 to 5, and the edges are: (0,1) (1,2) (2,3) (3,4) (4,5). "
    "What are the neighbours of node 2?"
)
FLOW_WITHOUT_ENDS = PROBLEMS["flow"][0].replace(
    "What is the maximum flow from node 0 to node 3?", "What is the maximum flow in this network?"
)


def pagerank_reply(params: str) -> str:
    return '{"algorithm": "pagerank", "params": ' + params + "}"


# the master's reply text -> words of the trace note (the default is used instead)
BAD_PAGERANK = {
    "top_k 1e400 (json: inf)": ('{"top_k": 1e400}', "top_k=inf: not a finite number"),
    "negative damping": ('{"damping": -5}', "damping=-5: damping must be in [0, 1)"),
    "damping 1": ('{"damping": 1}', "damping=1: damping must be in [0, 1)"),
    "NaN as a string": ('{"tol": "NaN"}', "tol='NaN': not a finite number"),
    "NaN as a literal": ("{'tol': float('nan')}", None),  # not a literal: the reply's object is unreadable
    "nested lists": ('{"damping": [[0.5]]}', "damping=[[0.5]]: not a single value"),
    "a dict": ('{"top_k": {"value": 3}}', "not a single value"),
    "int beyond int64": ('{"top_k": ' + "1" + "0" * 400 + "}", "top_k=1000"),
    "zero top_k": ('{"top_k": 0}', "top_k=0: top_k must be at least 1"),
    "fractional top_k": ('{"top_k": 2.5}', "top_k must be a whole number"),
    "a word for a flag": ('{"weighted": "maybe"}', "weighted must be true or false"),
    "negative tol": ('{"tol": -1e-9}', "tol must be positive"),
    "empty string": ('{"damping": "  "}', "not understood"),
}


@pytest.fixture(scope="module")
def default_ranking() -> list[int]:
    return solve(RANKING, context(pagerank_reply("{}")))["structured"]["value"]


@pytest.mark.parametrize(("params", "note"), BAD_PAGERANK.values(), ids=BAD_PAGERANK.keys())
def test_bad_master_parameters_fall_back_to_the_default(params, note, default_ranking):
    out = solve(RANKING, context(pagerank_reply(params)))  # through the compiled GAR graph
    assert out["algorithm"] == "pagerank" and out["structured"]["value"] == default_ranking
    choose = next(t for t in out["trace"] if t["step"] == "choose")
    assert [t["step"] for t in out["trace"]][-2:] == ["execute", "summarize"]
    if note is not None:
        assert any(note in n and n.startswith("ignored the master's") for n in choose["notes"]), choose
        assert "parameters: none" in choose["text"]


def test_good_master_parameters_are_still_used():
    out = solve(RANKING, context(pagerank_reply('{"top_k": "2", "damping": 0.5, "weighted": "false"}')))
    assert out["structured"]["value"] == [1, 0]
    choose = next(t for t in out["trace"] if t["step"] == "choose")
    assert "notes" not in choose and "'top_k': 2" in choose["text"] and "'damping': 0.5" in choose["text"]


def test_a_good_value_survives_next_to_a_bad_one():
    problem = build_problem(RANKING)
    params, notes = merge_params("pagerank", {}, {"top_k": 2, "damping": -5}, problem)
    assert params == {"top_k": 2} and len(notes) == 1 and "damping=-5" in notes[0]


def test_a_huge_hop_count_from_the_master_answers_quickly():
    out = solve(NEIGHBOURS, context('{"algorithm": "neighbourhood", "params": {"hops": 1000000000}}'))
    assert out["structured"]["value"] == [0, 1, 3, 4, 5]


def test_master_node_parameters_outside_the_graph_are_dropped():
    out = solve(
        NEIGHBOURS, context('{"algorithm": "neighbourhood", "params": {"hops": 2, "direction": [1]}}')
    )
    assert out["structured"]["value"] == [0, 1, 3, 4]
    notes = next(t for t in out["trace"] if t["step"] == "choose")["notes"]
    assert notes == ["ignored the master's direction=[1]: not a single value"]
    problem = build_problem(FLOW_WITHOUT_ENDS)
    params, notes = merge_params("max_flow", {}, {"source": 0, "target": 99}, problem)
    assert params == {"source": 0} and "target=99" in notes[0] and "not in the graph" in notes[0]


def test_a_combination_only_the_master_makes_wrong_is_dropped_whole():
    problem = build_problem(FLOW_WITHOUT_ENDS)
    params, notes = merge_params("max_flow", {}, {"source": 3, "target": 3}, problem)
    assert params == {} and notes == [
        "ignored the master's source=3, target=3: max_flow needs different source and target nodes"
    ]
    out = solve(FLOW_WITHOUT_ENDS, context('{"algorithm": "max_flow", "params": {"source": 0, "target": 3}}'))
    assert out["structured"]["value"] == 5  # a good proposal completes the question


def test_the_questions_own_bad_parameters_are_still_the_users_error():
    problem = build_problem(FLOW_WITHOUT_ENDS)
    params, notes = merge_params("max_flow", {"source": 1, "target": 1}, {}, problem)
    assert params == {"source": 1, "target": 1} and notes == []  # kept: execute reports it
    same_ends = PROBLEMS["flow"][0].replace("from node 0 to node 3", "from node 0 to node 0")
    with pytest.raises(VertexProgramError, match="different source and target"):
        solve(same_ends, context(GARBAGE))
    with pytest.raises(VertexProgramError, match="different source and target"):  # the master cannot hide it
        solve(same_ends, context('{"algorithm": "max_flow", "params": {"source": 0, "target": 3}}'))


WEIRD_VALUES = [
    1e400, -1e400, float("nan"), 10**400, -(10**400), "NaN", "inf", "1e400", "9" * 5000, [[1]], {"a": 1},
    (1, 2), {1, 2}, None, True, False, "", "x" * 10_000, b"bytes", 3 + 4j, -1, 0, 2**63, 0.5, "0.5", "out",
]  # fmt: skip


@pytest.mark.parametrize("entry", [e for e in CATALOGUE if CATALOGUE[e].engine == "compiled"])
def test_no_value_raises_out_of_merge_params(entry):
    problem = build_problem(FLOW_WITHOUT_ENDS)
    for key in [*CATALOGUE[entry].params, "source", "pattern", "unknown"]:
        for value in WEIRD_VALUES:
            params, notes = merge_params(entry, {}, {key: value}, problem)
            assert all(isinstance(n, str) and len(n) < 500 for n in notes)
            assert set(params) <= set(CATALOGUE[entry].params)


@pytest.mark.parametrize(
    "reply",
    [
        '{"algorithm": "pagerank", "params": [1, 2]}',
        '{"algorithm": "pagerank", "arguments": "top_k=3"}',
        '{"function": [{"name": "pagerank", "arguments": {"params": [1, 2]}}]}',
        '{"function": [{"name": "pagerank", "arguments": [1, 2]}]}',
        '{"function": "not json {", "algorithm": "pagerank"}',
        json.dumps({"algorithm": "pagerank", "params": {"top_k": [[[[[[1]]]]]]}}),
    ],
)
def test_odd_reply_shapes_never_raise(reply):
    name, params = parse_choice(reply, ["pagerank", "degree"])
    assert name == "pagerank" and isinstance(params, dict)
    out = solve(RANKING, context(reply))
    assert out["algorithm"] == "pagerank" and out["structured"]["value"]
