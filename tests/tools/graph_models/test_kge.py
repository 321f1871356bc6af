"""TransE on a small slice of WN18: it learns, answers in synset / relation names, caches, refuses bad ids."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

from graphreason.tools.core.loaders.knowledge_graph import KnowledgeGraph, load_wordnet
from graphreason.tools.graph_models.base import GraphModelError
from graphreason.tools.graph_models.hub import model_class
from graphreason.tools.graph_models.kge import TransEModel
from tests.conftest import require_data

pytestmark = pytest.mark.data

TINY = {"epochs": 12, "batch_size": 256, "negatives": 64, "lr": 0.02, "dim": 32}


@pytest.fixture(scope="module")
def tiny() -> KnowledgeGraph:
    """The 1,000 entities of WN18 with the most triples, and the triples among them."""
    wordnet = load_wordnet(require_data("kg-wn18"))
    degree = np.bincount(wordnet.all_triples()[:, [0, 2]].ravel(), minlength=wordnet.num_entities)
    return wordnet.restricted(np.argsort(-degree, kind="stable")[:1000])


@pytest.fixture(scope="module")
def cache(tmp_path_factory) -> Iterator[None]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("GRAPHREASON_CACHE", str(tmp_path_factory.mktemp("cache")))
        yield


@pytest.fixture(scope="module")
def model(tiny: KnowledgeGraph, cache: None) -> TransEModel:
    trained = TransEModel("wordnet", graph=tiny, **TINY)
    trained.ensure()
    return trained


def test_short_run_beats_random_ranking(model: TransEModel, tiny: KnowledgeGraph) -> None:
    metrics = model.report.metrics
    assert metrics["test_triples"] == len(tiny.test) > 30
    # a random ranking of 1,000 candidates has an expected MRR of about 0.0075
    assert metrics["mrr"] > 0.1 and metrics["hits@10"] > 0.3
    assert metrics["tail_mrr"] > 0.05 and metrics["head_mrr"] > 0.05
    untrained = TransEModel("wordnet", graph=tiny, **{**TINY, "epochs": 0})
    untrained.ensure()
    assert untrained.report.metrics["mrr"] < 0.05


def seen_test_triples(model: TransEModel, tiny: KnowledgeGraph) -> np.ndarray:
    """Test triples whose head and tail occur in training (others are refused, see below)."""
    inside = model.trained_entities[tiny.test[:, 0]] & model.trained_entities[tiny.test[:, 2]]
    return tiny.test[inside]


def test_answers_use_the_prompts_vocabulary(model: TransEModel, tiny: KnowledgeGraph) -> None:
    head, rel, tail = seen_test_triples(model, tiny)[0]
    h, r, t = tiny.entities[head], tiny.relations[rel], tiny.entities[tail]
    answer = model.tail_entity(f"entity#{h}", f"relation#{r}")
    assert answer in tiny.entities and answer != h and answer.count(".") >= 2  # a synset name
    assert model.tail_entity(h, r) == answer  # the prefixes are optional
    assert model.head_entity(f"relation#{r}", f"entity#{t}") in tiny.entities
    assert model.relation(f"entity#{h}", f"entity#{t}") in tiny.relations
    top = model.relation_topk(h, t, k=3)
    assert len(top) == 3 and [s for _, s in top] == sorted((s for _, s in top), reverse=True)
    assert model.tail_entity_topk(h, r, k=5)[0][0] == answer


def test_model_round_trips_through_the_cache(model: TransEModel, tiny: KnowledgeGraph) -> None:
    again = TransEModel("wordnet", graph=tiny, **TINY)
    assert again.ensure().cached
    head, rel, _ = seen_test_triples(model, tiny)[1]
    h, r = tiny.entities[head], tiny.relations[rel]
    assert again.tail_entity_topk(h, r, k=5) == model.tail_entity_topk(h, r, k=5)
    assert again.report.metrics == model.report.metrics


def test_unknown_ids_name_valid_ones(model: TransEModel, tiny: KnowledgeGraph) -> None:
    with pytest.raises(GraphModelError, match=r"such as 'entity#state\.v\.01'"):
        model.tail_entity("entity#no_such_word.n.01", "_hypernym")
    lemma = tiny.entities[0].split(".")[0]
    with pytest.raises(GraphModelError, match="Synsets of") as error:
        model.head_entity("_hyponym", lemma)  # a bare lemma: the message lists its synsets
    assert tiny.entities[0] in str(error.value)
    with pytest.raises(GraphModelError, match="valid relations: .*_hypernym"):
        model.tail_entity(tiny.entities[0], "relation#_is_a")
    untrained = tiny.entities[int(np.flatnonzero(~model.trained_entities)[0])]
    with pytest.raises(GraphModelError, match="in no training triple"):
        model.tail_entity(untrained, "_hypernym")
    with pytest.raises(GraphModelError, match="k must be"):
        model.relation_topk(tiny.entities[0], tiny.entities[1], k=0)


def test_hub_names_the_class() -> None:
    assert model_class("transe") is TransEModel
    with pytest.raises(GraphModelError, match="wordnet, freebase"):
        TransEModel("yago")
