"""Cora and CiteSeer as arrays, the Planetoid split on LINQS ids, and the prompts' id spaces."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from graphreason.tools.core.errors import GraphFileError
from graphreason.tools.core.loaders.linqs_text import TextGraph, load_text_graph
from graphreason.tools.core.loaders.planetoid import align, public_split, read_planetoid
from graphreason.tools.graph_models.prompt_golds import prompt_golds
from tests.conftest import require_data

pytestmark = pytest.mark.data


@pytest.fixture(scope="module")
def cora() -> TextGraph:
    return load_text_graph("cora", require_data("cora-citeseer-text"))


@pytest.fixture(scope="module")
def citeseer() -> TextGraph:
    return load_text_graph("citeseer", require_data("cora-citeseer-text"))


def test_cora_arrays_hold_the_linqs_release(cora: TextGraph) -> None:
    assert cora.num_nodes == 2708 and cora.ids[0] == "31336"
    assert cora.features.shape == (2708, 1433) and set(np.unique(cora.features)) == {0.0, 1.0}
    assert cora.edges.shape == (2, 5429)
    assert len(cora.classes) == 7 and Counter(cora.labels)["Neural Networks"] == 818
    # cora.cites starts "35 1033": paper 1033 cites 35, stored as 1033 -> 35
    position = cora.position()
    pairs = set(map(tuple, cora.edges.T.tolist()))
    assert (position["1033"], position["35"]) in pairs and (position["35"], position["1033"]) not in pairs


def test_cora_titles_and_texts_follow_the_content_order(cora: TextGraph) -> None:
    assert cora.titles is not None and cora.texts is not None and len(cora.titles) == 2708
    assert cora.titles[0] == "The megaprior heuristic for discovering protein sequence patterns"
    assert cora.texts[0].startswith(cora.titles[0] + " Several computer algorithms")
    assert sum(not t for t in cora.titles) == 42 and min(map(len, cora.texts)) > 0  # no nan left
    assert not any("nan" == t.lower() for t in cora.titles)


def test_cora_prompt_ids_are_linqs_ids_with_the_same_labels(cora: TextGraph) -> None:
    require_data("Graph_Toolformer")
    label = dict(zip(cora.ids, cora.labels, strict=True))
    golds = prompt_golds("cora")
    assert len(golds) == 1600
    assert all(label[node] == gold for node, gold in golds)  # every record: same id, same label name


def test_citeseer_text_set_counts_and_text_alignment(citeseer: TextGraph) -> None:
    assert citeseer.num_nodes == 3186 and citeseer.ids[:2] == ["0", "1"]
    assert citeseer.edges.shape == (2, 4277)
    assert citeseer.classes == ["AI", "Agents", "DB", "HCI", "IR", "ML"]
    assert Counter(citeseer.labels) == {"DB": 699, "IR": 646, "ML": 572, "Agents": 560, "HCI": 501, "AI": 208}
    # node_info.csv numbers papers from 1: its paper 1 is data.csv's paper 0
    assert citeseer.texts is not None and citeseer.texts[0].startswith("Argument in Multi-Agent Systems")
    assert citeseer.titles is not None and citeseer.titles[0] == "Argument in Multi-Agent Systems"
    assert citeseer.features.shape == (3186, 3703) and citeseer.features.sum(1).min() > 0


def test_citeseer_prompt_ids_name_other_papers(citeseer: TextGraph) -> None:
    """Same label names, but the prompts' 0..3311 numbering is another copy: chance-level agreement."""
    require_data("Graph_Toolformer")
    golds = prompt_golds("citeseer")
    assert {gold for _, gold in golds} == set(citeseer.classes)
    assert max(int(node) for node, _ in golds) > citeseer.num_nodes  # ids beyond this set exist
    label = dict(zip(citeseer.ids, citeseer.labels, strict=True))
    shared = [(node, gold) for node, gold in golds if node in label]
    assert sum(label[node] == gold for node, gold in shared) / len(shared) < 0.3


def test_planetoid_public_split_on_linqs_ids(cora: TextGraph) -> None:
    require_data("planetoid")
    split = public_split(cora)
    assert (len(split.train), len(split.val), len(split.test)) == (140, 500, 1000)
    assert len(set(split.train) | set(split.val) | set(split.test)) == 1640
    # Planetoid trains on 20 papers of each class: a wrong alignment would not keep that
    assert set(Counter(cora.labels[i] for i in split.train).values()) == {20}


def test_planetoid_alignment_maps_the_citations_onto_planetoids_graph(cora: TextGraph) -> None:
    require_data("planetoid")
    features, adjacency, _ = read_planetoid("cora")
    mapping = align(cora, features, adjacency)
    assert sorted(mapping.tolist()) == list(range(2708))
    ours = {frozenset((int(mapping[a]), int(mapping[b]))) for a, b in cora.edges.T.tolist()}
    theirs = {frozenset((a, b)) for a, near in adjacency.items() for b in near if a != b}
    assert len(ours) == 5278 and ours == theirs  # the 5,429 citations are Planetoid's 5,278 links


def test_unknown_text_graph_is_refused() -> None:
    with pytest.raises(GraphFileError, match="cora, citeseer"):
        load_text_graph("pubmed")


def test_tiny_cora_texts_are_matched_by_paper_id_and_mismatches_refused(tmp_path) -> None:
    from tests.tools.core.loaders.tiny_cora import write_tiny_cora

    folder = write_tiny_cora(tmp_path)
    graph = load_text_graph("cora", tmp_path)
    assert graph.titles == ["Alpha graph learning methods", "Beta kernel machines study", *graph.titles[2:]]
    assert graph.texts is not None and graph.texts[4] == "Epsilon reinforcement agents work"  # nan abstract
    info = folder / "node_info.csv"
    info.write_text(info.read_text() + '99,"Stray paper","Not in cora.content."\n')
    with pytest.raises(GraphFileError, match="paper '99' is not in cora.content"):
        load_text_graph("cora", tmp_path)
    info.write_text("paper_id,title,abstract\n1,Alpha,One.\n")
    with pytest.raises(GraphFileError, match="text for 1 of the 5 Cora papers"):
        load_text_graph("cora", tmp_path)
