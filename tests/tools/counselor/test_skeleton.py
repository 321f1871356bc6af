"""Action skeletons: read off a reference action, written and read back, and held to by the decoding constraint."""

from __future__ import annotations

import pytest

from graphreason.tools.core.store import GraphStore
from graphreason.tools.counselor.calls import parse_action
from graphreason.tools.counselor.constraint import CounselorAction
from graphreason.tools.counselor.skeleton import Skeleton, parse_skeleton, skeleton_of

QUESTION = 'How many papers do both "Chain of Thought" and "Graph Counselor" cite?'

SHAPES = {
    "Feature[Retrieve[Chain of Thought], year]": "Feature[_]",
    "Degree[5, cites]": "Degree[_]",
    "Feature[MaxDegree[Neighbour[Retrieve[x], cites], cited_by], title]": "Feature[MaxDegree[Neighbour[_]]]",
    "Mode[Feature[Neighbour[Retrieve[x], cites], year]]": "Mode[Feature[Neighbour[_]]]",
    "Count[Intersect[Neighbour[Retrieve[x], cites], Neighbour[5, cites]]]": "Count[Intersect[Neighbour[_], Neighbour[_]]]",
    "Contains[Neighbour[Retrieve[x], cites], Retrieve[y]]": "Contains[Neighbour[_], _]",
    "Exists[Matching[Neighbour[Retrieve[x], cites], year, 2021]]": "Exists[Matching[Neighbour[_]]]",
    "Same[Retrieve[x], cites, year]": "Same[_]",
    "Count[Neighbour[Neighbour[5, cites], cites]]": "Count[Neighbour[Neighbour[_]]]",
}


@pytest.mark.parametrize(("action", "shape"), SHAPES.items())
def test_a_skeleton_keeps_functions_and_nesting_and_reads_back(action: str, shape: str) -> None:
    skeleton = skeleton_of(action)
    assert skeleton is not None and skeleton.render() == shape
    assert parse_skeleton(shape) == skeleton
    assert "Retrieve" not in skeleton.names()  # a named node is a leaf, however it is named


@pytest.mark.parametrize("action", ["Finish[3]", "Retrieve[x]", "Degree[5, cites], Degree[6, cites]", "not a call", ""])
def test_no_skeleton_for_finish_a_bare_retrieve_several_calls_or_no_call(action: str) -> None:
    assert skeleton_of(action) is None


@pytest.mark.parametrize(
    "text",
    ["Degree", "Degree[_", "Degree[_, _]", "Count[_]", "Nope[_]", "Retrieve[_]", "Feature[_] x", "Count[Intersect[Neighbour[_]]]"],
)
def test_a_malformed_skeleton_is_refused_with_a_reason(text: str) -> None:
    with pytest.raises(ValueError, match=r"\S"):
        parse_skeleton(text)


def _shaped(store: GraphStore, shape: str, observations: tuple[str, ...] = ()) -> CounselorAction:
    return CounselorAction(store, QUESTION, list(observations), skeleton=parse_skeleton(shape))


SHAPED = "Count[Intersect[Neighbour[Retrieve[Chain of Thought], cites], Neighbour[Retrieve[Graph Counselor], cites]]]"


def test_the_constraint_accepts_only_the_skeletons_shape(store: GraphStore) -> None:
    action = _shaped(store, "Count[Intersect[Neighbour[_], Neighbour[_]]]")
    assert action.skeleton is not None
    assert action.complete(SHAPED) and parse_action(SHAPED)
    for end in range(len(SHAPED)):
        assert action.viable(SHAPED[:end]), SHAPED[:end]
    for other in (
        "Degree[Retrieve[Chain of Thought], cites]",  # another function
        "Count[Neighbour[Retrieve[Chain of Thought], cites]]",  # another nesting
        "Count[Intersect[Retrieve[Chain of Thought], Neighbour[Retrieve[Graph Counselor], cites]]]",  # a named node where a call goes
        SHAPED + ", Degree[Retrieve[Chain of Thought], cites]",  # a second call
    ):
        assert not action.complete(other), other
    assert not action.viable("Degree[")
    assert not action.viable("Count[Union[")


def test_under_a_skeleton_the_names_are_still_the_models_choice(store: GraphStore) -> None:
    # a question that names no relation: the skeleton leaves the relation to the model
    question = 'How many neighbours do both "Chain of Thought" and "Graph Counselor" have in common?'
    action = CounselorAction(store, question, skeleton=parse_skeleton("Count[Intersect[Neighbour[_], Neighbour[_]]]"))
    for relation in ("cites", "cited_by", "written_by"):
        text = SHAPED.replace("cites]]]", f"{relation}]]]")
        assert action.complete(text), relation
    assert not action.complete(SHAPED.replace("cites]]]", "likes]]]"))  # still only the graph's own names


