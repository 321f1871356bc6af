"""Question programs over a schema: both directions, golds from the reference evaluator, many wordings.

A small graph of three node types (users, items, tags) has every gold worked out by hand here; on
Cora the golds of the set-valued programs are checked once more against networkx.
"""

from __future__ import annotations

import re
from collections import Counter

import pytest

from graphreason.evals.datasets.program_questions import (
    ALL_FAMILIES,
    BLIND_FAMILIES,
    EVAL_ONLY_FAMILIES,
    FAMILIES,
    SHAPES,
    TIE_SHAPES,
    UNSEEN_GRAPHS,
    WORDINGS,
    check_trainable,
    plural,
    program_questions,
    relation_phrases,
)
from graphreason.evals.datasets.programs import (
    MAX_DEPTH,
    AnyWith,
    CompareToSubject,
    Contains,
    Count,
    Extreme,
    Filter,
    Gap,
    Hop,
    Join,
    Lookup,
    Mode,
    MoreThan,
    MostReached,
    Names,
    OfExtreme,
    OnlyMember,
    PlainGraph,
    Program,
    Subject,
    TiedPick,
    schema_of,
)
from graphreason.tools.core.store import GraphStore
from tests.conftest import require_data

pytestmark = pytest.mark.heavy


def _shop() -> GraphStore:
    """Users listen to items, items carry tags, users are friends (undirected in effect: both arcs)."""
    store = GraphStore(name="shop", directed=True, text_keys={"user": "name", "item": "title", "tag": "name"})
    for uid, name, country in (("u1", "Ann Lee", "NO"), ("u2", "Bo Chen", "NO"), ("u3", "Cy Diaz", "PE"), ("u4", "Di Eze", "PE")):
        store.add_node(uid, "user", {"name": name, "country": country})
    for iid, title, genre in (("i1", "Blue Train", "jazz"), ("i2", "Kind of Blue", "jazz"), ("i3", "Nevermind", "rock"),
                              ("i4", "Ten", "rock"), ("i5", "Mezzanine", "trip hop")):  # fmt: skip
        store.add_node(iid, "item", {"title": title, "genre": genre})
    for tid, name in (("t1", "classic"), ("t2", "nineties"), ("t3", "mellow")):
        store.add_node(tid, "tag", {"name": name})
    for user, item in (("u1", "i1"), ("u1", "i2"), ("u1", "i3"), ("u2", "i2"), ("u2", "i4"), ("u3", "i3"), ("u3", "i4"),
                       ("u3", "i5"), ("u4", "i5")):  # fmt: skip
        store.add_edge(user, item, "listens", reverse_relation="listener")
    for item, tag in (("i1", "t1"), ("i2", "t1"), ("i2", "t3"), ("i3", "t2"), ("i4", "t2"), ("i5", "t2"), ("i5", "t3")):
        store.add_edge(item, tag, "tag", reverse_relation="tagged")
    for a, b in (("u1", "u2"), ("u2", "u3")):
        store.add_edge(a, b, "friend", reverse_relation="friend")
    return store


@pytest.fixture(scope="module")
def shop() -> PlainGraph:
    return PlainGraph.from_store(_shop())


def test_the_schema_has_every_relation_in_both_directions_and_the_categories(shop: PlainGraph) -> None:
    schema = schema_of(shop, _shop().text_keys)
    assert schema["user"].relations == {"friend": ("user",), "listens": ("item",)}
    assert schema["item"].relations == {"listener": ("user",), "tag": ("tag",)}
    assert schema["tag"].relations == {"tagged": ("item",)}
    assert schema["user"].categories == ("country",) and schema["user"].name_key == "name"
    assert schema["item"].categories == ("genre",)
    assert schema["tag"].categories == ()  # a name is not a category


def _gold(shop: PlainGraph, operation, *bound: str):  # noqa: ANN001, ANN202
    return Program("test", operation, bound).evaluate(shop)


