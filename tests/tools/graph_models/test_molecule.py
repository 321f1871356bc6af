"""MoleculeModel: a short GIN run on MUTAG, the cache round trip, instance parsing, and the batcher."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch

from graphreason.tools.core.loaders.tu_gin import GraphSet
from graphreason.tools.graph_models.base import GraphModelError
from graphreason.tools.graph_models.gin import Batcher
from graphreason.tools.graph_models.molecule import MoleculeModel, cross_validate
from tests.conftest import require_data


@pytest.mark.data
def test_short_mutag_run_beats_chance_and_round_trips_the_cache(tmp_path: Path, monkeypatch) -> None:
    require_data("tu-graph-classification")
    monkeypatch.setenv("GRAPHREASON_CACHE", str(tmp_path))
    model = MoleculeModel("mutag", epochs=8)
    report = model.ensure()
    assert not report.cached and report.metrics["test_graphs"] == 18
    assert report.metrics["train_accuracy"] > 0.7  # 2 balanced-ish classes; chance is 0.5, majority 0.66
    label, probs = model.predict("instance#31")
    assert set(probs) == {0, 2} and label in (0, 2)  # MUTAG's labels as the prompts write them
    assert label == max(probs, key=probs.get) and abs(sum(probs.values()) - 1) < 1e-5
    assert model.function(31) == model.function("#31") == label

    again = MoleculeModel("mutag", epochs=8)
    assert again.ensure().cached
    assert all(again.predict(i) == model.predict(i) for i in (0, 31, 187))

    for bad in (188, "-1", "instance#x", True):
        with pytest.raises(
            GraphModelError, match="mutag has no graph instance .* 188 graphs numbered 0 to 187"
        ):
            model.function(bad)


def test_batcher_cuts_and_renumbers_graphs() -> None:
    # graph 0: nodes 0-1 (edge 0-1); graph 1: node 2 alone; graph 2: nodes 3-5 (path 3-4-5)
    graphs = GraphSet(
        name="toy",
        labels=np.array([0, 1, 0]),
        tags=np.array([5, 7, 5, 9, 9, 7]),
        node_graph=np.array([0, 0, 1, 2, 2, 2]),
        edges=np.array([[0, 1, 3, 4, 4, 5], [1, 0, 4, 3, 5, 4]]),
    )
    batcher = Batcher(graphs)
    x, edge_index, batch = batcher.batch(np.array([2, 0]))
    assert batch.tolist() == [0, 0, 0, 1, 1]
    assert x.argmax(1).tolist() == [2, 2, 1, 0, 1]  # tags 9 9 7 | 5 7 as one-hot over [5, 7, 9]
    assert sorted(map(tuple, edge_index.T.tolist())) == [(0, 1), (1, 0), (1, 2), (2, 1), (3, 4), (4, 3)]
    assert x.dtype == torch.float32


def test_cross_validate_refuses_fold_counts_it_cannot_run() -> None:
    with pytest.raises(GraphModelError, match="folds must be 1 to 10"):
        cross_validate("mutag", folds=11, progress=False)
    with pytest.raises(GraphModelError, match="mutag, ptc, proteins, nci1"):
        MoleculeModel("enzymes")
