"""Hybrid Retrieve: exact names win, near-exact names next, then fused ranks; each hit says which tier placed it."""

from __future__ import annotations

import pytest

from graphreason.tools.core.retrieval import hybrid as hybrid_module
from graphreason.tools.core.retrieval.hybrid import HybridIndex, build_retriever
from graphreason.tools.core.store import GraphStore
from graphreason.tools.counselor.functions import GraphFunctions, recording_retrievals


@pytest.fixture(autouse=True)
def isolated_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("GRAPHREASON_CACHE", str(tmp_path / "cache"))


@pytest.fixture
def store() -> GraphStore:
    graph = GraphStore("names", text_keys={"user": "name", "paper": "title", "artist": "name"})
    graph.add_node("u1548", "user", {"name": "user 1548"})
    graph.add_node("u1547", "user", {"name": "user 1547"})
    graph.add_node("p1", "paper", {"title": "Graph neural networks: a review of methods and applications"})
    graph.add_node("p2", "paper", {"title": "A review of graph neural network methods"})
    graph.add_node("p3", "paper", {"title": "Attention is all you need"})
    graph.add_node("a1", "artist", {"name": "The Beatles"})
    return graph


def test_an_exact_name_beats_its_dense_and_lexical_neighbours(store) -> None:
    index = build_retriever(store, "hash", progress=False)
    hit = index.search_explained("user 1547")[0]
    assert (hit.node, hit.how) == ("u1547", "exact name")
    # the question's own spelling of a title: case, spacing and punctuation do not count
    quoted = index.search_explained('"graph neural networks  a review of methods and applications."')
    assert (quoted[0].node, quoted[0].how) == ("p1", "exact name")


def test_a_small_typo_is_a_near_exact_name_and_other_queries_are_fused(store) -> None:
    index = build_retriever(store, "hash", progress=False)
    typo = index.search_explained("Atention is all you need")[0]
    assert (typo.node, typo.how) == ("p3", "near-exact name")
    fused = index.search_explained("neural network review", k=2)
    assert {h.node for h in fused} == {"p1", "p2"} and {h.how for h in fused} == {"fused"}
    assert [n for n, _ in index.search("neural network review", k=2)] == [h.node for h in fused]


def test_each_ranking_says_what_it_is(store) -> None:
    lexical = build_retriever(store, "hash", "lexical", progress=False)
    assert lexical.dense is None and "BM25" in lexical.describe()
    assert lexical.search_explained("beatles")[0].how == "BM25"
    dense = build_retriever(store, "hash", "dense", progress=False)
    assert [h.how for h in dense.search_explained("user 1547", k=2)] == ["dense", "dense"]
    assert "fused" in build_retriever(store, "hash", progress=False).describe()
    with pytest.raises(ValueError, match="ranking must be one of hybrid, lexical, dense"):
        build_retriever(store, "hash", "bm25")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="needs a dense index"):
        HybridIndex(lexical.lexical, None, "hybrid")


def test_bad_queries_are_refused_with_the_reason(store) -> None:
    index = build_retriever(store, "hash", progress=False)
    with pytest.raises(ValueError, match="non-empty text"):
        index.search("   ")
    with pytest.raises(ValueError, match="k must be a positive integer"):
        index.search("user", k=0)
    with pytest.raises(ValueError, match="no nodes of type 'album'"):
        index.search("user", node_type="album")


def test_a_large_graph_pairs_the_lexical_index_with_the_static_table(store, monkeypatch) -> None:
    chosen = []
    real = hybrid_module.build_node_index

    def fake_dense(graph, name, **kwargs):
        chosen.append((name, kwargs.get("exact")))
        return real(graph, "hash", progress=False)

    monkeypatch.setattr(hybrid_module, "build_node_index", fake_dense)
    monkeypatch.setattr(hybrid_module, "MINILM_HYBRID_LIMIT", 3)
    build_retriever(store, "minilm", progress=False)
    build_retriever(store, "minilm", "dense", progress=False)  # dense ranking keeps the model asked for
    build_retriever(store, "mpnet", progress=False)  # another model, named on purpose, is kept
    assert chosen == [("minilm-static", True), ("minilm", None), ("mpnet", True)]


def test_retrieve_records_which_tier_chose_its_node(store) -> None:
    functions = GraphFunctions(store, build_retriever(store, "hash", progress=False))
    with recording_retrievals() as found:
        assert functions.retrieve("USER 1547") == "u1547"
        assert functions.retrieve("Atention is all you need") == "p3"
    assert found == [
        {"query": "USER 1547", "node": "u1547", "ranked_by": "exact name"},
        {"query": "Atention is all you need", "node": "p3", "ranked_by": "near-exact name"},
    ]
    functions.retrieve("user 1548")  # outside a recording nothing is kept, and nothing fails
    assert len(found) == 2