def test_a_named_node_may_be_an_id_the_model_saw(store: GraphStore) -> None:
    action = _shaped(store, "Feature[MaxDegree[Neighbour[_]]]", ("The ID of this retrieval target node is 5.",))
    assert action.complete("Feature[MaxDegree[Neighbour[5, cites], cited_by], title]")
    assert action.complete("Feature[MaxDegree[Neighbour[Retrieve[Chain of Thought], cites], cited_by], title]")


def test_finish_stays_open_once_something_was_observed(store: GraphStore) -> None:
    action = _shaped(store, "Degree[_]", ("The cites neighbor number of 5 is 2.",))
    assert action.complete("Finish[2]")
    assert not _shaped(store, "Degree[_]").viable("Finish[")  # nothing observed yet: only the shape


def test_a_skeleton_that_cannot_be_written_here_is_dropped(store: GraphStore) -> None:
    # w/o Complex allows no nesting, so no nested shape; a depth limit below the shape's depth, neither
    flat = CounselorAction(store, QUESTION, [], compound=False, skeleton=parse_skeleton("Count[Neighbour[_]]"))
    shallow = CounselorAction(store, QUESTION, [], max_depth=2, skeleton=parse_skeleton("Count[Neighbour[Neighbour[_]]]"))
    assert flat.skeleton is None and shallow.skeleton is None
    assert shallow.complete("Degree[Retrieve[Chain of Thought], cites]")  # the Action is free again
    wrong_arity = CounselorAction(store, QUESTION, [], skeleton=Skeleton("Count", (None, None)))
    assert wrong_arity.skeleton is None


# ------------------------------------------------------------------ relations and features of the node's type
TYPED_QUESTION = 'Which papers did Alice write, who wrote "Chain of Thought", and what about deep nets?'


@pytest.mark.parametrize(
    ("text", "ok"),
    [
        ("Neighbour[Retrieve[Alice], writes]", True),  # Alice is an author: authors write
        ("Neighbour[Retrieve[Alice], cites]", False),  # and never cite
        ("Feature[Neighbour[Retrieve[Chain of Thought], written_by], name]", True),
        ("Feature[Neighbour[Retrieve[Chain of Thought], written_by], title]", False),  # authors have names
        # papers again, then their authors: the only link the question words ("write", "wrote") is written_by
        ("Feature[Neighbour[Neighbour[Retrieve[Alice], writes], written_by], name]", True),
        ("Feature[Neighbour[Neighbour[Retrieve[Alice], writes], written_by], title]", False),
        ("Feature[Neighbour[Neighbour[Retrieve[Alice], writes], cites], title]", False),
        ("Neighbour[a3, writes]", True),  # an id's type is known too
        ("Neighbour[a3, cited_by]", False),
        ("Feature[MaxDegree[Neighbour[5, written_by], writes], name]", True),  # MaxDegree keeps the list's type
        ("Feature[MaxDegree[Neighbour[5, written_by], cites], name]", False),
        ("Degree[Retrieve[deep nets], cites]", False),  # no node is named so, but the question says "write"
        ("Degree[Retrieve[deep nets], written_by]", True),  # before the name: the other relation of its root
        ("Degree[Retrieve[deep nets], writes]", False),
    ],
)
def test_a_relation_or_feature_is_one_the_node_type_has_where_the_type_is_known(
    store: GraphStore, text: str, ok: bool
) -> None:
    action = CounselorAction(store, TYPED_QUESTION, ["The written_by neighbors of 5 are: ['a3']."])
    assert action.complete(text) is ok, text
    if ok:
        for end in range(len(text)):
            assert action.viable(text[:end]), text[:end]


def test_a_type_with_none_of_the_names_leaves_every_name_open(store: GraphStore) -> None:
    bare = GraphStore("bare", directed=True, text_keys={"paper": "title"})
    bare.add_node("1", "paper", {"title": "Alone"})
    bare.add_node("2", "venue", {})
    bare.add_edge("1", "2", "published_in")  # venues have no relation of their own and no features
    action = CounselorAction(bare, "Where is Alone published, and what is there?", [])
    assert action.complete("Neighbour[Neighbour[Retrieve[Alone], published_in], published_in]")  # an error teaches
    assert action.complete("Feature[Neighbour[Retrieve[Alone], published_in], title]")


def test_a_sets_names_are_finished_whole_in_the_observed_order(store: GraphStore) -> None:
    seen = ("The name feature of ['a1', 'a2'] are: ['Alice', 'Bob'].",)
    names = CounselorAction(store, TYPED_QUESTION, list(seen), skeleton=parse_skeleton("Feature[Neighbour[_]]"))
    assert names.whole_list == "Alice, Bob"
    assert names.complete("Finish[Alice, Bob]")
    for end in range(len("Finish[Alice, Bob]")):
        assert names.viable("Finish[Alice, Bob]"[:end])
    assert not names.complete("Finish[Alice]") and not names.complete("Finish[Bob, Alice]")
    # another shape, or no skeleton at all, leaves any observed value open
    one = CounselorAction(store, TYPED_QUESTION, list(seen), skeleton=parse_skeleton("Feature[MaxDegree[Neighbour[_]]]"))
    free = CounselorAction(store, TYPED_QUESTION, list(seen))
    assert one.whole_list is None and one.complete("Finish[Alice]") and free.complete("Finish[Alice]")
    # an observation without a list of values (an error) leaves the answer to the usual rule
    error = CounselorAction(store, TYPED_QUESTION, ["The neighbor type 'x' does not exist."],
                            skeleton=parse_skeleton("Feature[Neighbour[_]]"))  # fmt: skip
    assert error.whole_list is None


