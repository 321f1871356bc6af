"""A :class:`~graphreason.tools.core.retrieval.base.Retriever` over a short fixed list of texts (exact cosine, no index).

For a few hundred texts at most - GAR's algorithm library, command or label
descriptions - where a FAISS index would only add set-up time. Node texts of a
graph use :class:`~graphreason.tools.core.retrieval.node_index.NodeIndex` instead.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from functools import lru_cache

import numpy as np

from graphreason.tools.core.retrieval.base import Retriever
from graphreason.tools.core.retrieval.embedders import Embedder, get_embedder

_lock = threading.Lock()


@lru_cache(maxsize=8)
def shared_embedder(name: str) -> Embedder:
    """One embedder per preset name or folder for the whole process (loading a model takes seconds)."""
    return get_embedder(name)


def _unit(matrix: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return matrix / np.where(norms == 0, 1.0, norms)


class TextRetriever(Retriever):
    """Cosine similarity between a query and each of ``texts`` (id -> text), best first."""

    def __init__(self, texts: Mapping[str, str], embedder: Embedder | str = "minilm") -> None:
        self.ids = list(texts)
        self.embedder = shared_embedder(embedder) if isinstance(embedder, str) else embedder
        vectors = self.embedder.embed([texts[i] for i in self.ids]) if self.ids else np.zeros((0, 1))
        self._vectors = _unit(np.asarray(vectors, dtype=np.float64))

    def search(self, text: str, k: int = 1, node_type: str | None = None) -> list[tuple[str, float]]:
        """Top-``k`` ``(id, cosine)`` pairs, best first (ties keep the texts' order); ``node_type`` is unused."""
        if not self.ids or k < 1:
            return []
        query = _unit(np.asarray(self.embedder.embed([text]), dtype=np.float64))[0]
        scores = self._vectors @ query
        order = np.argsort(-scores, kind="stable")[:k]
        return [(self.ids[i], float(scores[i])) for i in order]


_retrievers: dict[tuple[int, str], TextRetriever] = {}


def cached_text_retriever(texts: Mapping[str, str], embedder: str) -> TextRetriever:
    """A :class:`TextRetriever` built once per (text set, embedder name) for the process."""
    key = (hash(tuple(texts.items())), embedder)
    with _lock:
        found = _retrievers.get(key)
    if found is None:
        found = TextRetriever(texts, embedder)
        with _lock:
            _retrievers.setdefault(key, found)
    return found
