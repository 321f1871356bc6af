"""Node feature matrices for the node classifier: word flags, text embeddings, or both.

* ``bow`` - the dataset's binary word flags, each row scaled to sum 1 (Kipf's GCN input);
  for an OGB folder, its ``node-feat`` vectors.
* ``text`` - a sentence embedding of each node's title + abstract, cut to its
  first :data:`TEXT_WORDS` words (unit rows).
* ``text+bow`` - the two side by side.

Embedding every text is the slow part, so the vectors go through the project's one
embedding cache (:mod:`graphreason.tools.core.retrieval.vector_cache`), keyed by a
digest of the texts and the embedder: edited texts or another embedder never reuse
stale vectors, and any other use of the same texts and model shares them.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from graphreason.tools.core.loaders.linqs_text import TextGraph
from graphreason.tools.core.retrieval.embedders import Embedder, get_embedder
from graphreason.tools.core.retrieval.vector_cache import cached_vectors
from graphreason.tools.graph_models.base import GraphModelError

FEATURE_SETS = ("text", "text+bow", "bow")
# words of title + abstract that are embedded: about 125 MiniLM tokens instead of its 256-token limit,
# which roughly halves the embedding time; on Cora's public split the validation accuracy was the same
# (APPNP on text: 0.82-0.83 with 96 words over 3 seeds, 0.82 with the whole text)
TEXT_WORDS = 96


def bow_features(features: np.ndarray) -> np.ndarray:
    """Word flags (or counts) with each row summing to 1; other features (any negative value) as given.

    OGB's node-feat vectors are averaged word embeddings (arxiv) or reduced
    bags of words (products) with negative entries: scaling those rows would
    only distort them, so they pass through.
    """
    features = np.asarray(features, dtype=np.float32)
    if features.size and features.min() < 0:
        return features
    return features / np.maximum(features.sum(1, keepdims=True), 1e-12)


def text_embeddings(
    name: str, texts: Sequence[str], embedder: str | Embedder = "minilm", *, progress: bool = False
) -> np.ndarray:
    """``[len(texts), dim]`` float32 embeddings, from the one embedding cache (computed there on first use)."""
    return cached_vectors(
        list(texts), embedder, label=name, batch_size=32, progress=progress,
        what=f"embedding {len(texts):,} {name} texts with {get_embedder(embedder).name}",
    )


def feature_blocks(
    graph: TextGraph,
    kind: str,
    embedder: str | Embedder = "minilm",
    *,
    words: int | None = TEXT_WORDS,
    progress: bool = False,
) -> list[np.ndarray]:
    """The feature set ``kind`` (one of :data:`FEATURE_SETS`) as blocks: text embedding, word flags.

    The blocks stay apart so the classifier can keep the sparse word flags sparse.
    """
    if kind not in FEATURE_SETS:
        raise GraphModelError(f"unknown node feature set {kind!r}; known: {', '.join(FEATURE_SETS)}")
    blocks = []
    if kind in ("text", "text+bow"):
        if graph.texts is None:
            raise GraphModelError(
                f"{graph.name} has no node texts, so it has no {kind!r} features; use 'bow'"
            )
        texts = [" ".join(text.split()[:words]) for text in graph.texts] if words else graph.texts
        blocks.append(text_embeddings(graph.name, texts, embedder, progress=progress))
    if kind in ("bow", "text+bow"):
        blocks.append(bow_features(graph.features))
    return blocks