def test_each_operation_gives_the_gold_worked_out_by_hand(shop: PlainGraph) -> None:
    listens = Hop(Subject(0), "listens")
    assert _gold(shop, Lookup("country"), "u3") == "PE"
    assert _gold(shop, Count(listens), "u1") == "3"
    assert _gold(shop, Count(Hop(Subject(0), "friend")), "u4") == "0"  # none is an answer
    assert _gold(shop, Names(listens), "u1") == ["Blue Train", "Kind of Blue", "Nevermind"]
    # two hops: the tags of the items Ann Lee listens to (each once)
    assert _gold(shop, Count(Hop(listens, "tag")), "u1") == "3"
    assert _gold(shop, Names(Hop(Hop(Subject(0), "tagged"), "listener")), "t3") == ["Ann Lee", "Bo Chen", "Cy Diaz", "Di Eze"]
    # the one of Cy Diaz's items with the most listeners, and a tie that has no answer
    assert _gold(shop, Extreme(listens, "listener"), "u3") is None  # i3 and i4 have 2 listeners each, i5 too
    assert _gold(shop, Extreme(listens, "listener", most=False), "u2") is None  # i2, i4: 2 each
    assert _gold(shop, Extreme(listens, "tag"), "u1") == "Kind of Blue"  # 2 tags against 1 and 1
    assert _gold(shop, Extreme(listens, "tag", most=False), "u3") is None  # i3, i4: 1 tag each
    # a value of the item picked by its tags: its genre, or its own count of tags
    assert _gold(shop, OfExtreme(listens, "tag", key="genre"), "u1") == "jazz"  # Kind of Blue, 2 tags against 1 and 1
    assert _gold(shop, OfExtreme(listens, "tag"), "u1") == "2"
    assert _gold(shop, OfExtreme(listens, "tag", most=False), "u1") is None  # Blue Train, Nevermind: 1 tag each
    assert _gold(shop, OfExtreme(listens, "tag", most=False, key="genre"), "u2") == "rock"  # Ten: 1 tag, Kind of Blue 2
    assert _gold(shop, OfExtreme(listens, "tag", most=False), "u2") == "1"
    assert _gold(shop, OfExtreme(listens, "listener", key="genre"), "u3") is None  # 2 listeners each: a tie
    assert OfExtreme(listens, "tag").depth == 3  # the hop, the pick, its value
    # a feature of the one item a user listens to: Di Eze listens to Mezzanine only
    assert _gold(shop, OnlyMember(listens, "genre"), "u4") == "trip hop"
    assert _gold(shop, OnlyMember(listens, "title"), "u4") == "Mezzanine"
    assert _gold(shop, OnlyMember(listens, "genre"), "u1") is None  # three items: no one item to ask about
    assert _gold(shop, OnlyMember(Hop(Subject(0), "friend"), "country"), "u4") is None  # none
    assert _gold(shop, Mode(listens, "genre"), "u1") == "jazz"
    assert _gold(shop, Mode(listens, "genre"), "u2") is None  # one jazz, one rock: a tie
    # the tag most of a user's items carry: classic on two of Ann Lee's three; each once on Bo Chen's
    assert _gold(shop, MostReached(listens, "tag"), "u1") == "classic"
    assert _gold(shop, MostReached(listens, "tag"), "u3") == "nineties"  # all three of Cy Diaz's items
    assert _gold(shop, MostReached(listens, "tag"), "u2") is None  # three tags, one item each
    assert _gold(shop, MostReached(listens, "listener"), "u1") is None  # Ann Lee listens to all three: she would win
    assert _gold(shop, Count(Filter(listens, "genre", "rock")), "u3") == "2"
    # two users compared by the items they listen to: Ann Lee and Cy Diaz 3 each, Bo Chen 2, Di Eze 1
    assert _gold(shop, MoreThan("listens"), "u1", "u2") == "yes"
    assert _gold(shop, MoreThan("listens", more=False), "u1", "u2") == "no"
    assert _gold(shop, MoreThan("listens", more=False), "u4", "u2") == "yes"
    assert _gold(shop, MoreThan("listens"), "u1", "u3") is None  # 3 and 3: a tie is not asked
    assert _gold(shop, Gap("listens"), "u1", "u4") == "2"
    assert _gold(shop, Gap("listens", more=False), "u4", "u1") == "2"
    assert _gold(shop, Gap("listens"), "u4", "u1") is None  # "how many more" of the one with fewer: not asked
    assert _gold(shop, CompareToSubject(Hop(Subject(0), "friend"), "country", same=True), "u2") == "1"  # Ann (NO)
    assert _gold(shop, CompareToSubject(Hop(Subject(0), "friend"), "country", same=False), "u2") == "1"  # Cy (PE)
    both = Join(listens, Hop(Subject(1), "listens"), "both")
    either = Join(listens, Hop(Subject(1), "listens"), "either")
    assert _gold(shop, Count(both), "u1", "u3") == "1"  # Nevermind
    assert _gold(shop, Count(either), "u1", "u3") == "5"
    assert _gold(shop, Contains(listens), "u2", "i4") == "yes"
    assert _gold(shop, Contains(listens), "u2", "i5") == "no"
    assert _gold(shop, AnyWith(listens, "genre", "trip hop"), "u4") == "yes"
    assert _gold(shop, AnyWith(listens, "genre", "jazz"), "u4") == "no"


