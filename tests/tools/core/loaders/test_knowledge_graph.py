"""WN18 and FB15k loaded from the shared data: counts, names in the prompts' vocabulary, sub-graphs."""

from __future__ import annotations

import numpy as np
import pytest

from graphreason.tools.core.errors import GraphFileError
from graphreason.tools.core.loaders.knowledge_graph import KnowledgeGraph, load_knowledge_graph, load_wordnet
from tests.conftest import require_data


@pytest.fixture(scope="module")
def wordnet() -> KnowledgeGraph:
    return load_wordnet(require_data("kg-wn18"))


def _keys(triples: np.ndarray) -> np.ndarray:
    """One integer per triple (ids are below 2**20), so splits compare as arrays."""
    return (triples[:, 0] << 40) | (triples[:, 1] << 20) | triples[:, 2]


@pytest.mark.data
def test_wordnet_counts_match_wn18(wordnet: KnowledgeGraph) -> None:
    assert (wordnet.num_entities, wordnet.num_relations) == (40_943, 18)
    assert (len(wordnet.train), len(wordnet.valid), len(wordnet.test)) == (141_442, 5_000, 5_000)
    assert len(set(wordnet.entities)) == 40_943  # one synset name per entity
    # every entity takes part in some training triple
    assert len(np.unique(wordnet.train[:, [0, 2]])) == 40_943


@pytest.mark.data
def test_wordnet_names_are_synsets_and_offsets_alias_them(wordnet: KnowledgeGraph) -> None:
    # entity2id.txt row 0 is offset 05451384, which the derived table names lymphocyte.n.01
    assert wordnet.entities[0] == "lymphocyte.n.01"
    assert wordnet.entity_id("05451384") == 0
    assert wordnet.entity_id("state.v.01") is not None
    assert wordnet.entity_id("not_a_synset.n.01") is None
    assert {"_hypernym", "_hyponym", "_derivationally_related_form"} <= set(wordnet.relations)
    # the OpenKE test file's first row is '7951 38768 8': stored here as (head, relation, tail)
    assert wordnet.test[0].tolist() == [7951, 8, 38768]


@pytest.mark.data
def test_freebase_trains_on_fb15k237_train_plus_fb15k_valid() -> None:
    freebase = load_knowledge_graph("freebase", require_data("kg-fb15k"))
    assert (freebase.num_entities, freebase.num_relations) == (14_951, 1_345)
    assert (len(freebase.train), len(freebase.valid), len(freebase.test)) == (272_115 + 50_000, 0, 59_071)
    assert not np.intersect1d(
        _keys(freebase.train), _keys(freebase.test)
    ).size  # no test triple leaks into training
    assert freebase.entity_id("/m/027rn") == 0
    assert freebase.relation_id("/location/country/form_of_government") == 0
    assert "FB15k-237 train" in freebase.source


def test_restricted_keeps_inner_triples_and_renumbers() -> None:
    kg = KnowledgeGraph(
        name="toy",
        entities=["a", "b", "c", "d"],
        relations=["r", "s"],
        train=np.array([[0, 0, 1], [1, 1, 2], [2, 0, 3]]),
        valid=np.zeros((0, 3), dtype=np.int64),
        test=np.array([[3, 1, 1]]),
        aliases={"A": 0, "D": 3},
    )
    small = kg.restricted([1, 2, 3])
    assert small.entities == ["b", "c", "d"]
    assert small.train.tolist() == [[0, 1, 1], [1, 0, 2]]
    assert small.test.tolist() == [[2, 1, 0]]
    assert small.entity_id("D") == 2 and small.entity_id("A") is None


def test_bad_files_raise_graph_file_errors(tmp_path) -> None:
    openke = tmp_path / "openke"
    openke.mkdir()
    (openke / "entity2id.txt").write_text("2\nx\t0\ny\t1\n")
    (openke / "relation2id.txt").write_text("1\nr\t0\n")
    (tmp_path / "DERIVED_wn18_entity2synset.tsv").write_text("h\n0\t1\tx.n.01\n1\t2\ty.n.01\n")
    (openke / "train2id.txt").write_text("2\n0 1 0\n")  # header says 2 rows, one given
    with pytest.raises(GraphFileError, match="header says 2"):
        load_wordnet(tmp_path)
    (openke / "train2id.txt").write_text("1\n0 5 0\n")  # entity 5 does not exist
    (openke / "valid2id.txt").write_text("0\n")
    (openke / "test2id.txt").write_text("0\n")
    with pytest.raises(GraphFileError, match="out of range"):
        load_wordnet(tmp_path)
    with pytest.raises(GraphFileError, match="known: wordnet, freebase"):
        load_knowledge_graph("yago")
