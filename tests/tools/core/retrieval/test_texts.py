"""The text-list retriever: same interface as the node index, exact cosine ranking, built once per text set."""

from __future__ import annotations

import numpy as np

from graphreason.tools.core.retrieval import Retriever, TextRetriever, cached_text_retriever, shared_embedder


def test_ranks_by_cosine_like_a_brute_force_count():
    texts = {"a": "shortest path between two nodes", "b": "count the triangles", "c": "is the graph bipartite"}
    retriever = TextRetriever(texts, "hash")
    assert isinstance(retriever, Retriever)
    embedder = shared_embedder("hash")
    query = "what is the shortest path from node 0"
    vectors = np.asarray(embedder.embed(list(texts.values())), dtype=float)
    q = np.asarray(embedder.embed([query]), dtype=float)[0]
    cosine = vectors @ q / (np.linalg.norm(vectors, axis=1) * np.linalg.norm(q))
    expected = [list(texts)[i] for i in np.argsort(-cosine, kind="stable")]
    found = retriever.search(query, k=3)
    assert [name for name, _ in found] == expected
    assert [round(score, 6) for _, score in found] == [round(float(x), 6) for x in sorted(cosine, reverse=True)]
    assert retriever.search(query, k=0) == [] and len(retriever.search(query, k=10)) == 3


def test_one_retriever_per_text_set_and_encoder():
    texts = {"x": "one", "y": "two"}
    assert cached_text_retriever(texts, "hash") is cached_text_retriever(dict(texts), "hash")
    assert cached_text_retriever(texts, "hash") is not cached_text_retriever(texts, "hash:64")
    assert TextRetriever({}, "hash").search("anything", k=3) == []
