"""Graph Counselor's Action constraint: every prefix it lets through can still become an Action that
parses, names what the graph has and copies ids and search text from what the model saw."""

from __future__ import annotations

import itertools
import random
import re

import pytest

from graphreason.tools.core.store import GraphStore
from graphreason.tools.counselor.calls import parse_action
from graphreason.tools.counselor.constraint import (
    MAX_ANSWER_CHARS,
    MAX_DEPTH,
    MAX_TEXT_CHARS,
    CounselorAction,
    chosen_skeleton,
    consistent,
)
from graphreason.tools.counselor.registry import GRAPH_FUNCTIONS
from graphreason.tools.counselor.skeleton import Skeleton, parse_skeleton
from graphreason.tools.counselor.wording import (
    _cut,
    answer_form,
    content_words,
    extreme_of,
    left_out_names,
    question_names,
    quoted_names,
    reverse_relations,
    set_way,
    spelled_names,
    written_values,
)

QUESTION = 'Who is the author of the paper "Chain of Thought"?'
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


def test_an_id_inside_a_name_is_no_id() -> None:
    """Where ids are titles (Wikispeedia), a word of a longer name the question writes is not that id: "Korea" in
    "South Korea" is the name's word, not the article Korea; a name that is an id whole is one."""
    pages = GraphStore("pages", directed=True, text_keys={"article": "title"})
    for node in ("Korea", "South Korea", "Giant Panda", "Carbon"):
        pages.add_node(node, "article", {"title": node})
    pages.add_edge("Korea", "South Korea", "links_to", reverse_relation="linked_from")
    quoted = CounselorAction(pages, 'How many link to both "South Korea" and "Giant Panda"?')
    assert quoted.ids == [] and not quoted.complete("Degree[Korea, linked_from]")
    bare = CounselorAction(pages, "How many link to both South Korea and Carbon?")
    assert bare.ids == ["Carbon"] and bare.complete("Degree[Carbon, linked_from]")
    assert CounselorAction(pages, "Does Korea link to South Korea?").ids == ["Korea"]


def test_a_list_whose_names_are_asked_shows_its_names() -> None:
    """"List them" with no feature written out: the Feature of the list is its nodes' name; a feature written out
    is that feature."""
    papers = _labelled_papers()
    shape = parse_skeleton("Feature[Neighbour[_]]")
    for question in ('The papers "ReAct" cites: list them.', 'All of the papers "ReAct" cites?',
                     'Give me all of the papers "ReAct" cites by name.'):  # fmt: skip
        named = CounselorAction(papers, question, skeleton=shape)
        assert named.complete("Feature[Neighbour[Retrieve[ReAct], cites], title]"), question
        assert not named.complete("Feature[Neighbour[Retrieve[ReAct], cites], label]"), question
    labels = CounselorAction(papers, 'List the labels of the papers "ReAct" cites.', skeleton=shape)
    assert labels.complete("Feature[Neighbour[Retrieve[ReAct], cites], label]")
    assert not labels.complete("Feature[Neighbour[Retrieve[ReAct], cites], title]")


def test_finish_waits_for_an_observation(store: GraphStore) -> None:
    first_step = CounselorAction(store, QUESTION)
    assert not first_step.viable("Fin")  # an answer is read off an observation, never guessed first
    assert first_step.viable("Retrieve[Chain of")
    assert not first_step.viable("Feature[5")  # no id was shown yet: a node is found by a nested call
    assert first_step.viable("Feature[Retrieve[Chain of Thought], ti")


def test_no_viable_prefix_is_a_dead_end(store: GraphStore) -> None:
    """Every viable prefix can be continued by some character, or may end: the engine never gets stuck."""
    rng = random.Random(3)
    # every function's name can be written (the engine's vocabulary holds every letter)
    alphabet = sorted(set("".join(GOOD) + "".join(OBSERVATIONS) + QUESTION + "0123456789" + "".join(GRAPH_FUNCTIONS.names())))
    for language in (CounselorAction(store, QUESTION), CounselorAction(store, QUESTION, OBSERVATIONS)):
        for _ in range(60):
            assert language.viable(_random_walk(language, alphabet, rng, "", 50))


def _random_walk(language: CounselorAction, alphabet: list[str], rng: random.Random, text: str, most: int) -> str:
    """Extend ``text`` by up to ``most`` characters the language lets through, asserting it never gets stuck."""
    for _ in range(rng.randrange(1, most)):
        options = [char for char in alphabet if language.viable(text + char)]
        assert options or language.complete(text), text
        if not options:
            break
        text += rng.choice(options)
    return text


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


def test_a_quoted_name_is_searched_whole(store: GraphStore) -> None:
    """A name in double quotes is Retrieve's text whole: not cut short, not run on past its closing quote."""
    question = 'Overlap of "Chain of Thought" and \u201cDeep Nets\u201d, cited by Alice: count?'
    language = CounselorAction(store, question)
    assert quoted_names(question) == ("Chain of Thought", "Deep Nets")
    for whole in ("Retrieve[Chain of Thought]", "Retrieve[Deep Nets]", "Retrieve[Alice]"):  # Alice: a proper name
        assert language.complete(whole), whole
    for wrong in ("Retrieve[Chain of]", "Retrieve[Thought]", 'Retrieve[Chain of Thought" and]', "Retrieve[Deep Nets\u201d, cited]",
                  "Retrieve[cited by Alice]"):  # fmt: skip
        assert not language.complete(wrong), wrong
    assert language.viable("Retrieve[Chain of") and not language.viable('Retrieve[Chain of Thought"')
    # a name an observation shows may still be searched, quoted in the question or not
    later = CounselorAction(store, question, ["The title feature of ['5'] are: ['Chain of Thought, revised']."])
    assert later.complete("Retrieve[Chain of Thought, revised]") and later.complete("Retrieve[Chain of]")
    # without quotes, a run of the question's words that is a node's whole name is searched whole too
    unquoted = CounselorAction(store, "Who cites chain of thought these days?")
    assert question_names(store, "Who cites chain of thought these days?") == ("chain of thought",)
    assert unquoted.complete("Retrieve[chain of thought]") and not unquoted.complete("Retrieve[these days]")
    assert not unquoted.complete("Retrieve[chain of]") and not unquoted.complete("Retrieve[thought these]")
    # a question that writes no node's name leaves the search text free
    nameless = CounselorAction(store, "Who cites the paper on thoughts in chains these days?")
    assert nameless.complete("Retrieve[thoughts in chains]") and nameless.complete("Retrieve[these days]")


def test_under_a_skeleton_a_quoted_name_named_once_is_not_started_again(store: GraphStore) -> None:
    """The second named node of ``Intersect`` is the other quoted name or other text; no prefix is a dead end."""
    question = 'In both the papers "Chain of Thought" cites and the papers "Deep Nets" cites: how many?'
    shape = parse_skeleton("Count[Intersect[Neighbour[_], Neighbour[_]]]")
    language = CounselorAction(store, question, skeleton=shape)
    first = "Count[Intersect[Neighbour[Retrieve[Chain of Thought], cites], Neighbour[Retrieve["
    assert language.viable(first + "Deep") and not language.viable(first + "Chain")
    assert language.complete(first + "Deep Nets], cites]]]")
    rng = random.Random(5)
    alphabet = sorted(set(question + first + "0123456789_"))
    for _ in range(40):  # a random walk from the first named node on never gets stuck
        _random_walk(language, alphabet, rng, first, 40)


@pytest.mark.parametrize(
    ("question", "allowed", "refused"),
    [
        ('How many papers does "Chain of Thought" cite?', "cites", "cited_by"),
        ('How many papers cite "Chain of Thought"?', "cited_by", "cites"),
        ('How many papers are cited by "Chain of Thought"?', "cites", "cited_by"),
        ('"Chain of Thought" is cited by how many papers?', "cited_by", "cites"),
        ('How many papers citing "Chain of Thought" are there?', "cited_by", "cites"),
        # other words for the link, and words that give its way round whatever their place
        ('How many papers does "Chain of Thought" reference?', "cites", "cited_by"),
        ('How many papers reference "Chain of Thought"?', "cited_by", "cites"),
        ('How many citations does "Chain of Thought" have?', "cited_by", "cites"),  # a citation of X cites X
        ('How many outgoing citations does "Chain of Thought" have?', "cites", "cited_by"),
        ('"Chain of Thought": how many cites in?', "cited_by", "cites"),
        ('"Chain of Thought" has how many incoming links?', "cited_by", "cites"),  # no link relation: citations
        ('How many papers does "Chain of Thought" link to?', "cites", "cited_by"),
    ],
)
def test_a_hop_takes_the_direction_voice_and_word_order_give(
    store: GraphStore, question: str, allowed: str, refused: str
) -> None:
    language = CounselorAction(store, question)
    assert language.complete(f"Count[Neighbour[Retrieve[Chain of Thought], {allowed}]]")
    assert not language.complete(f"Count[Neighbour[Retrieve[Chain of Thought], {refused}]]")
    assert language.complete(f"Degree[Retrieve[Chain of Thought], {allowed}]")


def test_two_hops_take_the_mentions_nearest_first_and_only_when_they_match_in_number(store: GraphStore) -> None:
    two = CounselorAction(store, 'How many papers are cited by the papers that cite "Chain of Thought"?')
    assert two.complete("Count[Neighbour[Neighbour[Retrieve[Chain of Thought], cited_by], cites]]")
    for inner, outer in (("cites", "cites"), ("cited_by", "cited_by"), ("cites", "cited_by")):
        assert not two.complete(f"Count[Neighbour[Neighbour[Retrieve[Chain of Thought], {inner}], {outer}]]")
    assert two.complete("Feature[MaxDegree[Neighbour[Retrieve[Chain of Thought], cited_by], cites], title]")
    most = CounselorAction(store, 'Which of the papers cited by "Chain of Thought" has itself been cited the most?')
    assert most.complete("Feature[MaxDegree[Neighbour[Retrieve[Chain of Thought], cites], cited_by], title]")
    assert not most.complete("Feature[MaxDegree[Neighbour[Retrieve[Chain of Thought], cites], cites], title]")
    # one mention for two hops: which hop it belongs to is not clear, so neither is decided here
    one = CounselorAction(store, 'How many papers cite the works of "Chain of Thought"?')
    for inner, outer in (("cites", "cites"), ("cites", "cited_by"), ("cited_by", "cites")):
        assert one.complete(f"Count[Neighbour[Neighbour[Retrieve[Chain of Thought], {inner}], {outer}]]")


def test_each_name_takes_the_mentions_nearest_it(store: GraphStore) -> None:
    both = CounselorAction(store, 'Overlap of the papers that "ReAct" cites and the papers cited by "Reflexion": count?')
    call = "Count[Intersect[Neighbour[Retrieve[ReAct], {}], Neighbour[Retrieve[Reflexion], {}]]]"
    assert both.complete(call.format("cites", "cites"))
    assert not any(both.complete(call.format(a, b)) for a, b in (("cited_by", "cites"), ("cites", "cited_by")))
    # a name written twice: the chain starts where a mention stands nearest it
    twice = CounselorAction(store, 'Which papers, other than "ReAct" itself, are cited by the papers that cite "ReAct"?')
    assert twice.complete("Feature[Neighbour[Neighbour[Retrieve[ReAct], cited_by], cites], title]")
    assert not twice.complete("Feature[Neighbour[Neighbour[Retrieve[ReAct], cited_by], cited_by], title]")


def test_a_matching_value_is_one_the_feature_has_as_the_question_writes_it(store: GraphStore) -> None:
    language = CounselorAction(store, 'How many of the papers "Graph Counselor" cites have year 2024?')
    call = "Count[Matching[Neighbour[Retrieve[Graph Counselor], cites], year, {}]]"
    assert language.complete(call.format("2024"))
    for wrong in ("year", "2024?", "Graph", "20"):
        assert not language.complete(call.format(wrong)), wrong
    # no value of the feature written anywhere: any copied text, so the observation can say what is wrong
    loose = CounselorAction(store, 'How many of the papers "Graph Counselor" cites are recent?')
    assert loose.complete(call.format("recent"))


def _lexicon_graph() -> GraphStore:
    """Synsets with WN18RR-like relations in both directions and two features."""
    store = GraphStore("words", directed=True, text_keys={"synset": "name"})
    for node, name in {"1": "empire.n.01", "2": "rome.n.01", "3": "city.n.01", "4": "senate.n.01"}.items():
        store.add_node(node, "synset", {"name": name, "part_of_speech": "noun"})
    store.add_edge("2", "1", "instance_hypernym", reverse_relation="instance_hyponym")
    store.add_edge("2", "3", "hypernym", reverse_relation="hyponym")
    store.add_edge("1", "4", "member_meronym", reverse_relation="member_holonym")
    store.add_edge("4", "2", "part_of", reverse_relation="has_part")
    return store


def test_relations_and_features_the_question_spells_out_are_the_only_ones() -> None:
    store = _lexicon_graph()
    names = [*store.relations(), "name", "part_of_speech"]
    question = 'The instance hyponym neighbours of "empire.n.01": most member meronym links?'
    assert spelled_names(question, names, ["empire.n.01"]) == {"instance_hyponym", "member_meronym"}
    # inside a longer name, inside a node's name, or just before one: not spelled out
    assert spelled_names("Most common part of speech here?", names) == {"part_of_speech"}
    assert spelled_names('Is "part of rome" a hypernym here?', names, ["part of rome"]) == {"hypernym"}
    assert spelled_names("the synset name empire", names, ["empire"]) == set()
    assert spelled_names("Union of the hypernyms: count?", ["county", "hypernym"]) == {"hypernym"}  # not "county"
    assert reverse_relations(store)["member_meronym"] == {"member_holonym"}
    assert reverse_relations(store)["has_part"] == {"part_of"}
    language = CounselorAction(store, question)
    call = "Feature[MaxDegree[Neighbour[Retrieve[empire.n.01], {}], {}], name]"
    assert language.complete(call.format("instance_hyponym", "member_meronym"))
    for inner, outer in (("hyponym", "member_meronym"), ("instance_hyponym", "part_of"), ("instance_hypernym", "member_holonym")):
        assert not language.complete(call.format(inner, outer)), (inner, outer)
    modal = CounselorAction(store, 'Most common part of speech of the synsets "empire.n.01" has as hypernym?')
    assert modal.complete("Mode[Feature[Neighbour[Retrieve[empire.n.01], hypernym], part_of_speech]]")
    assert not modal.complete("Mode[Feature[Neighbour[Retrieve[empire.n.01], hypernym], name]]")
    # the node MaxDegree picks is shown by the feature the question spells out ("the part of speech of the one with
    # the most ..."), not by its name
    picked = "Feature[MaxDegree[Neighbour[Retrieve[empire.n.01], hypernym], hypernym], {}]"
    assert modal.complete(picked.format("part_of_speech")) and not modal.complete(picked.format("name"))


def test_a_value_written_only_inside_a_relation_it_spells_out_is_no_filter() -> None:
    """WN18RR's ``verb_group`` holds the word of the part of speech ``verb``: "fewest verb group neighbours" picks by
    that relation, while "whose part of speech is verb" still filters by the value."""
    store = _lexicon_graph()
    store.add_node("5", "synset", {"name": "sponsor.v.01", "part_of_speech": "verb"})
    store.add_node("6", "synset", {"name": "present.v.02", "part_of_speech": "verb"})
    store.add_edge("5", "6", "verb_group", reverse_relation="verb_group")
    store.add_edge("3", "5", "derivationally_related_form", reverse_relation="derivationally_related_form")
    picked = CounselorAction(store, 'The derivationally related form neighbours of "city.n.01": fewest verb group neighbours?')
    assert picked.wording.values == frozenset()
    assert picked.complete("Feature[MinDegree[Neighbour[Retrieve[city.n.01], derivationally_related_form], verb_group], name]")
    filtered = CounselorAction(store, 'Which derivationally related forms of "city.n.01" have the part of speech verb?')
    assert filtered.wording.values == {("part_of_speech", "verb")}
    both = CounselorAction(store, 'How many verb group neighbours of "city.n.01" are a verb?')  # the value outside too
    assert both.wording.values == {("part_of_speech", "verb")}


def test_a_category_word_inside_a_relation_written_out_asks_for_no_category() -> None:
    """"topic" in WN18RR's ``synset_domain_topic_of`` is that relation's word: the node a pick of two names gives is
    shown by its name, as with any other relation, not by a label-like feature ("part of speech")."""
    store = _lexicon_graph()
    store.add_node("7", "synset", {"name": "astrology.n.01", "part_of_speech": "noun"})
    store.add_edge("1", "7", "synset_domain_topic_of", reverse_relation="has_synset_domain_topic")
    question = 'More synset domain topic of links: "empire.n.01" or "rome.n.01"?'
    language = CounselorAction(store, question, skeleton=parse_skeleton("Feature[MaxDegree[Union[_, _]]]"))
    assert not language.wording.category_asked
    call = "Feature[MaxDegree[Union[Retrieve[empire.n.01], Retrieve[rome.n.01]], synset_domain_topic_of], {}]"
    assert language.complete(call.format("name"))
    assert not language.complete(call.format("part_of_speech"))
    asked = CounselorAction(store, 'The topic of the one with more synset domain topic of links: "empire.n.01" or "rome.n.01"?')
    assert asked.wording.category_asked  # a category word outside the relation's words still asks for one


def test_the_relations_sharing_most_words_with_the_question_are_the_only_ones() -> None:
    store = GraphStore("ratings", directed=True, text_keys={"user": "name", "movie": "title"})
    store.add_node("u1", "user", {"name": "user one"})
    for movie in ("m1", "m2", "m3"):
        store.add_node(movie, "movie", {"title": f"film {movie}"})
    for relation, movie in (("rated_1", "m1"), ("rated_3", "m2"), ("rated", "m3")):
        store.add_edge("u1", movie, relation, reverse_relation=f"{relation}_by")
    assert content_words("Most 4-star ratings among 3 out of 5, rated (1 to 5) by") == {"most", "4", "star", "rat", "among", "3", "out"}
    call = "Count[Neighbour[Retrieve[user one], {}]]"
    one_star = CounselorAction(store, 'How many movies did "user one" give 1 stars?')
    assert one_star.complete(call.format("rated_1"))
    assert not one_star.complete(call.format("rated_3")) and not one_star.complete(call.format("rated"))
    # the bounds of a scale name no relation: every rating relation stays open
    scale = CounselorAction(store, 'How many movies did "user one" rate 3 out of 5?')
    assert scale.complete(call.format("rated_3")) and not scale.complete(call.format("rated_1"))
    plain = CounselorAction(store, 'How many movies did "user one" see?')
    assert all(plain.complete(call.format(r)) for r in ("rated", "rated_1", "rated_3"))
    # "rated" written out whole, a number just after it: the numbered relation; none after it: "rated" itself
    spelled = CounselorAction(store, 'The movies "user one" rated 3 out of 5: how many?')
    assert spelled.complete(call.format("rated_3")) and not spelled.complete(call.format("rated"))
    most = CounselorAction(store, 'Of the movies "user one" rated with 1 star, which was rated by the most users?')
    picked = "Feature[MaxDegree[Neighbour[Retrieve[user one], rated_1], {}], title]"
    assert most.complete(picked.format("rated_by")) and not most.complete(picked.format("rated_1_by"))


def test_relations_written_for_each_hop_go_nearest_the_name_first_and_most_names_the_last() -> None:
    store = _lexicon_graph()
    two = CounselorAction(store, 'Number of the member meronym neighbours of the synsets linked to "rome.n.01" by hypernym?')
    call = "Count[Neighbour[Neighbour[Retrieve[rome.n.01], {}], {}]]"
    assert two.complete(call.format("hypernym", "member_meronym"))
    assert not two.complete(call.format("member_meronym", "hypernym"))
    # "{set}: most {noun}?": the relation after "most" is MaxDegree's, though it stands nearer the name
    most = CounselorAction(store, 'The instance hyponym neighbours of "empire.n.01": most member meronym links?')
    picked = "Feature[MaxDegree[Neighbour[Retrieve[empire.n.01], {}], {}], name]"
    assert most.complete(picked.format("instance_hyponym", "member_meronym"))
    assert not most.complete(picked.format("member_meronym", "instance_hyponym"))


def test_a_skeletons_named_nodes_are_the_names_the_question_gives(store: GraphStore) -> None:
    shape = parse_skeleton("Count[Union[Neighbour[_], Neighbour[_]]]")
    question = 'The papers "ReAct" is cited by or the papers that cite "Reflexion": how many?'
    both = CounselorAction(store, question, skeleton=shape)
    call = "Count[Union[Neighbour[Retrieve[ReAct], cited_by], Neighbour[Retrieve[{}], cited_by]]]"
    assert both.complete(call.format("Reflexion")) and not both.complete(call.format("The papers"))
    # a question that quotes names said where they are, but for one it writes as a proper name; without quotes, a run
    # of two content words or more
    assert question_names(store, 'Do "ReAct" and Graph Counselor share a citation?') == ("ReAct", "Graph Counselor")
    assert question_names(store, 'Do "ReAct" and graph counselor share a citation?') == ("ReAct",)
    assert question_names(store, "Do Graph Counselor and papers of graph agents share a citation?") == (
        "Graph Counselor", "graph agents")
    # one word is a name where a sentence writes it with a capital inside it: not at its start, not an id
    assert question_names(store, "Do ReAct and Graph Counselor share a citation?") == ("ReAct", "Graph Counselor")
    assert question_names(store, "ReAct: which papers does react cite? Reflexion too.") == ()
    store.add_node("u40", "author", {})  # no name of its own: its id is not a name
    assert question_names(store, "Which papers did Alice or u40 write?") == ("Alice",)
    # fewer names than named nodes: other text of the question stays open
    one = CounselorAction(store, 'The papers "ReAct" is cited by or the papers citing it: how many?', skeleton=shape)
    assert one.complete(call.format("it"))


def test_the_most_incoming_or_outgoing_links_name_the_last_hops_way_round(store: GraphStore) -> None:
    call = "Feature[{}[Neighbour[Retrieve[ReAct], cites], {}], title]"
    for question, way in (
        ('Which of the papers "ReAct" references has the most incoming citations?', "cited_by"),
        ('Of the papers "ReAct" cites, which has the fewest outgoing citations?', "cites"),
        ('The papers "ReAct" cites: most cites in?', "cited_by"),
        ('Fewest references among the papers that "ReAct" cites?', "cites"),  # counted references: what it cites
    ):
        language = CounselorAction(store, question)
        pick, other = ("MinDegree", "MaxDegree") if "fewest" in question.lower() else ("MaxDegree", "MinDegree")
        assert language.complete(call.format(pick, way)), question
        assert not language.complete(call.format(other, way)), question  # the way round it never words
        assert not language.complete(call.format(pick, "cites" if way == "cited_by" else "cited_by")), question


def test_an_id_written_for_a_named_node_starts_its_chain() -> None:
    """A node whose id is its name (Wikispeedia's "Carbon") may be written bare: its hops take the direction the
    question gives, and under a skeleton it is not named twice."""
    store = GraphStore("wiki", directed=True, text_keys={"article": "title"})
    for name in ("Carbon", "Yagan", "Iron"):
        store.add_node(name, "article", {})
    store.add_edge("Carbon", "Iron", "links_to", reverse_relation="linked_from")
    store.add_edge("Yagan", "Iron", "links_to", reverse_relation="linked_from")
    question = "How much overlap is there between the articles Carbon links to and the articles linked from Yagan?"
    assert question_names(store, question) == ("Carbon", "Yagan")
    shape = parse_skeleton("Count[Intersect[Neighbour[_], Neighbour[_]]]")
    language = CounselorAction(store, question, skeleton=shape)
    assert language.complete("Count[Intersect[Neighbour[Carbon, links_to], Neighbour[Yagan, links_to]]]")
    assert not language.complete("Count[Intersect[Neighbour[Carbon, linked_from], Neighbour[Yagan, links_to]]]")
    assert not language.complete("Count[Intersect[Neighbour[Carbon, links_to], Neighbour[Yagan, linked_from]]]")
    first = "Count[Intersect[Neighbour[Retrieve[Carbon], links_to], Neighbour["
    assert not language.viable(first + "Carbon") and not language.viable(first + "Car")
    assert language.viable(first + "Yagan") and language.viable(first + "Retrieve[Yagan")
    store.add_node("Henry_Wood_(conductor)", "article", {"title": "Henry Wood (conductor)"})
    assert question_names(store, "Does Henry Wood (conductor) link to Iron?") == ("Henry Wood (conductor)", "Iron")
    store.add_node("lp2", "article", {"title": "(LP)2, an Adaptive Algorithm"})
    assert question_names(store, "Do the articles (LP)2, an Adaptive Algorithm links to") == ("(LP)2, an Adaptive Algorithm",)
    # a name is not looked up inside a longer value of a feature: "Iron" in the label "Iron Age"
    store.add_node("Ore", "article", {"title": "Ore", "era": "Iron Age"})
    assert question_names(store, "Which articles from the Iron Age link to Ore?") == ("Ore",)
    pointed = CounselorAction(store, "How many are there of the articles that Iron is pointed to by?")
    assert pointed.complete("Degree[Iron, linked_from]") and not pointed.complete("Degree[Iron, links_to]")


def test_the_node_a_superlative_picks_shows_its_name_unless_a_feature_is_written_out(store: GraphStore) -> None:
    """The name where the question writes no feature; the feature it writes ("the year of ...") where it does."""
    call = "Feature[MaxDegree[Neighbour[Retrieve[ReAct], cites], cited_by], {}]"
    named = CounselorAction(store, 'Which of the papers "ReAct" cites has the most citations?')
    assert named.complete(call.format("title")) and not named.complete(call.format("year"))
    year = CounselorAction(store, 'The year of the paper "ReAct" cites with the most citations?')
    assert year.complete(call.format("year")) and not year.complete(call.format("title"))


@pytest.mark.parametrize(
    ("question", "way"),
    [
        ('Of the papers "ReAct" cites, which has the least citations?', "fewest"),
        ("Looking at the artists tagged young, which has the smallest number of tags?", "fewest"),
        ("Out of the artists Alice listens to, which one tops the list for listeners?", "most"),
        ("Which paper has the highest number of citations?", "most"),
        ("How many papers cite at least one of the papers ReAct cites?", None),  # a bound, not a pick
        ("The most common label among the papers with the fewest citations?", "fewest"),  # "most common": a mode
        ("Of the papers with the most citations, which has the fewest references?", None),  # both ways: both open
        ("How many papers does ReAct cite?", None),
        ("Which single one of the articles Iron links to leads in outbound links?", "most"),  # "leads in"
        ("Which of the articles Iron leads to has the most links?", "most"),  # "leads to": a link, not a lead
        ("Point me to the one of the articles Iron links to with more outgoing links than any other.", "most"),
        ("Which paper ReAct cites has fewer citations than any other?", "fewest"),
        ("Give me the title of the best-connected neighbour of ReAct.", "most"),  # "best" with a link word
        ("Which of ReAct's references is the best cited?", "most"),
        ("Which is the best paper ReAct cites?", None),  # "best" alone ranks nothing the graph holds
    ],
)
def test_the_way_a_questions_superlatives_go(question: str, way: str | None) -> None:
    assert extreme_of(question) == way


def test_the_node_most_of_a_list_link_to_is_decoded_under_its_skeleton(store: GraphStore) -> None:
    question = 'Which paper is cited by the most of the papers "ReAct" cites?'
    planned = CounselorAction(store, question, skeleton=parse_skeleton("Feature[MostLinked[Neighbour[_]]]"))
    assert planned.complete("Feature[MostLinked[Neighbour[Retrieve[ReAct], cites], cites], title]")
    assert not planned.complete("Feature[MaxDegree[Neighbour[Retrieve[ReAct], cites], cites], title]")
    # back along the hop that made the list every member leads to ReAct itself: never asked
    assert not planned.complete("Feature[MostLinked[Neighbour[Retrieve[ReAct], cites], cited_by], title]")
    free = CounselorAction(store, question)
    assert free.complete("Feature[MostLinked[Neighbour[Retrieve[ReAct], cites], cites], title]")
    assert not free.complete("Feature[MostLinked[Neighbour[Retrieve[ReAct], cites], cited_by], title]")
    # unless another node is asked for: MostLinked leaves ReAct out ("... also cite which other paper the most?")
    other = CounselorAction(store, 'The papers citing "ReAct" also cite which other paper the most?')
    assert other.complete("Feature[MostLinked[Neighbour[Retrieve[ReAct], cited_by], cites], title]")
    # the node picked is of the type the relation reaches (an author), not the list's (a paper): its features
    authors = CounselorAction(store, 'Which author are most of the papers "ReAct" cites written by?',
                              skeleton=parse_skeleton("Feature[MostLinked[Neighbour[_]]]"))  # fmt: skip
    assert authors.complete("Feature[MostLinked[Neighbour[Retrieve[ReAct], cites], written_by], name]")
    assert not authors.complete("Feature[MostLinked[Neighbour[Retrieve[ReAct], cites], written_by], title]")


