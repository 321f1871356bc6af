"""Renamed copies of the training graphs: same nodes and arcs, the declared names only, never an unseen base."""

from __future__ import annotations

import pytest

from graphreason.evals.datasets.program_questions import program_questions
from graphreason.evals.datasets.renamed_graphs import RENAMINGS, Renaming, renamed_store, write_renamed
from graphreason.tools.core.loaders import UNSEEN_GRAPHS, load_graph
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
