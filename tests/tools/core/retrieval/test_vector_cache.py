"""The one embedding cache: keyed by texts and model, shared by every use; first-use estimates checked."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from graphreason.tools.core.retrieval.embedders import HashEmbedder, embedding_seconds
from graphreason.tools.core.retrieval.node_index import build_node_index
from graphreason.tools.core.retrieval.vector_cache import cached_vectors, texts_digest
from graphreason.tools.core.store import GraphStore
from graphreason.tools.graph_models.node_features import text_embeddings

RESULTS = Path(__file__).resolve().parents[4] / "benchmarks" / "results"


class CountingEncoder(HashEmbedder):
    """A cached encoder (as a transformer is) that counts the texts it embeds."""

    cache_vectors = True

    def __init__(self) -> None:
        super().__init__()
        self.texts = 0

    def embed(self, texts, batch_size=64, show_progress=False):
        self.texts += len(texts)
        return super().embed(texts)


@pytest.fixture(autouse=True)
def isolated_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("GRAPHREASON_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


def test_retrieve_and_node_features_share_one_file_for_the_same_texts(isolated_cache) -> None:
    titles = ["Graph attention networks", "Deep residual learning", "Attention is all you need"]
    store = GraphStore("cora", text_keys={"paper": "title"})
    for i, title in enumerate(titles):
        store.add_node(str(i), "paper", {"title": title})
    encoder = CountingEncoder()
    build_node_index(store, encoder, progress=False)
    assert encoder.texts == 3
    vectors = text_embeddings("cora", titles, encoder)  # GraphAgent's node features of the same texts
    assert encoder.texts == 3 and vectors.shape == (3, 256)  # read back, not embedded again
    assert [p.name for p in (isolated_cache / "embeddings").iterdir()] == [f"cora-hash-{texts_digest(titles)}.npy"]
    cached_vectors([*titles, "one more"], encoder, label="cora")
    assert encoder.texts == 7 and len(list((isolated_cache / "embeddings").iterdir())) == 2


def test_the_digest_follows_order_and_boundaries() -> None:
    assert texts_digest(["ab", "c"]) != texts_digest(["a", "bc"]) != texts_digest(["c", "ab"])
    assert texts_digest(["ab", "c"]) == texts_digest(("ab", "c"))


def test_the_first_use_estimate_is_within_twice_the_recorded_throughput() -> None:
    """benchmarks/bench_retrieve.py --part throughput recorded MiniLM's rates on short and long texts."""
    record = json.loads((RESULTS / "retrieve_throughput.json").read_text())
    for label in ("short names", "long abstracts"):
        measured = record["figures"][label]
        texts = measured["texts"]
        mean_chars = measured["chars_read"] / texts
        estimate = embedding_seconds(["x" * round(mean_chars)] * texts, "minilm")
        assert measured["project_seconds"] / 2 <= estimate <= 2 * measured["project_seconds"], (label, estimate)