@pytest.mark.parametrize(
    ("question", "fits"),
    [
        ('Which paper is cited by the most of the papers "ReAct" cites?', True),
        ('Which one of the papers "ReAct" cites has the most citations?', False),  # a member of the list
        ('Of the papers "ReAct" cites, which is cited the most?', False),
        ('Which label do most of the papers "ReAct" cites have?', False),  # a feature value: a mode
        ('Most citations among the papers "ReAct" cites?', False),  # a member with the most citations of its own
    ],
)
def test_the_node_most_of_a_list_link_to_is_never_a_member_or_a_value(question: str, fits: bool) -> None:
    wording = CounselorAction(_labelled_papers(), question).wording
    assert consistent(parse_skeleton("Feature[MostLinked[Neighbour[_]]]"), wording) is fits


@pytest.mark.parametrize(
    ("words", "same"),
    [(("tagged", "tags", "tag"), True), (("added", "add"), True), (("called", "call"), True), (("staffed", "staff"), True),
     (("passed", "passes"), True), (("county", "count"), False)],
)
def test_a_stem_has_one_spelling_whatever_the_suffix(words: tuple[str, ...], same: bool) -> None:
    assert (len(content_words(" ".join(words))) == 1) is same


def test_a_superlative_worded_one_way_never_picks_the_other_way(store: GraphStore) -> None:
    call = "Feature[{}[Neighbour[Retrieve[ReAct], cites], cited_by], title]"
    least = 'Of the papers "ReAct" cites, which has the least citations?'
    # the planner's shape turned the way the question words it, and the other pick refused when free too
    planned = CounselorAction(store, least, skeleton=parse_skeleton("Feature[MaxDegree[Neighbour[_]]]"))
    assert planned.skeleton is not None and planned.skeleton.render() == "Feature[MinDegree[Neighbour[_]]]"
    assert planned.complete(call.format("MinDegree")) and not planned.complete(call.format("MaxDegree"))
    free = CounselorAction(store, least)
    assert free.complete(call.format("MinDegree")) and not free.complete(call.format("MaxDegree"))
    bound = CounselorAction(store, 'How many papers cite at least one of the papers "ReAct" cites?')
    assert bound.complete(call.format("MinDegree")) and bound.complete(call.format("MaxDegree"))


def test_an_answer_is_copied_from_what_an_observation_reports_not_from_its_wording(store: GraphStore) -> None:
    observations = ["The most common value (2 of 3) is: Theory.", "The name feature of ['a3'] are: ['Μύρωνας Στρατής']."]
    language = CounselorAction(store, QUESTION, observations)
    assert language.complete("Finish[Theory]") and language.complete("Finish[Μύρωνας Στρατής]")
    for text in ("Finish[most common value]", "Finish[The]", "Finish[ Theory]", "Finish[ν]", "Finish[Μύρωνα]"):
        assert not language.complete(text), text
    assert not language.viable("Finish[ ")  # a value starts with its first character


def test_after_one_text_value_the_answer_is_copied_not_a_number_worked_out(store: GraphStore) -> None:
    one = CounselorAction(store, QUESTION, ["The name feature of a3 are: Carol."])
    assert one.complete("Finish[Carol]") and not one.viable("Finish[1") and not one.complete("Finish[1]")
    rod = CounselorAction(store, QUESTION, ["The name feature of a3 are: Carol.", "The title feature of 7 are: Lightning rod."])
    assert rod.complete("Finish[Lightning rod]") and not rod.complete("Finish[Lightning]")  # whole, not a word of it
    assert not rod.complete("Finish[Carol]")  # the value just read
    # values to work from: a number the observations do not show may be the answer (a mean, a count)
    listed = CounselorAction(store, QUESTION, ["The year feature of ['1', '2'] are: [2020, 2022]."])
    assert listed.complete("Finish[2021]")
    number = CounselorAction(store, QUESTION, ["The year feature of 5 are: 2020."])
    assert number.complete("Finish[2021]")
    # a title that starts with a number is still one text value: the whole title, not its first number
    titled = CounselorAction(store, QUESTION, ["The title feature of 35 are: 4 Routines. Reading, MA: Addison-Wesley.."])
    assert titled.complete("Finish[4 Routines. Reading, MA: Addison-Wesley.]") and not titled.complete("Finish[4]")


def test_the_characters_a_reply_may_be_writing_come_from_what_it_saw(store: GraphStore) -> None:
    language = CounselorAction(store, 'Who is "Μύρωνας"?', ["The name feature of a3 are: Земфира."])
    assert language.characters_after("Μ".encode()[:1]) == sorted({c for c in "Μύρωνας" if c.encode()[0] == 0xCE})
    assert language.characters_after("З".encode()) == ["З"] and language.characters_after("東".encode()[:2]) == []


@pytest.mark.parametrize(
    ("question", "form"),
    [
        ('Is "ReAct" one of the papers "Reflexion" cites?', "yes/no"),
        ('Does any paper "ReAct" cites have the label Theory?', "yes/no"),
        ('Do you happen to know the year of "ReAct"?', None),  # a request, not a yes/no question
        ('"ReAct" is listed with which label?', None),  # its first word is a name's
        ('Of the papers "ReAct" cites, which has the fewest citations?', "pick"),
        ('Looking at the papers "ReAct" cites, which has the largest number of citations?', "pick"),
        ('Among the papers "ReAct" cites, which label shows up most?', "which"),  # a value of a feature: a mode
        ('If you tally the labels of the papers "ReAct" cites, which one wins?', "which"),  # "tally": not a count
        ('Which papers cite "ReAct", and how many are there?', "number"),  # "how many" beside "which"
        ('How many papers does "ReAct" cite?', "number"),
        ('Among the papers "ReAct" cites, count the ones whose label is Theory.', "number"),
        ('Identify the paper "ReAct" cites with the smallest number of citations.', None),  # not a count
        ('What is the title of "ReAct"?', None),
        ('Which of the papers who cite "ReAct" has the most citations?', "pick"),
        ('Find the label that most of the papers who cite "ReAct" share.', None),  # "who cite": which papers
        ('Spell out the papers "ReAct" cites for me.', "list"),
        ('What do the papers that cite "ReAct" consist of? Names please.', "list"),
        ('How many names are on the list of papers "ReAct" cites?', "number"),  # a count comes first
        ('Which one of the papers "ReAct" cites trails everyone in citations?', "pick"),
    ],
)
def test_the_form_a_questions_answer_takes(question: str, form: str | None) -> None:
    assert CounselorAction(_labelled_papers(), question).wording.form == form


def _labelled_papers() -> GraphStore:
    """The paper graph with a ``label`` feature of two values (Theory, Agents)."""
    from tests.tools.conftest import TITLES, build_paper_graph

    store = build_paper_graph()
    for nid, title in TITLES.items():
        store.add_node(nid, "paper", {"title": title, "year": 2020 + int(nid), "label": "Theory" if int(nid) % 2 else "Agents"})
    return store


def test_a_value_shared_or_not_with_the_subject_is_a_label_not_a_nodes_own_text() -> None:
    """"How many of the papers X cites are in the same research area as it?": ``Same`` compares a value nodes share
    (the label), never the abstract or the title, which each node has alone; ``Differing`` likewise."""
    store = _labelled_papers()
    for question, call in (
        ('How many of the papers "ReAct" cites are in the same research area as it?', "Same"),
        ('How many of the papers "ReAct" cites work in a different area from it?', "Differing"),
    ):
        language = CounselorAction(store, question, skeleton=parse_skeleton(f"{call}[_]"))
        assert language.complete(f"{call}[Retrieve[ReAct], cites, label]"), question
        for own in ("abstract", "title"):
            assert not language.complete(f"{call}[Retrieve[ReAct], cites, {own}]"), (question, own)
    year = CounselorAction(store, 'How many papers "ReAct" cites came out the same year as it?', skeleton=parse_skeleton("Same[_]"))
    assert year.complete("Same[Retrieve[ReAct], cites, year]")  # a feature named is the one compared, shared or not


def test_the_planners_likeliest_shape_that_fits_the_questions_words_is_the_one_taken() -> None:
    store = _labelled_papers()
    def ranked(*shapes: tuple[str, float]) -> list[tuple[Skeleton, float]]:
        return [(parse_skeleton(text), p) for text, p in shapes]

    def chosen(question: str, shapes: list[tuple[Skeleton, float]], confidence: float = 0.3) -> str | None:
        found = chosen_skeleton(shapes, CounselorAction(store, question).wording, confidence)
        return None if found is None else found.render()

    pick = ranked(("Degree[_]", 0.47), ("Feature[MaxDegree[Neighbour[_]]]", 0.22), ("Mode[Feature[Neighbour[_]]]", 0.14))
    assert chosen('Looking at the papers "ReAct" cites, which has the largest number of citations?', pick) == (
        "Feature[MaxDegree[Neighbour[_]]]")  # fmt: skip
    # turned the way the question's superlatives go, the two picks' probabilities pooled
    both = ranked(("Feature[Neighbour[_]]", 0.4), ("Feature[MaxDegree[Neighbour[_]]]", 0.2),
                  ("Feature[MinDegree[Neighbour[_]]]", 0.2))  # fmt: skip
    assert chosen('Of the papers "ReAct" cites, which one has the least citations?', both) == (
        "Feature[MinDegree[Neighbour[_]]]")  # fmt: skip
    # a value the question writes is matched; two names, two named nodes
    matched = ranked(("Degree[_]", 0.3), ("Count[Neighbour[Neighbour[_]]]", 0.25), ("Count[Matching[Neighbour[_]]]", 0.15))
    assert chosen('Among the papers "ReAct" cites, count the ones whose label is Theory.', matched) == (
        "Count[Matching[Neighbour[_]]]")  # fmt: skip
    union = ranked(("Count[Neighbour[Neighbour[_]]]", 0.54), ("Count[Union[Neighbour[_], Neighbour[_]]]", 0.32))
    assert chosen('How many papers do "ReAct" and "Reflexion" cite between them?', union) == (
        "Count[Union[Neighbour[_], Neighbour[_]]]")  # fmt: skip
    # a name written bare may go unfound ("the papers ReAct cites or Theory cites"): two named nodes still fit one
    # name found, never fewer than those found
    bare = ranked(("Count[Union[Neighbour[_], Neighbour[_]]]", 0.4), ("Degree[_]", 0.3))
    assert chosen("How many papers are in the union of the papers ReAct cites and those citing it?", bare) == (
        "Count[Union[Neighbour[_], Neighbour[_]]]")  # fmt: skip
    quoted = ranked(("Count[Union[Neighbour[_], Neighbour[_]]]", 0.4), ("Degree[_]", 0.3))
    assert chosen('How many papers are in the union of the papers "ReAct" cites and those citing it?', quoted) == (
        "Degree[_]")  # fmt: skip
    # nothing fits, or the one that fits is not likely enough among those that do: the Action stays free
    assert chosen('Is "ReAct" one of the papers "Reflexion" cites?', ranked(("Degree[_]", 0.9))) is None
    split = ranked(("Count[Neighbour[Neighbour[_]]]", 0.5), ("Degree[_]", 0.5))
    assert chosen('How many papers do the papers "ReAct" cites cite?', split, confidence=0.6) is None
    assert chosen('How many papers does "ReAct" cite?', split, confidence=0.6) == "Degree[_]"  # one link: one hop
    # the node most members of a list link to is a pick too, never a count
    reached = ranked(("Degree[_]", 0.4), ("Feature[MostLinked[Neighbour[_]]]", 0.3), ("Count[Neighbour[Neighbour[_]]]", 0.2))
    assert chosen('Which paper is cited by the most of the papers "ReAct" cites?', reached) == (
        "Feature[MostLinked[Neighbour[_]]]")  # fmt: skip
    # words that say nothing about the form leave the planner's order as it is
    assert chosen('What is the title of "ReAct"?', ranked(("Feature[_]", 0.6), ("Degree[_]", 0.3))) == "Feature[_]"


@pytest.mark.parametrize(
    ("question", "way"),
    [
        ('How many nodes are in at least one of the papers "ReAct" cites and the papers "Reflexion" cites?', "union"),
        ('Merging the papers "ReAct" cites and those "Reflexion" cites, how many are there?', "union"),
        ('How many papers appear in the papers "ReAct" cites as well as in those "Reflexion" cites?', "intersect"),
        ('How many of the papers "ReAct" cites show up again among the papers "Reflexion" cites?', "intersect"),
        ('How many of the papers "ReAct" cites also appear in those "Reflexion" cites?', "intersect"),
        ('What do the papers "ReAct" cites and those "Reflexion" cites have in common?', "intersect"),
        ('Count what is in the papers "ReAct" cites, in those "Reflexion" cites, or in both.', "union"),  # "or ... both"
        ('How many papers are both cited by "ReAct" and cited by "Reflexion", or by either?', None),  # both words
        ('How many papers does "ReAct" cite?', None),
    ],
)
def test_two_lists_are_joined_the_way_the_question_words_it(store: GraphStore, question: str, way: str | None) -> None:
    assert CounselorAction(store, question).wording.set_way == way


def test_a_count_that_spells_out_a_feature_but_no_value_compares_with_the_subject() -> None:
    store = _labelled_papers()
    ranked = [(parse_skeleton(text), p) for text, p in (("Count[Neighbour[Neighbour[_]]]", 0.5), ("Same[_]", 0.2),
                                                          ("Differing[_]", 0.2), ("Count[Matching[Neighbour[_]]]", 0.1))]  # fmt: skip

    def chosen(question: str) -> str | None:
        found = chosen_skeleton(ranked, CounselorAction(store, question).wording, 0.3)
        return None if found is None else found.render()

    assert chosen('Count the papers "ReAct" cites that have "ReAct"\'s label as well.') == "Same[_]"
    assert chosen('How many of the papers "ReAct" cites disagree with it on label?') == "Differing[_]"
    assert chosen('Count the papers "ReAct" cites whose label isn\'t its own.') == "Differing[_]"
    assert chosen('How many of the papers "ReAct" cites have the label Theory?') == "Count[Matching[Neighbour[_]]]"
    assert chosen('How many papers do the papers "ReAct" cites cite?') == "Count[Neighbour[Neighbour[_]]]"


def test_a_one_letter_value_is_written_where_it_is_a_capital_code() -> None:
    store = GraphStore("people", directed=True, text_keys={"user": "name"})
    store.add_node("u1", "user", {"name": "Ann", "gender": "F"})
    store.add_node("u2", "user", {"name": "Bob", "gender": "M", "grade": "A"})
    assert written_values(store, "How many of them have gender F?") == {("gender", "F")}
    assert written_values(store, "Is there a user with grade A?") == frozenset()  # "A" reads as a word


def test_which_of_is_asked_even_where_a_features_name_holds_of() -> None:
    text = "Determine which of the synsets linked to \n by part of has the lowest count of part of links."
    assert answer_form(text, "fewest", ["name", "part_of_speech"]) == "pick"
    assert answer_form("Which part of speech is \n?", None, ["name", "part_of_speech"]) == "which"  # a value


def _music_graph() -> GraphStore:
    """Artists, their listeners and tags, in both directions: names are all any node has."""
    store = GraphStore("music", directed=True, text_keys={"artist": "name", "user": "name", "tag": "name"})
    for node, kind, name in (("a1", "artist", "Nina Simone"), ("a2", "artist", "Miles Davis"), ("u1", "user", "user 1"),
                             ("u2", "user", "user 2"), ("t1", "tag", "jazz")):  # fmt: skip
        store.add_node(node, kind, {"name": name})
    for user, artist in (("u1", "a1"), ("u2", "a1"), ("u2", "a2")):
        store.add_edge(user, artist, "listened", reverse_relation="listened_by")
    for artist in ("a1", "a2"):
        store.add_edge(artist, "t1", "tagged", reverse_relation="tag_of")
    store.add_edge("u1", "u2", "friend", reverse_relation="friend")
    return store


@pytest.mark.parametrize(
    ("question", "allowed", "refused"),
    [
        ('How many fans does "Nina Simone" have?', "listened_by", "tagged"),
        ('How many people play "Nina Simone"?', "listened_by", "tagged"),
        ('How many labels were put on "Nina Simone"?', "tagged", "listened_by"),
        ('How many users have "Nina Simone" in their history?', "listened_by", "tagged"),
    ],
)
def test_a_word_for_a_link_that_shares_no_stem_with_its_label_names_it(question: str, allowed: str, refused: str) -> None:
    language = CounselorAction(_music_graph(), question)
    assert language.complete(f"Degree[Retrieve[Nina Simone], {allowed}]")
    assert not language.complete(f"Degree[Retrieve[Nina Simone], {refused}]")


def _tag_graph() -> GraphStore:
    """Artists with a genre, their listeners and tags that are everyday words, as Last.fm's are (a few of them words
    that ask, one a genre too)."""
    store = GraphStore("tags", directed=True, text_keys={"artist": "name", "user": "name", "tag": "name"})
    for node, name in (("a1", "Nina Simone"), ("a2", "Miles Davis")):
        store.add_node(node, "artist", {"name": name, "genre": "jazz"})
    store.add_node("u1", "user", {"name": "user 1"})
    store.add_edge("u1", "a1", "listened", reverse_relation="listened_by")
    tags = (("t1", "jazz"), ("t2", "find"), ("t3", "europa"), ("t4", "artists"), ("t5", "common"), ("t6", "\u5f8c\u85e4"))
    for node, name in tags:
        store.add_node(node, "tag", {"name": name})
        store.add_edge("a2", node, "tagged", reverse_relation="tag_of")
    return store


@pytest.mark.parametrize(
    ("question", "runs"),
    [
        ("Find which of the artists tagged europa has the fewest tags.", ("europa",)),
        ("Would europa be among the tags given to Miles Davis?", ("Miles Davis", "europa")),
        ("Which tag is most common among the tags of Nina Simone?", ("Nina Simone",)),
        ("Fewest listeners among the artists tagged \u5f8c\u85e4?", ("\u5f8c\u85e4",)),
        ('Find which of the artists tagged "europa" has the fewest tags.', ()),  # quoted: the quotes say where
        ("Find which of the artists user 3 likes has the fewest tags.", ()),  # no node's name
        ("Which of the artists tagged europa have the genre jazz?", ("europa",)),  # a value the question writes
        ("Do some of the artists tagged europa listen?", ("europa",)),
    ],
)
def test_an_unquoted_name_is_a_run_of_words_that_names_a_node(question: str, runs: tuple[str, ...]) -> None:
    """Where a question quotes nothing, the runs of its words that are nodes' names are its candidate names: never a
    word that asks ("find", "common"), one of the graph's own words ("artists", "tags") or a function word."""
    store = _tag_graph()
    wording = CounselorAction(store, question).wording
    assert sorted(wording.name_runs) == sorted(runs)


def test_a_name_in_a_script_without_capitals_is_written_as_a_name() -> None:
    """A word of a caseless script that is a node's name reads as a name, as a capitalised word does."""
    assert question_names(_tag_graph(), "Fewest listeners among the artists tagged \u5f8c\u85e4?") == ("\u5f8c\u85e4",)
    assert question_names(_tag_graph(), "Fewest listeners among the artists tagged europa?") == ()


def test_an_unquoted_name_is_searched_as_a_node_name_the_question_writes() -> None:
    """Retrieve's text is one of the question's name runs, whole, when it writes any: not its first word, not a cut
    word. The name of a node a skeleton's earlier leaf named is not started again."""
    store = _tag_graph()
    language = CounselorAction(store, "Find which of the artists tagged europa has the fewest tags.")
    assert language.complete("Retrieve[europa]")
    for wrong in ("Retrieve[Find]", "Retrieve[F]", "Retrieve[artists tagged europa]", "Retrieve[europa has]", "Retrieve[eu]"):
        assert not language.complete(wrong), wrong
    assert language.viable("Retrieve[eu") and not language.viable("Retrieve[Fi")
    question = "Would europa be among the tags given to Miles Davis?"
    shape = parse_skeleton("Contains[Neighbour[_], _]")
    two = CounselorAction(store, question, skeleton=shape)
    assert two.complete("Contains[Neighbour[Retrieve[Miles Davis], tagged], Retrieve[europa]]")
    assert not two.viable("Contains[Neighbour[Retrieve[Miles Davis], tagged], Retrieve[Wo")
    assert not two.viable("Contains[Neighbour[Retrieve[Miles Davis], tagged], Retrieve[Mi")
    # text an observation shows may still be searched
    seen = CounselorAction(store, "Find which of the artists tagged europa has the fewest tags.", ["The name feature of a1 are: Nina Simone."])
    assert seen.complete("Retrieve[Nina Simone]")


def test_one_click_away_from_a_page_is_what_it_links_to() -> None:
    store = _moon_pages()
    away = CounselorAction(store, 'How many articles are one click away from "Moon"?')
    assert away.complete("Degree[Retrieve[Moon], links_to]") and not away.complete("Degree[Retrieve[Moon], linked_from]")
    into = CounselorAction(store, 'How many articles have a link to "Moon"?')
    assert into.complete("Degree[Retrieve[Moon], linked_from]") and not into.complete("Degree[Retrieve[Moon], links_to]")


def test_links_that_often_run_both_ways_keep_their_two_directions_apart() -> None:
    """Where the first pages link each other both ways, ``linked_from`` still leads back by ``links_to`` only
    (arcs are read from all over the store), so "linked from X" takes ``links_to``; "Point me to" names no
    link, and "fewer links in than the others" runs back."""
    store = GraphStore("pages", directed=True, text_keys={"article": "title"})
    names = [f"Page {i}" for i in range(40)] + ["Kevin Spacey", "Neil Young", "Star Wars", "Theatre"]
    for name in names:
        store.add_node(name, "article", {"title": name})
    for i in range(0, 40, 2):  # the first pages: pairs that link each other
        store.add_edge(names[i], names[i + 1], "links_to", reverse_relation="linked_from")
        store.add_edge(names[i + 1], names[i], "links_to", reverse_relation="linked_from")
    for source, target in (("Kevin Spacey", "Neil Young"), ("Kevin Spacey", "Star Wars"), ("Theatre", "Star Wars"),
                           ("Page 3", "Theatre"), ("Theatre", "Kevin Spacey")):  # fmt: skip
        store.add_edge(source, target, "links_to", reverse_relation="linked_from")
    assert reverse_relations(store) == {"links_to": {"linked_from"}, "linked_from": {"links_to"}}
    question = 'Point me to the one of the articles linked from "Kevin Spacey" with fewer links in than all the others.'
    language = CounselorAction(store, question)
    assert language.complete("Feature[MinDegree[Neighbour[Retrieve[Kevin Spacey], links_to], linked_from], title]")
    for first, second in (("linked_from", "linked_from"), ("links_to", "links_to"), ("linked_from", "links_to")):
        assert not language.complete(f"Feature[MinDegree[Neighbour[Retrieve[Kevin Spacey], {first}], {second}], title]")
    # "links out among the articles ...": the particle ends the noun there, out of each article
    among = CounselorAction(store, 'Fewest links out among the articles linked from "Kevin Spacey"?')
    assert among.complete("Feature[MinDegree[Neighbour[Retrieve[Kevin Spacey], links_to], links_to], title]")
    assert not among.complete("Feature[MinDegree[Neighbour[Retrieve[Kevin Spacey], links_to], linked_from], title]")


def test_the_size_of_a_list_is_a_count() -> None:
    for question in ('I need the size of the artists "user 413" listened to.', "What amount of papers cite it?"):
        assert answer_form(question, None) == "number", question
    assert answer_form('Which of the artists "user 413" listened to is the most popular?', "most") != "number"


def test_the_skeleton_fits_what_the_question_asks_for_a_list_distinct_members_or_a_comparison() -> None:
    papers, music = _labelled_papers(), _music_graph()

    def chosen(store: GraphStore, question: str, *shapes: tuple[str, float]) -> str | None:
        ranked = [(parse_skeleton(text), p) for text, p in shapes]
        found = chosen_skeleton(ranked, CounselorAction(store, question).wording, 0.3)
        return None if found is None else found.render()

    lookup_first = (("Feature[_]", 0.6), ("Feature[Neighbour[_]]", 0.3), ("Degree[_]", 0.1))
    # a list asked for by name is a feature of a neighbour list, not of the named node
    assert chosen(papers, 'Spell out the papers "ReAct" cites for me.', *lookup_first) == "Feature[Neighbour[_]]"
    # a node with no feature but its name: the question already writes it, so it never asks for it
    assert chosen(music, 'What do the tags on "Nina Simone" consist of?', *lookup_first) == "Feature[Neighbour[_]]"
    assert chosen(papers, 'What do you know about "ReAct"?', *lookup_first) == "Feature[_]"  # it has a label
    # counted once each: a list that may hold a node twice, never one node's arcs
    counts = (("Degree[_]", 0.6), ("Differing[_]", 0.2), ("Count[Neighbour[Neighbour[_]]]", 0.2))
    assert chosen(papers, 'How many distinct papers do the papers "ReAct" cites cite?', *counts) == (
        "Count[Neighbour[Neighbour[_]]]")  # fmt: skip
    # Same and Differing compare with the subject: a feature written out, or "same", "not", "share"
    assert chosen(papers, 'How many unique ones are there in the papers cited by any of the papers "ReAct" cites?',
                  ("Differing[_]", 0.6), ("Count[Neighbour[Neighbour[_]]]", 0.4)) == "Count[Neighbour[Neighbour[_]]]"  # fmt: skip
    assert chosen(papers, 'How many of the papers "ReAct" cites are in the same area as it?',
                  ("Same[_]", 0.6), ("Count[Neighbour[Neighbour[_]]]", 0.4)) == "Same[_]"  # fmt: skip
    # reached from any of a list: a hop from a hop, never one node's arcs; "does any of the ..." asks yes or no
    hops = (("Degree[_]", 0.7), ("Count[Neighbour[Neighbour[_]]]", 0.3))
    for question in ('Count the artists tagged with any of the tags "Nina Simone" is tagged with.',
                     'Number of the tags of any of the artists tagged with "jazz"?'):  # fmt: skip
        assert chosen(music, question, *hops) == "Count[Neighbour[Neighbour[_]]]", question
    assert chosen(music, 'How many artists are tagged "jazz"?', *hops) == "Degree[_]"
    asks = (("Exists[Matching[Neighbour[_]]]", 0.7), ("Exists[Matching[Neighbour[Neighbour[_]]]]", 0.3))
    for question in ('Does any of the papers "ReAct" cites have the label Theory?',
                     'Can you find any of the papers "ReAct" cites whose label is Theory?'):  # fmt: skip
        assert chosen(papers, question, *asks) == "Exists[Matching[Neighbour[_]]]", question


def test_a_counts_answer_is_a_number_an_observation_reports(store: GraphStore) -> None:
    observed = ["The ID of this retrieval target node is 5.", "The cites neighbor number of 5 is 39."]
    language = CounselorAction(store, 'How many papers does "Chain of Thought" cite?', observed, skeleton=Skeleton("Degree", (None,)))
    assert language.answer_kind == "number"
    assert language.complete("Finish[39]") and language.complete("Finish[5]")  # each a number the observations show
    assert not language.complete("Finish[3]") and not language.complete("Finish[40]") and not language.viable("Finish[4")
    assert language.viable("Finish[3")  # on its way to 39
    unread = CounselorAction(store, 'How many papers does "Chain of Thought" cite?', ["No node matches."],
                             skeleton=Skeleton("Degree", (None,)))  # fmt: skip
    assert unread.complete("Finish[0]")  # no number reported: any number, as before


