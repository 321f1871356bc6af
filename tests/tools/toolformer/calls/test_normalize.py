"""Normalized call comparison for API-Gen Acc."""

from __future__ import annotations

import pytest

from graphreason.tools.toolformer.calls.ast import (
    Bool,
    Bracket,
    Call,
    Keyword,
    Name,
    NodeRef,
    Number,
    SetOf,
    Str,
)
from graphreason.tools.toolformer.calls.normalize import calls_of, fold, normalize, same_calls
from graphreason.tools.toolformer.calls.parse import parse_text

TRUTH = 'The order of the diamond graph is [GR(GL("gpr", {"diamond_graph"}), "toolx:order")-->r].'


@pytest.mark.parametrize(
    "generated",
    [
        TRUTH,
        'It is [GR(GL("gpr", "diamond_graph"), "toolx:order")-->r]',  # single-item set == item
        'It is [ gr( gl ("gpr",{ "diamond_graph" }) , "TOOLX:Order" ) -> R ]',  # case, spaces, arrow
    ],
)
def test_equivalent_spellings_match(generated):
    assert same_calls(generated, TRUTH)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        (
            '[GR(GL("cora"), "graph-bert:topic", paper#1)-->r]',
            '[GR(GL("cora"), "graph_bert:topic", "Paper#1")-->r]',
        ),
        (
            '[GR(GL("cora"), "graph_bert:topic", {Paper#1})-->r]',
            '[GR(GL("cora"), "graph_bert:topic", paper #1)-->r]',
        ),
        ('[GL(file-path:"./g")-->G_l]', '[gl(file_path : "./g") --> G_l]'),
        ("[f(a), g(b)]", "[f(a)] and then [g(b)]"),  # the paper: these are equivalent
        ("[f(007, 1e1)]", "[f(7, 10.0)]"),
        ("no calls at all [1]", "none here either [TBR]"),
    ],
)
def test_normal_forms_agree(a, b):
    assert same_calls(a, b)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        (
            '[GR(GL("cora"), "graph_bert:topic", paper#1)-->r]',
            '[GR(GL("cora"), "graph_bert:topic", paper#2)-->r]',
        ),
        (
            '[GR(GL("cora"), "graph_bert:topic", paper#1)-->r]',
            '[GR(GL("cora"), "graph_bert:topic", paper#1)]',
        ),
        ("[f(user#Ab)]", "[f(user#ab)]"),  # ids keep their case
        ('[GL("Cora")]', '[GL("cora")]'),  # only domain:function strings fold
        ("[f(a), g(b)]", "[g(b), f(a)]"),  # order matters
        ("[f(10)]", "[f(10.0)]"),
        ('[f({"a", "b"})]', '[f({"b", "a"})]'),
        ("[f(a)]", "[f(a)] [f(a)]"),
    ],
)
def test_different_calls_do_not_match(a, b):
    assert not same_calls(a, b)


def test_a_broken_call_never_matches():
    truth = '[GR(GL("cora"), "graph_bert:topic", paper#1)-->r]'
    assert not same_calls(truth + ' [GR(GL("cora"), paper#)]', truth)
    assert same_calls(truth, truth)


def test_normalize_values_and_calls_of():
    assert normalize(NodeRef("Paper", "X1", quoted=True)) == NodeRef("paper", "X1")
    assert normalize(SetOf((Str("Graph-Bert:Topic"),))) == Str("graph_bert:topic")
    assert normalize(Number("-0007")) == Number("-7") and normalize(Number("-0")) == Number("0")
    assert normalize(Number("9" * 5000)) == Number("9" * 5000)  # beyond int()'s digit limit
    assert fold(" Graph-Bert : Topic ") == "graph_bert:topic"
    assert calls_of(parse_text("[GL(x), F-1(y)-->R]")) == [
        Bracket((Call("gl", (Name("x"),)), Call("f_1", (Name("y"),))), "r")
    ]
    assert calls_of("[GL(Is-Directed:True)]")[0].calls[0].keywords == (Keyword("is_directed", Bool(True)),)
