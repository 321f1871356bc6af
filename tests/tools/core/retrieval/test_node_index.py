"""NodeIndex: exact lookups, type filters, persistence, tie-breaks and errors."""

from __future__ import annotations

import numpy as np
import pytest

from graphreason.tools.core.retrieval import node_index as node_index_module
from graphreason.tools.core.retrieval.embedders import Embedder, HashEmbedder
from graphreason.tools.core.retrieval.node_index import NodeIndex, build_node_index, node_text
from graphreason.tools.core.store import GraphStore

PAPERS = {
    "p1": (
        "Graph Counselor: adaptive graph exploration with multi-agent reflection",
        "Agents plan and reflect.",
    ),
    "p2": ("Reasoning on graphs with large language models", "Faithful paths over knowledge graphs."),
    "p3": ("Attention is all you need", "The transformer replaces recurrence entirely."),
    "p4": ("Chain of thought prompting elicits reasoning", "Step by step rationales help."),
    "p5": ("Deep residual learning for image recognition", "Shortcut connections ease optimisation."),
}
AUTHORS = {"a1": "Ashish Vaswani", "a2": "Kaiming He", "a3": "Jason Wei"}


class CountingEmbedder(Embedder):
    """Hash embedder that counts calls and texts, to prove what was (not) embedded; its vectors are cached
    like a transformer's."""

    cache_vectors = True

    def __init__(self) -> None:
        self.inner = HashEmbedder()
        self.name = self.inner.name
        self.calls = 0
        self.texts = 0

    @property
    def dim(self) -> int:
        return self.inner.dim

    def embed(self, texts, batch_size=64, show_progress=False):
        self.calls += 1
        self.texts += len(texts)
        return self.inner.embed(texts)


@pytest.fixture(autouse=True)
def isolated_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("GRAPHREASON_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


@pytest.fixture
def store() -> GraphStore:
    graph = GraphStore("tiny-papers", directed=True, text_keys={"paper": "title", "author": "name"})
    for nid, (title, abstract) in PAPERS.items():
        graph.add_node(nid, "paper", {"title": title, "abstract": abstract, "year": 2020})
    for nid, name in AUTHORS.items():
        graph.add_node(nid, "author", {"name": name})
    graph.add_edge("p3", "a1", "written_by", reverse_relation="writes")
    graph.add_edge("p5", "a2", "written_by", reverse_relation="writes")
    graph.add_edge("p4", "a3", "written_by", reverse_relation="writes")
    return graph


def build(store, embedder=None, **kwargs) -> NodeIndex:
    return build_node_index(store, embedder or HashEmbedder(), progress=False, **kwargs)


def test_exact_title_returns_that_node(store):
    index = build(store)
    for nid, (title, _) in PAPERS.items():
        (top, score), *_ = index.search(title)
        assert top == nid
        assert score == pytest.approx(1.0, abs=1e-5)
    assert index.search("kaiming he")[0][0] == "a2"


def test_node_type_filter_restricts_results(store):
    index = build(store)
    papers = index.search("Jason Wei", k=10, node_type="paper")
    assert {n for n, _ in papers} == set(PAPERS)
    assert index.search("Jason Wei", k=1, node_type="author") == [("a3", pytest.approx(1.0, abs=1e-5))]
    assert index.search("Jason Wei", k=1)[0][0] == "a3"
    with pytest.raises(ValueError, match="no nodes of type 'venue'.*author, paper"):
        index.search("x", node_type="venue")


def test_k_results_are_ordered_and_capped(store):
    index = build(store)
    hits = index.search("reasoning with graphs and language models", k=4)
    assert len(hits) == 4
    scores = [s for _, s in hits]
    assert scores == sorted(scores, reverse=True)
    assert hits[0][0] == "p2"  # the title sharing the most words
    assert all(isinstance(n, str) and isinstance(s, float) for n, s in hits)
    assert len(index.search("reasoning", k=100)) == len(store)
    # an untyped search is the merge of the per-type searches
    merged = sorted(
        index.search("reasoning", k=100, node_type="paper")
        + index.search("reasoning", k=100, node_type="author"),
        key=lambda h: -h[1],
    )
    assert [s for _, s in merged] == pytest.approx([s for _, s in index.search("reasoning", k=100)])


def test_ties_follow_insertion_order(store):
    # 'z9' is inserted before 'b0': insertion order, not id order, must decide
    for nid in ("z9", "b0", "m5"):
        store.add_node(nid, "paper", {"title": "Duplicate title"})
    index = build(store)
    hits = index.search("Duplicate title", k=3)
    assert [n for n, _ in hits] == ["z9", "b0", "m5"]
    assert hits[0][1] == hits[1][1] == hits[2][1]
    assert [n for n, _ in index.search("Duplicate title", k=2)] == ["z9", "b0"]


def test_empty_or_bad_queries_are_rejected(store):
    index = build(store)
    for bad in ("", "   \n\t"):
        with pytest.raises(ValueError, match="non-empty text"):
            index.search(bad)
    with pytest.raises(ValueError, match="k must be a positive integer"):
        index.search("graph", k=0)
    with pytest.raises(TypeError, match="text query"):
        index.search(None)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="dimension 3"):
        index.search_vector(np.ones(3, dtype=np.float32))