def test_a_tie_for_the_pick_is_answered_by_every_tied_node(shop: PlainGraph) -> None:
    listens = Hop(Subject(0), "listens")
    # Cy Diaz's three items have 2 listeners each: all three are the most listened to
    assert _gold(shop, TiedPick(listens, "listener"), "u3") == ["Mezzanine", "Nevermind", "Ten"]
    assert _gold(shop, TiedPick(listens, "listener", key="genre"), "u3") == ["rock", "trip hop"]  # each value once
    assert _gold(shop, TiedPick(listens, "listener", count=True), "u3") == "2"
    # Ann Lee's items by their tags: the fewest (1) is a tie of Blue Train and Nevermind, the most (2) is one item
    assert _gold(shop, TiedPick(listens, "tag", most=False), "u1") == ["Blue Train", "Nevermind"]
    assert _gold(shop, TiedPick(listens, "tag", most=False, key="genre"), "u1") == ["jazz", "rock"]
    assert _gold(shop, TiedPick(listens, "tag", most=False, count=True), "u1") == "1"
    assert _gold(shop, TiedPick(listens, "tag"), "u1") is None  # Kind of Blue wins alone: Extreme asks that
    # Cy Diaz's items by their tags, the fewest: Nevermind and Ten (1 each), both rock: one value
    assert _gold(shop, TiedPick(listens, "tag", most=False, key="genre"), "u3") == "rock"
    assert _gold(shop, TiedPick(listens, "tag"), "u4") is None  # one item: nothing to tie with
    assert TiedPick(listens, "tag").depth == 2 and TiedPick(listens, "tag", key="genre").depth == 3
    assert TiedPick(listens, "tag", count=True).depth == 3


def test_tie_shapes_are_asked_only_when_named_in_the_wordings_of_their_shape() -> None:
    store = _shop()
    graph = PlainGraph.from_store(store)
    assert not set(TIE_SHAPES) & set(SHAPES)
    assert all(item.meta["shape"] not in TIE_SHAPES for item in program_questions(store, 80, seed=3))
    items = program_questions(store, 8 * len(TIE_SHAPES), seed=3, shapes=list(TIE_SHAPES))
    assert {item.meta["shape"] for item in items} == set(TIE_SHAPES)
    for item in items:
        asked = WORDINGS[TIE_SHAPES[item.meta["shape"]]]
        assert any(item.meta["family"] == family for family, _ in asked), item.question
        assert item.reference_action is None  # a tie is an error observation: no one call answers it
        # the gold, worked out again from the arcs: the bound subject's set, its degrees, every node at the best
        program = item.meta["program"]
        relation = re.search(r"TiedPick\(source=Hop\(source=Subject\(slot=0\), relation='(\w+)'\), relation='(\w+)'", program)
        assert relation, program
        members = graph.arcs[item.meta["bound"][0]][relation.group(1)]
        degree = {n: len(graph.arcs[n].get(relation.group(2), ())) for n in members}
        best = (max if "most=True" in program else min)(degree.values())
        tied = sorted(n for n, d in degree.items() if d == best)
        assert len(tied) >= 2, item.question
        if item.meta["shape"] == "extreme_count_tied":
            assert item.answer == str(best)
        elif item.meta["shape"] == "extreme_feature_tied":
            key = re.search(r"key='(\w+)'", program).group(1)
            assert set(item.answers or [item.answer]) == {graph.features[n][key] for n in tied}
        else:
            assert sorted(item.answers) == sorted(graph.names[n] for n in tied)
    with pytest.raises(ValueError, match="evaluation only"):
        program_questions(store, 4, shapes=["most_tied"], for_training=True)