def test_a_yes_no_answer_is_the_one_its_observation_gives_unless_the_question_negates() -> None:
    shape = parse_skeleton("Contains[Neighbour[_], _]")
    seen = ["Whether the list holds a1 is: yes."]
    asked = CounselorAction(_music_graph(), 'Is "Nina Simone" among the artists "user 1" listened to?', seen, skeleton=shape)
    assert asked.complete("Finish[yes]") and not asked.complete("Finish[no]") and not asked.viable("Finish[n")
    no = ["Whether the list holds anything is: no."]
    exists = CounselorAction(_music_graph(), 'Does any artist "user 1" listened to have the tag "jazz"?', no,
                             skeleton=parse_skeleton("Exists[Matching[Neighbour[_]]]"))  # fmt: skip
    assert exists.complete("Finish[no]") and not exists.complete("Finish[yes]")
    negated = CounselorAction(_music_graph(), 'Is "Nina Simone" not among the artists "user 1" listened to?', seen, skeleton=shape)
    assert negated.complete("Finish[yes]") and negated.complete("Finish[no]")
    before = CounselorAction(_music_graph(), 'Is "Nina Simone" among the artists "user 1" listened to?', skeleton=shape)
    assert before.answer_kind == "yes/no" and before.yes_no is None  # nothing observed yet


def test_links_out_and_pointing_to_read_their_way_round() -> None:
    """"the articles linking to X" lead back, "links out" and "the links out of ..." forward; "X points to" forward."""
    store = GraphStore("pages", directed=True, text_keys={"article": "title"})
    for name in ("Mexico", "Volcano", "Anthem", "Steve Davis", "Snooker"):
        store.add_node(name, "article", {"title": name})
    for source, target in (("Volcano", "Mexico"), ("Anthem", "Mexico"), ("Mexico", "Anthem"), ("Steve Davis", "Snooker"),
                           ("Snooker", "Volcano")):  # fmt: skip
        store.add_edge(source, target, "links_to", reverse_relation="linked_from")
    fewest = CounselorAction(store, 'Of the articles linking to "Mexico", which one has got the fewest links out?')
    assert fewest.complete("Feature[MinDegree[Neighbour[Retrieve[Mexico], linked_from], links_to], title]")
    assert not fewest.complete("Feature[MinDegree[Neighbour[Retrieve[Mexico], links_to], links_to], title]")
    assert not fewest.complete("Feature[MinDegree[Neighbour[Retrieve[Mexico], linked_from], linked_from], title]")
    reached = CounselorAction(store, 'Which article turns up most often in the links out of the articles that "Steve Davis" points to?')
    assert reached.complete("Feature[MostLinked[Neighbour[Retrieve[Steve Davis], links_to], links_to], title]")
    assert not reached.complete("Feature[MostLinked[Neighbour[Retrieve[Steve Davis], links_to], linked_from], title]")


@pytest.mark.parametrize(
    ("question", "form"),
    [
        ('Show me the artists tagged "jazz".', "list"),
        ('Show me the artist with the most listeners.', "pick"),  # one node picked: not a list
        ('Am I right that "jazz" is among the tags of "Nina Simone"?', "yes/no"),
        ('Would "jazz" be among the tags of "Nina Simone"?', "yes/no"),
        ("Would you tell me how many artists there are?", "number"),
    ],
)
def test_more_ways_to_ask_for_a_list_or_a_yes_no(question: str, form: str | None) -> None:
    assert answer_form(question, extreme_of(question)) == form


def _ratings_graph() -> GraphStore:
    """Users who rate movies from 1 to 5 stars: a relation per number each way, and a plain one for any rating."""
    store = GraphStore("ratings", directed=True, text_keys={"user": "name", "movie": "title"})
    for user in ("u1", "u2", "u3"):
        store.add_node(user, "user", {"name": f"user {user[1:]}", "occupation": "writer" if user != "u3" else "artist"})
    for movie, title in (("m1", "Before and After (1996)"), ("m2", "Air Force One (1997)"), ("m3", "Heat (1995)")):
        store.add_node(movie, "movie", {"title": title})
    for user, movie, stars in (("u1", "m1", 2), ("u1", "m2", 4), ("u2", "m1", 2), ("u2", "m3", 4), ("u3", "m2", 3),
                               ("u3", "m3", 5)):  # fmt: skip
        store.add_edge(user, movie, f"rated_{stars}", reverse_relation=f"rated_{stars}_by")
        store.add_edge(user, movie, "rated", reverse_relation="rated_by")
    return store


@pytest.mark.parametrize(
    ("question", "shape", "right"),
    [
        ('Count: the movies any of the users who gave "Before and After (1996)" 2 stars gave 4 stars.',
         "Count[Neighbour[Neighbour[_]]]", "Count[Neighbour[Neighbour[Retrieve[Before and After (1996)], rated_2_by], rated_4]]"),
        ('Number of the users who rated any of the movies "user 1" gave 4 stars?',
         "Count[Neighbour[Neighbour[_]]]", "Count[Neighbour[Neighbour[Retrieve[user 1], rated_4], rated_by]]"),
        ('Most 3-star ratings among the movies "user 1" gave 4 stars?',
         "Feature[MaxDegree[Neighbour[_]]]", "Feature[MaxDegree[Neighbour[Retrieve[user 1], rated_4], rated_3_by], title]"),
        ('The users that rated "Heat (1995)" 4 out of 5: fewest 3-star ratings given?',
         "Feature[MinDegree[Neighbour[_]]]", "Feature[MinDegree[Neighbour[Retrieve[Heat (1995)], rated_4_by], rated_3], name]"),
        ('How many movies did "user 3" rate?', "Degree[_]", "Degree[Retrieve[user 3], rated]"),
    ],
)  # fmt: skip
def test_each_hop_takes_the_star_number_written_for_it(question: str, shape: str, right: str) -> None:
    language = CounselorAction(_ratings_graph(), question, skeleton=parse_skeleton(shape))
    assert language.complete(right), right
    every = ["rated", "rated_by", *(f"rated_{n}{way}" for n in range(1, 6) for way in ("", "_by"))]
    for found in re.finditer(r"(?<=, )rated\w*(?=\])", right):  # each hop's relation, swapped for any other
        for other in every:
            if other != found.group():
                wrong = right[: found.start()] + other + right[found.end() :]
                assert not language.complete(wrong), wrong


def test_a_shaped_answer_is_copied_whole_never_a_number_worked_out() -> None:
    seen = ["The most common value (2 of 3) is: writer."]
    mode = CounselorAction(_ratings_graph(), 'The users that rated "Heat (1995)" 4 out of 5: usual occupation?', seen,
                           skeleton=parse_skeleton("Mode[Feature[Neighbour[_]]]"))  # fmt: skip
    assert mode.complete("Finish[writer]") and not mode.complete("Finish[2]") and not mode.complete("Finish[3]")
    free = CounselorAction(_ratings_graph(), 'The users that rated "Heat (1995)" 4 out of 5: usual occupation?', seen)
    assert free.skeleton is None and free.complete("Finish[2]")  # nothing shapes it: a number may be worked out


def test_a_relation_written_as_of_the_name_is_the_first_hop() -> None:
    question = 'Count the artists that any of the users who are friends of "user 1" listened to.'
    language = CounselorAction(_music_graph(), question, skeleton=parse_skeleton("Count[Neighbour[Neighbour[_]]]"))
    assert language.complete("Count[Neighbour[Neighbour[Retrieve[user 1], friend], listened]]")
    assert not language.complete("Count[Neighbour[Neighbour[Retrieve[user 1], listened], friend]]")
    plain = CounselorAction(_music_graph(), 'How many artists have the friends of "user 1" listened to?',
                            skeleton=parse_skeleton("Count[Neighbour[Neighbour[_]]]"))  # fmt: skip
    assert plain.complete("Count[Neighbour[Neighbour[Retrieve[user 1], friend], listened]]")
    assert not plain.complete("Count[Neighbour[Neighbour[Retrieve[user 1], listened], friend]]")


def test_a_list_written_before_includes_is_read_from_its_own_name() -> None:
    """'The articles linked from "Geology": includes "Clay"?' starts from Geology, whose list is written first, and
    takes ``links_to``; never from Clay, whichever link (a link back from the member is right only where the graph
    names it as a voice partner, and a check that starts from the list's own name needs none)."""
    store = GraphStore("pages", directed=True, text_keys={"article": "title"})
    for name in ("Geology", "Clay", "Rock"):
        store.add_node(name, "article", {"title": name})
    store.add_edge("Geology", "Clay", "links_to", reverse_relation="linked_from")
    store.add_edge("Rock", "Geology", "links_to", reverse_relation="linked_from")
    language = CounselorAction(store, 'The articles linked from "Geology": includes "Clay"?',
                               skeleton=parse_skeleton("Contains[Neighbour[_], _]"))  # fmt: skip
    assert language.complete("Contains[Neighbour[Retrieve[Geology], links_to], Retrieve[Clay]]")
    assert not language.complete("Contains[Neighbour[Retrieve[Geology], linked_from], Retrieve[Clay]]")
    assert not language.complete("Contains[Neighbour[Retrieve[Clay], linked_from], Retrieve[Geology]]")
    assert not language.complete("Contains[Neighbour[Retrieve[Clay], links_to], Retrieve[Geology]]")


def test_a_member_looked_for_in_a_list_is_of_the_type_the_lists_link_reaches() -> None:
    """'"Miles Davis" is a member of the artists tagged "jazz"': from the artist, the list holding the tag is its tags,
    never its listeners (users); from the tag, its artists. Where both names are one type, every link stays."""
    store = _music_graph()
    question = 'True or false: "Miles Davis" is a member of the artists a such that a carries "jazz".'
    language = CounselorAction(store, question, skeleton=parse_skeleton("Contains[Neighbour[_], _]"))
    assert language.complete("Contains[Neighbour[Retrieve[Miles Davis], tagged], Retrieve[jazz]]")
    assert language.complete("Contains[Neighbour[Retrieve[jazz], tag_of], Retrieve[Miles Davis]]")
    for wrong in ("Contains[Neighbour[Retrieve[Miles Davis], listened_by], Retrieve[jazz]]",
                  "Contains[Neighbour[Retrieve[jazz], tagged], Retrieve[Miles Davis]]"):  # fmt: skip
        assert not language.complete(wrong), wrong
    same_type = CounselorAction(store, 'Is "user 2" among the friends of "user 1"?',
                                skeleton=parse_skeleton("Contains[Neighbour[_], _]"))  # fmt: skip
    assert same_type.complete("Contains[Neighbour[Retrieve[user 1], friend], Retrieve[user 2]]")


def _lists_and_influences() -> GraphStore:
    """One node type, as in FB15k-237: a person on a list, and who influenced whom, each relation with an ``_of``
    reverse (no voice partner: "list" names ``list`` only)."""
    store = GraphStore("entities", directed=True, text_keys={"entity": "name"})
    for node in ("Time 100", "Al Gore", "Immanuel Kant", "Nikolai Gogol", "Fyodor Dostoyevsky"):
        store.add_node(node, "entity", {"name": node})
    store.add_edge("Al Gore", "Time 100", "list", reverse_relation="list_of")
    for source in ("Immanuel Kant", "Nikolai Gogol"):
        store.add_edge(source, "Fyodor Dostoyevsky", "influenced_by_of", reverse_relation="influenced_by")
    return store


def test_the_relation_neighbours_of_a_name_are_that_names_own_links() -> None:
    """'X in the list neighbours of Y' reads Y's ``list``, looking for X, however near X the word stands; each
    'influenced by of neighbours of' reads its own name's ``influenced_by_of``."""
    store = _lists_and_influences()
    member = CounselorAction(store, '"Time 100" in the list neighbours of "Al Gore"?',
                             skeleton=parse_skeleton("Contains[Neighbour[_], _]"))  # fmt: skip
    assert member.complete("Contains[Neighbour[Retrieve[Al Gore], list], Retrieve[Time 100]]")
    for wrong in ("Contains[Neighbour[Retrieve[Time 100], list], Retrieve[Al Gore]]",
                  "Contains[Neighbour[Retrieve[Time 100], list_of], Retrieve[Al Gore]]",
                  "Contains[Neighbour[Retrieve[Al Gore], list_of], Retrieve[Time 100]]"):  # fmt: skip
        assert not member.complete(wrong), wrong
    question = ('Overlap of the influenced by of neighbours of "Immanuel Kant" and the influenced by of neighbours of '
                '"Nikolai Gogol": which?')  # fmt: skip
    shared = CounselorAction(store, question, skeleton=parse_skeleton("Feature[Intersect[Neighbour[_], Neighbour[_]]]"))
    right = ("Feature[Intersect[Neighbour[Retrieve[Immanuel Kant], influenced_by_of], "
             "Neighbour[Retrieve[Nikolai Gogol], influenced_by_of]], name]")  # fmt: skip
    assert shared.complete(right)
    assert not shared.complete(right.replace("influenced_by_of", "influenced_by"))


def _films_and_writers() -> GraphStore:
    """One node type, as in FB15k-237: films with a passive relation (``written_by``) and its ``_of`` reverse, and a
    genre relation with its own reverse."""
    store = GraphStore("entities", directed=True, text_keys={"entity": "name"})
    for node in ("Annie Hall", "Manhattan", "Woody Allen", "Marshall Brickman", "comedy"):
        store.add_node(node, "entity", {"name": node})
    for film in ("Annie Hall", "Manhattan"):
        store.add_edge(film, "Woody Allen", "written_by", reverse_relation="written_by_of")
        store.add_edge(film, "comedy", "film_genre", reverse_relation="film_genre_of")
    store.add_edge("Manhattan", "Marshall Brickman", "written_by", reverse_relation="written_by_of")
    return store


def test_a_passive_name_written_whole_with_its_of_is_that_relation_not_the_one_it_reverses() -> None:
    """"the entities linked to X by written by of" writes FB15k-237's ``written_by_of`` word for word: that relation,
    never ``written_by``; "written by" alone is read by its voice and place (the next test)."""
    store = _films_and_writers()
    shape = parse_skeleton("Count[Neighbour[_]]")
    whole = CounselorAction(store, 'Number of the entities linked to "Woody Allen" by written by of?', skeleton=shape)
    assert whole.complete("Count[Neighbour[Retrieve[Woody Allen], written_by_of]]")
    assert not whole.complete("Count[Neighbour[Retrieve[Woody Allen], written_by]]")
    owned = CounselorAction(store, 'Number of the entities "Woody Allen" has as written by of?', skeleton=shape)
    assert owned.complete("Count[Neighbour[Retrieve[Woody Allen], written_by_of]]")
    assert not owned.complete("Count[Neighbour[Retrieve[Woody Allen], written_by]]")
    plain = CounselorAction(store, 'How many films were written by "Woody Allen"?', skeleton=shape)
    assert plain.complete("Count[Neighbour[Retrieve[Woody Allen], written_by_of]]")


@pytest.mark.parametrize(
    ("question", "name", "relation"),
    [
        ('How many films did "Woody Allen" write?', "Woody Allen", "written_by_of"),  # active, after: what X wrote
        ('Count the films that "Woody Allen" wrote.', "Woody Allen", "written_by_of"),
        ('How many films has "Woody Allen" written?', "Woody Allen", "written_by_of"),
        ('How many films were written by "Woody Allen"?', "Woody Allen", "written_by_of"),  # passive, before
        ('How many people wrote "Manhattan"?', "Manhattan", "written_by"),  # active, before: who wrote X
        ('How many writers did "Manhattan" have?', "Manhattan", "written_by"),
        ('How many people is "Manhattan" written by?', "Manhattan", "written_by"),  # passive, after
    ],
)
def test_a_verb_in_any_form_takes_a_passive_relation_the_way_its_voice_and_place_give(
    question: str, name: str, relation: str
) -> None:
    """On one node type (FB15k-237) a verb's voice and place tell ``written_by`` (what wrote X) from ``written_by_of``
    (what X wrote), however the verb is written ("write", "wrote", "written"): the reverse of a passive name is the
    forward way."""
    action = CounselorAction(_films_and_writers(), question, skeleton=parse_skeleton("Count[Neighbour[_]]"))
    other = {"written_by": "written_by_of", "written_by_of": "written_by"}[relation]
    assert action.complete(f"Count[Neighbour[Retrieve[{name}], {relation}]]")
    assert not action.complete(f"Count[Neighbour[Retrieve[{name}], {other}]]")


def test_a_verb_decides_only_between_the_relations_it_is_the_participle_of() -> None:
    """"film" is the first word of many FB15k-237 relations, "film_art_direction_by" among them: the voice of "film"
    decides nothing, and a relation the question spells out is still allowed. "write down each one" asks for the
    answer written out: no link is meant. A noun for the one who acts ("writer", "director") is an active verb."""
    store = _films_and_writers()
    store.add_node("Mel Bourne", "entity", {"name": "Mel Bourne"})
    store.add_node("DVD", "entity", {"name": "DVD"})
    store.add_edge("Manhattan", "Mel Bourne", "film_art_direction_by", reverse_relation="film_art_direction_by_of")
    store.add_edge("Manhattan", "DVD", "film_distribution_medium", reverse_relation="film_distribution_medium_of")
    listed = parse_skeleton("Feature[Neighbour[_]]")
    medium = CounselorAction(store, 'The names of the film distribution medium neighbours of "Manhattan"?', skeleton=listed)
    assert medium.complete("Feature[Neighbour[Retrieve[Manhattan], film_distribution_medium], name]")
    written = CounselorAction(store, 'Gather the entities linked to "Manhattan" by film genre and write down each one.', skeleton=listed)
    assert written.complete("Feature[Neighbour[Retrieve[Manhattan], film_genre], name]")
    # "the art director of X", "the writers of X": the one who acts, written before X, so the link back from X
    for question, relation in (('Who was the art director of "Manhattan"?', "film_art_direction_by"),
                               ('Who are the writers of "Manhattan"?', "written_by")):  # fmt: skip
        agent = CounselorAction(store, question, skeleton=listed)
        assert agent.complete(f"Feature[Neighbour[Retrieve[Manhattan], {relation}], name]"), question
        assert not agent.complete(f"Feature[Neighbour[Retrieve[Manhattan], {relation}_of], name]"), question
    # one verb, two relations (FB15k-237's produced_by and executive_produced_by): the one whose words are written
    store.add_edge("Manhattan", "Woody Allen", "executive_produced_by", reverse_relation="executive_produced_by_of")
    store.add_edge("Annie Hall", "Marshall Brickman", "produced_by", reverse_relation="produced_by_of")
    produced = CounselorAction(store, 'How many films has "Marshall Brickman" produced?', skeleton=parse_skeleton("Count[Neighbour[_]]"))
    assert produced.complete("Count[Neighbour[Retrieve[Marshall Brickman], produced_by_of]]")
    assert not produced.complete("Count[Neighbour[Retrieve[Marshall Brickman], executive_produced_by_of]]")
    works = CounselorAction(store, 'How many films is "Woody Allen" the writer of?', skeleton=parse_skeleton("Count[Neighbour[_]]"))
    assert works.complete("Count[Neighbour[Retrieve[Woody Allen], written_by_of]]")
    assert not works.complete("Count[Neighbour[Retrieve[Woody Allen], written_by]]")


def test_most_links_named_in_several_words_among_a_list_pick_a_member() -> None:
    """"Most film genre of neighbours among the written by of neighbours of X?" picks the member with the most links
    of its own (``MaxDegree``), however many words name the links; never the node most of them reach, nor the list."""
    store = _films_and_writers()
    question = 'Most film genre neighbours among the written by of neighbours of "Woody Allen"?'
    wording = CounselorAction(store, question).wording
    assert wording.member
    pick, reached, listing = (parse_skeleton(text) for text in (
        "Feature[MaxDegree[Neighbour[_]]]", "Feature[MostLinked[Neighbour[_]]]", "Feature[Neighbour[_]]"))  # fmt: skip
    assert chosen_skeleton([(reached, 0.5), (listing, 0.3), (pick, 0.2)], wording, 0.0) == pick
    assert not CounselorAction(store, 'Most common film genre among the written by of neighbours of "Woody Allen"?').wording.member


def test_most_links_written_after_a_list_and_a_colon_pick_a_member() -> None:
    """"The entities linked to X by written by of: most film genre links?" counts each member's own links: a pick,
    never the list read out."""
    store = _films_and_writers()
    wording = CounselorAction(store, 'The entities linked to "Woody Allen" by written by of: most film genre links?').wording
    pick, listing = (parse_skeleton(text) for text in ("Feature[MaxDegree[Neighbour[_]]]", "Feature[Neighbour[_]]"))
    assert chosen_skeleton([(listing, 0.6), (pick, 0.4)], wording, 0.0) == pick


def test_a_list_written_first_then_includes_a_name_is_the_first_names_list() -> None:
    """"The entities X has as film genre: includes Y?" looks for Y in X's list, never for X in Y's: from Y the same
    relation would be the wrong way round (WN18RR's "X has as hypernym: includes Y?" was read from Y's hypernyms)."""
    store = _films_and_writers()
    shape = parse_skeleton("Contains[Neighbour[_], _]")
    for question in ('The entities "Manhattan" has as film genre: includes "comedy"?',
                     'The entities "Manhattan" has as film genre, does it include "comedy"?'):  # fmt: skip
        language = CounselorAction(store, question, skeleton=shape)
        assert language.complete("Contains[Neighbour[Retrieve[Manhattan], film_genre], Retrieve[comedy]]"), question
        assert not language.complete("Contains[Neighbour[Retrieve[comedy], film_genre], Retrieve[Manhattan]]")
        assert not language.complete("Contains[Neighbour[Retrieve[comedy], film_genre_of], Retrieve[Manhattan]]")


def _moon_pages() -> GraphStore:
    """Three articles: Moon links to Earth, Sun links to Moon."""
    store = GraphStore("pages", directed=True, text_keys={"article": "title"})
    for node in ("Moon", "Earth", "Sun"):
        store.add_node(node, "article", {"title": node})
    store.add_edge("Moon", "Earth", "links_to", reverse_relation="linked_from")
    store.add_edge("Sun", "Moon", "links_to", reverse_relation="linked_from")
    return store


def _degree_link_ways(store: GraphStore, cases: tuple[tuple[str, str, str], ...], name: str = "Moon") -> None:
    """Each ``(question, right, wrong)``: the degree of the node ``name`` names is asked along ``right``, never along
    ``wrong``."""
    for question, right, wrong in cases:
        language = CounselorAction(store, question)
        assert language.complete(f"Degree[Retrieve[{name}], {right}]"), question
        assert not language.complete(f"Degree[Retrieve[{name}], {wrong}]"), question


def test_a_compound_word_names_the_link_its_second_part_names() -> None:
    """"hyperlinks" and "backlinks" name a link as "links" does, each the way round its words give; "befriended"
    names ``friend``."""
    store = _moon_pages()
    _degree_link_ways(store, (
        ('How many articles does the page "Moon" hyperlink to?', "links_to", "linked_from"),
        ('How many articles contain a hyperlink to "Moon"?', "linked_from", "links_to"),
        ('How many backlinks does "Moon" have?', "linked_from", "links_to"),
    ))
    friends = CounselorAction(_music_graph(), 'How many users has "user 1" befriended?')
    assert friends.complete("Degree[Retrieve[user 1], friend]")
    assert not friends.complete("Degree[Retrieve[user 1], listened]")


@pytest.mark.parametrize(
    "question",
    [
        'Could you identify the one of the tags on "Nina Simone" with the largest count of artists?',
        'Among the artists "user 2" listened to, which has the highest total of listeners?',
    ],
)
def test_a_count_a_superlative_picks_by_asks_for_the_node(question: str) -> None:
    extreme = extreme_of(question)
    assert extreme == "most" and answer_form(question, extreme) == "pick"


def test_a_pick_is_of_the_node_type_the_question_asks_for() -> None:
    """"Which tag ..." about a user's artists: the tag most of them carry (``MostLinked``), not one of the artists
    (``MaxDegree``); where the question names no type, or the type both reach, either may be taken."""
    store = _music_graph()
    shapes = [(parse_skeleton("Feature[MaxDegree[Neighbour[_]]]"), 0.6), (parse_skeleton("Feature[MostLinked[Neighbour[_]]]"), 0.4)]
    tag = CounselorAction(store, 'Which tag occurs the highest number of times among the tags of the artists "user 2" listened to?')
    assert tag.wording.asked_type == "tag"
    assert chosen_skeleton(shapes, tag.wording, 0.0).render() == "Feature[MostLinked[Neighbour[_]]]"
    artist = CounselorAction(store, 'Which artist "user 2" listened to has the most tags?')
    assert artist.wording.asked_type == "artist"
    assert chosen_skeleton(shapes, artist.wording, 0.0).render() == "Feature[MaxDegree[Neighbour[_]]]"
    untyped = CounselorAction(store, 'Of the artists "user 2" listened to, which one has the most tags?')
    assert untyped.wording.asked_type is None
    assert chosen_skeleton(shapes, untyped.wording, 0.0).render() == "Feature[MaxDegree[Neighbour[_]]]"


@pytest.mark.parametrize(
    ("question", "form"),
    [
        ('Collect the artists "user 1" listened to. Is "Nina Simone" on the list?', "yes/no"),
        ('Walk through the artists "user 1" listened to: do you come across "Nina Simone"?', "yes/no"),
        ('Do you know the tags of "Nina Simone"?', None),
        ('Take the artists "user 2" listened to and rank them by listeners. Which comes first?', "pick"),
        ('Take the tags of the artists "user 2" listened to and keep a tally. Which tag gets the most votes?', "pick"),
        ('Take the artists "user 2" listened to. How many is that?', "number"),
    ],
)
def test_a_question_told_in_several_sentences_asks_in_its_last(question: str, form: str | None) -> None:
    wording = CounselorAction(_music_graph(), question).wording
    assert wording.form == form


def test_ranked_first_is_the_most_unless_ranked_lowest_first() -> None:
    assert extreme_of("Take the papers X cites and rank them by citations. Which comes first?") == "most"
    assert extreme_of("Rank the papers X cites by citations, lowest first. Which comes first?") == "fewest"
    assert extreme_of("Which of the papers X cites came first?") is None


def test_dropping_the_ones_that_match_counts_the_others() -> None:
    question = 'Take the papers "Chain of Thought" cites and drop the ones whose label matches its own. How many are left?'
    wording = CounselorAction(_labelled_papers(), question).wording
    assert wording.unlike and wording.compares
    repeats = CounselorAction(_labelled_papers(), 'Collect the papers citing "Chain of Thought", dropping repeats.').wording
    assert not repeats.unlike


def test_a_link_on_a_page_and_clicking_through_from_it_run_out_of_it() -> None:
    """"a link on X", "click through to from X": X is the source; two words for one link a few articles apart are
    one mention ("clicking a link on X"); "papers citing papers citing X" stay two."""
    store = _moon_pages()
    _degree_link_ways(store, (
        ('Take the articles you land on by clicking a link on "Moon". How many is that?', "links_to", "linked_from"),
        ('Take the articles you can click through to from "Moon". How many is that?', "links_to", "linked_from"),
        ('How many articles are referenced by hyperlink from "Moon"?', "links_to", "linked_from"),
        ('Take the articles whose links take you to "Moon". How many is that?', "linked_from", "links_to"),
    ))
    for question in ('Show me the names of the articles "Moon" is linked from.',
                     'In both the articles "Moon" is linked from and the articles that link to "Earth": how many?'):
        ends = CounselorAction(store, question).wording.direction(["links_to", "linked_from"], "Moon", 0, 1)
        assert ends == ["linked_from"], question  # "X is linked from" with nothing after: X is the target
    two = CounselorAction(store, 'How many articles link to articles linking to "Moon"?').wording
    hops = [two.direction(["links_to", "linked_from"], "Moon", hop, 2) for hop in (0, 1)]
    assert hops == [["linked_from"], ["linked_from"]]


