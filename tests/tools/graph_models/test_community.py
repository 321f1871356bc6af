"""KMeans-on-affinity and Louvain communities on a graph whose communities are known."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from graphreason.tools.core.loaders.social import SocialGraph
from graphreason.tools.graph_models.base import GraphModelError
from graphreason.tools.graph_models.community import CommunityModel
from graphreason.tools.graph_models.hub import model_class


def two_cliques() -> SocialGraph:
    """Users 0-4 and 5-9 each all follow each other; one link 4 -> 5 joins the groups."""
    edges = [*itertools.combinations(range(5), 2), *itertools.combinations(range(5, 10), 2), (4, 5)]
    return SocialGraph(name="toy", edges=np.array(edges), num_users=10)


@pytest.fixture(autouse=True)
def tmp_cache(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("GRAPHREASON_CACHE", str(tmp_path))


@pytest.mark.parametrize(
    ("method", "affinity"), [("kmeans", "discounted"), ("kmeans", "common"), ("louvain", "discounted")]
)
def test_two_cliques_are_found(method: str, affinity: str) -> None:
    model = CommunityModel("twitter", method=method, affinity=affinity, graph=two_cliques())
    report = model.ensure()
    assert model.communities() == [0] * 5 + [1] * 5  # ids by size, ties by the smallest member
    assert model.community_count() == 2
    assert model.community_max_size() == 5 and model.community_avg_size() == 5.0
    assert model.community("user#7") == 1 and model.community_size(7) == 5
    assert model.common_community_check("user#1", "#3") == "The Same"
    assert model.common_community_check(4, "5") == "Different"
    # two 5-cliques and one bridge: Q = 2 * (10/21 - (21/42)^2) = 0.4524
    assert report.metrics["modularity"] == pytest.approx(0.4524, abs=1e-4)


def test_kmeans_picks_k_by_modularity() -> None:
    model = CommunityModel("twitter", graph=two_cliques(), k_grid=(2, 4, 8))
    metrics = model.ensure().metrics
    assert set(metrics) >= {"modularity_k2", "modularity_k4", "modularity_k8"}
    assert metrics["modularity"] == max(
        metrics["modularity_k2"], metrics["modularity_k4"], metrics["modularity_k8"]
    )
    assert metrics["communities"] == 2


def test_partition_round_trips_through_the_cache() -> None:
    first = CommunityModel("twitter", method="louvain", graph=two_cliques())
    assert not first.ensure().cached
    again = CommunityModel("twitter", method="louvain", graph=two_cliques())
    assert again.ensure().cached
    assert again.communities() == first.communities()
    other = CommunityModel("twitter", method="kmeans", graph=two_cliques())
    assert other.cache_path() != first.cache_path()  # settings are part of the key


@pytest.mark.parametrize("handle", ["user#jrsocialmedia", "user#user/36476767", "ljaniszewski8"])
def test_prompt_handles_are_refused_as_anonymised(handle: str) -> None:
    model = CommunityModel("foursquare", method="louvain", graph=two_cliques())
    with pytest.raises(GraphModelError, match="anonymised") as error:
        model.community(handle)
    assert "0-9" in str(error.value)  # names the valid id range


def test_bad_ids_and_settings_are_refused() -> None:
    model = CommunityModel("twitter", method="louvain", graph=two_cliques())
    with pytest.raises(GraphModelError, match="numbered 0-9"):
        model.community_size("user#10")
    with pytest.raises(GraphModelError, match="kmeans, louvain"):
        CommunityModel("twitter", method="spectral")
    with pytest.raises(GraphModelError, match="foursquare, twitter"):
        CommunityModel("dblp")


def test_hub_names_the_class() -> None:
    assert model_class("kmeans") is CommunityModel


def test_loading_the_dataset_keeps_the_cache_key(monkeypatch) -> None:
    from graphreason.tools.graph_models import community

    monkeypatch.setattr(community, "load_social", lambda name: two_cliques())
    model = CommunityModel("twitter", method="louvain")
    key = model.cache_key()
    report = model.ensure()
    assert model.cache_key() == key and "graph" not in report.settings
    assert CommunityModel("twitter", method="louvain").ensure().cached
