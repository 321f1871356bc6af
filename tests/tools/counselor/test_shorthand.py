"""Chat shorthand is spelled out before a question is read, and never inside a name."""

from __future__ import annotations

import pytest

from graphreason.tools.counselor.shorthand import SHORTHAND, spelled_out


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("how many r the ppl who listen to X", "how many are the people who listen to X"),
        ("R any of them tagged jazz? y/n", "Are any of them tagged jazz? yes or no"),
        ("Can u list the papers w/ label ML w/o dupes pls", "Can you list the papers with label ML without duplicates please"),
        ("Quick q: # of the pages btwn them? just the #", "Quick question: number of the pages between them? just the number"),
        ("a diff label thru ur friends", "a different label through your friends"),
        # "diff" ending a question asks for a difference
        ('"ReAct" vs "Reflexion" citations diff?', '"ReAct" vs "Reflexion" citations difference?'),
        ("what's the diff", "what's the difference"),
    ],
)
def test_shorthand_standing_alone_is_spelled_out(typed: str, read: str) -> None:
    assert spelled_out(typed) == read


def test_a_token_that_only_holds_shorthand_is_kept() -> None:
    """"U.S.", "R&B", "C#", "#1", an id like "u40", "r-squared", "it's u's"... are words of their own."""
    kept = "the U.S. charts, R&B and C# tags, the #1 node, u40, r-squared, rock'n'r"
    assert spelled_out(kept) == kept


def test_names_are_kept_as_written() -> None:
    """A quoted name and a node name the question holds unquoted keep their shorthand-like words."""
    question = 'how many r the fans of "U R Here" and of R U Mine'
    assert spelled_out(question, ["R U Mine"]) == 'how many are the fans of "U R Here" and of R U Mine'


def test_spelling_out_is_idempotent_and_leaves_plain_questions_alone() -> None:
    plain = "How many papers does the paper 'Deep Learning' cite?"
    assert spelled_out(plain) == plain
    once = spelled_out("how many r the ppl who listen to X w/o dupes")
    assert spelled_out(once) == once
    assert all(word.lower() not in SHORTHAND for word in once.split())


def test_an_idiom_for_listening_is_written_plainly_and_repeats_are_left() -> None:
    """"the artists X has on repeat" are the ones X listened to; "no repeats" still counts each once."""
    read = spelled_out('Is "Y" one of the artists "user 9" has on repeat? No repeats in the count')
    assert read == 'Is "Y" one of the artists "user 9" listened to? No repeats in the count'


def test_a_majority_is_written_as_most_of_them() -> None:
    """"the tag given to the majority of the artists X listens to" asks what most of them carry, as "most of" does."""
    assert spelled_out('Which tag has been given to the majority of the artists that "user 9" listens to?') == (
        'Which tag has been given to most of the artists that "user 9" listens to?')  # fmt: skip
    assert spelled_out("Which artist do a clear majority of them play?") == "Which artist do most of them play?"
    assert spelled_out('Is "The Majority of One" a film?') == 'Is "The Majority of One" a film?'  # a name kept