def test_links_to_them_reach_the_members_and_links_to_click_are_one_link() -> None:
    """"rank them by pages that click through to them": the links into the members (``linked_from``, whatever the
    voice); "counting links to click", "each one's links to click": one link, out of the members; "rank them" asks
    for one of the members (not ``MostLinked``), "which gets the most votes" for a node they link to (only
    ``MostLinked``)."""
    store = _moon_pages()
    both = ["links_to", "linked_from"]
    for question, second in (
        ('Take the articles you land on by clicking a link on "Moon" and rank them by pages that click through to them.'
         " Which comes first?", "linked_from"),
        ('Take the articles you land on by clicking a link on "Moon", follow each one\'s links to click, and keep a '
         "tally. Which article gets the most votes?", "links_to"),
    ):  # fmt: skip
        wording = CounselorAction(store, question).wording
        assert [wording.direction(both, "Moon", hop, 2) for hop in (0, 1)] == [["links_to"], [second]], question
    wind = CounselorAction(store, 'Go through the articles whose links take you to "Moon" one by one, counting links'
                                  " to click: which one ends with the smallest count?").wording  # fmt: skip
    assert [wind.direction(both, "Moon", hop, 2) for hop in (0, 1)] == [["linked_from"], ["links_to"]]
    for question in ('Count the articles that "Sun" points to together with the articles "Moon" links to, each once.',
                     'How many articles does "Moon" link to, each counted once?'):
        assert CounselorAction(store, question).wording.direction(both, "Moon", 0, 1) == ["links_to"], question
    two = CounselorAction(store, 'How many articles link to links to "Moon"?').wording  # a noun after "to": two links
    assert two.direction(both, "Moon", 0, 2) is not None
    shapes = [(parse_skeleton("Feature[MaxDegree[Neighbour[_]]]"), 0.6), (parse_skeleton("Feature[MostLinked[Neighbour[_]]]"), 0.4)]
    ranked = CounselorAction(store, 'Take the articles "Moon" links to and rank them by links to them. Which comes first?')
    assert ranked.wording.member
    assert chosen_skeleton(shapes[::-1], ranked.wording, 0.0).render() == "Feature[MaxDegree[Neighbour[_]]]"
    votes = CounselorAction(store, 'Take the articles "Moon" links to and follow their links. Which gets the most votes?')
    assert chosen_skeleton(shapes, votes.wording, 0.0).render() == "Feature[MostLinked[Neighbour[_]]]"


def test_a_second_list_added_skipping_repeats_is_the_union_and_friendships_name_friend() -> None:
    question = ('Collect the users you find in "Nina Simone"\'s listener list, then add the users you meet by going '
                'from "Miles Davis" to its audience, skipping any already there. How many in all?')  # fmt: skip
    assert CounselorAction(_music_graph(), question).wording.set_way == "union"
    chain = CounselorAction(_music_graph(), 'Gather the artists you reach through the listening history of any of the '
                                            'users you reach in one step along "user 1"\'s friendships. How many?')  # fmt: skip
    relations = ["friend", "listened", "listened_by", "tag_of", "tagged"]
    assert chain.wording.spelled_hop(relations, "user 1", 0, 2, False) == ["friend"]
    assert "listened" in (chain.wording.spelled_hop(relations, "user 1", 1, 2, False) or [])


@pytest.mark.parametrize(
    ("question", "form"),
    [
        ('How much are the artists which "user 1" is listening?', "number"),
        ('In the artists which "user 2" is listening, how much have the name is "Nina Simone"?', "number"),
        ('"Nina Simone" is in the artists which "user 1" is listening or not?', "yes/no"),
        ('Someone of the artists which "user 2" is listening have tag "jazz", yes or no?', "yes/no"),
        ('Count the users which have friend with any of the users who listen "Nina Simone".', "number"),
        ('Please give me name of all the users which are listening "Nina Simone".', "list"),
    ],
)
def test_a_learners_how_much_or_not_and_relative_which_read_as_meant(question: str, form: str | None) -> None:
    """"How much are ..." counts; "... or not?" and "..., yes or no?" ask yes or no; "the users which have ..." says
    which users (a relative clause), it does not ask which."""
    assert CounselorAction(_music_graph(), question).wording.form == form


def test_a_learners_counted_once_coming_in_and_most_of_read_as_meant() -> None:
    """"but not the same one two times", "count one time each": each member once; "who have most link coming in"
    among a list's members: the member with the most links into it; "most of the papers ... have which label": a
    majority's value (no superlative), so no member is picked by degree."""
    music = _music_graph()
    for question in ('Count the artists which any of the users who "user 1" is friend is listening but not the same one'
                     " two times.", 'How many different is the tags put on any of the artists which "user 2" is listening?'
                     " Count one time each."):  # fmt: skip
        assert CounselorAction(music, question).wording.once, question
    question = 'In the articles where "Moon" have link, who have most link coming in?'
    wording = CounselorAction(_moon_pages(), question).wording
    assert wording.member and wording.extreme == "most"
    assert [wording.direction(["links_to", "linked_from"], "Moon", hop, 2) for hop in (0, 1)] == [["links_to"], ["linked_from"]]
    majority = CounselorAction(_labelled_papers(), 'Most of the papers which cite "Graph Counselor" have which label?').wording
    assert majority.extreme is None
    shapes = [(parse_skeleton("Feature[MaxDegree[Neighbour[_]]]"), 0.6), (parse_skeleton("Mode[Feature[Neighbour[_]]]"), 0.4)]
    assert chosen_skeleton(shapes, majority, 0.0).render() == "Mode[Feature[Neighbour[_]]]"
    assert extreme_of("Point me to the one of the articles X links to with fewer links in than all the others.") == "fewest"
    assert extreme_of("Which of the articles X links to is ahead on outgoing links?") == "most"


def test_in_and_out_written_onto_a_graph_word_give_its_way_round() -> None:
    """"in-neighbours", "in-degree", "predecessors" run into the node, "out-neighbours", "out-links", "successors" out
    of it; "in the link graph" after such a word names the link it walks, not one more hop."""
    store = _moon_pages()
    _degree_link_ways(store, (
        ('What is the in-degree of "Moon"?', "linked_from", "links_to"),
        ('How many out-neighbours does "Moon" have in the link graph?', "links_to", "linked_from"),
        ('Count the predecessors of "Moon".', "linked_from", "links_to"),
        ('How many out-links does "Moon" have?', "links_to", "linked_from"),
    ))  # fmt: skip
    question = 'Let S be the out-neighbours of "Moon" in the link graph. Which element of S has the largest number of in-neighbours?'
    wording = CounselorAction(store, question).wording
    assert [wording.direction(["links_to", "linked_from"], "Moon", hop, 2) for hop in (0, 1)] == [["links_to"], ["linked_from"]]
    question = 'Find the argmin over the in-neighbours of "Moon" in the link graph of the number of out-neighbours.'
    wording = CounselorAction(store, question).wording
    assert [wording.direction(["links_to", "linked_from"], "Moon", hop, 2) for hop in (0, 1)] == [["linked_from"], ["links_to"]]
    assert wording.extreme == "fewest" and wording.form == "pick" and wording.member


@pytest.mark.parametrize(
    ("question", "form"),
    [
        ('Let S be the articles that link to "Moon". Compute |S|.', "number"),
        ('What is the cardinality of the articles "Moon" links to?', "number"),
        ('Find the argmax over the articles "Moon" links to of the number of in-neighbours.', "pick"),
        ('Which | articles link to "Moon"?', "which"),  # a lone bar is no set's size
    ],
)
def test_a_sets_size_between_bars_counts_and_an_argmax_picks(question: str, form: str | None) -> None:
    assert CounselorAction(_moon_pages(), question).wording.form == form


def test_set_symbols_and_unequal_read_as_the_words_do() -> None:
    """"A ∪ B" is the union, "A ∩ B" the overlap; "a label unequal to X's" is unlike X."""
    assert set_way("Let A be the papers X cites and B be the papers Y cites. Compute |A ∪ B|.") == "union"
    assert set_way("Let A be the papers X cites and B be the papers Y cites. Compute |A ∩ B|.") == "intersect"
    question = 'How many papers citing "Graph Counselor" have a label unequal to that of "Graph Counselor"?'
    assert CounselorAction(_labelled_papers(), question).wording.unlike


def test_the_most_common_value_is_of_a_feature_with_few_values() -> None:
    """Mode counts a value over a list: of a feature with few values (a label), never one every node has its own of
    (a title, an abstract), where the graph has both."""
    from tests.tools.conftest import TITLES

    store = _labelled_papers()
    for nid in TITLES:
        store.add_node(nid, "paper", {**store.features(nid), "abstract": f"The abstract of paper {nid}."})
    language = CounselorAction(store, 'Among the papers "Graph Counselor" cites, which research area is the most common?')
    assert language.complete("Mode[Feature[Neighbour[Retrieve[Graph Counselor], cites], label]]")
    for key in ("abstract", "title"):
        assert not language.complete(f"Mode[Feature[Neighbour[Retrieve[Graph Counselor], cites], {key}]]")
    assert language.complete("Feature[Retrieve[Graph Counselor], abstract]")  # elsewhere any feature may be read


def test_a_named_nodes_own_value_is_never_the_name_the_question_writes() -> None:
    """"Which research area is X filed under?", answered by a lookup of X (the planner's ``Feature[_]``): X's label,
    never its title (the name the question already writes) nor its abstract; a feature written is the one read."""
    store = _labelled_papers()
    lookup = parse_skeleton("Feature[_]")
    area = CounselorAction(store, 'Which research area is "Graph Counselor" filed under?', skeleton=lookup)
    assert area.complete("Feature[Retrieve[Graph Counselor], label]")
    for key in ("title", "abstract"):
        assert not area.complete(f"Feature[Retrieve[Graph Counselor], {key}]"), key
    year = CounselorAction(store, 'In which year did "Graph Counselor" appear?', skeleton=lookup)
    assert year.complete("Feature[Retrieve[Graph Counselor], year]")
    assert not year.complete("Feature[Retrieve[Graph Counselor], title]")
    title = CounselorAction(store, 'What is the full title of "Graph Counselor"?', skeleton=lookup)
    assert title.complete("Feature[Retrieve[Graph Counselor], title]")  # written: the one asked


def test_the_highest_tally_or_multiplicity_is_a_node_the_members_reach() -> None:
    """"tally their X; which ... attains the maximum tally", "which ... has the highest multiplicity": how often the
    members reach a node, so the node most of them link to (``MostLinked``), never a member picked by degree."""
    store = _moon_pages()
    for question in (
        'Over all elements of the out-neighbours of "Sun" in the link graph, tally their out-neighbours; which article '
        "attains the maximum tally?",
        'Let S be the out-neighbours of "Sun" in the link graph. Across the out-neighbours of the elements of S, which '
        "article has the highest multiplicity?",
    ):
        wording = CounselorAction(store, question).wording
        assert wording.votes and wording.form == "pick", question
        most_linked, by_degree = parse_skeleton("Feature[MostLinked[Neighbour[_]]]"), parse_skeleton("Feature[MaxDegree[Neighbour[_]]]")
        assert chosen_skeleton([(by_degree, 0.7), (most_linked, 0.3)], wording, 0.0) == most_linked, question


def test_an_answer_format_yes_or_no_and_a_quoted_title_turn_no_yes_no_round() -> None:
    """"Answer yes or no.", "Output yes/no." and a title with "No" in it say nothing against the question: the answer
    is still the one the observation gives; "not among" still may turn it round."""
    shape = parse_skeleton("Contains[Neighbour[_], _]")
    seen = ["Whether the list holds a1 is: no."]
    for question in (
        'Task: verify that "Nina Simone" appears in the artists "user 1" listened to. Output yes/no.',
        'Check whether "Nina Simone" is among the artists "user 1" listened to. Answer yes or no.',
        'Is "No Direction Home" among the artists "user 1" listened to?',
    ):
        asked = CounselorAction(_music_graph(), question, seen, skeleton=shape)
        assert asked.yes_no == "no" and asked.complete("Finish[no]") and not asked.complete("Finish[yes]"), question
    negated = CounselorAction(_music_graph(), 'Is "Nina Simone" not among the artists "user 1" listened to? Answer yes or no.',
                              seen, skeleton=shape)  # fmt: skip
    assert negated.yes_no is None


@pytest.mark.parametrize(
    ("question", "way"),
    [
        ('Task: among the articles "Moon" links to, select the one ranking last by incoming links.', "fewest"),
        ('Task: among the articles "Moon" links to, select the one ranking top by incoming links.', "most"),
        ('Rank the articles "Moon" links to by incoming links: which comes first?', "most"),
        ('Rank the articles "Sun" links to by incoming links: who comes out number one?', "most"),
        ('Which of the articles "Sun" links to is the weakest performer on incoming links?', "fewest"),
        ('Which of the articles "Sun" links to is the strongest on incoming links?', "most"),
    ],
)
def test_ranking_last_number_one_and_the_weakest_performer_pick_a_member_one_way(question: str, way: str) -> None:
    wording = CounselorAction(_moon_pages(), question).wording
    assert wording.extreme == way and wording.form == "pick" and wording.member


def test_the_item_from_a_list_with_the_lowest_count_is_a_member_picked() -> None:
    wording = CounselorAction(_moon_pages(), 'Return the item from the articles "Moon" links to with the lowest count of links.').wording
    assert wording.extreme == "fewest" and wording.form == "pick" and wording.member


def test_the_fewest_never_picks_the_node_the_members_reach_most() -> None:
    """``MostLinked`` counts how often the members reach a node: a question that words the fewest never asks it."""
    wording = CounselorAction(_moon_pages(), 'Among the articles "Sun" links to, select the one ranking last by outgoing links.').wording
    most_linked, fewest = parse_skeleton("Feature[MostLinked[Neighbour[_]]]"), parse_skeleton("Feature[MinDegree[Neighbour[_]]]")
    assert chosen_skeleton([(most_linked, 0.8), (fewest, 0.2)], wording, 0.0) == fewest


def test_a_node_type_that_occurs_most_often_is_the_node_the_members_reach() -> None:
    """"return the user that occurs most often", "which tag is the most common": a node type, so the node the members
    reach most often (``MostLinked``); a feature's most common value is still a Mode."""
    most_linked, mode = parse_skeleton("Feature[MostLinked[Neighbour[_]]]"), parse_skeleton("Mode[Feature[Neighbour[_]]]")
    for question in (
        'For each of the artists tagged "jazz", collect their listeners; return the user that occurs most often.',
        'Across the artists "user 2" listened to, which tag is the most common?',
    ):
        wording = CounselorAction(_music_graph(), question).wording
        assert wording.votes and wording.form == "pick" and wording.extreme == "most", question
        assert chosen_skeleton([(mode, 0.7), (most_linked, 0.3)], wording, 0.0) == most_linked, question
    genre = CounselorAction(_tag_graph(), 'Among the artists "user 1" listened to, which genre is the most common?').wording
    assert not genre.votes


def test_the_one_type_of_a_graph_occurring_most_among_a_list_is_the_node_the_members_reach() -> None:
    """"the article that appears most among the links out of ...": with one node type its name words it too, and
    "appears most among" (with no "often") is how often it occurs."""
    most_linked, listed = parse_skeleton("Feature[MostLinked[Neighbour[_]]]"), parse_skeleton("Feature[Neighbour[_]]")
    question = 'What I need is the article that appears most among the links out of the articles linked from "Sun".'
    wording = CounselorAction(_moon_pages(), question).wording
    assert wording.votes and wording.form == "pick" and wording.extreme == "most"
    assert chosen_skeleton([(listed, 0.6), (most_linked, 0.4)], wording, 0.0) == most_linked


@pytest.mark.parametrize(
    ("question", "form"),
    [
        ('I\'d like to know what the articles "Sun" links to are.', "list"),
        ('I\'d like to know what "Sun"\'s links are.', "list"),
        ('I\'d like to know what the title of "Sun" is.', None),
    ],
)
def test_what_a_list_is_asked_indirectly_asks_for_the_list(question: str, form: str | None) -> None:
    """"I'd like to know what the listeners of X are": the list, named; "what ... is" asks for one value."""
    assert CounselorAction(_moon_pages(), question).wording.form == form


def test_link_targets_run_out_of_a_node_and_sources_into_it() -> None:
    """"the link targets of X" are what X links to; "the link sources of X" what link to it."""
    _degree_link_ways(_moon_pages(), (
        ('Task: count the link targets of "Moon". Output an integer.', "links_to", "linked_from"),
        ('How many link sources does "Moon" have?', "linked_from", "links_to"),
    ))  # fmt: skip


def test_a_link_in_either_direction_is_one_list_not_a_union() -> None:
    """"adjacent to X by a citation edge in either direction" walks one link both ways: no second list is joined."""
    assert set_way('Let S be the papers adjacent to "X" by a citation edge in either direction. Compute |S|.') is None
    assert set_way('How many papers are linked to "X" both ways?') is None
    assert set_way('How many papers cite either "X" or "Y"?') == "union"


@pytest.mark.parametrize(
    ("question", "allowed", "refused"),
    [
        ('What\'s the headcount of the artists "user 2" streams?', "listened", "friend"),
        ('How many users are in "user 1"\'s network?', "friend", "listened"),
        ('Run a count on "user 1"\'s connections.', "friend", "listened"),
        ('How many are the artists on "user 2"\'s playlists?', "listened", "friend"),
        ('How many pals does "user 1" have?', "friend", "listened"),
    ],
)
def test_streams_playlists_pals_and_a_users_network_or_connections_name_their_links(question: str, allowed: str, refused: str) -> None:
    name = re.search(r'"([^"]+)"', question).group(1)
    language = CounselorAction(_music_graph(), question)
    assert language.complete(f"Degree[Retrieve[{name}], {allowed}]"), question
    assert not language.complete(f"Degree[Retrieve[{name}], {refused}]"), question


def test_an_audience_and_filed_under_name_listeners_and_tags() -> None:
    audience = CounselorAction(_music_graph(), 'What\'s the headcount of "Nina Simone"\'s audience?')
    assert audience.complete("Degree[Retrieve[Nina Simone], listened_by]")
    assert not audience.complete("Degree[Retrieve[Nina Simone], tagged]")
    filed = CounselorAction(_music_graph(), 'Run a count on the artists filed under "jazz".')
    assert filed.complete("Degree[Retrieve[jazz], tag_of]")


def test_sending_traffic_to_a_page_is_linking_to_it() -> None:
    """"the articles X sends traffic to" are what X links to, "the articles referring traffic to X" what link to it;
    "sends traffic to by referring pages": "by" names the measure there, not the link's source."""
    _degree_link_ways(_moon_pages(), (
        ('What\'s the headcount of the articles "Moon" sends traffic to?', "links_to", "linked_from"),
        ('What\'s the headcount of the articles referring traffic to "Moon"?', "linked_from", "links_to"),
    ))  # fmt: skip
    question = 'Rank the articles "Sun" sends traffic to by referring pages: who sits at the bottom?'
    wording = CounselorAction(_moon_pages(), question).wording
    assert [wording.direction(["links_to", "linked_from"], "Sun", hop, 2) for hop in (0, 1)] == [["links_to"], ["linked_from"]]
    assert wording.extreme == "fewest" and wording.form == "pick" and wording.member


def test_the_biggest_bucket_of_a_breakdown_is_the_most_common_value() -> None:
    wording = CounselorAction(_labelled_papers(), 'Break the papers "Graph Counselor" cites down by label: which bucket is the biggest?').wording
    assert wording.extreme is None
    shapes = [(parse_skeleton("Feature[MaxDegree[Neighbour[_]]]"), 0.6), (parse_skeleton("Mode[Feature[Neighbour[_]]]"), 0.4)]
    assert chosen_skeleton(shapes, wording, 0.0).render() == "Mode[Feature[Neighbour[_]]]"


def test_words_standing_for_relations_order_a_chains_hops_as_written_ones_do() -> None:
    """"the artists streamed by any of X's connections": "connections" (``friend``) stands nearest X, so it is the first
    hop, and "streamed" (``listened``) the second, as "friends" and "listened to" would be."""
    question = 'Dedupe the artists streamed by any of "user 1"\'s connections and give me the total.'
    wording = CounselorAction(_music_graph(), question).wording
    assert {name for *_, name in wording.spelled_at} >= {"friend", "listened"}
    assert [wording.spelled_hop(["friend", "listened"], "user 1", hop, 2, False) for hop in (0, 1)] == [["friend"], ["listened"]]
    language = CounselorAction(_music_graph(), question, skeleton=parse_skeleton("Count[Neighbour[Neighbour[_]]]"))
    assert language.complete("Count[Neighbour[Neighbour[Retrieve[user 1], friend], listened]]")
    assert not language.complete("Count[Neighbour[Neighbour[Retrieve[user 1], friend], friend]]")


def test_sending_readers_to_a_page_links_to_it_and_the_sent_word_names_the_link() -> None:
    """"the articles X sends readers to" are what X links to; in "sends traffic to" the word for what is sent is the
    mention, so "the articles any of the articles referring traffic to X sends traffic to" walk into X first."""
    _degree_link_ways(_moon_pages(), (
        ('How many articles does "Moon" send readers to?', "links_to", "linked_from"),
        ('How many articles send readers to "Moon"?', "linked_from", "links_to"),
    ))  # fmt: skip
    question = 'Dedupe the articles any of the articles referring traffic to "Moon" sends traffic to and give me the total.'
    wording = CounselorAction(_moon_pages(), question).wording
    assert [wording.direction(["links_to", "linked_from"], "Moon", hop, 2) for hop in (0, 1)] == [["linked_from"], ["links_to"]]


def test_the_most_typical_node_and_the_tag_that_wins_a_tally_are_reached_most() -> None:
    """"Which user is most typical of ...", "tally the labels of ...; which tag wins?": a node type asked, so the node
    the members reach most often (``MostLinked``), not a feature's most common value."""
    most_linked, mode = parse_skeleton("Feature[MostLinked[Neighbour[_]]]"), parse_skeleton("Mode[Feature[Neighbour[_]]]")
    listing = parse_skeleton("Feature[Neighbour[_]]")
    for question in (
        'Which user is most typical of the listeners of the artists that carry the tag "jazz"?',
        'If you tally the labels of the artists "user 2" is a fan of, which tag wins?',
    ):
        wording = CounselorAction(_music_graph(), question).wording
        assert wording.form == "pick" and wording.extreme == "most", question
        assert chosen_skeleton([(mode, 0.5), (listing, 0.3), (most_linked, 0.2)], wording, 0.0) == most_linked, question


@pytest.mark.parametrize(
    ("question", "mentions"),
    [
        ('Let S be the articles adjacent to "Moon" by a link edge in either direction. Compute |S|.', 1),
        ('I need the size of the articles "Moon" has as linked.', 1),
        ('How many articles does "Moon" send traffic to?', 1),  # "send traffic": one link
        ('Number of the articles that the articles that link to "Moon" link to?', 2),  # a name between: two
        ('How many articles link to the articles "Moon" links to?', 2),
    ],
)
def test_a_question_mentions_each_link_once_however_many_words_name_it(question: str, mentions: int) -> None:
    assert CounselorAction(_moon_pages(), question).wording.link_mentions == mentions


def test_one_link_mentioned_is_one_hop_unless_reached_from_a_list_or_counted_once() -> None:
    """A count whose question mentions one link and reaches nothing "from any of" a list is one node's degree, never a
    count two hops away; "distinct" or "any of" still allow two hops."""
    two_hops, degree = parse_skeleton("Count[Neighbour[Neighbour[_]]]"), parse_skeleton("Degree[_]")
    one = CounselorAction(_moon_pages(), 'I need the size of the articles "Moon" has as linked.').wording
    assert chosen_skeleton([(two_hops, 0.7), (degree, 0.3)], one, 0.0) == degree
    for question in ('How many distinct articles are linked to "Moon"?', 'How many articles are linked from any of the articles "Moon" links to?'):
        wording = CounselorAction(_moon_pages(), question).wording
        assert chosen_skeleton([(two_hops, 0.7), (degree, 0.3)], wording, 0.0) == two_hops, question


def test_one_verb_written_twice_mentions_two_links() -> None:
    assert CounselorAction(_moon_pages(), 'How many articles do the articles "Moon" links to link to?').wording.link_mentions == 2


def test_leaving_out_the_ones_that_share_a_value_counts_the_others() -> None:
    question = 'Leaving out the ones that share "Graph Counselor"\'s label, how many of the papers "Graph Counselor" cites remain?'
    wording = CounselorAction(_labelled_papers(), question).wording
    assert wording.unlike
    same, differing = parse_skeleton("Same[_]"), parse_skeleton("Differing[_]")
    assert chosen_skeleton([(same, 0.7), (differing, 0.3)], wording, 0.0) == differing


def test_mentioning_a_page_with_a_link_is_linking_to_it() -> None:
    """"the articles that mention X with a link" link to X, "the articles X mentions with a link" are what X links to:
    "with a link" says how the verb is done; "the articles with a link to X" still name the link by it."""
    _degree_link_ways(_moon_pages(), (
        ('How many articles mention "Moon" with a link?', "linked_from", "links_to"),
        ('How many articles does "Moon" mention with a link?', "links_to", "linked_from"),
        ('How many articles are there with a link to "Moon"?', "linked_from", "links_to"),
    ))  # fmt: skip


def test_a_superlative_with_no_feature_picks_a_member_and_the_usual_value_is_a_mode() -> None:
    """"Most citations among the papers that cite X?" writes no feature and no "most common": a member picked by its
    links, never a feature's most common value; "the usual label" counts a value over the list, never lists it."""
    store = _labelled_papers()
    pick, mode, listing = (parse_skeleton(text) for text in ("Feature[MaxDegree[Neighbour[_]]]", "Mode[Feature[Neighbour[_]]]",
                                                             "Feature[Neighbour[_]]"))  # fmt: skip
    most = CounselorAction(store, 'Most citations among the papers that cite "Graph Counselor"?').wording
    assert chosen_skeleton([(mode, 0.6), (pick, 0.4)], most, 0.0) == pick
    for question in ('The papers "Graph Counselor" cites: usual label?', 'What is the usual label of the papers "Graph Counselor" cites?'):
        usual = CounselorAction(store, question).wording
        assert chosen_skeleton([(listing, 0.6), (mode, 0.4)], usual, 0.0) == mode, question


def test_a_relation_written_before_a_name_and_one_written_in_the_other_voice_each_take_their_hop() -> None:
    """"Of the artists tagged "jazz", which one has got the most listeners?": "tagged" (just before the name) is the
    first hop and "listeners" (``listened`` written, ``listened_by`` walked from an artist) the count's."""
    shape = parse_skeleton("Feature[MaxDegree[Neighbour[_]]]")
    language = CounselorAction(_music_graph(), 'Of the artists tagged "jazz", which one has got the most listeners?', skeleton=shape)
    assert language.complete("Feature[MaxDegree[Neighbour[Retrieve[jazz], tag_of], listened_by], name]")
    assert not language.complete("Feature[MaxDegree[Neighbour[Retrieve[jazz], tag_of], tagged], name]")


def test_a_question_typed_in_chat_shorthand_is_read_spelled_out() -> None:
    """"r", "w/o", "# of", "y/n": the grammar reads the question as it would the words written out, and keeps the
    quoted names as typed."""
    store = _labelled_papers()
    wording = CounselorAction(store, 'Quick q: # of the papers "ReAct" cites w/o "ReAct"\'s label?').wording
    assert wording.question == 'Quick question: number of the papers "ReAct" cites without "ReAct"\'s label?'
    assert wording.unlike and wording.form == "number"
    asked = CounselorAction(store, 'R any of the papers "ReAct" cites labelled Theory? y/n')
    assert asked.wording.form == "yes/no" and asked.wording.names == ("ReAct",)


def test_without_the_subjects_value_is_unlike_it() -> None:
    """"the papers X cites without X's label", "without the same label": a value unlike the subject's."""
    store = _labelled_papers()
    for question in (
        'How many of the papers "ReAct" cites come without "ReAct"\'s label?',
        'How many of the papers "ReAct" cites are without the same label?',
    ):
        assert CounselorAction(store, question).wording.unlike, question
    assert not CounselorAction(store, 'How many papers does "ReAct" cite, without duplicates?').wording.unlike


def test_getting_to_a_page_from_another_walks_a_link_out_of_it() -> None:
    """"the articles you get to from X" are what X links to; "the articles you can get to X from" link to X; so are
    the articles you can reach X from."""
    _degree_link_ways(_moon_pages(), (
        ('How many articles can you get to from "Moon"?', "links_to", "linked_from"),
        ('How many articles u get to from "Moon"?', "links_to", "linked_from"),
        ('How many articles can you get to "Moon" from?', "linked_from", "links_to"),
        ('How many articles can you reach "Moon" from?', "linked_from", "links_to"),
        ('How many articles can you reach from "Moon"?', "links_to", "linked_from"),
    ))  # fmt: skip
    assert CounselorAction(_moon_pages(), 'Do you get the number of articles "Moon" links to?').wording.link_mentions == 1
    both = ["links_to", "linked_from"]
    for question, first in (('Which of the articles you get to from "Moon" has the most backlinks?', "links_to"),
                            ('Which of the articles you can get to "Moon" from has the most backlinks?', "linked_from")):
        wording = CounselorAction(_moon_pages(), question).wording  # "get to" is a mention: two hops, two mentions
        assert [wording.direction(both, "Moon", hop, 2) for hop in (0, 1)] == [[first], ["linked_from"]], question


