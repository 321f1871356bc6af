"""One list less another (``Without``), and one hop with two (``Union`` within two links): the words that ask for them,
the skeletons made of them and their grammar.

"How many friends of X's friends are not X's friends already?" (friend suggestions), "which artists do X's friends
play that X doesn't?", "which papers cite X but not Y?": the first list less the second, counted, named or checked.
"How many papers are within two citation links of X?": the nodes one hop or two from X, X left out.
"""

from __future__ import annotations

import pytest

from graphreason.tools.core.store import GraphStore
from graphreason.tools.counselor.calls import run_action
from graphreason.tools.counselor.constraint import CounselorAction, chosen_skeleton, consistent
from graphreason.tools.counselor.functions import GraphFunctions
from graphreason.tools.counselor.skeleton import Skeleton, parse_skeleton, skeleton_of
from graphreason.tools.counselor.wording import set_way

FRIENDS_OF_FRIENDS = "Count[Without[Neighbour[Neighbour[_]], Neighbour[_]]]"


def _people() -> GraphStore:
    """Five users in a chain of friendships and the artists they play: Ann's friends are Bo and Cy; theirs are Ann,
    Di (Bo's) and Ed (Cy's), and Bo is Cy's friend too. Ann plays Low; Bo plays Low and Air; Cy plays Yes."""
    store = GraphStore("people", directed=True, text_keys={"user": "name", "artist": "name"})
    for node, kind, name in (("u1", "user", "Ann"), ("u2", "user", "Bo"), ("u3", "user", "Cy"), ("u4", "user", "Di"),
                             ("u5", "user", "Ed"), ("a1", "artist", "Low"), ("a2", "artist", "Air"),
                             ("a3", "artist", "Yes")):  # fmt: skip
        store.add_node(node, kind, {"name": name})
    for one, other in (("u1", "u2"), ("u1", "u3"), ("u2", "u3"), ("u2", "u4"), ("u3", "u5")):
        store.add_edge(one, other, "friend", reverse_relation="friend")
    for user, artist in (("u1", "a1"), ("u2", "a1"), ("u2", "a2"), ("u3", "a3")):
        store.add_edge(user, artist, "listened", reverse_relation="listened_by")
    return store


def test_without_keeps_the_first_lists_nodes_the_second_lacks(functions: GraphFunctions) -> None:
    # 1 cites 2, 3, 4; 2 cites 4, 5: of 1's, those 2 does not cite
    result = run_action("Without[Neighbour[1, cites], Neighbour[2, cites]]", functions)
    assert result.ok and result.observation == "The nodes in the first list and not in the second are: ['2', '3']."
    assert run_action("Count[Without[Neighbour[2, cites], Neighbour[1, cites]]]", functions).observation == (
        "The number of distinct values is: 1.")  # fmt: skip
    assert run_action("Except[Neighbour[1, cites], Neighbour[1, cites]]", functions).observation == (
        "The nodes in the first list and not in the second are: [].")  # an alias; nothing left
    assert not run_action("Without[Neighbour[1, cites], [2, 3]]", functions).ok  # a second list comes from a call


def test_the_node_whose_own_list_is_taken_away_is_no_suggestion_of_its_own() -> None:
    functions = GraphFunctions(_people())
    # Ann's friends' friends: Ann, Bo, Cy, Di, Ed; less her friends Bo and Cy, and less Ann herself
    result = run_action("Without[Neighbour[Neighbour[u1, friend], friend], Neighbour[u1, friend]]", functions)
    assert result.ok, result.observation
    assert result.observation == (
        "The nodes in the first list and not in the second (Ann, whom both lists start from, left out) are: "
        "['u4', 'u5'].")  # fmt: skip
    # the artists her friends play that she does not: Air and Yes (she is no artist: nothing else left out)
    played = run_action("Without[Neighbour[Neighbour[u1, friend], listened], Neighbour[u1, listened]]", functions)
    assert played.observation == "The nodes in the first list and not in the second are: ['a2', 'a3']."
    # another node's list taken away: the first list's own node stays (Bo is among Ann's friends; Di's are Bo alone)
    other = run_action("Without[Neighbour[u1, friend], Neighbour[u4, friend]]", functions)
    assert other.observation == "The nodes in the first list and not in the second are: ['u3']."