def test_a_program_deeper_than_the_limit_is_refused(shop: PlainGraph) -> None:
    deep = Count(Hop(Hop(Hop(Subject(0), "listens"), "tag"), "tagged"))
    assert deep.depth == MAX_DEPTH + 1
    with pytest.raises(ValueError, match="at most 3"):
        Program("deep", deep, ("u1",)).evaluate(shop)


def test_every_shape_has_ten_wordings_two_per_family() -> None:
    for shape, wordings in WORDINGS.items():
        assert len({text for _, text in wordings}) == len(wordings) >= 10, shape
        assert Counter(family for family, _ in wordings) == dict.fromkeys(ALL_FAMILIES, 2), shape


def test_the_evaluation_only_family_is_asked_only_when_named_and_never_trained_on() -> None:
    store = _shop()
    assert not set(EVAL_ONLY_FAMILIES) & set(FAMILIES)
    assert all(item.meta["family"] in FAMILIES for item in program_questions(store, 60, seed=3))
    others = program_questions(store, 30, seed=3, families=["others"])
    assert others and {item.meta["family"] for item in others} == {"others"}
    with pytest.raises(ValueError, match="evaluation only"):
        program_questions(store, 3, families=["others"], for_training=True)
    with pytest.raises(ValueError, match="evaluation only"):
        program_questions(store, 3, families=["ask", "others"], for_training=True)