@pytest.mark.parametrize(
    ("question", "ways"),
    [
        ('Count the articles any of the articles linking to "Moon" link out to', ["linked_from", "links_to"]),
        ('How many articles do the articles linked from "Moon" link to?', ["links_to", "links_to"]),
        ('Count the articles any of the articles you get to from "Moon" link to, each once', ["links_to", "links_to"]),
    ],
)
def test_a_link_word_that_takes_the_name_as_its_object_is_the_first_hop(question: str, ways: list[str]) -> None:
    """"linking to X", "linked from X", "you get to from X": X is that link's object, so it is the chain's first hop
    though a verb written after X ("link out to") stands nearer."""
    wording = CounselorAction(_moon_pages(), question).wording
    assert [wording.direction(["links_to", "linked_from"], "Moon", hop, 2) for hop in (0, 1)] == [[way] for way in ways]


def test_the_artists_a_user_has_on_repeat_are_the_ones_listened_to() -> None:
    language = CounselorAction(
        _music_graph(), 'Is "Miles Davis" one of the artists "user 2" has on repeat?',
        skeleton=parse_skeleton("Contains[Neighbour[_], _]"),
    )  # fmt: skip
    assert language.complete("Contains[Neighbour[Retrieve[user 2], listened], Retrieve[Miles Davis]]")
    assert not language.complete("Contains[Neighbour[Retrieve[user 2], friend], Retrieve[Miles Davis]]")


@pytest.mark.parametrize("verb", ["lead", "go"])
def test_pages_one_click_away_that_lead_to_the_members_link_into_them(verb: str) -> None:
    """"which has the most pages one click away that lead to them": the pages linking into each member."""
    question = f'Of the articles "Moon" mentions with a link, which has the most pages one click away that {verb} to them?'
    wording = CounselorAction(_moon_pages(), question).wording
    assert [wording.direction(["links_to", "linked_from"], "Moon", hop, 2) for hop in (0, 1)] == [
        ["links_to"], ["linked_from"]]  # fmt: skip


@pytest.mark.parametrize(
    ("query", "form"),
    [
        ('"user 2" friends list with fewest friends', "pick"),
        ('the papers citing "ReAct" ranked by incoming citations, lowest', "pick"),
        ('Top of the papers "ReAct" cites by citations', "pick"),
        ('number of the papers "ReAct" cites with the most citations', "number"),  # a count still asked
        ('list of the papers "ReAct" cites', "list"),
    ],
)
def test_a_search_query_picks_with_a_superlative_and_no_question_word(query: str, form: str) -> None:
    """A query typed into a search box asks for one node without "which": "with fewest friends", "top of ... by",
    "ranked by ..., lowest"; each picks one of the list's own members."""
    wording = CounselorAction(_music_graph() if "user" in query else _labelled_papers(), query).wording
    assert wording.form == form
    assert wording.member or form != "pick"  # one of the list's own members, not a node they link to


@pytest.mark.parametrize(
    "query", ['Top tag among tags of the artists played by "user 2"', 'Tags of the artists played by "user 2": most frequent tag']
)
def test_the_top_or_most_frequent_node_type_among_a_lists_links_is_the_one_reached_most(query: str) -> None:
    wording = CounselorAction(_music_graph(), query).wording
    assert wording.asked_type == "tag" and wording.votes and wording.form == "pick" and wording.extreme == "most"


def test_a_breakdowns_top_value_is_the_most_common_value() -> None:
    wording = CounselorAction(_labelled_papers(), '"Graph Counselor" references label breakdown top value').wording
    assert wording.mode_worded
    assert not CounselorAction(_labelled_papers(), 'Top of the papers "ReAct" cites by citations').wording.mode_worded


def _items_graph() -> GraphStore:
    """Items liked by users and carrying tags, under relation names of a schema of its own (``has_tag``, ``tag_on``,
    ``likes``, ``liked_by``)."""
    store = GraphStore("items", directed=True, text_keys={"item": "name", "user": "name", "tag": "name"})
    for node, kind, name in (("i1", "item", "Lamp"), ("i2", "item", "Desk"), ("u1", "user", "user 1"),
                             ("t1", "tag", "wood")):  # fmt: skip
        store.add_node(node, kind, {"name": name})
    for item in ("i1", "i2"):
        store.add_edge("u1", item, "likes", reverse_relation="liked_by")
        store.add_edge(item, "t1", "has_tag", reverse_relation="tag_on")
    return store


@pytest.mark.parametrize(
    "question",
    [
        'How many different tags appear on the items that "user 1" likes?',
        'Count the tags on the items "user 1" likes.',
        'What is the number of distinct tags across the items "user 1" likes?',
    ],
)
def test_a_count_of_a_type_two_hops_away_takes_both_hops(question: str) -> None:
    """Tags lie two hops from a user (user -> item -> tag): "how many (different) tags ... the items X likes" counts
    the list reached from X's items, never X's own links (``Degree``: items and users only), and "different" there
    is "each once", not "unlike X"."""
    store = _items_graph()
    wording = CounselorAction(store, question).wording
    assert wording.counted_type == "tag" and not wording.unlike
    one, two, differing = (parse_skeleton(text) for text in ("Degree[_]", "Count[Neighbour[Neighbour[_]]]", "Differing[_]"))
    assert chosen_skeleton([(one, 0.6), (differing, 0.2), (two, 0.1)], wording, 0.3) == two
    own = CounselorAction(store, 'How many users like "Lamp"?').wording  # a type one hop away: one hop is enough
    assert own.counted_type == "user"
    assert chosen_skeleton([(one, 0.6), (two, 0.1)], own, 0.3) == one
    # the links of a picked member are counted from that member: "how many users like the one of the items X likes
    # with the fewest fans" counts users from an item, two hops from X, with no two-hop list
    picked = CounselorAction(store, 'How many users like the one of the items "user 1" likes with the fewest fans?').wording
    assert picked.counted_type == "user"
    degree_of_pick = parse_skeleton("Degree[MinDegree[Neighbour[_]]]")
    assert chosen_skeleton([(degree_of_pick, 0.6), (one, 0.3)], picked, 0.3) == degree_of_pick


@pytest.mark.parametrize(
    ("question", "right", "wrong"),
    [
        ('Of the items "user 1" likes, which has the most tags?', "has_tag", "liked_by"),
        ('Which of the items tagged "wood" has the most fans?', "liked_by", "has_tag"),
    ],
)
def test_a_relation_named_with_a_leading_has_and_fans_of_a_liked_item(question: str, right: str, wrong: str) -> None:
    """``has_tag`` is written by "tags" alone (its leading "has" says nothing of the link); an item's "fans" are the
    users who like it."""
    store = _items_graph()
    first = "Retrieve[user 1], likes" if "user 1" in question else "Retrieve[wood], tag_on"
    language = CounselorAction(store, question, skeleton=parse_skeleton("Feature[MaxDegree[Neighbour[_]]]"))
    assert language.complete(f"Feature[MaxDegree[Neighbour[{first}], {right}], name]")
    assert not language.complete(f"Feature[MaxDegree[Neighbour[{first}], {wrong}], name]")


def test_a_search_query_for_the_one_with_most_is_about_the_lists_own_members() -> None:
    wording = CounselorAction(_items_graph(), 'The items tagged "wood" with most fans').wording
    assert wording.form == "pick" and wording.member


def test_a_relation_written_inside_another_ones_words_takes_the_hop_the_other_cannot() -> None:
    """"the tags on any of the items X likes": "tags on" writes ``tag_on``, which an item does not have, and inside it
    "tags" writes ``has_tag``, which it does: the second hop takes ``has_tag``."""
    language = CounselorAction(
        _items_graph(), 'Count the tags on any of the items "user 1" likes, each once.',
        skeleton=parse_skeleton("Count[Neighbour[Neighbour[_]]]"),
    )  # fmt: skip
    assert language.wording.nested_at and language.complete("Count[Neighbour[Neighbour[Retrieve[user 1], likes], has_tag]]")
    assert not language.complete("Count[Neighbour[Neighbour[Retrieve[user 1], likes], liked_by]]")


def test_a_link_written_twice_in_a_row_is_one_mention() -> None:
    """"the artists labelled with the tag X": "labelled" and "tag" both write the tag link, once; so the other link
    ("listened to") is the chain's second hop."""
    skeleton = parse_skeleton("Count[Neighbour[Neighbour[_]]]")
    for question in ('How many users have listened to any of the artists labelled with the tag "jazz"?',
                     'How many users have listened to any of the artists with the tag "jazz"?'):  # fmt: skip
        language = CounselorAction(_music_graph(), question, skeleton=skeleton)
        assert language.complete("Count[Neighbour[Neighbour[Retrieve[jazz], tag_of], listened_by]]"), question
        assert not language.complete("Count[Neighbour[Neighbour[Retrieve[jazz], tag_of], tagged]]"), question
    # two papers' links are two mentions, whatever stands between them
    wording = CounselorAction(_moon_pages(), 'Count the articles linking to articles linking to "Moon"').wording
    assert [wording.direction(["links_to", "linked_from"], "Moon", hop, 2) for hop in (0, 1)] == [
        ["linked_from"], ["linked_from"]]  # fmt: skip


def test_send_me_addresses_the_asker_and_names_no_link() -> None:
    """"Could you send me the list of the articles linked from X?": "send" here is a request, not a link ("X sends
    readers to" is one), so "linked from X" alone sets the way: what X links to."""
    _degree_link_ways(_moon_pages(), (
        ('Hello, could you send me the number of articles linked from the page "Moon"? Thanks.', "links_to", "linked_from"),
        ('How many articles does "Moon" send readers to?', "links_to", "linked_from"),
    ))  # fmt: skip


@pytest.mark.parametrize(
    ("question", "form"),
    [
        ('Dear team, could you check whether "user 2" is among the users in "user 1"\'s friend list? Best.', "yes/no"),
        ('Can you tell me whether "user 2" is in the friend list of "user 1"?', "yes/no"),
        ('I wonder if "user 2" is one of the friends of "user 1".', "yes/no"),
        ('Could you send me the friend list of "user 1"?', "list"),  # a request for a list: no "whether"
    ],
)
def test_asking_to_find_out_whether_something_holds_is_a_yes_no_question(question: str, form: str) -> None:
    wording = CounselorAction(_music_graph(), question).wording
    assert wording.form == form
    assert consistent(parse_skeleton("Contains[Neighbour[_], _]"), wording) == (form == "yes/no")


@pytest.mark.parametrize(
    ("question", "shape"),
    [
        ('Which of the papers "Graph Counselor" cites have the label Agents?', "Feature[Matching[Neighbour[_]]]"),
        ('List the papers "Graph Counselor" cites whose label is Agents.', "Feature[Matching[Neighbour[_]]]"),
        ('How many of the papers "Graph Counselor" cites have the label Agents?', "Count[Matching[Neighbour[_]]]"),
        ('Do any of the papers "Graph Counselor" cites have the label Agents?', "Exists[Matching[Neighbour[_]]]"),
        ('What are the papers "Graph Counselor" cites whose label is Agents?', "Feature[Matching[Neighbour[_]]]"),
        ('Identify those of the papers "Graph Counselor" cites whose label is Agents.', "Feature[Matching[Neighbour[_]]]"),
        ('Filter the papers "Graph Counselor" cites down to label = Agents and name what remains.',
         "Feature[Matching[Neighbour[_]]]"),
        ('The papers "Graph Counselor" cites with label Agents', "Feature[Matching[Neighbour[_]]]"),  # nothing else asked
        ('Any of the papers "Graph Counselor" cites with label Agents?', "Exists[Matching[Neighbour[_]]]"),
        ('Is there one among the papers "Graph Counselor" cites with label Agents?', "Exists[Matching[Neighbour[_]]]"),
    ],
)
def test_a_filtered_lists_names_are_asked_where_the_words_ask_for_names(question: str, shape: str) -> None:
    """The planner tells the operation (a filter by a value), the question's words what of its result is asked: its
    size, whether it holds anything, or its members' names; where they ask none of these, nor whether any exists,
    its names."""
    for first, second in (("Count", "Exists"), ("Exists", "Count")):  # whichever the planner ranks first
        ranked = [(parse_skeleton(f"{first}[Matching[Neighbour[_]]]"), 0.6), (parse_skeleton(f"{second}[Matching[Neighbour[_]]]"), 0.4)]
        found = chosen_skeleton(ranked, CounselorAction(_labelled_papers(), question).wording, 0.3)
        assert found is not None and found.render() == shape, (question, first)


def test_a_filtered_list_is_named_by_its_members_names_and_answered_whole() -> None:
    """The feature a filter keeps nodes by is the filter's: the names of what it kept are read, and the answer is
    the whole list."""
    question = 'Which of the papers "Graph Counselor" cites have the label Agents?'
    skeleton = parse_skeleton("Feature[Matching[Neighbour[_]]]")
    language = CounselorAction(_labelled_papers(), question, skeleton=skeleton)
    kept = "Matching[Neighbour[Retrieve[Graph Counselor], cites], label, Agents]"
    assert language.complete(f"Feature[{kept}, title]")
    assert not language.complete(f"Feature[{kept}, label]")
    seen = CounselorAction(_labelled_papers(), question, ["The title feature of ['2', '4'] are: ['Graph Agents', 'ReAct']."],
                           skeleton=skeleton)  # fmt: skip
    assert seen.complete("Finish[Graph Agents, ReAct]") and not seen.complete("Finish[Graph Agents]")


def test_a_filter_keeps_nodes_by_a_feature_whose_value_the_question_writes() -> None:
    """"Return the names of the users who rated X that have gender F": the filter reads ``gender`` (the question
    writes its value F), never ``name``, though "names" spells that feature too; the names are then read."""
    store = GraphStore("viewers", directed=True, text_keys={"user": "name", "movie": "title"})
    store.add_node("m1", "movie", {"title": "Heat"})
    for node, gender in (("u1", "F"), ("u2", "M")):
        store.add_node(node, "user", {"name": f"user {node[1]}", "gender": gender})
        store.add_edge(node, "m1", "rated", reverse_relation="rated_by")
    language = CounselorAction(store, 'Return the names of the users who rated "Heat" that have gender set to F.',
                               skeleton=parse_skeleton("Feature[Matching[Neighbour[_]]]"))  # fmt: skip
    assert language.complete("Feature[Matching[Neighbour[Retrieve[Heat], rated_by], gender, F], name]")
    assert not language.complete("Feature[Matching[Neighbour[Retrieve[Heat], rated_by], name, F], gender]")


@pytest.mark.parametrize(
    "question",
    ['Among the papers "Graph Counselor" cites, what\'s the number with label set to Agents?',
     'Of all the papers "Graph Counselor" cites, what number have Agents for label?'],
)
def test_what_number_asks_a_count(question: str) -> None:
    assert CounselorAction(_labelled_papers(), question).wording.form == "number"


def _papers_degree_ways(cases: tuple[tuple[str, str, str], ...]) -> None:
    """Each ``(question, right, wrong)``: the degree of "Graph Counselor" is asked along ``right``, never ``wrong``."""
    _degree_link_ways(_labelled_papers(), cases, name="Graph Counselor")


def test_a_papers_own_list_of_references_is_what_it_cites() -> None:
    """"The bibliography of X", "X's refs", "X has in its refs": what X cites; "whose bibliography lists X", "the
    papers that have X in their refs", "reference lists that send you to X": what cite X."""
    _papers_degree_ways((
        ('How many papers are in the bibliography of "Graph Counselor"?', "cites", "cited_by"),
        ('How many papers does "Graph Counselor" have in its refs?', "cites", "cited_by"),
        ('How many papers does "Graph Counselor" point you to in its reference list?', "cites", "cited_by"),
        ('How many papers have "Graph Counselor" in their refs?', "cited_by", "cites"),
        ('How many papers whose bibliography lists "Graph Counselor" are there?', "cited_by", "cites"),
        ('How many papers whose bibliography includes "Graph Counselor" are there?', "cited_by", "cites"),
        ('How many papers have reference lists that send you to "Graph Counselor"?', "cited_by", "cites"),
    ))  # fmt: skip


def test_drawing_or_building_on_a_paper_cites_it() -> None:
    """"X draws on", "the works X builds on": what X cites; "the papers that draw on X": what cite X; "building" with
    no "on" is no link ("I'm building a reading list")."""
    _papers_degree_ways((
        ('How many papers does "Graph Counselor" draw on?', "cites", "cited_by"),
        ('How many papers draw on "Graph Counselor"?', "cited_by", "cites"),
        ('How many works does "Graph Counselor" build on?', "cites", "cited_by"),
        ('How many later papers build on "Graph Counselor"?', "cited_by", "cites"),
        ("I'm building a reading list: how many works does \"Graph Counselor\" build on?", "cites", "cited_by"),
    ))  # fmt: skip


def test_cited_in_a_paper_targets_of_its_citations_and_edges_into_it() -> None:
    """"Cited in X", "referenced in X": X's own; "the targets of X's citations": what X cites; "a citation edge into
    X": what cite X; a name's own words ("In Fast ...") are none of these."""
    _papers_degree_ways((
        ('How many papers are cited in "Graph Counselor"?', "cites", "cited_by"),
        ('Number of the papers cited in "Graph Counselor"', "cites", "cited_by"),
        ('Count the targets of "Graph Counselor"\'s citations.', "cites", "cited_by"),
        ('Count the papers with a citation edge into "Graph Counselor".', "cited_by", "cites"),
    ))  # fmt: skip
    store = _labelled_papers()
    store.add_node("7", "paper", {"title": "In Search of Graphs", "label": "Theory"})
    language = CounselorAction(store, 'How many papers referenced "In Search of Graphs"?')
    assert language.complete("Degree[Retrieve[In Search of Graphs], cited_by]")
    assert not language.complete("Degree[Retrieve[In Search of Graphs], cites]")


@pytest.mark.parametrize(
    ("question", "ways"),
    [
        ('How many papers cite any of the papers "Graph Counselor" cites in its bibliography?', ["cites", "cited_by"]),
        ('How many papers have any of the papers "Graph Counselor" cites in their refs?', ["cites", "cited_by"]),
        ('Which one of the papers "Graph Counselor" draws on has the fewest entries in their bibliography?',
         ["cites", "cites"]),
        ('Which of the papers "Graph Counselor" draws on has the most papers drawing on them?', ["cites", "cited_by"]),
        ('Count the papers drawn on by any of the papers that draw on "Graph Counselor"', ["cited_by", "cites"]),
        ('Rank the papers "Graph Counselor" draws on by inbound citations: who comes out on top?', ["cites", "cited_by"]),
    ],
)
def test_two_hops_over_a_papers_own_list(question: str, ways: list[str]) -> None:
    """A cite verb and "in its bibliography" are one link; "in their refs" after what the papers have is another;
    "entries in their bibliography" are the members' own references; "papers drawing on them" cite the members."""
    wording = CounselorAction(_labelled_papers(), question).wording
    assert [wording.direction(["cites", "cited_by"], "Graph Counselor", hop, 2) for hop in (0, 1)] == [[w] for w in ways]


@pytest.mark.parametrize(
    ("question", "shape"),
    [
        ('Which papers do "Graph Counselor" and "Graph Agents" both cite?', "Feature[Intersect[Neighbour[_], Neighbour[_]]]"),
        ('List what the papers "Graph Counselor" cites and the papers "Graph Agents" cites have in common.',
         "Feature[Intersect[Neighbour[_], Neighbour[_]]]"),
        ('How many papers do "Graph Counselor" and "Graph Agents" both cite?', "Count[Intersect[Neighbour[_], Neighbour[_]]]"),
        ('What nodes are among the papers "Graph Counselor" cites and also among the papers "Graph Agents" cites?',
         "Feature[Intersect[Neighbour[_], Neighbour[_]]]"),
        ('Name the common members of the papers "Graph Counselor" cites and the papers "Graph Agents" cites.',
         "Feature[Intersect[Neighbour[_], Neighbour[_]]]"),
        ('Find the nodes that the papers "Graph Counselor" cites and the papers "Graph Agents" cites have in common.',
         "Feature[Intersect[Neighbour[_], Neighbour[_]]]"),
        ('So which ones are in common between the papers "Graph Counselor" cites and the papers "Graph Agents" cites?',
         "Feature[Intersect[Neighbour[_], Neighbour[_]]]"),
        ('In both the papers "Graph Counselor" cites and the papers "Graph Agents" cites?',  # nothing counted
         "Feature[Intersect[Neighbour[_], Neighbour[_]]]"),
        ('Overlap btwn the papers "Graph Counselor" cites and the papers "Graph Agents" cites? just the #',
         "Count[Intersect[Neighbour[_], Neighbour[_]]]"),
        ("What's the overlap between the papers \"Graph Counselor\" cites and the papers \"Graph Agents\" cites, as a headcount?",
         "Count[Intersect[Neighbour[_], Neighbour[_]]]"),
    ],
)
def test_two_lists_overlap_is_named_where_the_words_ask_for_names(question: str, shape: str) -> None:
    """The planner's count of two lists' overlap stands for the overlap named where the words ask for names, or
    ask for nothing but the overlap itself; "just the #" and "headcount" ask a count."""
    ranked = [(parse_skeleton("Count[Intersect[Neighbour[_], Neighbour[_]]]"), 0.7), (parse_skeleton("Degree[_]"), 0.3)]
    found = chosen_skeleton(ranked, CounselorAction(_labelled_papers(), question).wording, 0.3)
    assert found is not None and found.render() == shape
    if shape.startswith("Feature"):
        language = CounselorAction(_labelled_papers(), question, skeleton=found)
        both = "Intersect[Neighbour[Retrieve[Graph Counselor], cites], Neighbour[Retrieve[Graph Agents], cites]]"
        assert language.complete(f"Feature[{both}, title]") and not language.complete(f"Feature[{both}, year]")
        seen = CounselorAction(_labelled_papers(), question, ["The title feature of ['4'] are: ['ReAct']."], skeleton=found)
        assert seen.complete("Finish[ReAct]")


def test_a_relation_named_list_asks_for_no_list() -> None:
    """FB15k-237 has a relation named ``list``: "the list neighbours of X" names it, it asks for no list."""
    store = GraphStore("kg", directed=True, text_keys={"entity": "name"})
    for node, name in (("e1", "Al Gore"), ("e2", "Time 100")):
        store.add_node(node, "entity", {"name": name})
    store.add_edge("e1", "e2", "list", reverse_relation="list_of")
    assert CounselorAction(store, '"Time 100" in the list neighbours of "Al Gore"?').wording.form is None
    assert CounselorAction(store, 'List the list neighbours of "Al Gore".').wording.form == "list"


@pytest.mark.parametrize(
    "question",
    [
        'Can you list every one of the entities "Al Gore" has as contains of?',
        'Pull the full list of the entities linked to "Al Gore" by contains of.',
        'Return the contains of neighbours of "Al Gore" as a list of names.',
    ],
)
def test_the_words_asking_for_a_list_name_no_relation_where_another_is_written(question: str) -> None:
    """"List", "the full list of", "as a list" ask for a list; FB15k-237's relations ``list`` and ``list_of`` are not
    named by them where the question writes another relation. Its control: "the list neighbours of X" names ``list``."""
    store = GraphStore("kg", directed=True, text_keys={"entity": "name"})
    for node, name in (("e1", "Al Gore"), ("e2", "Time 100"), ("e3", "Nairobi")):
        store.add_node(node, "entity", {"name": name})
    store.add_edge("e1", "e2", "list", reverse_relation="list_of")
    store.add_edge("e1", "e3", "contains_of", reverse_relation="contains")
    language = CounselorAction(store, question, skeleton=parse_skeleton("Feature[Neighbour[_]]"))
    assert language.complete("Feature[Neighbour[Retrieve[Al Gore], contains_of], name]")
    for other in ("list", "list_of"):
        assert not language.complete(f"Feature[Neighbour[Retrieve[Al Gore], {other}], name]")
    control = CounselorAction(store, 'Name the list neighbours of "Al Gore".', skeleton=parse_skeleton("Feature[Neighbour[_]]"))
    assert control.complete("Feature[Neighbour[Retrieve[Al Gore], list], name]")


@pytest.mark.parametrize(
    ("question", "pick", "relation"),
    [
        ('Which has more citations, "ReAct" or "Reflexion"?', "MaxDegree", "cited_by"),
        ('Which is cited more often, "ReAct" or "Reflexion"?', "MaxDegree", "cited_by"),
        ('Which do more papers cite: "ReAct" or "Reflexion"?', "MaxDegree", "cited_by"),
        ('Between "ReAct" and "Reflexion", which one cites fewer papers?', "MinDegree", "cites"),
        ('"ReAct" vs "Reflexion": more references?', "MaxDegree", "cites"),
        # joined by more than one word; the link written once for each; a paper's own list
        ('Look at "ReAct" and at "Reflexion" in turn: which one has more citations?', "MaxDegree", "cited_by"),
        ('Let a = "ReAct" and b = "Reflexion". Which of a and b has fewer references?', "MinDegree", "cites"),
        ('Count the references of "ReAct", then those of "Reflexion". Which of the two has more references?', "MaxDegree",
         "cites"),
        ('Who ends up with more entries in their bibliography, "ReAct" or "Reflexion"?', "MaxDegree", "cites"),
        ('Which has more refs, "ReAct" or "Reflexion"', "MaxDegree", "cites"),
        ('Between "ReAct" and "Reflexion", which has more incoming references?', "MaxDegree", "cited_by"),
        ('Which has fewer cited or citing papers: "ReAct" or "Reflexion"?', "MinDegree", "cited_by|cites"),
        ("Of the two nodes ReAct. and Reflexion, identify the one with more citations.", "MaxDegree", "cited_by"),
    ],
)
def test_two_named_nodes_set_side_by_side_pick_one_by_the_link_worded(question: str, pick: str, relation: str) -> None:
    """Two named nodes with only "or", "and", "vs" between them and a comparative pick one of the two by the one link
    worded, the way its noun or voice runs; the planner, which has no class for it, is passed over."""
    ranked = [(parse_skeleton("Contains[Neighbour[_], _]"), 0.6), (parse_skeleton("Feature[MaxDegree[Neighbour[_]]]"), 0.4)]
    found = chosen_skeleton(ranked, CounselorAction(_labelled_papers(), question).wording, 0.3)
    assert found is not None and found.render() == f"Feature[{pick}[Union[_, _]]]"
    language = CounselorAction(_labelled_papers(), question, skeleton=found)
    both = "Union[Retrieve[ReAct], Retrieve[Reflexion]]"
    for link in ("cites", "cited_by"):  # the link worded (either, where the words name both ways)
        assert language.complete(f"Feature[{pick}[{both}, {link}], title]") == (link in relation.split("|"))
    seen = CounselorAction(_labelled_papers(), question, ["The title feature of 4 are: ReAct."], skeleton=found)
    assert seen.complete("Finish[ReAct]")


@pytest.mark.parametrize(
    "question",
    [
        'How many papers do "ReAct" and "Reflexion" both cite?',
        'Does "ReAct" have more citations than "Reflexion"?',
        'Which of the papers "ReAct" and "Reflexion" cite has the most citations?',
        'Is "ReAct" among the papers "Reflexion" cites?',
        'Which has more citations, "ReAct" or fewer?',
        'Which of the papers cited by "ReAct" or "Reflexion" has the most citations?',
        'Which of the papers "ReAct" and "Reflexion" cite has more citations?',
        'Does "ReAct" cite "Reflexion" more?',
    ],
)
def test_two_names_not_set_side_by_side_are_no_pair(question: str) -> None:
    """Two names with a link word between them, "both", "than", or one name only: no pair is compared."""
    assert CounselorAction(_labelled_papers(), question).wording.pair is None