@pytest.mark.parametrize(
    "question",
    [
        "How many friends of friends does \n have, not counting \n and their own friends?",
        "How many users are friends of \n's friends but not already friends with \n?",
        "Count the users two links from \n who are not yet friends with \n.",
        "Which artists do \n's friends listen to that \n doesn't?",
        "How many artists listened to by friends of \n does \n not listen to?",
        "Count the artists \n's friends play, leaving out the ones \n already listens to.",
        "Which papers cite \n but not \n?",
        "How many of \n's friends' friends are left, excluding \n's friends?",
    ],
)
def test_one_list_less_another_is_read_from_the_words(question: str) -> None:
    assert set_way(question) == "without"  # the names cut out, as the wording reads the question: line breaks


@pytest.mark.parametrize(
    "question",
    [
        "How many papers does \n cite other than \n's label?",  # a value compared: not a list
        "Not counting \n itself, how many papers cite its references?",  # the one node left out, no list
        "Which of \n's references are not in its own area?",
        "How many papers do \n and \n both cite?",
    ],
)
def test_a_node_left_out_or_a_value_unlike_is_no_list_taken_away(question: str) -> None:
    assert set_way(question) != "without"


def test_the_planners_list_is_taken_less_the_named_nodes_own_where_the_words_ask_it() -> None:
    store = _people()

    def chosen(question: str, *shapes: tuple[str, float]) -> str | None:
        ranked = [(parse_skeleton(text), p) for text, p in shapes]
        found = chosen_skeleton(ranked, CounselorAction(store, question).wording, 0.3)
        return None if found is None else found.render()

    question = 'How many friends of friends does "Ann" have, not counting "Ann" and her own friends?'
    assert chosen(question, ("Count[Neighbour[Neighbour[_]]]", 0.6), ("Degree[_]", 0.3)) == FRIENDS_OF_FRIENDS
    assert chosen(question, ("Degree[_]", 0.9)) == FRIENDS_OF_FRIENDS  # none the planner ranks fits: the usual list
    named = chosen('Which artists do the friends of "Ann" listen to that "Ann" does not?',
                   ("Feature[Neighbour[Neighbour[_]]]", 0.5), ("Degree[_]", 0.4))  # fmt: skip
    assert named == "Feature[Without[Neighbour[Neighbour[_]], Neighbour[_]]]"
    two = chosen('How many artists does "Bo" listen to that "Ann" does not?',
                 ("Count[Intersect[Neighbour[_], Neighbour[_]]]", 0.5), ("Degree[_]", 0.4))  # fmt: skip
    assert two == "Count[Without[Neighbour[_], Neighbour[_]]]"
    # no word for it: no Without, whatever the planner ranks
    plain = CounselorAction(store, 'How many friends of friends does "Ann" have?').wording
    assert not consistent(parse_skeleton(FRIENDS_OF_FRIENDS), plain)


