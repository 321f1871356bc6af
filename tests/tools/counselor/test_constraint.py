"""Graph Counselor's Action constraint: every prefix it lets through can still become an Action that
parses, names what the graph has and copies ids and search text from what the model saw."""

from __future__ import annotations

import random

import pytest

from graphreason.tools.core.store import GraphStore
from graphreason.tools.counselor.calls import parse_action
from graphreason.tools.counselor.constraint import (
    MAX_ANSWER_CHARS,
    MAX_DEPTH,
    MAX_TEXT_CHARS,
    CounselorAction,
)

QUESTION = 'Who wrote the paper "Chain of Thought"?'
OBSERVATIONS = [
    "The ID of this retrieval target node is 5.",
    "The written_by neighbors of 5 are: ['a3'].",
    "The name feature of ['a3'] are: ['Carol'].",
]


@pytest.fixture
def action(store: GraphStore) -> CounselorAction:
    return CounselorAction(store, QUESTION, OBSERVATIONS)


GOOD = [
    "Retrieve[Chain of Thought]",
    "Action 2: Retrieve[Chain of Thought]",
    "Neighbour[Retrieve[Chain of Thought], written_by]",
    "Feature[Neighbour[5, written_by], name]",
    "Feature[5, title], Degree[5, cites]",
    "Degree[Neighbour[Retrieve[Chain of Thought], cites], cited_by]",
    "Feature[a3, name]",
    "Count[Neighbour[5, written_by]]",
    "Mode[Feature[Neighbour[Retrieve[Chain of Thought], cites], title]]",
    "Feature[MaxDegree[Neighbour[5, cited_by], cites], title]",
    "Count[Mode[Feature[Neighbour[5, cites], year]]]",
    "Differing[Retrieve[Chain of Thought], cites, year]",
    "Finish[Carol]",
    "Finish[['Carol']]",
    "Action 3: Finish[a3]",
    "Finish[2]",
    "Finish[2.5]",
    "Finish[Carol, a3]",
]


@pytest.mark.parametrize("text", GOOD)
def test_accepted_actions_parse_and_every_prefix_is_viable(action: CounselorAction, text: str) -> None:
    assert action.complete(text)
    assert parse_action(text)  # what the constraint accepts, the workflow's parser reads
    for end in range(len(text)):
        assert action.viable(text[:end]), text[:end]
        if end < len(text) - 1 and not text[:end].endswith("]"):
            assert not action.complete(text[:end]), text[:end]


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("Hello", "prose instead of a call"),
        (" Retrieve[", "a leading space"),
        ("Retrieval[Chain", "an alias: only canonical names are written"),
        ("Search[", "an unknown function"),
        ("Retrieve[Chain of Thoughts", "search text not copied from the question or an observation"),
        ("Retrieve[Chain of Thought]\n", "a second line"),
        ("Neighbour[5, authored", "a relation the graph does not have"),
        ("Feature[5, abstract_text", "a feature the graph does not have"),
        ("Feature[6, title]", "a node id nobody has shown the model"),
        ("Feature[5,title]", "arguments separated otherwise than by ', '"),
        ("Feature[5, title, year]", "a parameter too many"),
        ("Neighbour[Finish[x], cites]", "Finish nested inside a call"),
        ("Count[5]", "a list argument that is not a call"),
        ("Count[Finish[", "Finish as an aggregate's list"),
        ("Mode[Neighbour[5, cites], ", "an aggregate given a parameter too many"),
        ("Feature[Count[", "a count where a node id belongs"),
        ("Differing[5, cites, abstract_text", "a feature the graph does not have"),
        ("Differing[5, cites]", "a parameter too few"),
        ("Feature[Feature[", "a call whose value is not a node id in a node argument"),
        ("Finish[Dave", "an answer nobody observed"),
        ("Finish[Carol, Alice]", "an answer nobody observed"),
        ("Finish[2x", "neither a number nor an observed value"),
        ("Finish[2, ", "a list of numbers nobody observed"),
        ("Finish[Car]", "a piece cut out of an observed word"),
        ("Finish[a]", "a piece cut out of an observed id"),
        ("Finish[Carol], Retrieve[Chain", "a call after Finish"),
        ("Retrieve[Chain of Thought], Finish[", "Finish after another call"),
        ("Finish[Carol]]", "a bracket closed twice"),
        ("Finish[Carol\nBob]", "an answer over two lines"),
        ("Action one: ", "a label without its number"),
    ],
)
def test_bad_prefixes_are_refused(action: CounselorAction, text: str, why: str) -> None:
    assert not action.viable(text), why
    assert not action.complete(text), why


def test_unfinished_actions_are_not_complete(action: CounselorAction) -> None:
    for text in ["", "Action 1: ", "Retrieve[", "Retrieve[]", "Feature[5, ", "Finish[", "Finish[ ]", "Finish[[a]"]:
        assert not action.complete(text), text


