"""load_node_data: Cora / CiteSeer / OGB folders with public, random and given splits, and id lookups."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from graphreason.tools.core.errors import GraphError
from graphreason.tools.core.loaders.node_data import (
    NodeDataError,
    load_node_data,
    normalise_node_id,
    random_split,
)
from tests.conftest import require_data
from tests.tools.core.loaders.ogb_fixture import write_ogb_folder


def _disjoint(parts: dict[str, np.ndarray]) -> bool:
    seen = [set(p.tolist()) for p in parts.values()]
    return sum(len(s) for s in seen) == len(set().union(*seen))


@pytest.mark.data
def test_cora_public_split_titles_texts_and_neighbours() -> None:
    require_data("cora-citeseer-text")
    require_data("planetoid")
    data = load_node_data("Cora")
    assert data.name == "cora" and data.split == "public" and data.labels[0] == "Case Based"
    assert [len(data.parts[p]) for p in ("train", "val", "test")] == [140, 500, 1000] and _disjoint(
        data.parts
    )
    assert set(Counter(data.graph.labels[i] for i in data.parts["train"]).values()) == {20}
    # node_info.csv lists the papers in cora.content order: the first is paper 31336
    assert data.title("paper#31336") == "The megaprior heuristic for discovering protein sequence patterns"
    assert data.text("31336").startswith(data.title("31336") + " Several computer algorithms")
    assert data.title("1153703") == "" and data.text("1153703").startswith("Instance-based learning")
    assert "1033" in data.neighbors("35") and "35" in data.neighbors("1033")  # both directions
    assert (
        data.part(data.graph.ids[data.parts["val"][0]]) == "val" and data.label("31336") == "Neural Networks"
    )
    assert load_node_data("cora") is data  # loaded once per process
    with pytest.raises(
        NodeDataError, match=r"cora has no node 'paper#0': ids are LINQS paper ids, e\.g\. '31336'"
    ):
        data.position("paper#0")


@pytest.mark.data
def test_citeseer_public_is_seeded_stratified_and_random_is_60_20_20() -> None:
    require_data("cora-citeseer-text")
    data = load_node_data("citeseer", "public", seed=1)
    assert [len(data.parts[p]) for p in ("train", "val", "test")] == [120, 500, 1000]
    assert data.title("0") == "Argument in Multi-Agent Systems"
    again = load_node_data("citeseer", "random", seed=4)
    assert again.split == "random" and [len(again.parts[p]) for p in ("train", "val", "test")] == [
        1912,
        637,
        637,
    ]
    with pytest.raises(NodeDataError, match="paper numbers 0 to 3185"):
        data.text("3186")


def test_random_split_covers_every_node_once_and_is_seeded() -> None:
    parts = random_split(101, seed=3)
    assert [len(parts[p]) for p in ("train", "val", "test")] == [61, 20, 20] and _disjoint(parts)
    assert all(np.array_equal(parts[p], random_split(101, seed=3)[p]) for p in parts)
    assert not np.array_equal(parts["train"], random_split(101, seed=4)["train"])


def test_ogb_folder_uses_its_given_split_and_index_ids(tmp_path: Path) -> None:
    folder = write_ogb_folder(tmp_path, "arxiv", nodes=20)
    data = load_node_data(folder)  # "public" on an OGB folder means its own split
    assert data.name == "ogbn-arxiv" and data.split == "given" and len(data.parts["train"]) == 10
    assert load_node_data(str(folder), "given:time").parts["val"].tolist() == data.parts["val"].tolist()
    assert data.title("node#4") == "Paper 4 on robots walking" and data.neighbors("0") == ["1", "9"]
    assert load_node_data(folder, "random", seed=1).split == "random"
    with pytest.raises(NodeDataError, match=r"ogbn-arxiv has no node '20': ids are node indices 0 to 19"):
        data.position("20")


def test_unknown_sources_and_splits_say_what_is_valid(tmp_path: Path) -> None:
    with pytest.raises(NodeDataError, match=r"unknown node dataset 'pubmed'.*cora, citeseer.*OGB"):
        load_node_data("pubmed")
    with pytest.raises(NodeDataError, match=r"unknown split 'planetoid' for ogbn-arxiv; use given"):
        load_node_data(write_ogb_folder(tmp_path, "arxiv", nodes=6), "planetoid")
    assert issubclass(NodeDataError, GraphError)


def test_node_ids_are_read_leniently() -> None:
    assert [normalise_node_id(x) for x in ("paper#12", " #12 ", 12, "node 12", "Paper #12")] == ["12"] * 5
