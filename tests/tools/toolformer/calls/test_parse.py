"""The Graph-ToolFormer call parser: every form the prompt files and the paper use, as exact trees."""

from __future__ import annotations

import pytest

from graphreason.tools.core.errors import GraphError
from graphreason.tools.toolformer.calls.ast import (
    BadBracket,
    Bool,
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
from graphreason.tools.toolformer.calls.errors import ToolformerSyntaxError
from graphreason.tools.toolformer.calls.parse import (
    MAX_DEPTH,
    parse_bracket,
    parse_call,
    parse_text,
    parse_text_spans,
)


def gl(*args):
    return Call("GL", tuple(args))


CORA = Call("GR", (gl(Str("cora")), Str("graph_bert:topic"), NodeRef("paper", "106590")))


def test_typical_statement_output():
    text = 'In the cora network, paper #106590 has a topic of [GR(GL("cora"), "graph_bert:topic", paper#106590)-->r].'
    assert parse_text(text) == Document(
        (
            Text("In the cora network, paper #106590 has a topic of "),
            Bracket((CORA,), "r"),
            Text("."),
        )
    )


@pytest.mark.parametrize(
    "written",
    [
        '[GR(GL("cora"), "graph_bert:topic", paper#106590)-->r]',
        '[GR(GL("cora"), "graph_bert:topic", paper#106590)->r]',
        '[ GR( GL( "cora" ) , "graph_bert:topic" , paper #106590 ) --> r ]',
        '[GR(GL ("cora"),"graph_bert:topic",paper# 106590)\n-> r]',
    ],
)
def test_spacing_and_arrow_spelling_do_not_change_the_tree(written):
    assert parse_bracket(written) == Bracket((CORA,), "r")


def test_gpr_set_and_quoted_node_refs():
    b = parse_bracket('[GR(GL("gpr", {"octahedral_graph"}), "toolx:shortest_path", "node#5", "node#0")-->r]')
    assert b == Bracket(
        (
            Call(
                "GR",
                (
                    gl(Str("gpr"), SetOf((Str("octahedral_graph"),))),
                    Str("toolx:shortest_path"),
                    NodeRef("node", "5", quoted=True),
                    NodeRef("node", "0", quoted=True),
                ),
            ),
        ),
        "r",
    )


def test_gpr_call_without_arrow_only_records():
    b = parse_bracket('[GR(GL("gpr", {"balanced_tree"}), "toolx:eccentricity")]')
    assert b.target is None and not b.substitutes
    assert b.calls[0].args[1] == Str("toolx:eccentricity")


@pytest.mark.parametrize(
    ("written", "ref"),
    [
        ("paper#106590", NodeRef("paper", "106590")),
        ("node #4", NodeRef("node", "4")),
        ("user#u596", NodeRef("user", "u596")),
        ("artist#i18097", NodeRef("artist", "i18097")),
        ("entity#/m/0gs9p", NodeRef("entity", "/m/0gs9p")),
        ("entity #state.v.01", NodeRef("entity", "state.v.01")),
        ("relation#_hypernym", NodeRef("relation", "_hypernym")),
        ("instance#31", NodeRef("instance", "31")),
        ("user#user/9674821", NodeRef("user", "user/9674821")),
        ("Paper#1", NodeRef("Paper", "1")),
        ("#12", NodeRef("", "12")),
        ("entity#angel's_trumpet.n.02", NodeRef("entity", "angel's_trumpet.n.02")),
        ("user#p/hard-rock-hotel--casino/1485364", NodeRef("user", "p/hard-rock-hotel--casino/1485364")),
        ("item#B002C3YKQS", NodeRef("item", "B002C3YKQS")),
        (
            "relation#/award/award_category/winners./award/award_honor/ceremony",
            NodeRef("relation", "/award/award_category/winners./award/award_honor/ceremony"),
        ),
        ('"node#5"', NodeRef("node", "5", quoted=True)),
        ('"node #5"', NodeRef("node", "5", quoted=True)),
    ],
)
def test_node_references(written, ref):
    assert parse_call(f"f({written})") == Call("f", (ref,))


def test_kg_and_recommender_calls():
    assert parse_call('GR(GL("freebase"), "transe:relation", entity#/m/0gs9p, entity#/m/0bzk2h)') == Call(
        "GR",
        (
            gl(Str("freebase")),
            Str("transe:relation"),
            NodeRef("entity", "/m/0gs9p"),
            NodeRef("entity", "/m/0bzk2h"),
        ),
    )
    assert parse_call('GR(GL("amazon"), "bpr:topk_recommendation", user#A1B47GSA3L6AVW, 10)').args[
        3
    ] == Number("10")


def test_keywords_and_variable_binding():
    doc = parse_text(
        '[GL(file-path:"./graphs/lollipop", is-directed:False) --> G_l] then [GR(G_l, "toolx:order")-->r]'
    )
    assert doc == Document(
        (
            Bracket(
                (
                    Call(
                        "GL",
                        (),
                        (Keyword("file-path", Str("./graphs/lollipop")), Keyword("is-directed", Bool(False))),
                    ),
                ),
                "G_l",
            ),
            Text(" then "),
            Bracket((Call("GR", (Name("G_l"), Str("toolx:order"))),), "r"),
        )
    )
    assert doc.brackets[0].target == "G_l" and not doc.brackets[0].substitutes


def test_unquoted_keyword_values():
    call = parse_call('GR(GL("freebase"), "transe:tail-entity", entity:/m/027rn, relation:_hyponym, k : 3)')
    assert call.keywords == (
        Keyword("entity", Name("/m/027rn")),
        Keyword("relation", Name("_hyponym")),
        Keyword("k", Number("3")),
    )


def test_several_calls_in_one_bracket_and_several_brackets():
    doc = parse_text("[f1(a), f2(b)] and [f3()] [gl(x)]")
    assert doc.brackets == (
        Bracket((Call("f1", (Name("a"),)), Call("f2", (Name("b"),)))),
        Bracket((Call("f3"),)),
        Bracket((Call("gl", (Name("x"),)),)),
    )


def test_deep_nesting():
    assert parse_call("f1(f2(f3(f4(x))))") == Call(
        "f1", (Call("f2", (Call("f3", (Call("f4", (Name("x"),)),)),)),)
    )


def test_graph_loading_sets_tuples_and_unquoted_phrases():
    call = parse_call(
        'GL("book-graph", {"Pride and Prejudice", New York  City}, {("a", "b"), (Carbon1, Oxygen)}, {}, "all links")'
    )
    assert call == Call(
        "GL",
        (
            Str("book-graph"),
            SetOf((Str("Pride and Prejudice"), Name("New York City"))),
            SetOf((TupleOf((Str("a"), Str("b"))), TupleOf((Name("Carbon1"), Name("Oxygen"))))),
            SetOf(()),
            Str("all links"),
        ),
    )


@pytest.mark.parametrize(
    ("written", "value"),
    [
        ("10", Number("10")),
        ("-3", Number("-3")),
        ("0.5", Number("0.5")),
        ("1e-3", Number("1e-3")),
        ("True", Bool(True)),
        ("false", Bool(False)),
        ("graph-bert", Name("graph-bert")),
        ("Phase 1", Name("Phase 1")),
        ('"graph-bert:topic"', Str("graph-bert:topic")),
        ('""', Str("")),
        ('"C#"', Str("C#")),
    ],
)
def test_scalar_values(written, value):
    assert parse_call(f"f({written})").args == (value,)


def test_number_value_keeps_int_and_float_apart():
    assert parse_call("f(10, 0.5)").args[0].value == 10 and isinstance(Number("10").value, int)
    assert Number("0.5").value == 0.5


def test_case_and_hyphen_variants_are_kept_as_written():
    assert parse_call('gl("gpr")').func == "gl"
    assert parse_call("graph-bert(x)").func == "graph-bert"
    assert parse_call("graph_bert(x)").func == "graph_bert"


def test_placeholder_and_plain_square_brackets():
    doc = parse_text("The topic is [TBR]. See [1], [citation needed], [[2, 4], [2]] and [0,1;1,0].")
    assert doc == Document(
        (
            Text("The topic is "),
            Placeholder(),
            Text(". See [1], [citation needed], [[2, 4], [2]] and [0,1;1,0]."),
        )
    )


def test_a_bracket_starting_like_a_call_but_broken_is_reported_and_the_rest_parses():
    text = 'A [GR(GL("cora"), paper#)] B [GR(GL("cora"), "graph_bert:topic", paper#1)-->r] C [GL("x", "'
    doc = parse_text(text)
    assert [type(s).__name__ for s in doc.segments] == [
        "Text",
        "BadBracket",
        "Text",
        "Bracket",
        "Text",
        "BadBracket",
    ]
    first, last = doc.problems
    assert first == BadBracket('[GR(GL("cora"), paper#)]', first.message, 16)
    assert "node reference" in first.message
    assert last.raw == '[GL("x", "' and "closing '\"'" in last.message
    spans = parse_text_spans(text)
    assert "".join(text[a:b] for a, b, _ in spans) == text  # spans tile the text
    assert text[spans[1][0] : spans[1][1]] == first.raw


def test_strict_errors_name_position_and_expectation():
    with pytest.raises(ToolformerSyntaxError) as info:
        parse_bracket('[GR(GL("cora") "x")]')
    error = info.value
    assert isinstance(error, GraphError)
    assert error.position == 15 and "',' or ')'" in error.expected and "offset 15" in str(error)
    with pytest.raises(ToolformerSyntaxError, match="end of text"):
        parse_call("f(a")
    with pytest.raises(ToolformerSyntaxError, match="positional arguments come before keywords"):
        parse_call("f(k:1, a)")
    with pytest.raises(ToolformerSyntaxError, match="target after the arrow"):
        parse_bracket("[f(a)-->]")
    with pytest.raises(ToolformerSyntaxError, match="the end of the text"):
        parse_bracket("[f(a)] trailing")
    with pytest.raises(ToolformerSyntaxError, match="cannot contain|without"):
        parse_call('f("a]b")')
    with pytest.raises(ToolformerSyntaxError, match="a value"):
        parse_call("f(a,)")
    with pytest.raises(ToolformerSyntaxError, match="a str"):
        parse_text(b"[f()]")  # type: ignore[arg-type]


def test_nesting_limit_is_a_syntax_error_not_recursion():
    ok = "f(" * MAX_DEPTH + ")" * MAX_DEPTH
    assert parse_call(ok).func == "f"
    for deep in ["f(" * (MAX_DEPTH + 1) + ")" * (MAX_DEPTH + 1), "f(" + "{" * 5000, "f(" + "(" * 5000]:
        with pytest.raises(ToolformerSyntaxError, match=f"at most {MAX_DEPTH} nested"):
            parse_call(deep)
    assert parse_text("[" + "f(" * 5000).problems