@pytest.mark.parametrize(
    ("question", "relation"),
    [
        ('Which has more 4-star ratings given, "user 1" or "user 2"?', "rated_4"),
        ('Tell me which of "Heat (1995)" and "Air Force One (1997)" has more 4-star ratings.', "rated_4_by"),
    ],
)
def test_two_named_nodes_side_by_side_are_compared_by_the_numbered_link_written(question: str, relation: str) -> None:
    """"more 5-star ratings given": the relation with that number (the way "given" or the node's type leaves open
    is not asked here); "has" after the two names is their verb, not a relation's word."""
    found = chosen_skeleton([(parse_skeleton("Contains[Neighbour[_], _]"), 1.0)], CounselorAction(_ratings_graph(), question).wording, 0.3)
    assert found is not None and found.render() == "Feature[MaxDegree[Union[_, _]]]"
    language = CounselorAction(_ratings_graph(), question, skeleton=found)
    names = [name for name in ("user 1", "user 2", "Heat (1995)", "Air Force One (1997)") if f'"{name}"' in question]
    both = f"Union[Retrieve[{names[0]}], Retrieve[{names[1]}]]"
    key = "name" if names[0].startswith("user") else "title"
    assert language.complete(f"Feature[MaxDegree[{both}, {relation}], {key}]")
    for other in ("rated", "rated_by", "rated_2", "rated_5_by"):
        assert not language.complete(f"Feature[MaxDegree[{both}, {other}], {key}]")


def test_a_verb_or_a_word_of_comparing_beside_two_names_is_no_link() -> None:
    """A graph with relations ``has_part`` and ``compared_with``: "X or Y has more parts", "comparing X with Y" still set
    the two side by side; "the parts X and Y have" is their list."""
    store = GraphStore("kg", directed=True, text_keys={"entity": "name"})
    for node, name in (("e1", "wheel"), ("e2", "axle"), ("e3", "spoke")):
        store.add_node(node, "entity", {"name": name})
    store.add_edge("e1", "e3", "has_part", reverse_relation="part_of")
    store.add_edge("e1", "e2", "compared_with", reverse_relation="compared_with_of")
    for question in ('Tell me whether "wheel" or "axle" has more parts.', 'Comparing "wheel" with "axle", which has more parts?'):
        assert CounselorAction(store, question).wording.pair == "most", question
    assert CounselorAction(store, 'Which of the parts "wheel" and "axle" have has more parts?').wording.pair is None


@pytest.mark.parametrize(
    ("question", "function", "first", "relation"),
    [
        ('Does "ReAct" have more citations than "Reflexion"?', "MoreThan", "ReAct", "cited_by"),
        ('Compared with "Reflexion", does "ReAct" cite fewer papers?', "FewerThan", "ReAct", "cites"),
        ('Relative to "ReAct", has "Reflexion" got more references?', "MoreThan", "Reflexion", "cites"),
        ('True or false: "Reflexion" has fewer citations than "ReAct".', "FewerThan", "Reflexion", "cited_by"),
        # "the first" sets them against each other: a yes or no, not a pick of one
        ('Count the references of "ReAct", then those of "Reflexion". Does the first have more?', "MoreThan", "ReAct",
         "cites"),
        ('How many more citations does "Reflexion" have than "ReAct"?', "Difference", "Reflexion", "cited_by"),
        ('"ReAct" vs "Reflexion": how many fewer references?', "Difference", "ReAct", "cites"),
        ('What is the gap in citations between "ReAct" and "Reflexion"?', "Difference", "ReAct", "cited_by"),
        ('"ReAct" vs "Reflexion" citations diff?', "Difference", "ReAct", "cited_by"),
    ],
)  # fmt: skip
def test_two_named_nodes_compared_one_against_the_other(question: str, function: str, first: str, relation: str) -> None:
    """A comparative with "than", "compared with", "relative to" (a yes or no), or "how many more", "the gap" (a
    number) compares the two named nodes by the one link worded; the compared node is the first argument (the one
    "than" comes before is the second). The planner, which has no class for it, is passed over."""
    store = _labelled_papers()
    ranked = [(parse_skeleton("Contains[Neighbour[_], _]"), 0.6), (parse_skeleton("Count[Intersect[Neighbour[_], Neighbour[_]]]"), 0.4)]
    found = chosen_skeleton(ranked, CounselorAction(store, question).wording, 0.3)
    assert found is not None and found.render() == f"{function}[_, _]"
    language = CounselorAction(store, question, skeleton=found)
    second = "Reflexion" if first == "ReAct" else "ReAct"
    for link in ("cites", "cited_by"):
        assert language.complete(f"{function}[Retrieve[{first}], Retrieve[{second}], {link}]") == (link == relation)
    assert not language.complete(f"{function}[Retrieve[{second}], Retrieve[{first}], {relation}]")  # the other way round


@pytest.mark.parametrize(
    "question",
    [
        'Which has more citations, "ReAct" or "Reflexion"?',
        'Which of "ReAct" and "Reflexion" cites more papers than the other?',
        'Does "ReAct" have more citations than any other paper?',
        'Is "ReAct" among the papers "Reflexion" cites?',
        'Does "ReAct" have more or fewer citations than "Reflexion"?',
    ],
)
def test_two_names_not_compared_one_against_the_other(question: str) -> None:
    """Which of the two (a pick), one name, membership, or a comparative both ways: no yes/no or gap comparison."""
    assert CounselorAction(_labelled_papers(), question).wording.versus is None


def test_the_first_of_two_named_nodes_asked_about_is_compared_not_picked() -> None:
    """Two names joined as a pair would be ("X, then those of Y") with a yes/no about "the first": a comparison."""
    wording = CounselorAction(_labelled_papers(), 'Count the citation neighbours of "ReAct", then those of "Reflexion". '
                              "Does the first have more?").wording  # fmt: skip
    assert wording.versus == "more" and wording.pair is None and wording.compared == ("ReAct", "Reflexion")


def test_two_compared_nodes_written_as_ids_keep_their_order_and_the_particle_gives_the_way() -> None:
    """Articles whose ids are their titles: the compared one comes first whether written as an id or retrieved; "links
    in does X have" ends the noun there (into X), as "links in than" does."""
    store = _moon_pages()
    question = 'Does "Sun" have more outgoing links than "Moon"?'
    language = CounselorAction(store, question, skeleton=parse_skeleton("MoreThan[_, _]"))
    assert language.complete("MoreThan[Sun, Moon, links_to]") and language.complete("MoreThan[Retrieve[Sun], Moon, links_to]")
    assert not language.complete("MoreThan[Moon, Sun, links_to]")
    assert not language.complete("MoreThan[Sun, Moon, linked_from]")
    store.add_node("c1", "article", {"title": "Halley Comet"})  # an article whose id is not its title
    store.add_edge("c1", "Moon", "links_to", reverse_relation="linked_from")
    language = CounselorAction(store, 'Does "Halley Comet" have more outgoing links than "Moon"?', skeleton=parse_skeleton("MoreThan[_, _]"))
    assert language.complete("MoreThan[Retrieve[Halley Comet], Moon, links_to]")
    assert not language.viable("MoreThan[Moon, ")  # the id written is the second's: the first is retrieved
    for asked in ('How many fewer links in does "Sun" have than "Moon"?', 'More links in for "Sun" than for "Moon"?'):
        wording = CounselorAction(store, asked).wording
        function = "Difference" if wording.versus == "gap" else "MoreThan"
        language = CounselorAction(store, asked, skeleton=parse_skeleton(f"{function}[_, _]"))
        assert language.complete(f"{function}[Retrieve[Sun], Retrieve[Moon], linked_from]"), asked
        assert not language.complete(f"{function}[Retrieve[Sun], Retrieve[Moon], links_to]"), asked


def test_two_compared_nodes_take_the_plain_link_where_no_number_is_written() -> None:
    """"more ratings": every rating (``rated_by``), not one number's; a feature named like the link ("genres") does not
    make a count compared with the subject's value."""
    question = 'Does "Heat (1995)" have more ratings than "Air Force One (1997)"?'
    language = CounselorAction(_ratings_graph(), question, skeleton=parse_skeleton("MoreThan[_, _]"))
    assert language.complete("MoreThan[Retrieve[Heat (1995)], Retrieve[Air Force One (1997)], rated_by]")
    for other in ("rated_4_by", "rated_5_by", "rated"):
        assert not language.complete(f"MoreThan[Retrieve[Heat (1995)], Retrieve[Air Force One (1997)], {other}]")
    store = GraphStore("films", directed=True, text_keys={"movie": "title", "genre": "name"})
    for node, title in (("m1", "Heat (1995)"), ("m2", "Up (2009)")):
        store.add_node(node, "movie", {"title": title, "genres": "Drama"})
    store.add_node("g1", "genre", {"name": "Drama"})
    store.add_edge("m1", "g1", "has_genre", reverse_relation="genre_of")
    asked = 'How many fewer genres does "Up (2009)" have than "Heat (1995)"?'
    found = chosen_skeleton([(parse_skeleton("Same[_]"), 1.0)], CounselorAction(store, asked).wording, 0.3)
    assert found is not None and found.render() == "Difference[_, _]"


def test_a_relation_written_letter_for_letter_wins_over_its_plural() -> None:
    """FB15k-237 has ``location`` and ``locations``, ``location_of`` and ``locations_of``: the one the question writes
    letter for letter is the one read ("location of links"); its control writes the plural."""
    store = GraphStore("kg", directed=True, text_keys={"entity": "name"})
    for node, name in (("e1", "Nagano"), ("e2", "Greensboro"), ("e3", "Japan"), ("e4", "Ohio")):
        store.add_node(node, "entity", {"name": name})
    store.add_edge("e1", "e3", "location_of", reverse_relation="location")
    store.add_edge("e2", "e4", "locations_of", reverse_relation="locations")
    pick = parse_skeleton("Feature[MinDegree[Union[_, _]]]")
    both = "Union[Retrieve[Nagano], Retrieve[Greensboro]]"
    for question, written, plural in (
        ('Who has fewer location of links, "Nagano" or "Greensboro"?', "location_of", "locations_of"),
        ('Who has fewer locations of links, "Nagano" or "Greensboro"?', "locations_of", "location_of"),
    ):
        language = CounselorAction(store, question, skeleton=pick)
        assert language.complete(f"Feature[MinDegree[{both}, {written}], name]"), question
        assert not language.complete(f"Feature[MinDegree[{both}, {plural}], name]"), question


def test_the_verb_a_request_opens_with_names_no_relation_where_another_is_written() -> None:
    """"State the difference ..." asks; FB15k-237's ``state`` is not named by it where the question writes another
    relation, but "state neighbours" still names it."""
    store = GraphStore("kg", directed=True, text_keys={"entity": "name"})
    for node, name in (("e1", "badminton"), ("e2", "Monterey County"), ("e3", "Ohio")):
        store.add_node(node, "entity", {"name": name})
    store.add_edge("e2", "e1", "contains", reverse_relation="contains_of")
    store.add_edge("e2", "e3", "state", reverse_relation="state_of")
    question = 'State the difference between the number of contains links of "Monterey County" and that of "badminton".'
    language = CounselorAction(store, question, skeleton=parse_skeleton("Difference[_, _]"))
    assert language.complete("Difference[Retrieve[Monterey County], Retrieve[badminton], contains]")
    assert not language.complete("Difference[Retrieve[Monterey County], Retrieve[badminton], state]")
    control = CounselorAction(store, 'Name the state neighbours of "Monterey County".', skeleton=parse_skeleton("Feature[Neighbour[_]]"))
    assert control.complete("Feature[Neighbour[Retrieve[Monterey County], state], name]")


def test_two_nodes_compared_by_a_link_whose_word_is_a_feature_value_are_still_compared() -> None:
    """WN18RR's ``verb_group``: "fewer verb group neighbours than Y" writes "verb", a part of speech, but compares by the
    link; nothing is matched."""
    store = GraphStore("words", directed=True, text_keys={"synset": "name"})
    for node, name, pos in (("s1", "message.v.01", "verb"), ("s2", "spread.n.01", "noun"), ("s3", "send.v.01", "verb")):
        store.add_node(node, "synset", {"name": name, "part_of_speech": pos})
    store.add_edge("s1", "s3", "verb_group", reverse_relation="verb_group")
    question = '"message.v.01" have fewer verb group neighbours than "spread.n.01", yes or no?'
    found = chosen_skeleton([(parse_skeleton("Degree[_]"), 1.0)], CounselorAction(store, question).wording, 0.3)
    assert found is not None and found.render() == "FewerThan[_, _]"


def test_an_action_this_trial_already_ran_is_not_written_again() -> None:
    """Running an Action again observes the same again: after it, another Action or Finish. A refused Finish is not
    written again either; an Action that differs still may be."""
    store = _labelled_papers()
    question = 'Does "ReAct" have more citations than "Reflexion"?'
    ran = "MoreThan[Retrieve[ReAct], Retrieve[Reflexion], cited_by]"
    seen = ["Whether 4 has more cited_by neighbors than 5 (1 against 2) is: no."]
    language = CounselorAction(store, question, seen, skeleton=parse_skeleton("MoreThan[_, _]"), done=[ran])
    assert not language.complete(ran) and not language.viable(ran) and not language.complete(f"Action 2: {ran}")
    assert language.viable(ran[:-1]) and language.complete("Finish[no]")
    free = CounselorAction(store, 'How many papers does "ReAct" cite?', ["The cites neighbor number of 4 is 2."],
                           done=["Degree[Retrieve[ReAct], cites]", "Finish[node]"])  # fmt: skip
    assert not free.complete("Degree[Retrieve[ReAct], cites]") and free.complete("Count[Neighbour[Retrieve[ReAct], cites]]")
    assert free.complete("Finish[2]") and not free.complete("Finish[node]")
    assert CounselorAction(store, question, seen, skeleton=parse_skeleton("MoreThan[_, _]")).complete(ran)  # not run yet



def test_once_the_skeletons_call_ran_without_an_error_the_action_is_its_finish() -> None:
    """Its observation holds the answer: the next Action is Finish, never another call (the grammar would leave the
    same one only, a dead end). A call that ran into an error leaves the skeleton's call open."""
    store = _labelled_papers()
    question = 'How many papers does "ReAct" cite?'
    ran = "Degree[Retrieve[ReAct], cites]"
    seen = ["The cites neighbor number of 4 is 2."]
    answered = CounselorAction(store, question, seen, skeleton=parse_skeleton("Degree[_]"), done=[ran], answered=[ran])
    assert answered.finish_only and answered.complete("Finish[2]")
    assert not answered.viable("Degree[") and not answered.viable("Count[")
    failed = CounselorAction(store, question, ["Retrieve found no node for 'ReAct'."], skeleton=parse_skeleton("Degree[_]"),
                             done=[ran])  # fmt: skip
    assert not failed.finish_only and failed.viable("Degree[")


_PICKED_RANKING = [(parse_skeleton("Degree[_]"), 0.5), (parse_skeleton("Count[Neighbour[Neighbour[_]]]"), 0.3),
                   (parse_skeleton("Feature[MaxDegree[Neighbour[_]]]"), 0.2)]  # fmt: skip


@pytest.mark.parametrize(
    ("question", "pick", "hop", "by"),
    [
        ('How many citations does the most cited of the papers "Graph Counselor" cites have?', "MaxDegree", "cites",
         "cited_by"),
        ('Of the papers that cite "ReAct", how many references does the one with the most references have?', "MaxDegree",
         "cited_by", "cites"),
        ('Among the papers "Graph Counselor" cites, find the one with the fewest citations and count its citations.',
         "MinDegree", "cites", "cited_by"),
        # the top count itself is the picked member's: "any one of" is no hop from every member
        ('What is the highest number of citations any one of the papers "Graph Counselor" cites has?', "MaxDegree",
         "cites", "cited_by"),
        ('The papers "Graph Counselor" cites: the lowest count of citations?', "MinDegree", "cites", "cited_by"),
    ],
)  # fmt: skip
def test_how_many_links_the_member_a_superlative_picks_has_is_a_degree_of_the_pick(
    question: str, pick: str, hop: str, by: str
) -> None:
    """A count asked of the member a superlative picks ("how many citations has the most cited of them?") is the
    picked node's Degree along the links it was picked by; the planner, which has no class for it, is passed over."""
    store = _labelled_papers()
    found = chosen_skeleton(_PICKED_RANKING, CounselorAction(store, question).wording, 0.3)
    assert found is not None and found.render() == f"Degree[{pick}[Neighbour[_]]]"
    language = CounselorAction(store, question, skeleton=found)
    name = question_names(store, question)[0]
    other = {"cites": "cited_by", "cited_by": "cites"}
    assert language.complete(f"Degree[{pick}[Neighbour[Retrieve[{name}], {hop}], {by}], {by}]")
    assert not language.complete(f"Degree[{pick}[Neighbour[Retrieve[{name}], {hop}], {by}], {other[by]}]")  # its own links
    assert not language.complete(f"Degree[{pick}[Neighbour[Retrieve[{name}], {other[hop]}], {by}], {by}]")
    assert not language.complete(f"Degree[{pick}[Neighbour[Retrieve[{name}], {hop}], {other[by]}], {other[by]}]")


@pytest.mark.parametrize(
    "question",
    [
        'How many papers does "Graph Counselor" cite?',  # no superlative
        'Which of the papers "Graph Counselor" cites has the most citations?',  # the member itself
        'Identify the paper among those "Graph Counselor" cites with the greatest number of citations.',
        'How many of the papers "Graph Counselor" cites have the most common label?',  # a value's count
        'How many papers cite at least one of the papers "Graph Counselor" cites?',  # a bound, no pick
        'How many more citations does "ReAct" have than "Reflexion"?',  # two named nodes compared
    ],
)
def test_a_count_of_a_picked_member_is_not_read_into_other_questions(question: str) -> None:
    assert not CounselorAction(_labelled_papers(), question).wording.picked_count


@pytest.mark.parametrize(
    ("question", "key"),
    [
        ('What is the label of the one of the papers "Graph Counselor" cites with the most citations?', "label"),
        ('What is the research area of the most cited paper among those "Graph Counselor" cites?', "label"),
        ('Which topic does the most cited of the papers "Graph Counselor" cites belong to?', "label"),
        ('Which of the papers "Graph Counselor" cites has the most citations?', "title"),
        ('Of the papers "Graph Counselor" cites, give the title of the one with the most citations.', "title"),
    ],
)
def test_the_feature_shown_for_a_picked_node_is_the_one_the_question_asks(question: str, key: str) -> None:
    """A feature the question writes ("the label of the one with the most ...") is the picked node's feature shown;
    where it writes none but asks a category ("research area", "topic"), a feature nodes share; else the name."""
    store = _labelled_papers()
    language = CounselorAction(store, question, skeleton=parse_skeleton("Feature[MaxDegree[Neighbour[_]]]"))
    action = 'Feature[MaxDegree[Neighbour[Retrieve[Graph Counselor], cites], cited_by], {}]'
    for feature in ("label", "title", "year"):
        assert language.complete(action.format(feature)) == (feature == key), feature


def test_a_particle_ends_its_noun_before_and_or_got() -> None:
    """"the fewest links in and count its links in", "with the fewest links in got": the way in, not out."""
    store = _moon_pages()
    for question in (
        'Find the one of the articles "Sun" links to with the fewest links in and count its links in.',
        'How many links in has the one of the articles "Sun" links to with the fewest links in got?',
    ):
        language = CounselorAction(store, question, skeleton=parse_skeleton("Degree[MinDegree[Neighbour[_]]]"))
        assert language.complete("Degree[MinDegree[Neighbour[Retrieve[Sun], links_to], linked_from], linked_from]")
        assert not language.complete("Degree[MinDegree[Neighbour[Retrieve[Sun], links_to], links_to], links_to]")


def test_links_out_run_out_whatever_word_follows() -> None:
    """"how many links out belong to ...", "how many links out the one ... has": "out" is the particle whatever
    follows it (unlike "in": "links in the list"), so the links counted and picked by run out of each article."""
    store = _moon_pages()
    for question, pick in (
        ('State how many links out belong to whichever member of the articles that link to "Sun" has the highest '
         "count of them.", "MaxDegree"),
        ('Tell me how many links out the one of the articles "Sun" is linked from with the fewest links out has.',
         "MinDegree"),
    ):
        language = CounselorAction(store, question, skeleton=parse_skeleton(f"Degree[{pick}[Neighbour[_]]]"))
        assert language.complete(f"Degree[{pick}[Neighbour[Retrieve[Sun], linked_from], links_to], links_to]")
        assert not language.complete(f"Degree[{pick}[Neighbour[Retrieve[Sun], linked_from], linked_from], linked_from]")


def test_after_a_tie_the_finish_is_every_tied_item_or_the_count_they_tie_at() -> None:
    """A pick that ties names no single node: the Finish lists them all, as the observation does (not "node" or a
    count copied from its words), and a count of the picked node's links is the count they tie at (not an id). The
    skeleton's call again would report the same tie: only Finish is left."""
    store = _labelled_papers()
    tie = ("In MaxDegree[Neighbour[Retrieve[Graph Counselor], cites], cited_by]: No single node has the most cited_by "
           "neighbors: ['2', '4'] have 2 each.")  # fmt: skip
    question = 'What is the label of the paper with the most citations among those "Graph Counselor" cites?'
    language = CounselorAction(store, question, [tie], skeleton=parse_skeleton("Feature[MaxDegree[Neighbour[_]]]"))
    assert language.complete("Finish[2, 4]")
    assert not language.complete("Feature[MaxDegree[Neighbour[Retrieve[Graph Counselor], cites], cited_by], label]")
    for answer in ("2", "4", "node, node", "No single node", "2, 4, 2"):
        assert not language.complete(f"Finish[{answer}]"), answer
    count = 'How many citations does the most cited of the papers "Graph Counselor" cites have?'
    counted = CounselorAction(store, count, [tie], skeleton=parse_skeleton("Degree[MaxDegree[Neighbour[_]]]"))
    assert counted.complete("Finish[2]") and not counted.complete("Finish[4]")


def _chosen(question: str, *shapes: tuple[str, float]) -> str | None:
    ranked = [(parse_skeleton(text), p) for text, p in shapes]
    found = chosen_skeleton(ranked, CounselorAction(_labelled_papers(), question).wording, 0.3)
    return None if found is None else found.render()


@pytest.mark.parametrize(
    "question",
    [
        'What is the label of the paper "Graph Counselor" cites?',
        'What is the title of the paper citing "ReAct"?',
        'Which label does the paper cited by "ReAct" have?',
        'Label of the paper with a citation edge into "ReAct"?',
        'Pull the label for the paper in "Graph Counselor"\'s outbound citations.',
        'What is the title of the paper "Graph Counselor" has in its references?',
        'Which label does the paper whose bibliography includes "ReAct" have?',
        'Which label does the paper whose references take you to "ReAct" have?',
        'What is the title of the paper connected to "ReAct"?',  # a link of any kind
        'Which label does the neighbour of "ReAct" have?',
    ],
)
def test_a_feature_of_the_node_a_link_beside_a_name_reaches_is_a_neighbours(question: str) -> None:
    """A link written right beside a name ("the paper X cites", "the paper citing X", "X's outbound citations") makes
    the feature asked a neighbour's: never the named node's own (``Feature[_]``), whatever the planner prefers."""
    assert CounselorAction(_labelled_papers(), question).wording.link_beside_name
    assert _chosen(question, ("Feature[_]", 0.9), ("Feature[Neighbour[_]]", 0.1)) == "Feature[Neighbour[_]]"


@pytest.mark.parametrize(
    "question",
    ['What is the label of "ReAct"?', 'In the citation graph, what is the label of "ReAct"?',
     'What is the label of "ReAct" in the citation graph?'],
)  # fmt: skip
def test_a_link_word_away_from_the_name_leaves_the_named_nodes_own_feature(question: str) -> None:
    assert not CounselorAction(_labelled_papers(), question).wording.link_beside_name
    assert _chosen(question, ("Feature[_]", 0.9), ("Feature[Neighbour[_]]", 0.1)) == "Feature[_]"


@pytest.mark.parametrize(
    "question",
    [
        'Step over to the paper you reach from "ReAct" along a citation, either way: what does it give as label?',
        'Whats the label of the paper hooked up to "ReAct" by a citation',
        'Which label is associated with the paper referenced in the paper "ReAct"?',
        'Step over to the paper whose reference lists send you to "ReAct": what does it give as label?',
        'What does the paper in "ReAct"\'s citation network show under label?',  # its neighbours, not the graph
    ],
)
def test_a_feature_asked_where_a_link_is_written_is_never_the_named_nodes_own(question: str) -> None:
    """A link written anywhere, beside the name or not ("the paper hooked up to X by a citation"), asks a feature of
    a node the link reaches: the named node's own feature (``Feature[_]``) asks no link."""
    assert CounselorAction(_labelled_papers(), question).wording.link_written
    assert _chosen(question, ("Feature[_]", 0.9), ("Feature[Neighbour[_]]", 0.1)) == "Feature[Neighbour[_]]"


@pytest.mark.parametrize(
    "question",
    ['Whats the part of speech of "empire.n.01"', '"empire.n.01" - part of speech??',
     'I wonder what part of speech "empire.n.01" has. Do you know?'],
)  # fmt: skip
def test_a_feature_whose_words_name_a_link_still_asks_the_named_nodes_own(question: str) -> None:
    """"part of speech" writes ``part_of``'s words and "has" ``has_part``'s, but neither writes a link."""
    wording = CounselorAction(_lexicon_graph(), question).wording
    assert not (wording.link_written or wording.link_beside_name)
    ranked = [(parse_skeleton("Feature[_]"), 0.9), (parse_skeleton("Feature[Neighbour[_]]"), 0.1)]
    assert chosen_skeleton(ranked, wording, 0.3).render() == "Feature[_]"


def test_a_feature_asked_is_no_count_and_a_member_picked_by_its_links_gives_its_own() -> None:
    """"The title recorded for ..." asks a value, never a count; "the label of the one with the most citations" is
    the picked member's label, not the most common one, but "the label most of the papers citing X have" is."""
    assert _chosen('Determine the title recorded for the paper linked to "ReAct".', ("Degree[_]", 0.6),
                   ("Feature[Neighbour[_]]", 0.4)) == "Feature[Neighbour[_]]"  # fmt: skip
    assert _chosen('I\'d like to know the title of the paper "ReAct" is cited by.', ("Degree[_]", 0.5), ("Feature[_]", 0.3),
                   ("Feature[Neighbour[_]]", 0.2)) == "Feature[Neighbour[_]]"  # fmt: skip ("like" compares nothing)
    picked = 'What is the label of the paper with the most citations among those "Graph Counselor" cites?'
    assert _chosen(picked, ("Mode[Feature[Neighbour[_]]]", 0.6), ("Feature[MaxDegree[Neighbour[_]]]", 0.4)) == (
        "Feature[MaxDegree[Neighbour[_]]]")  # fmt: skip
    majority = 'Whats the label most of the papers citing "ReAct" have'
    assert _chosen(majority, ("Mode[Feature[Neighbour[_]]]", 0.6), ("Feature[Neighbour[_]]", 0.4)) == (
        "Mode[Feature[Neighbour[_]]]")  # fmt: skip
    # a feature asked with no yes/no opening is no yes/no either (names unquoted, the planner may guess Contains)
    for titled in ("Title of the paper citing ReAct?", "The paper citing ReAct: title?"):
        assert _chosen(titled, ("Contains[Neighbour[_], _]", 0.6), ("Feature[Neighbour[_]]", 0.4)) == "Feature[Neighbour[_]]"
    assert _chosen('Any of the papers "ReAct" cites with label Agents?', ("Exists[Matching[Neighbour[_]]]", 0.6),
                   ("Feature[Matching[Neighbour[_]]]", 0.4)) == "Exists[Matching[Neighbour[_]]]"  # fmt: skip
    assert _chosen('"Graph Counselor" in the papers citing "ReAct"?', ("Contains[Neighbour[_], _]", 0.6),
                   ("Feature[Neighbour[_]]", 0.4)) == "Contains[Neighbour[_], _]"  # fmt: skip


def _film_crews() -> GraphStore:
    """One node type, as in FB15k-237: a director's films (``director_film``, an active name with an ``_of``
    reverse), an art director (``film_art_direction_by``, a passive one) and costume designers
    (``costume_design_by``), each with its ``_of`` reverse."""
    store = GraphStore("entities", directed=True, text_keys={"entity": "name"})
    for node in ("Vincente Minnelli", "Gigi", "An American in Paris", "Preston Ames", "Barry Lyndon",
                 "A Clockwork Orange", "Milena Canonero", "Ulla-Britt Soderlund"):  # fmt: skip
        store.add_node(node, "entity", {"name": node})
    for film in ("Gigi", "An American in Paris"):
        store.add_edge("Vincente Minnelli", film, "director_film", reverse_relation="director_film_of")
        store.add_edge(film, "Preston Ames", "film_art_direction_by", reverse_relation="film_art_direction_by_of")
    for film, designer in (("Barry Lyndon", "Milena Canonero"), ("Barry Lyndon", "Ulla-Britt Soderlund"),
                           ("A Clockwork Orange", "Milena Canonero")):  # fmt: skip
        store.add_edge(film, designer, "costume_design_by", reverse_relation="costume_design_by_of")
    return store