def test_ids_come_from_the_question_and_the_observations(store: GraphStore) -> None:
    seen = CounselorAction(store, "Papers 2 and 4 cite it.", ["The cites neighbors of 2 are: ['4', '5']."])
    assert seen.ids == ["2", "4", "5"]  # "it." and other words are not node ids of this graph
    assert seen.complete("Feature[5, title]") and not seen.viable("Feature[1, ")
    assert seen.relations == sorted(store.relations())
    assert {"title", "name", "year"} <= set(seen.features)


def test_finish_waits_for_an_observation(store: GraphStore) -> None:
    first_step = CounselorAction(store, QUESTION)
    assert not first_step.viable("Fin")  # an answer is read off an observation, never guessed first
    assert first_step.viable("Retrieve[Chain of")
    assert not first_step.viable("Feature[5")  # no id was shown yet: a node is found by a nested call
    assert first_step.viable("Feature[Retrieve[Chain of Thought], ti")


def test_no_viable_prefix_is_a_dead_end(store: GraphStore) -> None:
    """Every viable prefix can be continued by some character, or may end: the engine never gets stuck."""
    rng = random.Random(3)
    alphabet = sorted(set("".join(GOOD) + "".join(OBSERVATIONS) + QUESTION + "0123456789"))
    for language in (CounselorAction(store, QUESTION), CounselorAction(store, QUESTION, OBSERVATIONS)):
        for _ in range(60):
            text = ""
            for _ in range(rng.randrange(1, 50)):
                options = [char for char in alphabet if language.viable(text + char)]
                assert options or language.complete(text), text
                if not options:
                    break
                text += rng.choice(options)
            assert language.viable(text)


def test_nesting_is_bounded(action: CounselorAction) -> None:
    deepest = "Degree[Neighbour[Neighbour[Retrieve[Chain of Thought], cites], cites], cited_by]"
    assert MAX_DEPTH == 4 and action.complete(deepest)
    assert not action.viable("Degree[Neighbour[Neighbour[Neighbour[Retrieve[")


def test_without_compound_one_call_and_no_nesting(store: GraphStore) -> None:
    single = CounselorAction(store, QUESTION, OBSERVATIONS, compound=False)
    assert single.complete("Feature[5, title]")
    assert not single.viable("Feature[5, title], ")
    assert not single.viable("Feature[Retrieve[")


def test_max_depth_bounds_nesting(store: GraphStore) -> None:
    shallow = CounselorAction(store, QUESTION, OBSERVATIONS, max_depth=2)
    assert shallow.complete("Feature[Retrieve[Chain of Thought], title]")
    assert not shallow.viable("Feature[Neighbour[Retrieve[")


def test_long_text_is_refused(store: GraphStore) -> None:
    long_text = "x" * (MAX_ANSWER_CHARS + 10)
    wide = CounselorAction(store, long_text, [long_text])
    assert wide.viable("Retrieve[" + "x" * MAX_TEXT_CHARS)
    assert not wide.viable("Retrieve[" + "x" * (MAX_TEXT_CHARS + 1))
    assert wide.viable("Finish[" + "x" * MAX_ANSWER_CHARS)
    assert not wide.viable("Finish[" + "x" * (MAX_ANSWER_CHARS + 2))


def test_random_continuations_of_accepted_prefixes_never_crash(action: CounselorAction) -> None:
    """Seeded fuzz: whatever characters follow an accepted prefix, the checks answer True or False."""
    rng = random.Random(7)
    alphabet = "RetrieveNighbourFatDgsFinish[]], 0123456789abcxyz\n'\"ActionChain of Thought"
    for _ in range(400):
        base = rng.choice(GOOD)[: rng.randrange(0, 30)]
        text = base + "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 12)))
        viable, complete = action.viable(text), action.complete(text)
        assert isinstance(viable, bool) and isinstance(complete, bool)
        if complete:
            assert viable and parse_action(text)


def test_an_answer_keeps_its_brackets_balanced(store: GraphStore) -> None:
    listing = CounselorAction(store, QUESTION, ["The cites neighbors of 5 are: ['6']. Seen: [x]."])
    assert listing.complete("Finish[['6']]") and listing.complete("Finish[x]")
    assert not listing.complete("Finish[[x]") and listing.viable("Finish[[x]")  # "[x" is not a whole value
    assert not listing.viable("Finish[['6']]]")


def test_the_graphs_names_are_read_again_when_the_graph_grows(store: GraphStore) -> None:
    assert "reviews" not in CounselorAction(store, QUESTION).relations
    store.add_edge("1", "6", "reviews", reverse_relation="reviewed_by")
    grown = CounselorAction(store, QUESTION, OBSERVATIONS)
    assert {"reviews", "reviewed_by"} <= set(grown.relations) and grown.complete("Neighbour[5, reviewed_by]")