def test_the_second_list_names_the_first_lists_node_again_along_its_last_link() -> None:
    store = _people()
    question = 'How many friends of friends does "Ann" have, not counting "Ann" and her own friends?'
    language = CounselorAction(store, question, skeleton=parse_skeleton(FRIENDS_OF_FRIENDS))
    assert language.skeleton is not None and language.skeleton.render() == FRIENDS_OF_FRIENDS
    right = "Count[Without[Neighbour[Neighbour[Retrieve[Ann], friend], friend], Neighbour[Retrieve[Ann], friend]]]"
    assert language.complete(right)
    assert skeleton_of(right) == parse_skeleton(FRIENDS_OF_FRIENDS)
    assert not language.complete(right.replace("Neighbour[Retrieve[Ann], friend]]]", "Neighbour[Retrieve[Ann], listened]]]"))
    played = CounselorAction(store, 'How many artists do the friends of "Ann" listen to that "Ann" doesn\'t?',
                             skeleton=parse_skeleton(FRIENDS_OF_FRIENDS))  # fmt: skip
    assert played.complete(
        "Count[Without[Neighbour[Neighbour[Retrieve[Ann], friend], listened], Neighbour[Retrieve[Ann], listened]]]"
    )
    assert not played.complete(
        "Count[Without[Neighbour[Neighbour[Retrieve[Ann], friend], listened], Neighbour[Retrieve[Ann], friend]]]"
    )
    # two names: the second list is the other node's, never the first's again
    two = Skeleton("Count", (Skeleton("Without", (Skeleton("Neighbour", (None,)), Skeleton("Neighbour", (None,)))),))
    pair = CounselorAction(store, 'How many artists does "Bo" listen to that "Ann" does not?', skeleton=two)
    assert pair.complete("Count[Without[Neighbour[Retrieve[Bo], listened], Neighbour[Retrieve[Ann], listened]]]")
    assert not pair.complete("Count[Without[Neighbour[Retrieve[Bo], listened], Neighbour[Retrieve[Bo], listened]]]")


@pytest.mark.parametrize(
    "question",
    [
        "Of the papers citing \n, how many do not cite \n?",
        "How many papers are two citation steps from \n but not cited directly by \n?",
        "Counting neither \n nor its own linked papers, how many papers lie two links from \n?",
        "How many of the movies rated by \n has \n never rated?",
    ],
)
def test_a_link_denied_to_a_name_takes_its_list_away(question: str) -> None:
    assert set_way(question) == "without"


@pytest.mark.parametrize(
    "question",
    [
        "Count the papers \n cites that don't match \n on label.",  # a value compared
        "How many papers that \n cites are not cited by any other paper?",  # no name denied
        "Which papers does \n cite that are not labelled Theory?",
        "Among them, count those whose label is not the one \n has.",
        "I am trying to work out the number of them whose label is not that of \n.",
    ],
)
def test_a_negation_with_no_name_denied_takes_nothing_away(question: str) -> None:
    assert set_way(question) != "without"


def test_a_yes_no_question_with_a_link_denied_asks_whether_not_a_list_less_another() -> None:
    store = _people()
    assert CounselorAction(store, 'Is "Bo" not a friend of "Ed"?').wording.set_way is None
    assert CounselorAction(store, 'Is there anyone "Bo" is friends with but not "Ann"?').wording.set_way == "without"


def test_the_nodes_within_two_links_are_one_hop_and_two_together_the_node_left_out() -> None:
    store = _people()
    functions = GraphFunctions(store)
    # Ann's friends Bo and Cy, their friends Di and Ed (and Ann herself, left out)
    result = run_action("Union[Neighbour[u1, friend], Neighbour[Neighbour[u1, friend], friend]]", functions)
    assert result.observation == (
        "The nodes in either list (Ann, whom both lists start from, left out) are: ['u2', 'u3', 'u4', 'u5'].")  # fmt: skip
    question = 'How many users are within two friendship links of "Ann"?'
    wording = CounselorAction(store, question).wording
    assert wording.within_two and wording.set_way == "union"
    found = chosen_skeleton([(parse_skeleton("Degree[_]"), 0.9)], wording, 0.3)
    assert found is not None and found.render() == "Count[Union[Neighbour[_], Neighbour[Neighbour[_]]]]"
    language = CounselorAction(store, question, skeleton=found)
    assert language.complete(
        "Count[Union[Neighbour[Retrieve[Ann], friend], Neighbour[Neighbour[Retrieve[Ann], friend], friend]]]")
    assert not language.complete(  # each hop of the second list takes the first's link
        "Count[Union[Neighbour[Retrieve[Ann], friend], Neighbour[Neighbour[Retrieve[Ann], friend], listened]]]")
    for other in ("at most two hops away from", "in up to 2 steps from"):
        assert CounselorAction(store, f'How many users are {other} "Ann"?').wording.within_two, other
    assert not CounselorAction(store, 'How many users are two friendship links from "Ann"?').wording.within_two


