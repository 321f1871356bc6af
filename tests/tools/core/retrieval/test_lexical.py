"""The lexical index: normalised names, exact lookups before BM25, type filters, ties in insertion order."""

from __future__ import annotations

import pytest

from graphreason.tools.core.retrieval.lexical import LexicalIndex, normalise


def index(*rows: tuple[str, str]) -> LexicalIndex:
    return LexicalIndex([f"n{i}" for i in range(len(rows))], [t for t, _ in rows], [text for _, text in rows])


def test_normalise_ignores_case_spacing_punctuation_and_unicode_forms() -> None:
    assert normalise("Deep  Learning: A Survey.") == normalise("deep learning a survey") == "deep learning a survey"
    assert normalise("clangor.v.01") == "clangor v 01"
    assert normalise("ＧＲＡＰＨ_nets") == "graph nets"  # full-width letters (NFKC), underscore as a separator
    assert normalise("  ...  ") == ""


def test_the_exact_name_comes_first_even_when_a_neighbour_shares_every_word() -> None:
    lex = index(("user", "user 1548"), ("user", "user 1547"), ("user", "user 15470"))
    hits = lex.search("User 1547", k=3)
    assert [h.position for h in hits][0] == 1 and hits[0].exact
    assert [h.exact for h in hits] == [True, False, False]


def test_bm25_prefers_more_and_rarer_matching_words() -> None:
    lex = index(
        ("paper", "graph neural networks"),
        ("paper", "graph databases"),
        ("paper", "neural machine translation"),
        ("paper", "graph theory"),
    )
    hits = lex.search("neural graph networks survey", k=4)
    assert hits[0].position == 0  # three of the query's words
    assert hits[0].score > hits[1].score > 0
    # 'translation' occurs once, 'graph' three times: the rare word weighs more
    assert lex.search("translation graph", k=1)[0].position == 2


def test_type_filter_and_unknown_types() -> None:
    lex = index(("artist", "Nirvana"), ("tag", "nirvana"), ("user", "user 1"))
    assert [h.position for h in lex.search("nirvana", k=5)] == [0, 1]  # equal names: insertion order
    assert [h.position for h in lex.search("nirvana", k=5, node_type="tag")] == [1]
    assert lex.exact("NIRVANA", node_type="artist") == [0]
    with pytest.raises(ValueError, match="no nodes of type 'album'.*artist, tag, user"):
        lex.search("nirvana", node_type="album")


def test_ties_keep_insertion_order_and_k_bounds_the_hits() -> None:
    lex = index(*[("item", f"red item {i}") for i in range(20)])
    hits = lex.search("red", k=5)
    assert [h.position for h in hits] == [0, 1, 2, 3, 4]
    assert lex.search("no such words", k=3) == []


def test_shapes_are_checked() -> None:
    with pytest.raises(ValueError, match="one type and one text per id"):
        LexicalIndex(["a", "b"], ["t"], ["x", "y"])


def test_of_names_equal_once_normalised_the_one_spelled_as_the_query_comes_first() -> None:
    # Last.fm holds the tags 'electro pop', 'electro-pop' and 'Electro  Pop!': one normalised name
    lex = index(("tag", "electro pop"), ("tag", "electro-pop"), ("tag", "Electro  Pop!"), ("tag", "electropop"))
    assert lex.exact("electro-pop") == [1, 0, 2]
    assert lex.exact("Electro-Pop") == [1, 0, 2]  # case and spacing do not count, punctuation does
    assert lex.exact("electro pop!") == [2, 0, 1]
    assert lex.exact("electro_pop") == [0, 1, 2]  # spelled like none of them: insertion order
    assert [h.position for h in lex.search("electro-pop", k=4)][:3] == [1, 0, 2]
    assert lex.exact("electropop") == [3]
    # spelled alike, those stored as the query is written, spaces and all, come first (Last.fm's '1st  vine' and
    # '1st vine'); case does not count here either
    spaced = index(("tag", "1st  vine"), ("tag", "1st vine"), ("artist", "1st Vine"))
    assert spaced.exact("1st vine") == [1, 2, 0]
    assert spaced.exact("1ST  VINE ") == [0, 1, 2]
    assert spaced.exact("1st vine", node_type="tag") == [1, 0]
