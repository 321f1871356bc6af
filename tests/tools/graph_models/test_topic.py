"""TopicModel (the node classifier): short runs that beat chance, cache, choose by validation, report reliability."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from graphreason.tools.graph_models import hub
from graphreason.tools.graph_models.base import GraphModelError
from graphreason.tools.graph_models.topic import TopicModel, stratified_split
from tests.conftest import require_data
from tests.tools.core.loaders.ogb_fixture import write_ogb_folder


@pytest.fixture(autouse=True)
def _own_cache(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("GRAPHREASON_CACHE", str(tmp_path / "cache"))


@pytest.mark.data
def test_short_cora_run_beats_chance_and_round_trips_the_cache(tmp_path: Path) -> None:
    require_data("cora-citeseer-text")
    require_data("planetoid")
    # the hash embedder stands in for MiniLM: the same code path without a minute of embedding
    model = TopicModel("cora", features="text+bow", arch="gcn", embedder="hash", epochs=15)
    report = model.ensure()
    assert not report.cached and report.metrics["test_accuracy"] > 0.4  # chance is 1/7
    assert report.split.startswith("cora: Planetoid public split") and model.split_name == "public"
    label, probs = model.predict("paper#106590")
    assert set(probs) == set(model.labels) and len(model.labels) == 7
    assert label == max(probs, key=probs.get) and abs(sum(probs.values()) - 1) < 1e-5
    assert model.topic("106590") == label and model.has_node(" 106590 ") and not model.has_node("3")
    assert model.metrics["val_accuracy"] == report.metrics["val_accuracy"]

    again = TopicModel("cora", features="text+bow", arch="gcn", embedder="hash", epochs=15)
    assert again.ensure().cached and str(tmp_path) in again.ensure().path
    assert all(again.predict(p) == model.predict(p) for p in ("31336", "35", "1155073"))
    assert again.reliability() == model.reliability()

    with pytest.raises(
        GraphModelError, match=r"cora has no paper 'paper#0'.*LINQS paper ids, e\.g\. '31336'"
    ):
        model.topic("paper#0")


def test_auto_choice_keeps_the_best_validation_candidate(tmp_path: Path) -> None:
    folder = write_ogb_folder(tmp_path, "arxiv", nodes=40)
    model = TopicModel(folder, features="auto", arch="auto", embedder="hash", epochs=10, hidden=8)
    model.ensure()
    assert model.dataset == "ogbn-arxiv" and model.split_name == "given"  # "public" on OGB = its own split
    assert len(model.selection) == 9 == len(model.candidates())
    best = max(model.selection, key=lambda row: row["val_accuracy"])
    assert model.metrics["val_accuracy"] == best["val_accuracy"]
    assert model.chosen["features"] in ("text", "text+bow", "bow") and model.labels == ["cs.DB", "cs.RO"]
    assert model.predict("node#3")[0] in model.labels


def test_reliability_counts_every_validation_node_once(tmp_path: Path) -> None:
    model = TopicModel(write_ogb_folder(tmp_path, "products", nodes=40), epochs=20, hidden=8)
    table = model.reliability()
    assert table["part"] == "val" and table["nodes"] == 10 == sum(b["nodes"] for b in table["buckets"])
    assert [(b["low"], b["high"]) for b in table["buckets"]] == [
        (0.0, 0.5),
        (0.5, 0.7),
        (0.7, 0.9),
        (0.9, 1.0),
    ]
    assert table["accuracy"] == pytest.approx(model.metrics["val_accuracy"])
    assert model.reliability_text().startswith("On 10 validation nodes the classifier was right")
    with pytest.raises(GraphModelError, match="no part 'dev'"):
        model.reliability("dev")


def test_hub_node_classifier_is_cached_per_source_and_split(tmp_path: Path, monkeypatch) -> None:
    folder = write_ogb_folder(tmp_path, "products", nodes=20)
    monkeypatch.setattr(hub, "_LOADED", {})
    monkeypatch.setattr("graphreason.tools.graph_models.topic.ARCH_CONFIGS", {"appnp": _tiny_appnp()})
    monkeypatch.setattr("graphreason.tools.graph_models.topic.SEARCH_ARCHS", ("appnp",))
    first = hub.node_classifier(folder)
    assert hub.node_classifier(str(folder), "given") is first and first.chosen == {
        "features": "bow",
        "arch": "appnp",
    }
    assert hub.node_classifier(folder, "random") is not first
    with pytest.raises(GraphModelError, match="unknown node dataset 'pubmed'"):
        hub.node_classifier("pubmed")


def _tiny_appnp():
    from graphreason.tools.graph_models.node_training import NetConfig

    return NetConfig("appnp", hidden=8, epochs=5)


def test_graph_toolformer_model_is_the_node_classifier(monkeypatch) -> None:
    calls = []
    monkeypatch.setattr(hub, "node_classifier", lambda name, progress=False: calls.append(name) or "model")
    assert hub.get_model("graph_bert", "Cora") == "model" and calls == ["cora"]


def test_unsupported_datasets_and_options_name_the_valid_ones() -> None:
    with pytest.raises(GraphModelError, match="cora, citeseer"):
        TopicModel("pubmed")
    with pytest.raises(
        GraphModelError, match="unknown feature set 'words'; known: text, text\\+bow, bow, auto"
    ):
        TopicModel("cora", features="words")
    with pytest.raises(
        GraphModelError, match="unknown architecture 'gat'; known: gcn, appnp, sgc, mlp, auto"
    ):
        TopicModel("cora", arch="gat")


def test_stratified_split_takes_twenty_per_class_and_keeps_parts_apart() -> None:
    classes = np.repeat(np.arange(6), 300)
    split = stratified_split(classes, seed=3)
    assert np.bincount(classes[split["train"]]).tolist() == [20] * 6
    assert (len(split["val"]), len(split["test"])) == (500, 1000)
    parts = [set(split[k].tolist()) for k in ("train", "val", "test")]
    assert not (parts[0] & parts[1] or parts[0] & parts[2] or parts[1] & parts[2])
    assert all(np.array_equal(split[k], stratified_split(classes, seed=3)[k]) for k in split)  # seeded
