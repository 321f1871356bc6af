"""TopicModel: a short GCN run on Cora that beats chance, caches, and answers in the prompts' vocabulary."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.conftest import require_data
from tools.graph_models.base import GraphModelError
from tools.graph_models.topic import TopicModel, stratified_split


@pytest.mark.data
def test_short_cora_run_beats_chance_and_round_trips_the_cache(tmp_path: Path, monkeypatch) -> None:
    require_data("cora-citeseer-text")
    require_data("planetoid")
    monkeypatch.setenv("GRAPHREASON_CACHE", str(tmp_path))
    model = TopicModel("cora", epochs=15)
    report = model.ensure()
    assert not report.cached and report.metrics["test_accuracy"] > 0.4  # chance is 1/7
    assert report.split.startswith("cora: Planetoid public split")
    label, probs = model.predict("paper#106590")
    assert set(probs) == set(model.labels) and len(model.labels) == 7
    assert label == max(probs, key=probs.get) and abs(sum(probs.values()) - 1) < 1e-5
    assert model.topic("106590") == label and model.has_node(" 106590 ") and not model.has_node("3")

    again = TopicModel("cora", epochs=15)
    assert again.ensure().cached and str(tmp_path) in again.ensure().path
    assert all(again.predict(p) == model.predict(p) for p in ("31336", "35", "1155073"))

    with pytest.raises(
        GraphModelError, match=r"cora has no paper 'paper#0'.*LINQS paper ids, e\.g\. '31336'"
    ):
        model.topic("paper#0")


def test_unsupported_dataset_names_the_supported_ones() -> None:
    with pytest.raises(GraphModelError, match="cora, citeseer"):
        TopicModel("pubmed")


def test_stratified_split_takes_twenty_per_class_and_keeps_parts_apart() -> None:
    classes = np.repeat(np.arange(6), 300)
    split = stratified_split(classes, seed=3)
    assert np.bincount(classes[split["train"]]).tolist() == [20] * 6
    assert (len(split["val"]), len(split["test"])) == (500, 1000)
    parts = [set(split[k].tolist()) for k in ("train", "val", "test")]
    assert not (parts[0] & parts[1] or parts[0] & parts[2] or parts[1] & parts[2])
    assert all(np.array_equal(split[k], stratified_split(classes, seed=3)[k]) for k in split)  # seeded