def test_a_count_is_finished_with_a_number_and_a_membership_with_yes_or_no(store: GraphStore) -> None:
    seen = ["The number of cited_by neighbors of 5 whose label is its own (Case Based) is: 2."]
    same = CounselorAction(store, 'Same label as "ReAct" among the papers citing it: count?', seen,
                           skeleton=parse_skeleton("Same[_]"))  # fmt: skip
    assert same.answer_kind == "number" and same.complete("Finish[2]") and same.viable("Finish[")
    assert not same.complete("Finish[Case Based]") and not same.viable("Finish[Ca")
    held = ["Whether the list holds 4 is: yes."]
    member = CounselorAction(store, '"ReAct" in the papers "Graph Agents" cites?', held,
                             skeleton=parse_skeleton("Contains[Neighbour[_], _]"))  # fmt: skip
    assert member.answer_kind == "yes/no" and member.complete("Finish[yes]") and not member.complete("Finish[no]")
    assert not member.complete("Finish[4]") and not member.viable("Finish[4")
    free = CounselorAction(store, '"ReAct" in the papers "Graph Agents" cites?', held)  # no skeleton: the usual rule
    assert free.answer_kind is None and free.complete("Finish[4]")


def test_a_relation_the_question_names_is_preferred_among_the_types_relations(store: GraphStore) -> None:
    unnamed = CounselorAction(store, 'How many are there of the ones "Chain of Thought" points to?', [])
    assert unnamed.complete("Degree[Retrieve[Chain of Thought], cites]")  # no relation named: the type's all open
    assert unnamed.complete("Degree[Retrieve[Chain of Thought], written_by]")
    named = CounselorAction(store, 'How many papers does "Chain of Thought" cite, and which cites it?', [])
    assert named.complete("Degree[Retrieve[Chain of Thought], cites]")
    assert not named.viable("Degree[Retrieve[Chain of Thought], written_by")
    by_id = CounselorAction(store, 'How many papers does "Chain of Thought" cite, and which cites it?',
                            ["The ID of this retrieval target node is 5."])  # fmt: skip
    assert by_id.complete("Degree[5, cited_by]")  # no name to order by: the other direction stays open
    assert not by_id.viable("Degree[5, written_by")


@pytest.mark.parametrize(
    ("question", "right", "wrong"),
    [
        ('Which papers are cited by "Chain of Thought"?', "cites", "cited_by"),  # the word before the name: reversed
        ('Which papers is "Chain of Thought" cited by?', "cited_by", "cites"),  # after it: as the word says
        ('How many papers does "Chain of Thought" cite, or is it cited?', "cited_by", None),  # "cite" names none
    ],
)
def test_the_named_relations_direction_follows_the_word_order(store: GraphStore, question, right, wrong) -> None:
    action = CounselorAction(store, question, [])
    assert action.complete(f"Degree[Retrieve[Chain of Thought], {right}]")
    if wrong:
        assert not action.complete(f"Degree[Retrieve[Chain of Thought], {wrong}]")
    # a node given by the id an observation showed: its name in the question orders the words as for Retrieve
    seen = CounselorAction(store, question, ["The ID of this retrieval target node is 5."])
    assert seen.complete(f"Degree[5, {right}]") and not (wrong and seen.complete(f"Degree[5, {wrong}]"))


def test_a_skeletons_named_nodes_name_different_nodes(store: GraphStore) -> None:
    action = _shaped(store, "Count[Intersect[Neighbour[_], Neighbour[_]]]")
    assert action.complete(SHAPED)
    same = "Count[Intersect[Neighbour[Retrieve[Chain of Thought], cites], Neighbour[Retrieve[Chain of Thought], cites]]]"
    assert not action.complete(same)
    assert not action.viable(same[: same.index("], cites]]]") + 1])  # refused once the second name is complete
    member = CounselorAction(store, QUESTION, ["The ID of this retrieval target node is 5."],
                             skeleton=parse_skeleton("Contains[Neighbour[_], _]"))  # fmt: skip
    assert member.complete("Contains[Neighbour[5, cites], Retrieve[Graph Counselor]]")
    assert not member.complete("Contains[Neighbour[5, cites], 5]")
    free = CounselorAction(store, QUESTION, [])  # without a skeleton the same node twice is the model's choice
    assert free.complete(same)
