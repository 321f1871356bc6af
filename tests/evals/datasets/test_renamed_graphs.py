"""Renamed copies of the training graphs: same nodes and arcs, the declared names only, never an unseen base."""

from __future__ import annotations

import pytest

from graphreason.evals.datasets.program_questions import _LEXICON, check_trainable, program_questions
from graphreason.evals.datasets.renamed_graphs import (
    EVALUATION_RENAMINGS,
    RENAMINGS,
    Renaming,
    renamed_graph_spec,
    renamed_store,
    write_renamed,
)
from graphreason.tools.core.loaders import UNSEEN_GRAPHS, load_graph
from graphreason.tools.core.store import GraphStore
from tests.conftest import require_data


def test_a_relation_is_renamed_whole_or_by_its_first_parts() -> None:
    renaming = Renaming("movielens", relations={"rated": "bought", "rated_by": "bought_by", "has_genre": "sold_in"})
    assert renaming.relation("rated") == "bought" and renaming.relation("rated_4_by") == "bought_4_by"
    assert renaming.relation("rated_by") == "bought_by" and renaming.relation("has_genre") == "sold_in"
    assert renaming.relation("rating") == "rating" and renaming.relation("genre_of") == "genre_of"


def test_every_copy_has_a_training_base_and_keeps_the_name_features() -> None:
    assert RENAMINGS and not {r.base for r in RENAMINGS.values()} & UNSEEN_GRAPHS
    for renaming in RENAMINGS.values():  # graph.json keeps no text keys: title and name keep their names
        assert not {"title", "name"} & set(renaming.features)
        assert not {"links_to", "linked_from"} & set(renaming.relations.values())  # Wikispeedia's, held out
    with pytest.raises(ValueError, match="unknown renamed graph 'citeseer-copy'"):
        renamed_store("citeseer-copy")


def test_the_cora_copy_has_cora_s_nodes_and_arcs_under_the_new_names(tmp_path) -> None:
    require_data("cora-citeseer-text")
    cora = load_graph("cora")
    path = write_renamed("cora-articles", tmp_path)
    copy = load_graph(path)
    assert copy.name == "cora-articles" and copy.node_types() == ["article"]
    assert copy.schema() == {"article": {"referenced_by": ["article"], "references": ["article"]}}
    assert copy.type_features() == {"article": ["abstract", "field", "paper_id", "title"]}
    assert sorted(copy.nodes()) == sorted(cora.nodes())
    for node in list(cora.nodes())[:200]:
        assert copy.neighbors(node, "references") == cora.neighbors(node, "cites", direction="out")
        assert copy.neighbors(node, "referenced_by") == cora.neighbors(node, "cited_by", direction="out")
        assert copy.features(node)["field"] == cora.features(node)["label"] and copy.text(node) == cora.text(node)
    items = program_questions(copy, 14, seed=0, graph_spec=path, for_training=True)
    actions = " ".join(item.reference_action or "" for item in items)
    assert "references" in actions and "cites" not in actions and ", label" not in actions


def test_renamed_copies_feed_the_reasoner_s_training_data(tmp_path) -> None:
    from graphreason.evals.counselor.trajectories import build_records

    require_data("cora-citeseer-text")
    train, validation, info = build_records(
        [], links=[], program_graphs=["cora-notes"], programs_per_shape=1, seed=3, work_dir=tmp_path
    )
    assert info["program_graphs"] == ["cora-notes"] and (tmp_path / "cora-notes" / "graph.json").is_file()
    records = train + validation
    assert records and {r.graph for r in records} == {"cora-notes"}
    assert all(r.input.startswith("Graph: cora-notes. note: body, paper_id, title, topic; ") for r in records)
    assert any("mentions" in r.output or "mentioned_by" in r.output for r in records if r.role == "action")


def _tiny_lastfm() -> GraphStore:
    """Last.fm's schema on five nodes: users who listen to artists and are friends, artists tagged."""
    store = GraphStore("last-fm", directed=True, text_keys={"user": "name", "artist": "name", "tag": "name"})
    for node, kind in (("u1", "user"), ("u2", "user"), ("a1", "artist"), ("a2", "artist"), ("t1", "tag")):
        store.add_node(node, kind, {"name": f"{kind} {node}"})
    store.add_edge("u1", "a1", "listened", reverse_relation="listened_by")
    store.add_edge("u2", "a2", "listened", reverse_relation="listened_by")
    store.add_edge("a1", "t1", "tagged", reverse_relation="tag_of")
    store.add_edge("u1", "u2", "friend", reverse_relation="friend")
    return store


def test_an_evaluation_copy_renames_an_unseen_graph_and_is_never_training_data(tmp_path, monkeypatch) -> None:
    """``last-fm-items``: Last.fm as items, users and tags; written once, under a folder named after Last.fm, so its
    name and its path are both refused as training data."""
    from graphreason.evals.datasets import renamed_graphs

    assert {r.base for r in EVALUATION_RENAMINGS.values()} <= UNSEEN_GRAPHS and not set(EVALUATION_RENAMINGS) & set(RENAMINGS)
    copy = renamed_store("last-fm-items", _tiny_lastfm())
    assert copy.schema() == {
        "item": {"has_tag": ["tag"], "liked_by": ["user"]}, "tag": {"tag_on": ["item"]},
        "user": {"follows": ["user"], "likes": ["item"]},
    }  # fmt: skip
    assert copy.neighbors("u1", "likes") == ["a1"] and copy.neighbors("a1", "liked_by") == ["u1"]
    assert copy.neighbors("u1", "follows") == ["u2"] and copy.neighbors("t1", "tag_on") == ["a1"]
    monkeypatch.setattr(renamed_graphs, "renamed_store", lambda name: renamed_store(name, _tiny_lastfm()))
    path = renamed_graph_spec("last-fm-items", tmp_path)
    assert path == str(tmp_path / "last-fm" / "last-fm-items" / "graph.json")
    assert load_graph(path).schema() == copy.schema()
    for spec in ("last-fm-items", path):
        with pytest.raises(ValueError, match="evaluation only"):
            check_trainable(spec)
    stamp = (tmp_path / "last-fm" / "last-fm-items" / "graph.json").stat().st_mtime_ns
    assert renamed_graph_spec("last-fm-items", tmp_path) == path  # read again, not written again
    assert (tmp_path / "last-fm" / "last-fm-items" / "graph.json").stat().st_mtime_ns == stamp
    assert renamed_graph_spec("cora", tmp_path) == "cora"  # not a copy: kept as given


def test_the_evaluation_copys_relations_are_worded_in_phrases_of_their_own() -> None:
    """Its questions never fall back on a label's bare words ("the items linked to X by likes"), and no training graph
    or training copy has one of its relations, so those phrases never word a training question."""
    require_data("lastfm-hetrec2011")
    copy = renamed_store("last-fm-items", load_graph("last-fm"))
    items = program_questions(copy, 15, seed=0, graph_spec="last-fm-items")
    assert items and all(" by likes" not in item.question and "has_tag" not in item.question for item in items)
    copies = {name for r in EVALUATION_RENAMINGS.values() for name in r.relations.values()}
    assert copies <= set(_LEXICON)
    assert not copies & {name for r in RENAMINGS.values() for name in r.relations.values()}
    require_data("movielens-100k")
    require_data("cora-citeseer-text")
    for graph in ("cora", "movielens"):  # the training graphs of users and items, and of citations
        assert not copies & {name for rels in load_graph(graph).schema().values() for name in rels}, graph
