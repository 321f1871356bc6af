"""Node feature blocks: word flags scaled per row, text embeddings cached on disk, clear errors."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from graphreason.tools.core.loaders.linqs_text import TextGraph
from graphreason.tools.core.retrieval.embedders import HashEmbedder
from graphreason.tools.graph_models.base import GraphModelError
from graphreason.tools.graph_models.node_features import bow_features, feature_blocks, text_embeddings


def _graph(texts: list[str] | None) -> TextGraph:
    flags = np.array([[1, 1, 0], [0, 0, 0]], dtype=np.float32)
    return TextGraph("toy", ["a", "b"], ["x", "y"], flags, np.zeros((2, 0), dtype=np.int64), texts)


def test_word_flags_sum_to_one_per_row_and_other_features_pass_through() -> None:
    assert bow_features(np.array([[1, 1, 0], [0, 0, 0]])).tolist() == [[0.5, 0.5, 0.0], [0.0, 0.0, 0.0]]
    signed = np.array([[0.5, -1.0], [2.0, 0.0]], dtype=np.float32)
    assert np.array_equal(bow_features(signed), signed)  # OGB's embedding-like features


class CachedHash(HashEmbedder):
    """The hash encoder with its vectors kept on disk, as a transformer encoder's are."""

    cache_vectors = True


def test_text_embeddings_are_computed_once_then_read_from_the_cache(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("GRAPHREASON_CACHE", str(tmp_path))
    texts = ["graph neural networks", "query planning in databases"]
    first = text_embeddings("toy", texts, CachedHash())
    assert first.shape == (2, 256) and np.allclose(np.linalg.norm(first, axis=1), 1.0)
    assert len(list((tmp_path / "embeddings").glob("toy-hash-*.npy"))) == 1

    def refuse(*_args, **_kwargs):
        raise AssertionError("embedded again instead of reading the cache")

    monkeypatch.setattr(HashEmbedder, "embed", refuse)
    assert np.array_equal(text_embeddings("toy", texts, CachedHash()), first)
    with pytest.raises(AssertionError, match="embedded again"):  # other texts: another cache file
        text_embeddings("toy", [*texts, "a third text"], CachedHash())


def test_the_plain_hash_encoder_writes_nothing(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("GRAPHREASON_CACHE", str(tmp_path))
    text_embeddings("toy", ["a text"], "hash")
    assert not (tmp_path / "embeddings").exists() or not any((tmp_path / "embeddings").iterdir())


def test_feature_sets_are_blocks_and_text_needs_texts(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("GRAPHREASON_CACHE", str(tmp_path))
    graph = _graph(["graph neural networks", ""])
    assert [b.shape for b in feature_blocks(graph, "text+bow", "hash")] == [(2, 256), (2, 3)]
    assert [b.shape for b in feature_blocks(graph, "bow")] == [(2, 3)]
    with pytest.raises(GraphModelError, match="toy has no node texts.*use 'bow'"):
        feature_blocks(_graph(None), "text", "hash")
    with pytest.raises(GraphModelError, match="known: text, text\\+bow, bow"):
        feature_blocks(graph, "words")