def test_second_build_loads_from_cache_without_embedding(store, isolated_cache):
    first_embedder = CountingEmbedder()
    first = build(store, first_embedder)
    assert first_embedder.texts == len(store)
    # a flat index keeps nothing of its own: its vectors sit in the one embedding cache
    assert first.path is None and not (isolated_cache / "indexes").exists()
    assert len(list((isolated_cache / "embeddings").glob("tiny-papers-hash-*.npy"))) == 1

    again = CountingEmbedder()
    second = build(store, again)
    assert again.calls == 0  # nothing embedded on reload
    assert second.search("Attention is all you need", k=3) == first.search("Attention is all you need", k=3)
    assert again.calls == 1  # only the query


def test_cache_key_follows_graph_and_text_mode(store):
    build(store, CountingEmbedder())
    other_mode = CountingEmbedder()
    build(store, other_mode, text_mode="all")
    assert other_mode.texts == len(store)
    store.add_node("p6", "paper", {"title": "A new paper"})
    changed = CountingEmbedder()
    index = build(store, changed)
    assert changed.texts == len(store)
    assert index.search("A new paper")[0][0] == "p6"


def test_no_cache_writes_nothing(store, isolated_cache):
    index = build(store, CountingEmbedder(), cache=False)
    assert index.path is None
    for kind in ("indexes", "embeddings"):
        assert not (isolated_cache / kind).exists() or not any((isolated_cache / kind).iterdir())


def test_corrupt_cache_is_rebuilt(store, isolated_cache):
    build(store, CountingEmbedder())
    (vectors,) = (isolated_cache / "embeddings").glob("*.npy")
    vectors.write_bytes(b"not an array")
    embedder = CountingEmbedder()
    rebuilt = build(store, embedder)
    assert embedder.texts == len(store)
    assert rebuilt.search("Kaiming He")[0][0] == "a2"
    first = build(store, CountingEmbedder(), exact=False)  # an HNSW index is stored: a damaged one is rebuilt too
    (first.path / "meta.json").write_text("{not json")
    embedder = CountingEmbedder()
    assert build(store, embedder, exact=False).search("Kaiming He")[0][0] == "a2"


def test_text_mode_all_searches_other_string_features(store):
    assert (
        node_text(store, "p3", "all")
        == "Attention is all you need. The transformer replaces recurrence entirely."
    )
    assert node_text(store, "a1", "all") == "Ashish Vaswani"
    main = build(store)
    full = build(store, text_mode="all")
    query = "transformer replaces recurrence"
    assert full.search(query, node_type="paper")[0][0] == "p3"
    assert main.search(query, node_type="paper")[0][1] < full.search(query, node_type="paper")[0][1]
    with pytest.raises(ValueError, match="text_mode"):
        build(store, text_mode="abstract")


def test_repeated_queries_hit_the_query_cache(store):
    embedder = CountingEmbedder()
    index = build(store, embedder)
    before = embedder.calls
    for _ in range(5):
        index.search("graph counselor")
        index.search("  graph counselor  ")  # surrounding space does not change the query
    assert embedder.calls == before + 1


def test_hnsw_is_used_above_the_exact_limit(store, monkeypatch):
    assert set(build(store).kinds().values()) == {"flat"}
    monkeypatch.setattr(node_index_module, "EXACT_LIMIT", 4)
    auto = build(store, cache=False)
    assert auto.kinds() == {"paper": "hnsw", "author": "flat"}  # 5 papers, 3 authors
    forced = build(store, exact=False, cache=False)
    assert set(forced.kinds().values()) == {"hnsw"}
    assert forced.search(PAPERS["p4"][0])[0][0] == "p4"
    assert build(store, exact=True, cache=False).kinds() == {"paper": "flat", "author": "flat"}


def test_hnsw_index_persists_and_reloads(store):
    first = build(store, exact=False)
    embedder = CountingEmbedder()
    second = build(store, embedder, exact=False)
    assert embedder.calls == 0 and set(second.kinds().values()) == {"hnsw"}
    assert second.search(PAPERS["p1"][0]) == first.search(PAPERS["p1"][0])


def test_from_vectors_checks_shapes():
    with pytest.raises(ValueError, match="one vector and one type per id"):
        NodeIndex.from_vectors(["a", "b"], ["t", "t"], np.zeros((3, 4), np.float32), HashEmbedder())


def test_empty_graph_is_an_error():
    with pytest.raises(ValueError, match="no nodes"):
        build(GraphStore("empty"))


def test_minilm_index_finds_paraphrases(store, capsys):
    index = build_node_index(store, "minilm", progress=False)
    # the one-time embedding is announced before it starts, with an estimate; the cached index is silent
    err = capsys.readouterr().err
    assert "graphreason: first use: embedding the 8 node texts of tiny-papers with minilm for Retrieve, about 5 s" in err
    assert "once, then cached in" in err
    build_node_index(store, "minilm", progress=False)
    assert "first use" not in capsys.readouterr().err
    assert index.dim == 384
    assert index.search("self-attention transformer architecture", node_type="paper")[0][0] == "p3"
    assert index.search("ResNet image classification", node_type="paper")[0][0] == "p5"
