"""Whatever a designed ``result()`` returns, the parent gets an answer or a failed run - never an exception."""

from __future__ import annotations

import json
import math

import networkx as nx
import pytest

from graphreason.tools.gar.sandbox import run_designed
from graphreason.tools.gar.sandbox.check import validate_designed
from graphreason.tools.gar.sandbox.run import read_reply
from graphreason.tools.gar.sandbox.runner import MAX_OUTPUT_BYTES, decode, encode

GRAPH = {0: [1], 1: [0]}


def returning(body: str) -> str:
    """A valid design whose ``result()`` runs ``body``."""
    return f"""
def init(node, neighbors, params):
    return 0

def send(node, state, neighbors):
    return []

def update(node, state, messages):
    return state

def result(states, params):
{body}
"""


# the values that cross the boundary intact (frozensets inside sets and as keys once crashed the decoder)
ROUND_TRIPS = {
    "frozenset in a set": ("    return {frozenset([1, 2])}", {frozenset({1, 2})}),
    "frozenset as a key": ("    return {frozenset([1, 2]): 1}", {frozenset({1, 2}): 1}),
    "set in a tuple in a set": ("    return {(1, frozenset([2]))}", {(1, frozenset({2}))}),
    "tuple keys": ("    return {(0, 1): [1, 2]}", {(0, 1): [1, 2]}),
    "large int": ("    return 10 ** 400", 10**400),
    "infinities": ("    return [float('inf'), float('-inf')]", [math.inf, -math.inf]),
}


@pytest.mark.parametrize(("body", "expected"), ROUND_TRIPS.values(), ids=ROUND_TRIPS.keys())
def test_exotic_but_plain_values_come_back_intact(body, expected):
    result = run_designed(returning(body), GRAPH, {})
    assert result.status == "ok", result.message
    assert result.answer == expected


def test_nan_comes_back_as_nan():
    result = run_designed(returning("    return float('nan')"), GRAPH, {})
    assert result.status == "ok" and math.isnan(result.answer)


REFUSED = {
    "exception object": ("    return ValueError('x')", "type ValueError"),
    "generator": ("    return (x for x in range(3))", "type generator"),
    "bytes": ("    return b'abc'", "type bytes"),
    "range": ("    return range(3)", "type range"),
    "builtin function": ("    return len", "type builtin_function_or_method"),
    "huge int": ("    return 10 ** 5000", "bits cannot pass"),
    "nested 10^4 deep": ("    x = []\n    for i in range(10000):\n        x = [x]\n    return x", "nested"),
    "dicts 10^4 deep": ("    x = {}\n    for i in range(10000):\n        x = {0: x}\n    return x", "nested"),
    "cyclic list": ("    x = []\n    x.append(x)\n    return x", "nested"),
    "oversized": ("    return 'x' * 6000000", "too large"),
}


@pytest.mark.parametrize(("body", "words"), REFUSED.values(), ids=REFUSED.keys())
def test_values_that_cannot_cross_are_a_failed_run(body, words):
    result = run_designed(returning(body), GRAPH, {})
    assert result.status == "error" and words in result.message, result.message
    assert result.answer is None


@pytest.mark.parametrize(
    "answer",
    [
        {"$set": [{"$set": [1]}, {"$dict": []}]},  # a dict as a set member: unhashable
        {"$dict": [[{"$dict": []}, 1]]},  # a dict as a key
        {"$dict": [[1, 2, 3]]},  # not a pair
        {"$set": 5},  # not a list
    ],
)
def test_a_reply_that_does_not_decode_is_an_error_result(answer):
    out = json.dumps({"status": "ok", "answer": answer, "rounds": 1}).encode()
    result = read_reply(out, b"")
    assert result.status == "error" and "could not be read back" in result.message


@pytest.mark.parametrize(
    "out",
    [
        b"[" * 100_000 + b"]" * 100_000,  # nested past the JSON reader's recursion limit
        b"[1, 2]",  # not an object
        b'{"status": "ok", "answer": 1, "rounds": "many"}',
        b"x" * (MAX_OUTPUT_BYTES + 2048),
        b"",
        b"\xff\xfe",
    ],
    ids=["deep", "not-an-object", "bad-rounds", "oversized", "empty", "not-utf8"],
)
def test_a_broken_reply_is_an_error_result(out):
    assert read_reply(out, b"stderr tail").status == "error"


def test_decode_inverts_encode_for_nested_hashables():
    value = {frozenset({(1, 2), frozenset({3})}): {(4, frozenset()): [5, {6}]}}
    assert decode(json.loads(json.dumps(encode(value)))) == value


def test_an_answer_the_judge_cannot_compare_is_a_wrong_answer_not_a_crash():
    def judge(g, params, got, want):
        return float(got) == want  # OverflowError on a huge int

    report = validate_designed(
        returning("    return 10 ** 400"),
        [nx.path_graph(3)],
        lambda g, rng: {},
        expected=lambda g, params: 1,
        judge=judge,
    )
    assert not report.passed and "got 1000" in report.message
