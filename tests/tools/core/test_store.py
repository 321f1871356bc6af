"""GraphStore: adjacency per relation and direction, errors, text, export."""

from __future__ import annotations

import pytest

from graphreason.tools.core.errors import UnknownFeatureError, UnknownNodeError, UnknownRelationError
from graphreason.tools.core.store import GraphStore
from tests.tools.conftest import build_paper_graph


def test_directed_reverse_labels(store: GraphStore) -> None:
    assert store.neighbors("1", "cites") == ["2", "3", "4"]
    assert store.neighbors("4", "cited_by") == ["1", "2", "3"]
    assert store.neighbors("a2", "writes") == ["1", "3", "4"]
    # the forward label is not listed at the target
    assert store.neighbors("4", "cites") == ["5", "6"]


def test_neighbors_all_relations_and_directions(store: GraphStore) -> None:
    # labels in the order they first appeared at the node: cited_by, cites, written_by
    assert store.neighbors("4") == ["1", "2", "3", "5", "6", "a2", "a3"]
    # "in" reads the incoming arcs of every label, reverse labels included
    assert set(store.neighbors("4", direction="in")) == {"1", "2", "3", "5", "6", "a2", "a3"}
    assert store.neighbors("4", "cites", direction="in") == ["1", "2", "3"]
    assert store.neighbors("4", "cites", direction="any") == ["5", "6", "1", "2", "3"]


def test_directed_without_reverse_label_reaches_in_arcs() -> None:
    store = GraphStore(directed=True)
    store.add_edge("u", "v", "follows")
    assert store.neighbors("v", "follows") == []
    assert store.neighbors("v", "follows", direction="in") == ["u"]
    assert store.neighbors("v", direction="any") == ["u"]


def test_undirected_lists_both_ends() -> None:
    store = GraphStore.from_edges([(1, 2), (2, 3)], relation="link")
    assert store.neighbors("2", "link") == ["1", "3"]
    assert store.neighbors(1, "link") == ["2"]
    assert store.neighbors("2", direction="any") == ["1", "3"]
    assert store.degree("2", "link") == 2


def test_degree_per_relation(store: GraphStore) -> None:
    assert store.degree("4", "cited_by") == 3
    assert store.degree("4", "written_by") == 2
    assert store.degree("4") == 7
    assert store.degree("6", "cites") == 0


def test_unknown_relation_vs_known_but_empty(store: GraphStore) -> None:
    assert store.neighbors("6", "cites") == []  # known label, no arcs here
    with pytest.raises(UnknownRelationError) as info:
        store.neighbors("1", "references")
    message = str(info.value)
    assert "'references'" in message and "cites" in message and "written_by" in message


def test_unknown_node_error_suggests_similar_ids(store: GraphStore) -> None:
    with pytest.raises(UnknownNodeError) as info:
        store.require("a9")
    assert "'a9'" in str(info.value) and "Retrieve" in str(info.value)
    with pytest.raises(UnknownNodeError):
        store.neighbors("nope", "cites")
    assert store.require(" 3 ") == "3"


def test_feature_and_errors_list_valid_keys(store: GraphStore) -> None:
    assert store.feature("3", "title") == "Reflexion"
    assert store.feature("a1") == {"name": "Alice"}
    assert store.features("2")["year"] == 2022
    with pytest.raises(UnknownFeatureError) as info:
        store.feature("3", "venue")
    assert "'venue'" in str(info.value)
    assert "title, year, abstract" in str(info.value)


def test_text_uses_text_keys_and_falls_back_to_id(store: GraphStore) -> None:
    assert store.text("5") == "Chain of Thought"
    assert store.text("a3") == "Carol"
    store.add_node("7", "paper", {"title": ""})
    assert store.text("7") == "7"
    assert store.node_type("a3") == "author"
    assert store.node_types() == ["author", "paper"]
    assert list(store.nodes("author")) == ["a1", "a2", "a3"]


def test_relations(store: GraphStore) -> None:
    assert store.relations() == ["cited_by", "cites", "writes", "written_by"]
    assert store.relations("6") == ["cited_by", "written_by"]
    assert store.relations("a1", direction="in") == ["written_by"]


def test_fingerprint_tracks_content() -> None:
    first, second = build_paper_graph(), build_paper_graph()
    assert first.fingerprint() == second.fingerprint()
    second.add_edge("6", "1", "cites", reverse_relation="cited_by")
    assert second.fingerprint() != first.fingerprint()
    third = build_paper_graph()
    third.add_node("3", features={"title": "Reflexion v2"})
    assert third.fingerprint() != first.fingerprint()


def test_describe_lists_types_and_relations(store: GraphStore) -> None:
    text = store.describe()
    assert text == (
        "A directed graph 'papers' with author nodes (features: name; neighbor types: writes -> paper); "
        "paper nodes (features: abstract, title, year; neighbor types: cited_by -> paper, cites -> paper, "
        "written_by -> author)."
    )


def test_the_schema_names_each_types_relations_and_their_target_types(store: GraphStore) -> None:
    assert store.schema() == {
        "author": {"writes": ["paper"]},
        "paper": {"cited_by": ["paper"], "cites": ["paper"], "written_by": ["author"]},
    }
    assert store.type_relations("author") == ["writes"] and store.type_relations("venue") == []
    store.add_node("v1", "venue", {"name": "NeurIPS"})
    store.add_edge("1", "v1", "published_in", reverse_relation="publishes")
    assert store.type_relations("venue") == ["publishes"]  # the schema follows the graph as it grows
    assert store.schema()["paper"]["published_in"] == ["venue"]


def test_per_store_reads_once_per_store_and_again_when_it_grows() -> None:
    from graphreason.tools.core.store import per_store

    calls: list[str] = []

    @per_store
    def size(store: GraphStore) -> int:
        calls.append(store.name)
        return len(store)

    a, b = GraphStore.from_edges([(1, 2)], name="a"), GraphStore.from_edges([(1, 2), (2, 3)], name="b")
    assert (size(a), size(a), size(b)) == (2, 2, 3) and calls == ["a", "b"]
    a.add_edge("2", "3", "neighbor")  # grown: read again
    assert size(a) == 3 and calls == ["a", "b", "a"]