def test_a_blind_family_is_an_evaluation_only_one_and_the_docs_say_which() -> None:
    """The families no grammar rule was written from are evaluation-only ones, and the generated quality page
    calls their figures first looks (the benchmark writes :data:`BLIND_FAMILIES` into its result file as
    ``blind_families``, which ``docs/generate.py`` reads: a figure is a first look only if it was blind when measured)."""
    import importlib.util
    from pathlib import Path

    assert set(BLIND_FAMILIES) <= set(EVAL_ONLY_FAMILIES)
    path = Path(__file__).resolve().parents[3] / "docs" / "generate.py"
    spec = importlib.util.spec_from_file_location("docs_generate", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    read, blind = EVAL_ONLY_FAMILIES[0], EVAL_ONLY_FAMILIES[-1]  # as a result file says they were when it ran
    rows = {read: {"exact_match": 99.0, "questions": 95}, blind: {"exact_match": 82.3, "questions": 96}}
    assert "first look" not in module._blindness({"eval_only_by_family": rows, "blind_families": []})
    text = module._blindness({"eval_only_by_family": rows, "blind_families": [blind]})
    assert f"`{blind}`" in text and "first look" in text and f"`{read}`" not in text
    assert "first look" not in module._blindness({"eval_only_by_family": rows})  # a file that names none

def test_the_fresh_family_names_relations_in_phrases_of_its_own() -> None:
    """``fresh`` phrases a relation its own way where it has one ("the fans of X"), never the lexicon's."""
    store = GraphStore(name="music", directed=True, text_keys={"artist": "name", "user": "name"})
    for node, kind, name in (("a1", "artist", "Nina Simone"), ("a2", "artist", "Miles Davis"), ("u1", "user", "Ann Lee"),
                             ("u2", "user", "Bo Chen"), ("u3", "user", "Cy Diaz")):  # fmt: skip
        store.add_node(node, kind, {"name": name})
    for user, artist in (("u1", "a1"), ("u2", "a1"), ("u3", "a1"), ("u2", "a2"), ("u3", "a2")):
        store.add_edge(user, artist, "listened", reverse_relation="listened_by")

    def pattern(forms: tuple[str, ...]) -> re.Pattern[str]:  # a phrase form as it reads in a question
        parts = [re.escape(form).replace(re.escape("{T}"), r"\w+").replace(re.escape("{x}"), '"[^"]+"') for form in forms]
        return re.compile("|".join(parts), re.IGNORECASE)

    own = pattern(tuple(f for kind in ("listened", "listened_by") for f in relation_phrases(kind, "fresh")["single"]))
    lexicon = pattern(tuple(f for kind in ("listened", "listened_by") for f in relation_phrases(kind)["single"]))
    fresh = program_questions(store, 40, seed=1, families=["fresh"], shapes=["count", "names"])
    assert fresh and {item.meta["family"] for item in fresh} == {"fresh"}
    assert all(own.search(item.question) and not lexicon.search(item.question) for item in fresh), [i.question for i in fresh]
    with pytest.raises(ValueError, match="evaluation only"):
        program_questions(store, 3, families=["fresh"], for_training=True)


def test_relations_read_in_many_ways_and_unknown_labels_from_their_words() -> None:
    for label in ("cites", "cited_by", "links_to", "listener", "tag", "friend", "rated_by"):
        assert len(relation_phrases(label)["single"]) >= 2, label
    made = relation_phrases("written_by")
    assert all("written by" in form for form in made["single"])
    assert "4 stars" in relation_phrases("rated_4_by")["single"][0]
    assert (plural("paper"), plural("category"), plural("class"), plural("day")) == ("papers", "categories", "classes", "days")


def test_questions_cover_every_shape_with_golds_from_the_programs() -> None:
    store = _shop()
    items = program_questions(store, 60, seed=3)
    assert {item.meta["shape"] for item in items} == set(SHAPES)
    graph = PlainGraph.from_store(store)
    for item in items:
        assert 1 <= item.meta["depth"] <= MAX_DEPTH and item.meta["family"] in FAMILIES
        assert not re.search(r"\{\w+\}", item.question), item.question  # every slot filled
        assert item.answer and item.graph == "shop"
        # the subject is named by its quoted name, never by its id
        names = [f'"{graph.names[node]}"' for node in item.meta["bound"]]
        assert all(name in item.question for name in names), item.question


def test_the_same_seed_gives_the_same_questions_and_families_can_be_left_out() -> None:
    store = _shop()
    first = [item.to_dict() for item in program_questions(store, 30, seed=5)]
    assert first == [item.to_dict() for item in program_questions(store, 30, seed=5)]
    kept = program_questions(store, 30, seed=5, families=["ask", "tell", "curious", "formal"])
    assert kept and all(item.meta["family"] != "terse" for item in kept)
    with pytest.raises(KeyError, match="unknown wording family"):
        program_questions(store, 3, families=["shouty"])
    with pytest.raises(KeyError, match="unknown shape"):
        program_questions(store, 3, shapes=["sorcery"])


def test_a_shape_asks_the_same_questions_whichever_other_shapes_are_asked() -> None:
    store = _shop()

    def by_shape(shapes: list[str]) -> dict[str, list[tuple[str, str]]]:
        found: dict[str, list[tuple[str, str]]] = {}
        for item in program_questions(store, 3 * len(shapes), seed=4, shapes=shapes):
            found.setdefault(item.meta["shape"], []).append((item.question, item.answer))
        return found

    alone, among = by_shape(["count", "mode"]), by_shape(["names", "count", "exists", "mode"])
    assert alone["count"] and alone["mode"]
    assert alone["count"] == among["count"] and alone["mode"] == among["mode"]


def test_unseen_graphs_never_become_training_data() -> None:
    assert {"citeseer", "last-fm"} <= UNSEEN_GRAPHS
    for name in ("citeseer", "CiteSeer", "last-fm"):
        with pytest.raises(ValueError, match="evaluation only"):
            check_trainable(name)
    unseen = _shop()
    unseen.name = "citeseer"
    with pytest.raises(ValueError, match="unseen graph"):
        program_questions(unseen, 3, for_training=True)
    assert program_questions(unseen, 3)  # evaluation questions on it are fine
    check_trainable("cora")


def test_cora_golds_agree_with_networkx() -> None:
    import networkx as nx

    from graphreason.tools.core.loaders import load_graph

    require_data("cora-citeseer-text")
    store = load_graph("cora")
    arcs = nx.DiGraph()
    for edge in store.edges():
        arcs.add_edge(edge.src, edge.dst)
    items = program_questions(store, 80, seed=11, shapes=["count", "names", "two_hop_count", "exists", "shared"])
    by_title = {store.text(n): n for n in store.nodes()}
    checked = 0
    for item in items:
        program = item.meta["program"]
        nodes = item.meta["bound"]
        forward = "cites" in program and "cited_by" not in program
        step = arcs.successors if forward else arcs.predecessors
        one = set(step(nodes[0]))
        if item.meta["shape"] == "count":
            assert item.answer == str(len(one)), item.question
        elif item.meta["shape"] == "names":
            assert sorted(by_title[t] for t in item.answers) == sorted(one), item.question
        elif item.meta["shape"] == "exists":
            assert item.answer == ("yes" if nodes[1] in one else "no"), item.question
        elif item.meta["shape"] == "shared":
            assert item.answer == str(len(one & set(step(nodes[1])))), item.question
        else:
            continue  # two hops mix directions; the hand-worked graph above covers them
        checked += 1
    assert checked >= 40


DATA = {"cora": "cora-citeseer-text", "movielens": "movielens-100k", "wn18rr": "kg-wn18", "fb15k-237": "kg-fb15k"}


@pytest.mark.parametrize("graph", ["shop", "cora", "movielens", "wn18rr", "fb15k-237"])
def test_each_reference_action_reaches_the_programs_gold(graph: str) -> None:
    """The one-call shapes carry a Counselor action; the documented call semantics give the same gold."""
    from graphreason.evals.datasets.answer_rules import apply_answer_rule
    from graphreason.tools.core.loaders import load_graph
    from tests.evals.datasets.reference_eval import ReferenceEvaluator

    if graph != "shop":
        require_data(DATA[graph])
    store = _shop() if graph == "shop" else load_graph(graph)
    items = program_questions(store, 140, seed=2)
    evaluator = ReferenceEvaluator(store)
    with_action = [item for item in items if item.reference_action]
    shapes = {item.meta["shape"] for item in with_action}
    assert {"count", "names", "two_hop_count", "fewest", "shared", "either", "exists"} <= shapes, shapes
    if graph == "shop":  # every shape, the two that filter by a value the question names with Matching
        assert shapes == set(SHAPES), shapes
        assert all(item.reference_action.startswith("Exists[Matching[") for item in with_action if item.meta["shape"] == "any_with")
        assert {item.answer for item in with_action if item.meta["shape"] == "any_with"} == {"yes", "no"}
    for item in with_action:  # one call whose observation holds the answer: nothing is worked out over lists
        assert item.reference_answer_rule in ("value", "count", "list"), (item.meta["shape"], item.reference_answer_rule)
        answer, answers = apply_answer_rule(item.reference_answer_rule, evaluator.run(item.reference_action))
        assert answer == item.answer, (item.question, item.reference_action, answer)
    assert len(with_action) >= 40


def test_a_path_to_an_unseen_graph_is_refused_too(tmp_path) -> None:
    for spec in ("data/last-fm/graph.json", "/x/citeseer.json", "CiteSeer"):
        with pytest.raises(ValueError, match="evaluation only"):
            check_trainable(spec)
    check_trainable(str(tmp_path / "shop" / "graph.json"))


def test_training_and_evaluation_never_draw_the_same_questions_from_one_seed() -> None:
    store = _shop()
    trained = {item.question for item in program_questions(store, 40, seed=0, for_training=True)}
    asked = [item.question for item in program_questions(store, 40, seed=0)]
    assert sum(question in trained for question in asked) < len(asked) // 4  # a small graph repeats a few


def test_bare_names_are_the_same_questions_without_quotes() -> None:
    store = _shop()
    quoted = program_questions(store, 30, seed=5)
    bare = program_questions(store, 30, seed=5, bare_names=True)
    assert [item.question.replace('"', "") for item in quoted] == [item.question for item in bare]
    assert [item.answer for item in quoted] == [item.answer for item in bare]
    assert any('"' in item.question for item in quoted) and not any('"' in item.question for item in bare)
    assert all(item.meta["bare_names"] for item in bare) and "bare_names" not in quoted[0].meta


def test_a_single_nodes_phrase_names_its_type_and_agrees_with_one() -> None:
    """"The paper that X cites" reads as one node; "the paper that cite X" (a plural verb) and "the tags of X" (no
    type named) do not, so ``neighbour_feature`` never words them."""
    from graphreason.evals.datasets.program_questions import _reads_as_one

    assert _reads_as_one("the {T} that {x} cites") and _reads_as_one("the {T} cited by {x}")
    assert _reads_as_one("the {T} who listens to {x}")
    assert not _reads_as_one("the {T} that cite {x}") and not _reads_as_one("the tags of {x}")