def test_a_relation_written_whole_is_that_relation_not_another_relations_verb() -> None:
    """"the director film neighbours of X" writes ``director_film`` whole: "director" is not the verb of
    ``film_art_direction_by``, which shares its root."""
    action = CounselorAction(
        _film_crews(), 'What is the quantity of the director film neighbours of "Vincente Minnelli"?',
        skeleton=parse_skeleton("Degree[_]"),
    )  # fmt: skip
    assert action.complete("Degree[Retrieve[Vincente Minnelli], director_film]")
    assert not action.complete("Degree[Retrieve[Vincente Minnelli], film_art_direction_by]")


def test_a_passive_relation_written_whole_as_the_name_of_neighbours_is_that_relation() -> None:
    """"the costume design by neighbours of Y" names Y's ``costume_design_by`` neighbours, though "design by" before
    the name would otherwise read as a passive verb ("the films designed by Y")."""
    question = (
        'What is the number of nodes appearing in the entities "A Clockwork Orange" has as costume design by or in the '
        'costume design by neighbours of "Barry Lyndon" (or in both)?'
    )
    action = CounselorAction(_film_crews(), question, skeleton=parse_skeleton("Count[Union[Neighbour[_], Neighbour[_]]]"))
    assert action.complete(
        "Count[Union[Neighbour[Retrieve[A Clockwork Orange], costume_design_by], "
        "Neighbour[Retrieve[Barry Lyndon], costume_design_by]]]"
    )
    assert not action.complete(
        "Count[Union[Neighbour[Retrieve[A Clockwork Orange], costume_design_by], "
        "Neighbour[Retrieve[Barry Lyndon], costume_design_by_of]]]"
    )


def test_the_node_occurring_the_highest_number_of_times_is_the_one_the_members_reach() -> None:
    """"which entity occurs the highest number of times among the X links of ..." counts how often the members reach
    a node (``MostLinked``), not which member has the most links."""
    question = (
        'Which entity occurs the highest number of times among the costume design by links of the entities '
        '"Vincente Minnelli" has as director film?'
    )
    wording = CounselorAction(_film_crews(), question).wording
    assert wording.votes and wording.extreme == "most"
    most_linked, pick = parse_skeleton("Feature[MostLinked[Neighbour[_]]]"), parse_skeleton("Feature[MaxDegree[Neighbour[_]]]")
    assert chosen_skeleton([(pick, 0.7), (most_linked, 0.3)], wording, 0.0) == most_linked


def test_most_links_named_in_many_words_among_a_list_pick_a_member() -> None:
    """FB15k-237 names relations in up to a dozen words: "Most <nine words> links among the ... neighbours of X?" is
    still a member picked by its own links."""
    store = GraphStore("entities", directed=True, text_keys={"entity": "name"})
    for node in ("soprano saxophone", "track one", "song two"):
        store.add_node(node, "entity", {"name": node})
    store.add_edge("soprano saxophone", "track one", "guest_role_of", reverse_relation="guest_role")
    store.add_edge("track one", "song two", "track_performances_music_track_contribution_role_of")
    question = 'Most track performances music track contribution role of links among the guest role of neighbours of "soprano saxophone"?'
    assert CounselorAction(store, question).wording.member


def test_linked_to_a_name_by_a_relation_is_one_link() -> None:
    """"the papers linked to X by linked" (a graph whose relation is called ``linked``) names one link: the general
    verb before the name and the relation after "by" are one hop, so a count of them is X's degree."""
    store = GraphStore("papers", directed=False, text_keys={"paper": "title"})
    for node in ("p1", "p2", "p3"):
        store.add_node(node, "paper", {"title": f"Paper {node[1]}", "label": "IR"})
    store.add_edge("p1", "p2", "linked")
    store.add_edge("p1", "p3", "linked")
    wording = CounselorAction(store, 'What\'s the total count of the papers linked to "Paper 1" by linked?').wording
    assert wording.link_mentions == 1
    assert consistent(parse_skeleton("Degree[_]"), wording)
    assert not consistent(parse_skeleton("Count[Neighbour[Neighbour[_]]]"), wording)
    two = CounselorAction(store, 'How many papers are linked to the papers linked to "Paper 1"?').wording
    assert two.link_mentions == 2


def test_a_numbered_link_after_most_is_the_picks_though_the_first_hop_has_no_number() -> None:
    """"which of the movies of the genre X has the most 1-star ratings": the genre hop is written with no number, the
    count after "most" is ``rated_1_by``, not every rating nor the genre link."""
    store = _ratings_graph()
    store.text_keys["genre"] = "name"
    store.add_node("g1", "genre", {"name": "Crime"})
    for movie in ("m1", "m2", "m3"):
        store.add_edge(movie, "g1", "has_genre", reverse_relation="genre_of")
    store.add_edge("u3", "m1", "rated_1", reverse_relation="rated_1_by")
    action = CounselorAction(
        store, 'I need to know which of the movies of the genre "Crime" has the most 1-star ratings.',
        skeleton=parse_skeleton("Feature[MaxDegree[Neighbour[_]]]"),
    )  # fmt: skip
    assert action.complete("Feature[MaxDegree[Neighbour[Retrieve[Crime], genre_of], rated_1_by], title]")
    for wrong in ("rated_by", "has_genre", "rated_2_by"):
        assert not action.complete(f"Feature[MaxDegree[Neighbour[Retrieve[Crime], genre_of], {wrong}], title]"), wrong


def test_stars_given_are_a_rating_link() -> None:
    """"the movie X gave 4 stars" reaches a movie by a rating: a feature asked is the movie's, not X's own."""
    store = _ratings_graph()
    wording = CounselorAction(store, 'Give the title of the movie "user 1" gave 4 stars.').wording
    assert wording.link_mentions == 1 and wording.link_written
    assert not consistent(parse_skeleton("Feature[_]"), wording)
    assert consistent(parse_skeleton("Feature[Neighbour[_]]"), wording)
    action = CounselorAction(store, 'Give the title of the movie "user 1" gave 4 stars.', skeleton=parse_skeleton("Feature[Neighbour[_]]"))
    assert action.complete("Feature[Neighbour[Retrieve[user 1], rated_4], title]")


def test_a_plain_rating_and_a_number_with_a_name_between_are_two_hops() -> None:
    """"the movies any of the users that rated X gave 4 stars": "rated" stands three words from "4 stars" only with
    the name cut out; it is the first hop's (any rating), the number the second's."""
    action = CounselorAction(
        _ratings_graph(), 'The movies any of the users that rated "Heat (1995)" gave 4 stars: distinct count',
        skeleton=parse_skeleton("Count[Neighbour[Neighbour[_]]]"),
    )  # fmt: skip
    assert action.complete("Count[Neighbour[Neighbour[Retrieve[Heat (1995)], rated_by], rated_4]]")
    assert not action.complete("Count[Neighbour[Neighbour[Retrieve[Heat (1995)], rated_4_by], rated]]")


@pytest.mark.parametrize(
    "question",
    [
        'Count: the friends of any of "user 1"\'s friends.',  # "any of X's": a hop from each of X's friends
        'Count: the artists listened to by the users that "Nina Simone" is listened by.',  # a clause names the list
    ],
)
def test_a_hop_from_the_members_of_a_list_is_two_hops(question: str) -> None:
    wording = CounselorAction(_music_graph(), question).wording
    assert wording.through_any
    assert not consistent(parse_skeleton("Degree[_]"), wording)
    assert consistent(parse_skeleton("Count[Neighbour[Neighbour[_]]]"), wording)


def test_the_papers_citing_the_papers_a_name_cites_are_two_hops(store: GraphStore) -> None:
    wording = CounselorAction(store, 'Count: the papers citing the papers that "Graph Agents" cites.').wording
    assert wording.through_any and not consistent(parse_skeleton("Degree[_]"), wording)
    assert not CounselorAction(store, 'Count: the papers that "Graph Agents" cites.').wording.through_any


def test_a_relation_written_as_the_name_of_neighbours_is_the_first_hop_wherever_the_picks_links_stand() -> None:
    """"Of all the X neighbours of Y, whose Z links are the most numerous?": ``X`` is Y's own hop, ``Z`` the links
    the pick counts, though Z stands nearer the name; "whose" after "of all ..." asks for a member."""
    question = 'Of all the director film neighbours of "Vincente Minnelli", whose film art direction by links are the most numerous?'
    action = CounselorAction(_film_crews(), question, skeleton=parse_skeleton("Feature[MaxDegree[Neighbour[_]]]"))
    assert action.wording.member
    assert action.complete(
        "Feature[MaxDegree[Neighbour[Retrieve[Vincente Minnelli], director_film], film_art_direction_by], name]"
    )
    assert not action.complete(
        "Feature[MaxDegree[Neighbour[Retrieve[Vincente Minnelli], film_art_direction_by], director_film], name]"
    )


def test_a_list_then_a_colon_and_most_links_asks_for_a_member_not_the_node_most_reached() -> None:
    wording = CounselorAction(
        _film_crews(), 'The entities linked to "Vincente Minnelli" by director film: most film art direction by links?'
    ).wording
    assert wording.member
    pick, reached = parse_skeleton("Feature[MaxDegree[Neighbour[_]]]"), parse_skeleton("Feature[MostLinked[Neighbour[_]]]")
    assert chosen_skeleton([(reached, 0.6), (pick, 0.4)], wording, 0.0) == pick
    common = CounselorAction(_film_crews(), 'The entities linked to "Vincente Minnelli" by director film: most common links?')
    assert not common.wording.member


def test_a_value_that_shows_up_most_is_the_most_common_one(store: GraphStore) -> None:
    wording = CounselorAction(_labelled_papers(), 'Among the papers cited by "Graph Counselor", which label shows up most?').wording
    assert wording.mode_worded
    mode, pick = parse_skeleton("Mode[Feature[Neighbour[_]]]"), parse_skeleton("Feature[MaxDegree[Neighbour[_]]]")
    assert chosen_skeleton([(pick, 0.6), (mode, 0.4)], wording, 0.0) == mode


def test_an_answer_is_one_calls_value_never_a_run_across_two_calls_observations(store: GraphStore) -> None:
    """An Action of two calls joins their observations with a space: "Agents. The label feature of ['4'] are:
    ['Theory']" is not a value, though it follows a colon."""
    observation = "The label feature of 1 are: Agents. The label feature of ['4'] are: ['Theory']."
    action = CounselorAction(_labelled_papers(), 'What is the label of "Graph Counselor"?', [observation])
    assert action.complete("Finish[Agents]")
    assert action.complete("Finish[['Theory']]") or action.complete("Finish[Theory]")
    assert not action.complete("Finish[Agents. The label feature of ['4'] are: ['Theory']]")


def test_better_connected_sets_two_names_side_by_side(store: GraphStore) -> None:
    wording = CounselorAction(store, 'Which is better connected: "Graph Agents" or "ReAct"?').wording
    assert wording.pair == "most" and wording.form == "pick"
    assert CounselorAction(store, 'Which is worse connected: "Graph Agents" or "ReAct"?').wording.pair == "fewest"


def test_a_quoted_title_longer_than_a_search_text_is_still_one_name_written_whole() -> None:
    """CiteSeer holds titles of up to 1,781 characters (text extraction ran on into the body): quoted, the whole title
    is the name, and Retrieve may copy it whole; other search text stays short."""
    title = "Logics for Databases and Information Systems " + " ".join(f"{i}.{i} Temporal Queries" for i in range(1, 25))
    assert len(title) > 400
    store = GraphStore("papers", directed=False, text_keys={"paper": "title"})
    store.add_node("p1", "paper", {"title": title, "label": "Databases"})
    store.add_node("p2", "paper", {"title": "Short", "label": "Agents"})
    store.add_edge("p1", "p2", "linked")
    question = f'Give me the research field of "{title}".'
    assert quoted_names(question) == (title,)
    action = CounselorAction(store, question, skeleton=parse_skeleton("Feature[_]"))
    assert not action.wording.values  # "Databases" inside the title is no value asked for
    assert action.complete(f"Feature[Retrieve[{title}], label]")
    assert not CounselorAction(store, question).viable("Feature[Retrieve[" + "x" * 250)


def test_a_link_of_a_names_links_is_two_hops() -> None:
    """"friends of X's friends" reach from each of X's friends; "the names of X's friends" reads a feature, one hop."""
    music = _music_graph()
    two = CounselorAction(music, 'How many users are friends of "user 1"\'s friends?').wording
    assert two.through_any and not consistent(parse_skeleton("Degree[_]"), two)
    one = CounselorAction(music, 'What are the names of "user 1"\'s friends?').wording
    assert not one.through_any


def test_a_feature_of_whichever_member_a_superlative_picks_is_a_pick_not_its_count(store: GraphStore) -> None:
    """"the title of whichever neighbour of X has the smallest number of links": the member's title, though "number
    of" is written; "how many links has the one with the fewest" is still its count."""
    wording = CounselorAction(
        store, 'I need the title of whichever neighbour of "Graph Agents" has the smallest number of citation links.'
    ).wording
    assert wording.form == "pick" and not wording.picked_count


def test_a_count_outside_its_own_area_compares_with_the_subject() -> None:
    """"how many are outside its own area?" names no feature, but a category and the subject's own: ``Differing``."""
    wording = CounselorAction(
        _labelled_papers(), 'Of the papers cited by "Graph Counselor", how many are outside its own area?'
    ).wording
    assert consistent(parse_skeleton("Differing[_]"), wording)
    assert not consistent(parse_skeleton("Degree[_]"), wording)
    assert not consistent(parse_skeleton("Same[_]"), wording)


def test_a_numbered_name_written_bare_beside_a_quoted_one_is_a_name_too() -> None:
    """"Is "Airbourne" among the items liked by user 85?": a user named "user 85" written bare beside a quoted name
    is the question's second name, in the order the question writes them; plain words stay none."""
    store = _music_graph()
    store.add_node("t9", "tag", {"name": "blue note"})
    assert question_names(store, 'Is "Nina Simone" among the artists user 2 listened to?') == ("Nina Simone", "user 2")
    assert question_names(store, 'Is user 2 a fan of "Miles Davis"?') == ("user 2", "Miles Davis")
    assert question_names(store, 'Is "Miles Davis" tagged blue note?') == ("Miles Davis",)  # no digit: no name
    assert question_names(store, 'Is "user 2" a fan of "Miles Davis"?') == ("user 2", "Miles Davis")  # once each
    fan = CounselorAction(store, 'Is user 2 a fan of "Miles Davis"?')
    assert fan.complete("Contains[Neighbour[Retrieve[Miles Davis], listened_by], Retrieve[user 2]]")
    shapes = [(parse_skeleton("Contains[Neighbour[_], _]"), 0.9), (parse_skeleton("Degree[_]"), 0.1)]
    assert chosen_skeleton(shapes, fan.wording, 0.5) == shapes[0][0]


def test_two_lists_are_joined_into_one_only_where_the_question_words_a_union() -> None:
    """"How many of the users user 1 is friends with listened to X?" counts those in both lists; a union needs its
    words ("or", "either", "together", "plus")."""
    store = _music_graph()
    union = parse_skeleton("Count[Union[Neighbour[_], Neighbour[_]]]")
    both = parse_skeleton("Count[Intersect[Neighbour[_], Neighbour[_]]]")
    ranked = [(union, 0.9), (both, 0.1)]
    question = 'How many of the users user 1 is friends with listened to "Nina Simone"?'
    wording = CounselorAction(store, question).wording
    assert wording.set_way is None and not consistent(union, wording)
    assert chosen_skeleton(ranked, wording, 0.5) == both
    for question in ('How many users listened to "Nina Simone" or "Miles Davis"?',
                     'The listeners of "Nina Simone" plus those of "Miles Davis": how many users?',
                     'How many users listened to "Nina Simone" and "Miles Davis" altogether?'):  # fmt: skip
        assert chosen_skeleton(ranked[::-1], CounselorAction(store, question).wording, 0.5) == union, question


def test_the_node_found_on_most_of_a_list_is_the_one_most_of_them_link_to() -> None:
    """"the tag found on most of the artists they listened to": the tag most of them carry (``MostLinked``), not a
    feature's most common value nor one of the artists."""
    store = _music_graph()
    question = "What tag sums up user 2's taste, i.e. the tag found on most of the artists they listened to?"
    wording = CounselorAction(store, question).wording
    assert wording.votes and wording.asked_type == "tag"
    shapes = [(parse_skeleton("Mode[Feature[Neighbour[_]]]"), 0.5), (parse_skeleton("Feature[MaxDegree[Neighbour[_]]]"), 0.3),
              (parse_skeleton("Feature[MostLinked[Neighbour[_]]]"), 0.2)]  # fmt: skip
    assert chosen_skeleton(shapes, wording, 0.5).render() == "Feature[MostLinked[Neighbour[_]]]"
    # "the most prevalent <node type>" too (not a feature: the most prevalent genre is a value)
    prevalent = CounselorAction(store, "What is the most prevalent tag among the tags of the artists user 2 listened to?")
    assert prevalent.wording.votes and prevalent.wording.asked_type == "tag"
    assert chosen_skeleton(shapes, prevalent.wording, 0.5).render() == "Feature[MostLinked[Neighbour[_]]]"


def test_a_value_written_by_its_initials_is_matched_as_the_graph_writes_it() -> None:
    """"how many are ML papers?": Machine Learning, the one label with those initials; initials two values share
    ("RL": Reinforcement Learning, Rule Learning) or written in small letters name none."""
    store = GraphStore("labels", directed=False, text_keys={"paper": "title"})
    labels = ("Machine Learning", "Human-Computer Interaction", "Reinforcement Learning", "Rule Learning", "Databases")
    for index, label in enumerate(labels):
        store.add_node(str(index), "paper", {"title": f"Paper {index}", "label": label})
        if index:
            store.add_edge("0", str(index), "linked", reverse_relation="linked")
    assert written_values(store, "how many are ML papers?") == {("label", "Machine Learning")}
    assert written_values(store, "any HCI papers among them?") == {("label", "Human-Computer Interaction")}
    assert written_values(store, "how many are RL papers?") == set()
    assert written_values(store, "how many are ml papers?") == set()
    question = 'Of the papers linked to "Paper 0", how many are HCI papers?'
    action = CounselorAction(store, question, skeleton=parse_skeleton("Count[Matching[Neighbour[_]]]"))
    assert action.complete("Count[Matching[Neighbour[Retrieve[Paper 0], linked], label, Human-Computer Interaction]]")
    assert not action.complete("Count[Matching[Neighbour[Retrieve[Paper 0], linked], label, Machine Learning]]")


def test_a_count_two_steps_away_not_counting_the_subject_is_two_hops_not_a_comparison() -> None:
    """"How many papers are two citation steps away from X (not counting X itself)?": "not counting X" compares no
    value with X's, and "two steps away" is two hops; the names left out are read bare or quoted, never as an owner."""
    store = _labelled_papers()
    shapes = [(parse_skeleton("Differing[_]"), 0.4), (parse_skeleton("Degree[_]"), 0.3),
              (parse_skeleton("Count[Neighbour[Neighbour[_]]]"), 0.2)]  # fmt: skip
    for question in (
        'How many papers are two citation steps away from "ReAct" (not counting "ReAct" itself)?',
        'How many papers lie at distance two from "ReAct", excluding "ReAct"?',
        'How many papers can "ReAct" reach through one of its references, other than "ReAct" itself?',
    ):
        wording = CounselorAction(store, question).wording
        assert not wording.unlike, question
        assert chosen_skeleton(shapes, wording, 0.5).render() == "Count[Neighbour[Neighbour[_]]]", question
    assert CounselorAction(store, 'How many papers "ReAct" cites have a label other than "ReAct"\'s?').wording.unlike
    assert left_out_names('How many, not counting "ReAct" itself?', ("ReAct",)) == ("ReAct",)
    assert left_out_names("Which papers besides Graph Counselor cite it?", ("Graph Counselor",)) == ("Graph Counselor",)
    assert left_out_names('Papers with a year other than "ReAct"\'s?', ("ReAct",)) == ()
    assert left_out_names('Which papers cite "ReAct"?', ("ReAct",)) == ()


def test_a_proper_name_written_bare_beside_a_quoted_one_is_a_name_too() -> None:
    """"Is "jazz" one of the tags of The Blue Notes?": a node's whole name written as a proper name (each word but
    "the", "of" and the like capitalised, where no sentence starts) beside a quoted one is the question's second
    name, one word too ("Madonna"); the same words in small letters, or opening the sentence, are none."""
    store = _music_graph()
    store.add_node("a3", "artist", {"name": "The Blue Notes"})
    store.add_node("a4", "artist", {"name": "Madonna"})
    store.add_edge("a3", "t1", "tagged", reverse_relation="tag_of")
    assert question_names(store, 'Is "jazz" one of the tags of The Blue Notes?') == ("jazz", "The Blue Notes")
    assert question_names(store, 'Does Madonna carry the tag "jazz"?') == ("Madonna", "jazz")
    assert question_names(store, 'Is "jazz" one of the tags of the blue notes?') == ("jazz",)
    assert question_names(store, 'Madonna: is "jazz" among her tags?') == ("jazz",)  # the sentence opens with it
    action = CounselorAction(store, 'Is "jazz" one of the tags of The Blue Notes?')
    assert action.complete("Contains[Neighbour[Retrieve[The Blue Notes], tagged], Retrieve[jazz]]")
    shapes = [(parse_skeleton("Contains[Neighbour[_], _]"), 0.9), (parse_skeleton("Feature[Neighbour[_]]"), 0.1)]
    assert chosen_skeleton(shapes, action.wording, 0.5) == shapes[0][0]


def test_friends_of_friends_written_out_are_two_hops_and_the_subject_left_after_its_name() -> None:
    """"How many users are friends of friends of user 1, user 1 excluded?": a link word of a link word of a name is
    two hops, and "X excluded" leaves X out as "not counting X" does."""
    store = _music_graph()
    question = "How many users are friends of friends of user 1, user 1 excluded?"
    wording = CounselorAction(store, question).wording
    assert wording.through_any and not wording.unlike
    shapes = [(parse_skeleton("Degree[_]"), 0.9), (parse_skeleton("Count[Neighbour[Neighbour[_]]]"), 0.1)]
    assert chosen_skeleton(shapes, wording, 0.5).render() == "Count[Neighbour[Neighbour[_]]]"
    assert left_out_names(question, ("user 1",)) == ("user 1",)
    assert left_out_names('How many, with "user 1" itself left out?', ("user 1",)) == ("user 1",)
    assert left_out_names("How many friends has user 1?", ("user 1",)) == ()
    # an asking word before "of" is no link, though "list" starts as "listened" does
    assert not CounselorAction(store, 'Could you send me the list of the friends of "user 1"?').wording.through_any


def test_a_count_of_different_nodes_one_hop_from_the_named_node_is_its_degree() -> None:
    """"How many different tags has X received?" (X an artist): tags lie one hop from an artist and never two, so the
    count is X's own; "distinct users" of a user (friends of friends are users too) stays a list's count."""
    store = _music_graph()
    degree = parse_skeleton("Degree[_]")
    assert consistent(degree, CounselorAction(store, '"Nina Simone" has received how many different tags?').wording)
    assert not consistent(degree, CounselorAction(store, "How many distinct users has user 1 befriended?").wording)


@pytest.mark.parametrize(("text", "way"), [("who listens to the widest range of artists?", "most"),
                                           ("which has the broadest audience?", "most"),
                                           ("which of them has the narrowest reach?", "fewest"),
                                           ("which has the shortest reference list?", "fewest")])  # fmt: skip
def test_widest_and_narrowest_are_superlatives(text: str, way: str) -> None:
    assert extreme_of(text) == way


def test_a_value_of_two_words_in_small_letters_is_written_and_never_a_bare_name() -> None:
    """"Which machine learning papers ...": a value of two words or more matches in small letters too (one word only
    before a node type's noun or a word for a category: "agents" is a plain word too); a value written with capitals beside a quoted name is a value, not a node's name,
    though some paper is titled so."""
    store = GraphStore("labels", directed=False, text_keys={"paper": "title"})
    for index, label in enumerate(("Machine Learning", "Agents", "Information Retrieval", "Agents")):
        store.add_node(str(index), "paper", {"title": f"Paper {index}", "label": label})
    store.add_node("9", "paper", {"title": "Information Retrieval", "label": "Agents"})
    store.add_node("8", "paper", {"title": "Agents", "label": "Agents"})
    assert written_values(store, "Which machine learning papers cite it?") == {("label", "Machine Learning")}
    assert written_values(store, "Which agents cite it?") == set()
    # one word in small letters is a value right before a node type's noun or a word for a category
    assert written_values(store, "Is any paper linked to it an agents paper?") == {("label", "Agents")}
    assert written_values(store, "How many are in the agents area?") == {("label", "Agents")}
    assert written_values(store, "How many agent papers cite it?") == {("label", "Agents")}  # its stem, singular
    question = 'The papers linked to "Paper 0" whose label is Information Retrieval: which?'
    assert question_names(store, question) == ("Paper 0",)
    assert question_names(store, 'The papers linked to "Paper 0" whose label is Agents: which?') == ("Paper 0",)


def test_the_node_most_of_a_list_of_lists_reaches_is_a_hop_from_a_hop() -> None:
    """"Top article among backlinks of backlinks of X": reached from a list, as two hops are, by ``MostLinked`` over
    X's list; one node's own list is not."""
    store = _moon_pages()
    wording = CounselorAction(store, 'Top article among backlinks of backlinks of "Moon"').wording
    assert wording.through_any
    assert consistent(parse_skeleton("Feature[MostLinked[Neighbour[_]]]"), wording)
    assert not consistent(parse_skeleton("Feature[MaxDegree[Neighbour[_]]]"), wording)


def test_the_type_a_question_writes_before_a_name_is_the_named_nodes_type() -> None:
    """"the tag "jazz"" where an artist is called jazz too: the named node is the tag, so "how many different
    artists" are its own links (artists lie one hop from a tag, never two); without the type written, either."""
    store = _music_graph()
    store.add_node("a5", "artist", {"name": "jazz"})
    degree = parse_skeleton("Degree[_]")
    assert consistent(degree, CounselorAction(store, 'How many different artists carry the tag "jazz"?').wording)
    assert not consistent(degree, CounselorAction(store, 'How many different artists carry "jazz"?').wording)


def test_which_node_a_list_most_often_carries_is_the_one_most_of_them_link_to() -> None:
    """"Which tag do the artists user 2 listened to most often carry?": the tag most of them carry (``MostLinked``),
    not the most common of the artists' names."""
    store = _music_graph()
    wording = CounselorAction(store, "Which tag do the artists user 2 listened to most often carry?").wording
    assert wording.votes and wording.asked_type == "tag"
    shapes = [(parse_skeleton("Mode[Feature[Neighbour[_]]]"), 0.6), (parse_skeleton("Feature[MostLinked[Neighbour[_]]]"), 0.2)]
    assert chosen_skeleton(shapes, wording, 0.5).render() == "Feature[MostLinked[Neighbour[_]]]"


def _ways_allowed(store: GraphStore, question: str, call: str, skeleton: str) -> set[tuple[str, ...]]:
    """The ways round (``links_to``, ``linked_from``) each ``{}`` of ``call`` may take, under ``skeleton``."""
    language = CounselorAction(store, question, skeleton=parse_skeleton(skeleton))
    ways = ("links_to", "linked_from")
    return {combo for combo in itertools.product(ways, repeat=call.count("{}")) if language.complete(call.format(*combo))}


