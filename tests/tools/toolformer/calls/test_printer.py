"""Canonical printing, and parse(print(tree)) == tree over seeded random trees."""

from __future__ import annotations

import random

import pytest

from graphreason.tools.toolformer.calls.ast import (
    BadBracket,
    Bracket,
    Call,
    Document,
    Keyword,
    Name,
    NodeRef,
    Number,
    Placeholder,
    SetOf,
    Str,
    Text,
    TupleOf,
)
from graphreason.tools.toolformer.calls.errors import ToolformerPrintError
from graphreason.tools.toolformer.calls.parse import parse_bracket, parse_call, parse_text
from graphreason.tools.toolformer.calls.printer import print_bracket, print_call, print_document, print_expr
from tests.tools.toolformer.calls.random_trees import (
    messy_bracket,
    messy_call,
    messy_document,
    random_bracket,
    random_call,
    random_document,
)

ROUNDS = 700


def test_canonical_style():
    messy = '[ GR( GL ("cora"),"graph_bert:topic" , Paper #1 ) -> r ]'
    assert print_bracket(parse_bracket(messy)) == '[GR(GL("cora"), "graph_bert:topic", Paper#1)-->r]'
    call = parse_call(
        'GL( "gpr" ,{ "a","b" }, {("x" ,y)}, file-path : "./g", is-directed:false, n:"node #5")'
    )
    assert (
        print_call(call)
        == 'GL("gpr", {"a", "b"}, {("x", y)}, file-path:"./g", is-directed:False, n:"node#5")'
    )
    assert print_bracket(Bracket((Call("f"), Call("g", (Name("New York"),))))) == "[f(), g(New York)]"


def test_document_keeps_text_and_placeholders():
    doc = Document(
        (Text("A "), Placeholder(), Text(" [1] "), Bracket((Call("f"),), "G_l"), BadBracket("[g(", "m"))
    )
    assert print_document(doc) == "A [TBR] [1] [f()-->G_l][g("


def test_round_trip_random_calls_and_brackets():
    rng = random.Random(1234)
    for _ in range(ROUNDS):
        call = random_call(rng)
        assert parse_call(print_call(call)) == call
        bracket = random_bracket(rng)
        assert parse_bracket(print_bracket(bracket)) == bracket


def test_round_trip_random_documents():
    rng = random.Random(99)
    for _ in range(ROUNDS):
        doc = random_document(rng)
        text = print_document(doc)
        assert parse_text(text) == doc, text
        assert print_document(parse_text(text)) == text  # canonical text is a fixed point


def test_messy_spellings_parse_to_the_same_tree():
    rng = random.Random(7)
    for _ in range(ROUNDS):
        call, bracket, doc = random_call(rng), random_bracket(rng), random_document(rng)
        assert parse_call(messy_call(rng, call)) == call
        assert parse_bracket(messy_bracket(rng, bracket)) == bracket
        messy = messy_document(rng, doc)
        assert parse_text(messy) == doc, messy


@pytest.mark.parametrize(
    "tree",
    [
        Str('say "hi"'),
        Str("a]b"),
        Str("node#5"),  # would read back as a quoted NodeRef
        Name("10"),  # would read back as a Number
        Name("true"),
        Name("a  b"),
        Name("a:b"),
        Name(""),
        NodeRef("node", "has space"),
        NodeRef("bad kind", "1"),
        NodeRef("node", ""),
        Number("ten"),
        Call("not a name"),
        Call("f", (), (Keyword("bad key", Number("1")),)),
        SetOf((Str("ok"), Str("x]"))),
        TupleOf((Name("#x"),)),
    ],
)
def test_unprintable_trees_raise_instead_of_printing_something_else(tree):
    with pytest.raises(ToolformerPrintError):
        print_expr(tree)


def test_unprintable_brackets_and_documents():
    with pytest.raises(ToolformerPrintError, match="at least one call"):
        print_bracket(Bracket(()))
    with pytest.raises(ToolformerPrintError, match="target"):
        print_bracket(Bracket((Call("f"),), "a b"))
    with pytest.raises(ToolformerPrintError, match="holds a call"):
        print_document(Document((Text("x [f(a)] y"),)))
    with pytest.raises(ToolformerPrintError, match="TBR"):
        print_document(Document((Placeholder("TODO"),)))
