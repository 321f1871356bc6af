"""Label recall: the labelled nodes most like a node, by its text and its neighbourhood.

The tuned GraphAgent's long-term memory. The paper retrieves past episodes on
labelled nodes by title similarity and replays the lesson of each; a 135M model
cannot write a useful lesson, so the tuned agent is shown what those episodes
end with instead: the labels of the most similar labelled nodes.

Similarity is the cosine of neighbourhood-smoothed node vectors: each node's
vector is its own (unit) vector plus the mean of its neighbours', scaled to
unit length. The vectors are text embeddings (title and abstract opening, the
first :data:`~graphreason.tools.graph_models.node_features.TEXT_WORDS` words,
the same vectors the graph model reads, from the same cache) or, with
``recall_by="words"``, the dataset's word features, which cost no embedding. Only nodes whose label may be
shown are recalled (the training part, the nodes ``get_neighbors`` labels), and
never the node asked about.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

RECALL_K = 10  # labelled nodes recalled by default
TITLE_WORDS = 8  # of the closest recalled node's title in the observation


@dataclass(frozen=True)
class Recalled:
    """One recalled labelled node."""

    node: str
    label: str
    similarity: float


def unit_rows(vectors: np.ndarray) -> np.ndarray:
    """The rows scaled to unit length (a row of zeros stays zero)."""
    vectors = np.asarray(vectors, dtype=np.float32)
    return vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)


def smoothed(vectors: np.ndarray, neighbours: Sequence[Sequence[int]]) -> np.ndarray:
    """Each unit row plus the mean of its neighbours' unit rows, at unit length (a row of zeros stays zero)."""
    vectors = unit_rows(vectors)
    out = vectors.copy()
    for i, around in enumerate(neighbours):
        if len(around):
            out[i] += vectors[list(around)].mean(0)
    return unit_rows(out)


class LabelRecall:
    """The labelled nodes most like a node (see the module text).

    ``vectors`` are the nodes' text embeddings in ``ids`` order, ``neighbours``
    each node's neighbour positions, ``known`` the positions whose label may be
    shown and ``labels`` every node's label.
    """

    def __init__(
        self,
        ids: Sequence[str],
        vectors: np.ndarray,
        neighbours: Sequence[Sequence[int]],
        known: Sequence[int],
        labels: Sequence[Any],
    ) -> None:
        if len(vectors) != len(ids) or len(neighbours) != len(ids) or len(labels) != len(ids):
            raise ValueError(
                f"label recall needs one vector, neighbour list and label per node: {len(ids)} ids, "
                f"{len(vectors)} vectors, {len(neighbours)} neighbour lists, {len(labels)} labels"
            )
        self.ids = [str(i) for i in ids]
        self._position = {node: i for i, node in enumerate(self.ids)}
        self._vectors = smoothed(vectors, neighbours)
        self._known = np.asarray(sorted(set(int(i) for i in known)), dtype=np.int64)
        self._labels = [str(label) for label in labels]

    def recall(self, node: str, k: int = RECALL_K) -> list[Recalled]:
        """The ``k`` most similar labelled nodes to ``node`` (never itself), most similar first."""
        if k <= 0 or not self._known.size:
            return []
        position = self._position[node]
        keys = self._known[self._known != position]
        scores = self._vectors[keys] @ self._vectors[position]
        order = np.argsort(-scores, kind="stable")[:k]
        return [Recalled(self.ids[keys[j]], self._labels[keys[j]], round(float(scores[j]), 4)) for j in order]


def recall_counts(recalled: Sequence[Recalled]) -> Counter[str]:
    """How many recalled nodes carry each label, in first-recalled order among ties."""
    return Counter(item.label for item in recalled)


def recall_text(node: str, recalled: Sequence[Recalled], title: str = "") -> str:
    """The observation: the recalled labels with counts (most first), then the closest node."""
    if not recalled:
        return f"No labelled node is known to compare node {node} with."
    counts = ", ".join(f"{label} x{n}" for label, n in recall_counts(recalled).most_common())
    closest = recalled[0]
    named = " ".join(title.split()[:TITLE_WORDS])
    named = f' "{named}"' if named else ""
    return (
        f"Labels of the {len(recalled)} labelled nodes most like {node}: {counts}. "
        f"Closest: {closest.node}{named} [label: {closest.label}]."
    )