def _one_type_graph() -> GraphStore:
    """Entities of one type (as FB15k-237's): a country, its olympic athletes' other countries, their films."""
    store = GraphStore("kg", directed=True, text_keys={"entity": "name"})
    for node, name in (("e1", "Montenegro"), ("e2", "Serbia"), ("e3", "Croatia"), ("f1", "Film A"), ("f2", "Film B")):
        store.add_node(node, "entity", {"name": name})
    for country in ("e2", "e3"):
        store.add_edge("e1", country, "olympic_athlete_affiliation_country_of", reverse_relation="olympic_athlete_affiliation_country")
    store.add_edge("e2", "f1", "films", reverse_relation="films_of")
    store.add_edge("e2", "f2", "films", reverse_relation="films_of")
    store.add_edge("e3", "f1", "film_country", reverse_relation="film_country_of")
    return store


def test_a_wider_relation_is_not_made_of_another_spelled_relations_words() -> None:
    # "films" is written for the pick; "country" belongs to the olympic relation spelled before it, so film_country
    # (whose words the question holds all, scattered) does not stand in for films
    question = ('Films neighbours of the one of the olympic athlete affiliation country of neighbours of "Montenegro" '
                "with the most films neighbours: how many?")  # fmt: skip
    language = CounselorAction(_one_type_graph(), question, skeleton=parse_skeleton("Degree[MaxDegree[Neighbour[_]]]"))
    prefix = "Degree[MaxDegree[Neighbour[Retrieve[Montenegro], olympic_athlete_affiliation_country_of], "
    assert language.viable(prefix + "films]")
    assert not language.viable(prefix + "film_country]")


def test_a_feature_written_before_a_word_that_only_says_which_makes_it_a_value() -> None:
    store = GraphStore("raters", directed=True, text_keys={"user": "name", "movie": "title"})
    store.add_node("m1", "movie", {"title": "Heat"})
    for node, occupation in (("u1", "other"), ("u2", "student"), ("u3", "student")):
        store.add_node(node, "user", {"name": f"user {node[1:]}", "occupation": occupation})
        store.add_edge(node, "m1", "rated", reverse_relation="rated_by")
    for question in ('The users that rated "Heat" whose occupation is other: which?',
                     'Which users that rated "Heat" have the occupation other?'):  # fmt: skip
        assert ("occupation", "other") in CounselorAction(store, question).wording.values, question
    assert not CounselorAction(store, 'Which other users rated "Heat"?').wording.values


def test_each_list_an_overlap_counts_ends_in_the_type_counted() -> None:
    # "how many artists do Ann and Bo have in common": the artists each plays, never the friends they share
    question = 'How many artists do "Ann" and "Bo" have in common?'
    skeleton = parse_skeleton("Count[Intersect[Neighbour[_], Neighbour[_]]]")
    language = CounselorAction(_people(), question, skeleton=skeleton)
    assert language.complete("Count[Intersect[Neighbour[Retrieve[Ann], listened], Neighbour[Retrieve[Bo], listened]]]")
    assert not language.complete("Count[Intersect[Neighbour[Retrieve[Ann], friend], Neighbour[Retrieve[Bo], friend]]]")
    friends = CounselorAction(_people(), 'How many friends do "Ann" and "Bo" have in common?', skeleton=skeleton)
    assert friends.complete("Count[Intersect[Neighbour[Retrieve[Ann], friend], Neighbour[Retrieve[Bo], friend]]]")
