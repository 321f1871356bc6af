"""The BPR recommender (LightGCN): a short run on a MovieLens slice, predictions, cache, id errors."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
import torch

from graphreason.tools.core.loaders.interactions import leave_last_out, load_movielens_ratings
from graphreason.tools.graph_models.base import GraphModelError
from graphreason.tools.graph_models.hub import model_class
from graphreason.tools.graph_models.recommender import (
    BPRModel,
    NegativeSampler,
    embed,
    normalized_adjacency,
    ranking_metrics,
)
from tests.conftest import require_data

# a small, quick configuration: the first 120 MovieLens users (~13,000 ratings)
TINY = {"users": 120, "epochs": 12, "dim": 32, "layers": 2, "batch_size": 2048, "lr": 0.01}


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    folder = tmp_path_factory.mktemp("bpr-cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("GRAPHREASON_CACHE", str(folder))
        yield folder


@pytest.fixture(scope="module")
def model(cache: Path) -> BPRModel:
    require_data("movielens-100k")
    trained = BPRModel("movielens", **TINY)
    trained.ensure()
    return trained


def test_hub_names_this_class() -> None:
    assert model_class("bpr") is BPRModel
    with pytest.raises(GraphModelError, match="movielens, last-fm"):
        BPRModel("amazon")


@pytest.mark.data
def test_short_run_beats_random_ranking(model: BPRModel) -> None:
    report = model.report
    assert report is not None and not report.cached
    metrics = report.metrics
    assert metrics["test_users"] == 120.0 and metrics["test_items_by_time"] == 120.0
    # random ranking finds the held-out item in the top 10 about 10 times in 1,400
    assert metrics["random_recall@10"] < 0.01
    assert metrics["recall@10"] > 5 * metrics["random_recall@10"]
    assert 0 < metrics["ndcg@10"] <= metrics["recall@10"]
    assert "leave-last-interaction-out" in report.split


@pytest.mark.data
def test_topk_excludes_training_items_and_follows_score(model: BPRModel) -> None:
    data = load_movielens_ratings(require_data("movielens-100k")).head(TINY["users"])
    split = leave_last_out(data, seed=0)
    user = 0  # dataset user "1"
    seen = {f"i{data.item_ids[i]}" for i in data.item[split.train][data.user[split.train] == user]}
    top = model.topk("u1", 10)
    assert len(top) == 10 == len(set(top)) and all(re.fullmatch(r"i\d+", t) for t in top)
    assert not seen & set(top)
    scores = [model.score("u1", item) for item in top]
    assert scores == sorted(scores, reverse=True) and all(0 < s < 1 for s in scores)
    unseen = set(model.item_ids) - {s[1:] for s in seen} - {t[1:] for t in top}
    assert max(model.score("u1", i) for i in unseen) <= scores[-1]
    assert model.topk(1, 3) == model.topk("u1", "3") == top[:3]
    for bad in (0, -2, "ten", 2.5, True):
        with pytest.raises(GraphModelError, match="k must be"):
            model.topk("u1", bad)


@pytest.mark.data
def test_score_and_observed_accept_every_id_spelling(model: BPRModel) -> None:
    same = {
        model.score(u, i)
        for u, i in [("u1", "i1"), ("1", "1"), (1, 1), ("user#u1", "movie#i1"), (" U1 ", "I1")]
    }
    assert len(same) == 1
    # u.data: user 1 gave movie 1 five stars; user 1 never rated movie 1265 (user 286 did)
    assert model.observed("u1", "i1") == 5.0 and model.observed("u1", "i1265") is None
    assert model.value_name == "rating"
    assert model.has_user("u120") and not model.has_user("u121")  # the slice holds users 1-120
    assert model.has_item("i1") and not model.has_item("u1") and not model.has_user("i1")
    assert not model.has_user("banana") and not model.has_user(True)


@pytest.mark.data
def test_unknown_ids_name_the_dataset_and_a_valid_id(model: BPRModel) -> None:
    with pytest.raises(GraphModelError, match=r"Unknown user 'u99999' in MovieLens-100K.*'u1'"):
        model.score("u99999", "i1")
    with pytest.raises(GraphModelError, match=r"Unknown item 'u5' in MovieLens-100K.*movies.*'i1'"):
        model.score("u1", "u5")
    with pytest.raises(GraphModelError, match="Unknown user"):
        model.topk("artist#i3")


@pytest.mark.data
def test_cache_round_trip(model: BPRModel, cache: Path) -> None:
    again = BPRModel("movielens", **TINY)
    report = again.ensure()
    assert report.cached and Path(report.path).parent.parent == cache
    assert report.metrics == model.report.metrics
    assert again.topk("u7", 5) == model.topk("u7", 5)
    assert again.score("u7", "i50") == model.score("u7", "i50")
    assert again.observed("u7", "i50") == model.observed("u7", "i50")
    other = BPRModel("movielens", **{**TINY, "epochs": 13})
    assert other.cache_path() != again.cache_path()  # settings are part of the cache key


def test_embed_matches_lightgcn_forward_and_gradient() -> None:
    from torch_geometric.nn import LightGCN

    torch.manual_seed(0)
    users, items = torch.randint(0, 6, (30,)), torch.randint(6, 15, (30,))
    pairs = torch.unique(torch.stack([users, items]), dim=1)
    adj = normalized_adjacency(pairs[0], pairs[1], 15)
    model = LightGCN(15, 4, 3)  # normalises edge_index itself
    edge_index = torch.cat([pairs, pairs.flip(0)], dim=1)
    ours, theirs = embed(model, adj), model.get_embedding(edge_index)
    assert torch.allclose(ours, theirs, atol=1e-6)
    (grad_ours,) = torch.autograd.grad(ours.pow(2).sum(), model.embedding.weight)
    (grad_theirs,) = torch.autograd.grad(theirs.pow(2).sum(), model.embedding.weight)
    assert torch.allclose(grad_ours, grad_theirs, atol=1e-6)


def test_negative_sampler_never_returns_a_positive() -> None:
    users = np.array([0, 0, 0, 1])
    items = np.array([0, 1, 2, 3])
    sampler = NegativeSampler(users, items, num_items=4)
    drawn = sampler.draw(np.array([0] * 200 + [1] * 200), np.random.default_rng(0))
    assert set(drawn[:200].tolist()) == {3} and 3 not in set(drawn[200:].tolist())


def test_ranking_metrics_by_hand() -> None:
    metrics = ranking_metrics(np.array([0, 1, 9, 10, 500]), k=10)
    assert metrics["recall@10"] == pytest.approx(3 / 5)
    assert metrics["ndcg@10"] == pytest.approx((1 + 1 / np.log2(3) + 1 / np.log2(11)) / 5)