def test_a_second_name_without_a_link_word_of_its_own_takes_the_first_names_way() -> None:
    """"the pages linked from X or Y", "both X and Y link to", "more articles link to X than to Y": the link word
    stands beside one name and is the other's too; "in exactly two clicks" walks the one link word twice."""
    store = _moon_pages()
    both = "Count[{}[Neighbour[Retrieve[Sun], {{}}], Neighbour[Retrieve[Moon], {{}}]]]"
    sets = "Count[{}[Neighbour[_], Neighbour[_]]]"
    cases = (
        ('How many pages are linked from "Sun" or "Moon"?', both.format("Union"), sets.format("Union"),
         {("links_to", "links_to")}),
        ('How many articles do both "Sun" and "Moon" link to?', both.format("Intersect"), sets.format("Intersect"),
         {("links_to", "links_to")}),
        ('How many articles link to "Sun" and "Moon" in total?', both.format("Union"), sets.format("Union"),
         {("linked_from", "linked_from")}),
        ('How many more articles link to "Moon" than to "Earth"?', "Difference[Retrieve[Moon], Retrieve[Earth], {}]",
         "Difference[_, _]", {("linked_from",)}),
        ('Does "Moon" link to more pages than "Earth"?', "MoreThan[Retrieve[Moon], Retrieve[Earth], {}]",
         "MoreThan[_, _]", {("links_to",)}),
        ('How many articles can you reach from "Sun" in exactly two clicks?',
         "Count[Neighbour[Neighbour[Retrieve[Sun], {}], {}]]", "Count[Neighbour[Neighbour[_]]]",
         {("links_to", "links_to")}),
    )  # fmt: skip
    for question, call, skeleton, ways in cases:
        assert _ways_allowed(store, question, call, skeleton) == ways, question


def test_where_a_link_goes_asks_for_the_node_it_reaches() -> None:
    """""X" has a single outgoing link. Where does it go?": a node is asked for, not a count."""
    assert answer_form("\n has a single outgoing link. Where does it go?", None) == "which"
    assert answer_form("Where do the links of \n lead?", None) is None  # the links' own place: not read here


def test_a_star_number_written_as_a_word_and_a_feature_named_by_another_word() -> None:
    """"gave X five stars" is the 5-star relation; "what does X do for a living?", "X's job" ask the occupation, "how
    old is X" the age, and "when was X released?" the release date (the one word of a dated feature that is not the
    date, where the question asks when)."""
    store = _ratings_graph()
    store.add_node("u4", "user", {"name": "user 4", "occupation": "doctor", "age": 40, "gender": "F"})
    store.add_node("m4", "movie", {"title": "Fargo (1996)", "release_date": "14-Feb-1997", "genre": "Crime"})
    store.add_edge("u4", "m4", "rated_5", reverse_relation="rated_5_by")
    store.add_edge("u4", "m4", "rated", reverse_relation="rated_by")
    stars = CounselorAction(store, 'How many users gave "Heat (1995)" five stars?', skeleton=parse_skeleton("Degree[_]"))
    assert stars.complete("Degree[Retrieve[Heat (1995)], rated_5_by]")
    assert not stars.complete("Degree[Retrieve[Heat (1995)], rated_by]")
    for question, name, key, wrong in (
        ("What does user 4 do for a living?", "user 4", "occupation", "gender"),
        ("What is the job of user 4?", "user 4", "occupation", "age"),
        ("How old is user 4?", "user 4", "age", "occupation"),
        ('When was "Fargo (1996)" released?', "Fargo (1996)", "release_date", "genre"),
    ):
        lookup = CounselorAction(store, question, skeleton=parse_skeleton("Feature[_]"))
        assert lookup.complete(f"Feature[Retrieve[{name}], {key}]"), question
        assert not lookup.complete(f"Feature[Retrieve[{name}], {wrong}]"), question
    release = CounselorAction(store, 'Was "Fargo (1996)" released on a Friday?', skeleton=parse_skeleton("Feature[_]"))
    assert "release_date" not in release.wording.spelled  # no "when" asked: the date is not named by "released" alone


def _people_and_places() -> GraphStore:
    """One node type, as in FB15k-237: where people were born and died, whom they married, their nationalities, and a
    country's capital; each relation with an ``_of`` reverse."""
    store = GraphStore("people", directed=True, text_keys={"entity": "name"})
    for node in ("Ann Lee", "Bo Park", "Paris", "France", "Lyon"):
        store.add_node(node, "entity", {"name": node})
    for source, target, relation in (("Ann Lee", "Paris", "place_of_birth"), ("Ann Lee", "Lyon", "place_of_death"),
                                     ("Ann Lee", "Bo Park", "spouse"), ("Ann Lee", "France", "nationality"),
                                     ("France", "Paris", "country_capital"),
                                     ("Bo Park", "Paris", "spouse_s_people_marriage_location_of_ceremony")):  # fmt: skip
        store.add_edge(source, target, relation, reverse_relation=f"{relation}_of")
    return store


@pytest.mark.parametrize(
    ("question", "right", "wrong"),
    [
        ('Where was "Ann Lee" born?', "Feature[Neighbour[Retrieve[Ann Lee], place_of_birth], name]",
         "Feature[Neighbour[Retrieve[Ann Lee], place_of_death], name]"),
        ('Where did "Ann Lee" die?', "Feature[Neighbour[Retrieve[Ann Lee], place_of_death], name]",
         "Feature[Neighbour[Retrieve[Ann Lee], place_of_birth], name]"),
        ('Who is "Ann Lee" married to?', "Feature[Neighbour[Retrieve[Ann Lee], spouse], name]",
         "Feature[Neighbour[Retrieve[Ann Lee], spouse_s_people_marriage_location_of_ceremony], name]"),
        ('How many nationalities does "Ann Lee" hold?', "Degree[Retrieve[Ann Lee], nationality]",
         "Degree[Retrieve[Ann Lee], spouse]"),
        ('What country is "Ann Lee" a citizen of?', "Feature[Neighbour[Retrieve[Ann Lee], nationality], name]",
         "Feature[Neighbour[Retrieve[Ann Lee], country_capital], name]"),
    ],
)  # fmt: skip
def test_a_verb_names_a_relation_its_noun_names(question: str, right: str, wrong: str) -> None:
    """"born" names the place of birth, "die" of death, "married" the spouse; "nationalities" is ``nationality``, as
    is "citizen"."""
    language = CounselorAction(_people_and_places(), question)
    assert language.complete(right) and not language.complete(wrong)


def test_what_is_the_link_of_a_node_asks_for_the_node_not_a_count() -> None:
    """"What is the capital of X?", "Where was X born?": what, who or where with no measure named ask for a node or a
    value; "What is the degree of X?" names a measure."""
    store = _people_and_places()
    degree, lookup = parse_skeleton("Degree[_]"), parse_skeleton("Feature[Neighbour[_]]")
    for question in ('What is the capital of "France"?', 'Where was "Ann Lee" born?'):
        wording = CounselorAction(store, question).wording
        assert wording.asks_thing and not consistent(degree, wording) and consistent(lookup, wording), question
    assert consistent(degree, CounselorAction(store, 'What is the degree of "France"?').wording)


def test_the_noun_a_count_asks_for_is_the_picked_members_links_not_the_picks() -> None:
    """"How many listeners does the most tagged artist user 2 listened to have?": the pick goes by tags, the count is
    of listeners; "the artist with the most listeners among those tagged X: how many tags does it have?" the other
    way round; "how many listeners does the most listened to ... have" counts the links it was picked by."""
    store = _music_graph()
    store.add_edge("a2", "t1", "tagged", reverse_relation="tag_of")  # a second arc: tags to pick by
    picked = parse_skeleton("Degree[MaxDegree[Neighbour[_]]]")
    cases = (
        ("How many listeners does the most tagged artist user 2 listened to have?",
         "Degree[MaxDegree[Neighbour[Retrieve[user 2], listened], tagged], listened_by]",
         "Degree[MaxDegree[Neighbour[Retrieve[user 2], listened], tagged], tagged]"),
        ('The artist with the most listeners among those tagged "jazz": how many tags does it have?',
         "Degree[MaxDegree[Neighbour[Retrieve[jazz], tag_of], listened_by], tagged]",
         "Degree[MaxDegree[Neighbour[Retrieve[jazz], tag_of], tagged], tagged]"),
    )  # fmt: skip
    for question, right, wrong in cases:
        language = CounselorAction(store, question, skeleton=picked)
        assert language.wording.picked_count, question
        assert language.complete(right) and not language.complete(wrong), question


def test_the_link_written_of_a_name_is_its_own_though_another_stands_beside_it() -> None:
    """"How many of the friends of user 1 listen to X?": user 1's friends (the list the question takes them from),
    though "listen" follows "user 1" too; "friends with someone who listens to X" are reached from X's listeners."""
    store = _music_graph()
    both = parse_skeleton("Count[Intersect[Neighbour[_], Neighbour[_]]]")
    language = CounselorAction(store, 'How many of the friends of user 1 listen to "Nina Simone"?', skeleton=both)
    call = "Count[Intersect[Neighbour[Retrieve[user 1], {}], Neighbour[Retrieve[Nina Simone], listened_by]]]"
    assert language.complete(call.format("friend")) and not language.complete(call.format("listened"))
    wording = CounselorAction(store, 'How many users are friends with someone who listens to "Nina Simone"?').wording
    assert wording.through_any
    shapes = [(parse_skeleton("Degree[_]"), 0.9), (parse_skeleton("Count[Neighbour[Neighbour[_]]]"), 0.1)]
    assert chosen_skeleton(shapes, wording, 0.5).render() == "Count[Neighbour[Neighbour[_]]]"


def test_a_link_word_right_before_a_superlative_is_the_picks() -> None:
    """"Which user followed by user 1 likes the fewest items?": "followed by user 1" is the list, "likes the fewest"
    the pick's links, though "likes" stands nearer the name."""
    store = _items_graph()
    for user in ("u2", "u3"):
        store.add_node(user, "user", {"name": f"user {user[1:]}"})
        store.add_edge("u1", user, "follows", reverse_relation="follows")
    store.add_edge("u2", "i1", "likes", reverse_relation="liked_by")
    question = "Which user followed by user 1 likes the fewest items?"
    language = CounselorAction(store, question, skeleton=parse_skeleton("Feature[MinDegree[Neighbour[_]]]"))
    assert language.complete("Feature[MinDegree[Neighbour[Retrieve[user 1], follows], likes], name]")
    assert not language.complete("Feature[MinDegree[Neighbour[Retrieve[user 1], likes], liked_by], name]")


def test_a_count_reached_through_someone_is_two_hops_where_the_planner_ranks_none() -> None:
    """"How many users follow someone who likes X?": a list reached through another; where no skeleton the planner
    ranks fits those words, the two-hop count stands in."""
    store = _items_graph()
    store.add_node("u2", "user", {"name": "user 2"})
    store.add_edge("u1", "u2", "follows", reverse_relation="follows")
    wording = CounselorAction(store, 'How many users follow someone who likes "Lamp"?').wording
    assert wording.through_any and wording.form == "number"
    ranked = [(parse_skeleton("Degree[_]"), 0.9), (parse_skeleton("Same[_]"), 0.1)]
    assert chosen_skeleton(ranked, wording, 0.5).render() == "Count[Neighbour[Neighbour[_]]]"
    assert not CounselorAction(store, 'Is there anyone who likes "Lamp"?').wording.through_any


def test_favourites_and_a_network_name_likes_and_follows_and_a_distinct_count_two_hops_away_stands_in() -> None:
    """"user 1's favourites" are the items user 1 likes, "the biggest network" is the most users followed; "how many
    different tags across everything user 1 likes?" is a two-hop count, where the planner ranks none that fits."""
    store = _items_graph()
    store.add_node("u2", "user", {"name": "user 2"})
    store.add_edge("u1", "u2", "follows", reverse_relation="follows")
    store.add_edge("u2", "i1", "likes", reverse_relation="liked_by")
    favourites = CounselorAction(store, "number of items in user 1's favourites?", skeleton=parse_skeleton("Degree[_]"))
    assert favourites.complete("Degree[Retrieve[user 1], likes]")
    assert not favourites.complete("Degree[Retrieve[user 1], follows]")
    network = CounselorAction(store, 'who has the biggest network among the fans of "Lamp"?',
                              skeleton=parse_skeleton("Feature[MaxDegree[Neighbour[_]]]"))  # fmt: skip
    assert network.complete("Feature[MaxDegree[Neighbour[Retrieve[Lamp], liked_by], follows], name]")
    assert not network.complete("Feature[MaxDegree[Neighbour[Retrieve[Lamp], liked_by], likes], name]")
    wording = CounselorAction(store, "how many different tags across everything user 1 likes?").wording
    ranked = [(parse_skeleton("Degree[_]"), 0.7), (parse_skeleton("Differing[_]"), 0.3)]
    assert chosen_skeleton(ranked, wording, 0.5).render() == "Count[Neighbour[Neighbour[_]]]"


def test_a_link_to_a_list_a_clause_names_is_two_hops_and_counting_that_list_is_one() -> None:
    """"How many articles link to the articles that link to X?" walks back twice; "Count the articles that link to
    X." once."""
    store = _moon_pages()
    two = "How many articles link to the articles that link to \"Earth\"?"
    assert CounselorAction(store, two).wording.through_any
    call, shape = "Count[Neighbour[Neighbour[Retrieve[Earth], {}], {}]]", "Count[Neighbour[Neighbour[_]]]"
    assert _ways_allowed(store, two, call, shape) == {("linked_from", "linked_from")}
    assert not CounselorAction(store, 'Count the articles that link to "Earth".').wording.through_any


def test_a_relation_whose_words_the_question_writes_all_wins_over_one_holding_fewer() -> None:
    """"How many films did X executive produce?": ``executive_produced_by`` (both its words written), not
    ``produced_by``; "Who produced X?" writes one of them only."""
    store = GraphStore("films", directed=True, text_keys={"entity": "name"})
    for node in ("Stan Lee", "Iron Man", "Kevin Feige"):
        store.add_node(node, "entity", {"name": node})
    store.add_edge("Iron Man", "Stan Lee", "executive_produced_by", reverse_relation="executive_produced_by_of")
    store.add_edge("Iron Man", "Kevin Feige", "produced_by", reverse_relation="produced_by_of")
    ways = ("executive_produced_by", "executive_produced_by_of", "produced_by", "produced_by_of")
    for question, call, right in (
        ('How many films did "Stan Lee" executive produce?', "Degree[Retrieve[Stan Lee], {}]", "executive_produced_by_of"),
        ('Who was the executive producer of "Iron Man"?', "Feature[Neighbour[Retrieve[Iron Man], {}], name]",
         "executive_produced_by"),
        ('Who produced "Iron Man"?', "Feature[Neighbour[Retrieve[Iron Man], {}], name]", "produced_by"),
    ):  # fmt: skip
        language = CounselorAction(store, question)
        assert [way for way in ways if language.complete(call.format(way))] == [right], question


def test_a_noun_beside_two_names_set_side_by_side_keeps_its_own_way() -> None:
    """"Who is having fewer reference, X or Y?": the noun's own way (references go out), not the way a verb right
    before a name would take; stems keep "nationalities" with "nationality" and "movies" with "movie"."""
    from tests.tools.conftest import build_paper_graph

    store = build_paper_graph()
    language = CounselorAction(store, 'Who is having fewer reference, "ReAct" or "Reflexion"?',
                               skeleton=parse_skeleton("Feature[MinDegree[Union[_, _]]]"))  # fmt: skip
    call = "Feature[MinDegree[Union[Retrieve[ReAct], Retrieve[Reflexion]], {}], title]"
    assert language.complete(call.format("cites")) and not language.complete(call.format("cited_by"))
    assert _cut("nationalities") == _cut("nationality") and _cut("movies") == _cut("movie") == _cut("Movie".lower())
    assert _cut("comedy") == _cut("comedies") and _cut("many") == "many"


def test_a_relation_whose_words_stand_apart_in_the_question_stands_in_for_one_holding_fewer() -> None:
    """"How many genres is the film X classed under?": ``film_genre`` (both its words written, apart), not ``films``,
    which "the film" before the name names; a question writing only "films" keeps ``films``."""
    store = GraphStore("films", directed=True, text_keys={"entity": "name"})
    for node in ("Heat", "Crime", "Thriller", "Festival"):
        store.add_node(node, "entity", {"name": node})
    for genre in ("Crime", "Thriller"):
        store.add_edge("Heat", genre, "film_genre", reverse_relation="film_genre_of")
    store.add_edge("Heat", "Festival", "films", reverse_relation="films_of")
    ways = ("film_genre", "film_genre_of", "films", "films_of")
    for question, right in (('How many genres is the film "Heat" classed under?', "film_genre"),
                            ('How many films does "Heat" list?', "films")):  # fmt: skip
        language = CounselorAction(store, question, skeleton=parse_skeleton("Degree[_]"))
        assert [way for way in ways if language.complete(f"Degree[Retrieve[Heat], {way}]")] == [right], question


def test_the_links_a_page_holds_are_its_own_and_a_name_left_out_starts_no_chain() -> None:
    """"How many links does the page X contain?", "the links on X" are X's outgoing links; "the number of citations in
    X" what X cites (but "how many citations does X have?" what cite it); in "reached from X in exactly two clicks,
    leaving out X itself" the second X, left out, starts no chain."""
    store = _moon_pages()
    _degree_link_ways(store, (
        ('How many links does the page "Moon" contain?', "links_to", "linked_from"),
        ('How many links does "Moon" have?', "links_to", "linked_from"),
        ('How many links are on the page "Moon"?', "links_to", "linked_from"),
        ('How many links point to "Moon"?', "linked_from", "links_to"),
    ))  # fmt: skip
    question = 'How many distinct pages can be reached from "Sun" in exactly two clicks, leaving out "Sun" itself?'
    call, shape = "Count[Neighbour[Neighbour[Retrieve[Sun], {}], {}]]", "Count[Neighbour[Neighbour[_]]]"
    assert _ways_allowed(store, question, call, shape) == {("links_to", "links_to")}
    for question in ('How many fewer links in "Moon" has than "Earth"?', 'How many fewer links in, "Moon" than "Earth"?'):
        call, shape = "Difference[Retrieve[Moon], Retrieve[Earth], {}]", "Difference[_, _]"  # "in" a particle there
        assert _ways_allowed(store, question, call, shape) == {("linked_from",)}, question
    papers = _labelled_papers()
    for question, right, wrong in (
        ('Can you tell me the number of citations in the paper "ReAct"?', "cites", "cited_by"),
        ('How many citations does "ReAct" have?', "cited_by", "cites"),
    ):
        language = CounselorAction(papers, question, skeleton=parse_skeleton("Degree[_]"))
        assert language.complete(f"Degree[Retrieve[ReAct], {right}]"), question
        assert not language.complete(f"Degree[Retrieve[ReAct], {wrong}]"), question


def test_most_before_a_plural_asks_what_most_members_hold_or_link_to() -> None:
    """"Most papers cited by X fall into which area?": the most common label; "Which paper do most papers citing X
    cite?": the one most of them cite; "which paper cites the most papers": one member picked, neither."""
    store = _labelled_papers()
    mode, voted = parse_skeleton("Mode[Feature[Neighbour[_]]]"), parse_skeleton("Feature[MostLinked[Neighbour[_]]]")
    picked = parse_skeleton("Feature[MaxDegree[Neighbour[_]]]")
    shapes = [(picked, 0.5), (parse_skeleton("Count[Feature[Neighbour[_]]]"), 0.3), (mode, 0.1), (voted, 0.1)]
    for question, right in (
        ('Most papers cited by "ReAct" fall into which research area?', mode),
        ('In the case of papers citing "ReAct", which area do most of them belong to?', mode),
        ('Which paper do most papers citing "ReAct" cite?', voted),
        ('What year do most of the papers "ReAct" cites have?', mode),  # a feature named: its most common value
        ('Which paper citing "ReAct" cites the most papers?', picked),
    ):
        wording = CounselorAction(store, question).wording
        assert chosen_skeleton(shapes, wording, 0.05) == right, question


def test_other_is_no_value_and_the_others_sharing_a_node_lie_two_hops_away() -> None:
    """"How many other movies share a genre with X?": no occupation "other" is matched (unless the feature is written
    before it), the movies are reached through the genres, two hops, X itself left out."""
    store = _ratings_graph()
    store.add_node("u4", "user", {"name": "user 4", "occupation": "other"})
    store.add_node("g1", "genre", {"name": "Crime"})
    for movie in ("m1", "m3"):
        store.add_edge(movie, "g1", "has_genre", reverse_relation="genre_of")
    question = 'How many other movies share a genre with "Heat (1995)"?'
    assert ("occupation", "other") not in written_values(store, question)
    assert ("occupation", "other") in written_values(store, "How many users with occupation other rated it?")
    wording = CounselorAction(store, question).wording
    assert consistent(parse_skeleton("Count[Neighbour[Neighbour[_]]]"), wording)
    assert not consistent(parse_skeleton("Same[_]"), wording)
    assert not consistent(parse_skeleton("Count[Matching[Neighbour[_]]]"), wording)
    assert left_out_names(question, ["Heat (1995)"]) == ("Heat (1995)",)


@pytest.mark.parametrize(
    ("question", "left"),
    [
        ('How many papers cite a reference of "ReAct", apart from that paper itself?', ("ReAct",)),
        ('How many papers other than it cite the papers "ReAct" cites?', ("ReAct",)),
        ('Which other papers does "ReAct" cite?', ("ReAct",)),
        ('How many papers other than its references cite "ReAct"?', ()),
        ('How many papers cite "ReAct"?', ()),
    ],
)
def test_the_one_name_is_left_out_by_a_pronoun_or_where_the_others_are_asked(question: str, left: tuple[str, ...]) -> None:
    assert left_out_names(question, ["ReAct"]) == left


def test_a_count_asked_of_what_a_request_finds_counts_the_type_it_names() -> None:
    """"Search for other artists under the same tags as X: how many are there?": artists are counted, two hops from
    X (through its tags), X itself left out; with no "how many" after it, the request counts nothing."""
    store = _music_graph()
    question = 'Search for other artists under the same tags as "Nina Simone": how many are there?'
    wording = CounselorAction(store, question).wording
    assert wording.counted_type == "artist"
    assert consistent(parse_skeleton("Count[Neighbour[Neighbour[_]]]"), wording)
    assert not consistent(parse_skeleton("Degree[_]"), wording)
    assert left_out_names(question, ["Nina Simone"]) == ("Nina Simone",)
    assert CounselorAction(store, 'Search for artists tagged like "Nina Simone".').wording.counted_type is None


def test_what_before_a_noun_asks_which_and_an_overlap_asked_whether_it_holds_anything_is_an_exists() -> None:
    """"What artist tagged X is also liked by Y?" asks which (the overlap's names), not yes or no; "Is there any
    artist both X and Y listen to? Kindly respond with True or False": whether the overlap holds anything (its "or"
    joins no lists); "the most frequently carried tag among the artists X listens to" is the tag most of them carry."""
    store = _music_graph()
    assert answer_form("What artist tagged \n is also liked by \n?", None) == "which"
    assert answer_form("What count of users have \n among their likes?", None) == "number"
    assert answer_form("What is the label of \n?", None) is None
    ranked = [(parse_skeleton("Contains[Neighbour[_], _]"), 0.5), (parse_skeleton("Count[Intersect[Neighbour[_], Neighbour[_]]]"), 0.2),
              (parse_skeleton("Feature[Neighbour[_]]"), 0.3)]  # fmt: skip
    which = CounselorAction(store, 'What artist tagged "jazz" is also listened to by "user 2"?').wording
    assert chosen_skeleton(ranked, which, 0.05).render() == "Feature[Intersect[Neighbour[_], Neighbour[_]]]"
    question = 'Is there any artist that both "user 1" and "user 2" listen to? Kindly respond with True or False'
    whether = CounselorAction(store, question).wording
    assert whether.set_way == "intersect" and not whether.union_worded
    assert chosen_skeleton(ranked, whether, 0.05).render() == "Exists[Intersect[Neighbour[_], Neighbour[_]]]"
    carried = CounselorAction(store, 'What is the most frequently carried tag among the artists "user 2" listens to?')
    assert carried.wording.votes and carried.wording.asked_type == "tag"
    cited = CounselorAction(_labelled_papers(), 'What is the most frequently cited paper among those "ReAct" cites?')
    assert not cited.wording.votes  # the member with the most citations, picked


def test_a_thing_two_links_from_the_one_name_is_looked_up_two_hops_away() -> None:
    """"Where was the spouse of X born?": the spouse's place of birth (two hops, "born" standing for the one relation
    that holds "birth"), not the spouse; "Where was X born?" stays one hop."""
    store = _people_and_places()
    two = CounselorAction(store, 'Where was the spouse of "Bo Park" born?')
    assert "place_of_birth" in two.wording.spelled
    ranked = [(parse_skeleton("Feature[_]"), 0.8), (parse_skeleton("Feature[Neighbour[_]]"), 0.1),
              (parse_skeleton("Mode[Feature[Neighbour[_]]]"), 0.1)]  # fmt: skip
    assert chosen_skeleton(ranked, two.wording, 0.05).render() == "Feature[Neighbour[Neighbour[_]]]"
    chain = CounselorAction(store, 'Where was the spouse of "Bo Park" born?', skeleton=parse_skeleton("Feature[Neighbour[Neighbour[_]]]"))
    assert chain.complete("Feature[Neighbour[Neighbour[Retrieve[Bo Park], spouse_of], place_of_birth], name]")
    one = CounselorAction(store, 'Where was "Bo Park" born?').wording
    assert chosen_skeleton(ranked, one, 0.05).render() == "Feature[Neighbour[_]]"
    # "the dominant label": the most common one over a list, never a lookup two links away
    assert CounselorAction(_labelled_papers(), 'What is the dominant label in the papers cited by "ReAct"?').wording.mode_worded


def test_on_a_graph_of_one_type_the_relations_the_named_node_has_win() -> None:
    """FB15k-237 gives every node one type: "What religion does X follow?" takes the religion relation X has, not the
    one only countries have; "How many films did X direct?" the ``director_film`` X has, not the relation "films"
    named, where X has none of the words' options; a link's other way round stays allowed (a count of 0 may be
    asked)."""
    store = GraphStore("kg", directed=True, text_keys={"entity": "name"})
    for node in ("Ann Lee", "France", "Catholicism", "Heat", "Alien", "Festival"):
        store.add_node(node, "entity", {"name": node})
    for source, target, relation in (("Ann Lee", "Catholicism", "person_religion"),
                                     ("France", "Catholicism", "religion_percentage_religion"),
                                     ("Ann Lee", "Heat", "director_film"), ("Ann Lee", "Alien", "director_film"),
                                     ("Festival", "Heat", "films"), ("Heat", "Alien", "film_art_direction_by")):  # fmt: skip
        store.add_edge(source, target, relation, reverse_relation=f"{relation}_of")
    relations = sorted({relation for ends in store.schema().values() for relation in ends})

    def allowed(question: str, call: str, shape: str) -> list[str]:
        language = CounselorAction(store, question, skeleton=parse_skeleton(shape))
        return [relation for relation in relations if language.complete(call.format(relation))]

    lookup = "Feature[Neighbour[Retrieve[{}], {{}}], name]"
    assert allowed('What religion does "Ann Lee" follow?', lookup.format("Ann Lee"), "Feature[Neighbour[_]]") == ["person_religion"]
    assert allowed('How many films did "Ann Lee" direct?', "Degree[Retrieve[Ann Lee], {}]", "Degree[_]") == ["director_film"]
    papers = GraphStore("papers", directed=True, text_keys={"paper": "title"})
    for node in ("Alpha", "Beta"):
        papers.add_node(node, "paper", {"title": node})
    papers.add_edge("Alpha", "Beta", "cites", reverse_relation="cited_by")  # Beta cites nothing
    language = CounselorAction(papers, 'How many papers does "Beta" cite?', skeleton=parse_skeleton("Degree[_]"))
    assert language.complete("Degree[Retrieve[Beta], cites]")  # 0, never its citers counted instead


def test_distinct_nodes_a_link_reaches_are_no_feature_values_and_one_name_joins_no_lists() -> None:
    """"How many different genres do the films directed by X cover?" (genres are nodes): the genres two hops away,
    not the distinct names of the films, and no overlap of two lists where one name is written and no word joins."""
    store = _people_and_places()
    for node in ("Heat", "Crime"):
        store.add_node(node, "entity", {"name": node})
    store.add_edge("Ann Lee", "Heat", "director_film", reverse_relation="director_film_of")
    store.add_edge("Heat", "Crime", "film_genre", reverse_relation="film_genre_of")
    wording = CounselorAction(store, 'How many different genres do the films directed by "Ann Lee" cover?').wording
    assert wording.link_mentions == 2
    assert consistent(parse_skeleton("Count[Neighbour[Neighbour[_]]]"), wording)
    assert not consistent(parse_skeleton("Count[Feature[Neighbour[_]]]"), wording)
    assert not consistent(parse_skeleton("Count[Intersect[Neighbour[_], Neighbour[_]]]"), wording)

