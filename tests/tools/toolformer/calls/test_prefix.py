"""The prefix test behind grammar-constrained decoding: never refuses a text on its way to valid calls."""

from __future__ import annotations

import random

import pytest

from graphreason.tools.toolformer.calls.ast import BadBracket
from graphreason.tools.toolformer.calls.parse import parse_text
from graphreason.tools.toolformer.calls.prefix import MAX_OPEN, MAX_VALUE_CHARS, completable, complete, viable
from tests.tools.toolformer.calls.random_trees import messy_document, random_document

GOLD = [
    'The topic of paper #1033 in cora is [GR(GL("cora"), "graph_bert:topic", paper#1033)-->r].',
    'Nodes [GR(GL("gpr", {"house_graph"}), "toolx:periphery")-->r] have the largest eccentricity '
    '[GR(GL("gpr", {"house_graph"}), "toolx:eccentricity")] in the house graph.',
    'Users [GR(GL("twitter"), "kmeans:common_community_check", user#ab_, user#Cd9)-->r] share a community.',
    'The [GL("SARS-CoV-2-ppi-map", "all protein nodes", "all interaction links")] map has 26 proteins.',
    '[GR(GL("freebase"), "transe:tail_entity", entity#/m/0gs9p, relation#/film/film/genre)-->r]',
    'In [GL("gpr", {("Carbon", "Oxygen")}), GR(G_l, "toolx:order") -> G_l2] and [f(file-path:"./x", k : 3)]',
    "Plain [1] text, a [TBR] mark and [[2, 4], [2]] lists.",
]


def _prefixes(text: str) -> list[str]:
    return [text[:k] for k in range(len(text) + 1)]


@pytest.mark.parametrize("text", GOLD)
def test_every_prefix_of_a_valid_text_is_viable_and_the_text_is_complete(text: str) -> None:
    assert not any(isinstance(s, BadBracket) for s in parse_text(text).segments)
    refused = [p for p in _prefixes(text) if not viable(p, single_line=True)]
    assert refused == []
    assert complete(text)


def test_seeded_random_documents_in_messy_spelling_are_never_refused_on_the_way() -> None:
    rng = random.Random(11)
    checked = 0
    for _ in range(40):
        text = messy_document(rng, random_document(rng))
        if any(isinstance(s, BadBracket) for s in parse_text(text).segments):
            continue  # random prose can itself look like a broken call
        refused = next((p for p in _prefixes(text) if not viable(p)), None)
        assert refused is None, (text, refused)
        assert complete(text)
        checked += 1
    assert checked > 25


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ('[GR(GL("twitter"), "kmeans:common_community_check", user#A and', "two users joined by 'and'"),
        ('[GR(GL("freebase"), "transe:relation", entity#/m/01bm_-->r]', "']' before the call's ')'"),
        ("[GR(GL(x)))", "a closer that matches nothing"),
        ("[f(k:1, 2", "a positional value after a keyword"),
        ('[GR(GL("cora"), "a[b"', "a '[' inside a string"),
        ("[GR(x) y", "text after a call inside the bracket"),
    ],
)
def test_texts_no_ending_can_save_are_refused(text: str, why: str) -> None:
    assert not viable(text), why


def test_an_unfinished_call_is_viable_but_not_complete() -> None:
    text = 'The topic is [GR(GL("cora"), "graph_bert:topic", paper#'
    assert viable(text) and not complete(text)
    assert complete(text + "1)-->r].")


def test_a_newline_inside_a_call_is_refused_only_on_a_single_line() -> None:
    text = '[GR(GL("cora"),\n'
    assert viable(text)
    assert not viable(text, single_line=True)
    assert viable("first line\nsecond [GR(x)]", single_line=True)  # newlines outside calls are prose


def test_a_runaway_value_is_cut_off() -> None:
    head = '[GL("x-'
    assert completable(head + "a" * (MAX_VALUE_CHARS - 3))
    assert not completable(head + "a" * (MAX_VALUE_CHARS + 1))
    assert completable('[GR(GL("freebase"), ' + "relation#/" + "a/" * 70)  # a 150-character Freebase path


def test_runaway_nesting_is_cut_off() -> None:
    loop = '[GL("tsp", {"a"}), ' + 'instance(GL("tsp"), ' * MAX_OPEN
    assert completable(loop[: loop.rindex("instance(")])  # MAX_OPEN - 1 open: still fine
    assert not completable(loop + "instance(")
    assert completable('[GR(GL("g", {("a", "b")}), "toolx:x")')  # the training data's deepest, 3, passes


SOURCE = "Are user #JoshhGrantham_ and user #A3GQSZ2RVVXDCZ in one community? See paper #1033."


@pytest.mark.parametrize(
    ("text", "ok"),
    [
        ("[GR(GL(\"twitter\"), \"f\", user#JoshhGrantham_, user#A3GQSZ2RV", True),  # still being written
        ("[GR(GL(\"twitter\"), \"f\", user#JoshhGrantham_, user#A3GQSZ2RVX", False),  # starts no id of the input
        ("[GR(GL(\"twitter\"), \"f\", user#JoshhGrantham,", False),  # a cut id: the input goes on with '_'
        ("[GR(GL(\"twitter\"), \"f\", user#JoshhGrantham_)-->r]", True),
        ("[GR(GL(\"cora\"), \"t\", paper#1033)-->r]", True),  # the sentence's full stop is not part of the id
        ("[GR(GL(\"cora\"), \"t\", paper#103)-->r]", False),
        ('[GR(GL("gpr"), "toolx:eccentricity", "node#1033")', True),  # a quoted reference is held too
        ('[GR(GL("gpr"), "toolx:eccentricity", "node#9")', False),
        ('[GL("x", "all #9 nodes"', True),  # a string that is no reference names no id
    ],
)
def test_node_ids_must_be_copied_from_the_input(text: str, ok: bool) -> None:
    assert viable(text, source=SOURCE) is ok
    assert viable(text)  # without a source only the syntax counts


def test_a_complete_text_with_a_mistyped_id_may_not_end() -> None:
    good = "They are [GR(GL(\"twitter\"), \"f\", user#JoshhGrantham_, user#A3GQSZ2RVVXDCZ)-->r]."
    assert complete(good, source=SOURCE)
    assert not complete(good.replace("RVVX", "RVX"), source=SOURCE)
    assert complete(good.replace("RVVX", "RVX"))


def test_every_id_of_the_example_calls_is_found_in_its_input() -> None:
    """The rule holds on the prompt data itself (all 32,383 references; a sample here, offline)."""
    pairs = [
        ("In foursquare, what is the id of user blond_olala's community?",
         '[GR(GL("foursquare"), "kmeans:community", user#blond_olala)-->r]'),
        ("What is the tail entity of (/m/0gs9p, /film/film/genre)?",
         '[GR(GL("freebase"), "transe:tail_entity", entity#/m/0gs9p, relation#/film/film/genre)-->r]'),
        ("Is node #4 in the bull graph?", '[GR(GL("gpr", {"bull_graph"}), "toolx:x", node #4)-->r]'),
    ]
    for source, text in pairs:
        assert all(viable(text[:k], source=source) for k in range(len(text) + 1)), text
        assert complete(text, source=source)
