"""Node search that puts names first: exact name, then near-exact name, then lexical and dense ranks fused.

One ranking, in tiers (each hit says which tier placed it, so a trace can show it):

1. ``exact name``: the node's normalised text is the normalised query
   (:func:`~graphreason.tools.core.retrieval.lexical.normalise`: case, whitespace and
   punctuation do not count). A quoted title or a name copied from the question lands here.
   Of several such nodes, the one spelled with the query's punctuation comes first.
2. ``near-exact name``: among the candidates, a text within a small edit of the
   query (character similarity of the normalised forms at least :data:`NEAR_EXACT`).
3. ``fused``: reciprocal-rank fusion of the BM25 rank and the dense rank of each
   candidate (``1 / (60 + rank)`` for BM25 plus :data:`DENSE_WEIGHT` ``/ (60 + rank)``
   for dense), over the top :data:`CANDIDATES` of each list. The dense side weighs
   half: on queries made of part of a Cora title, an equal weight let near-synonymous
   titles outrank the one the words came from (``benchmarks/bench_retrieve.py``).

``ranking="lexical"`` keeps tiers 1-2 and orders the rest by BM25 alone; ``"dense"``
is cosine similarity alone (the paper's Retrieve). Ties keep the nodes' order.
"""

from __future__ import annotations

from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Literal

from graphreason.tools.core.retrieval.base import Retriever
from graphreason.tools.core.retrieval.embedders import STATIC_PRESET
from graphreason.tools.core.retrieval.lexical import LexicalIndex, normalise
from graphreason.tools.core.retrieval.node_index import NodeIndex, build_node_index
from graphreason.tools.core.store import GraphStore

Ranking = Literal["hybrid", "lexical", "dense"]
RANKINGS: tuple[str, ...] = ("hybrid", "lexical", "dense")
NEAR_EXACT = 0.9
CANDIDATES = 50
RRF_K = 60
DENSE_WEIGHT = 0.5
# Above this many nodes, hybrid ranking pairs the lexical index with the static table instead of
# MiniLM itself: MiniLM embeds a few hundred texts a second on 2 cores, so a larger graph would
# wait minutes before its first question (set the embedder explicitly to another model to keep it).
MINILM_HYBRID_LIMIT = 50_000


@dataclass(frozen=True)
class Hit:
    """One ranked node: its id, the tier's score, and the tier that placed it."""

    node: str
    score: float
    how: str


def _similar(a: str, b: str) -> float:
    return SequenceMatcher(None, a, b, autojunk=False).ratio()


class HybridIndex(Retriever):
    """Exact and near-exact names first, then BM25 and dense ranks fused (see the module docstring)."""

    def __init__(self, lexical: LexicalIndex, dense: NodeIndex | None, ranking: Ranking = "hybrid") -> None:
        if ranking not in RANKINGS:
            raise ValueError(f"ranking must be one of {', '.join(RANKINGS)}, got {ranking!r}")
        if ranking != "lexical" and dense is None:
            raise ValueError(f"ranking {ranking!r} needs a dense index")
        self.lexical = lexical
        self.dense = dense
        self.ranking = ranking
        self._position = {node: i for i, node in enumerate(lexical.ids)}

    @property
    def node_types(self) -> list[str]:
        return list(self.lexical.type_names)

    def describe(self) -> str:
        """The ranking in words, as the trace shows it."""
        if self.ranking == "dense":
            return f"dense ({self.dense.embedder.name})"
        if self.ranking == "lexical":
            return "exact name, near-exact name, then BM25"
        return f"exact name, near-exact name, then BM25 and dense ({self.dense.embedder.name}) fused by rank"

    def __len__(self) -> int:
        return len(self.lexical)

    def search(self, text: str, k: int = 1, node_type: str | None = None) -> list[tuple[str, float]]:
        """Top-``k`` ``(node_id, score)`` pairs, best first (scores are comparable only within a tier)."""
        return [(hit.node, hit.score) for hit in self.search_explained(text, k, node_type)]

    def namesakes(self, text: str, k: int) -> list[str]:
        """The first ``k`` nodes whose name is ``text`` (the ``exact name`` tier, in its order), with no dense work."""
        return [self.lexical.ids[position] for position in self.lexical.exact(text)[:k]]

    def search_explained(self, text: str, k: int = 1, node_type: str | None = None) -> list[Hit]:
        """Like :meth:`search`, with the tier that placed each hit."""
        if not isinstance(text, str):
            raise TypeError(f"Retrieve needs a text query, got {type(text).__name__}")
        query = text.strip()
        if not query:
            raise ValueError("Retrieve needs a non-empty text to search for; the query was empty or only whitespace")
        if isinstance(k, bool) or not isinstance(k, int) or k < 1:
            raise ValueError(f"k must be a positive integer, got {k!r}")
        if self.ranking == "dense":
            return [Hit(node, score, "dense") for node, score in self.dense.search(query, k, node_type)]
        wanted = max(k, CANDIDATES)
        lexical = self.lexical.search(query, wanted, node_type)
        ids = self.lexical.ids
        hits = [Hit(ids[h.position], 1.0, "exact name") for h in lexical if h.exact]
        placed = {h.node for h in hits}
        if len(hits) >= k:  # the exact names settle it: no query embedding, no dense scan
            return hits[:k]
        dense = self.dense.search(query, wanted, node_type) if self.ranking == "hybrid" else []
        target = normalise(query)
        candidates = [ids[h.position] for h in lexical if not h.exact] + [node for node, _ in dense]
        near = []
        for node in dict.fromkeys(candidates):
            if node in placed:
                continue
            name = self.lexical.names[self._position[node]]
            if 2 * min(len(name), len(target)) < NEAR_EXACT * (len(name) + len(target)):
                continue  # lengths alone rule out the similarity
            ratio = _similar(target, name)
            if ratio >= NEAR_EXACT:
                near.append((-ratio, self._position[node], node))
        for ratio, _, node in sorted(near):
            hits.append(Hit(node, -ratio, "near-exact name"))
            placed.add(node)
        if self.ranking == "lexical":
            rest = [Hit(ids[h.position], h.score, "BM25") for h in lexical if ids[h.position] not in placed]
            return (hits + rest)[:k]
        fused: dict[str, float] = {}
        for rank, h in enumerate(x for x in lexical if ids[x.position] not in placed):
            fused[ids[h.position]] = fused.get(ids[h.position], 0.0) + 1.0 / (RRF_K + rank + 1)
        for rank, node in enumerate(n for n, _ in dense if n not in placed):
            fused[node] = fused.get(node, 0.0) + DENSE_WEIGHT / (RRF_K + rank + 1)
        order = sorted(fused, key=lambda node: (-fused[node], self._position[node]))
        hits.extend(Hit(node, fused[node], "fused") for node in order)
        return hits[:k]


def dense_embedder_for(embedder: str, ranking: str, n_nodes: int) -> str:
    """The encoder of the dense side: ``minilm`` becomes the static table for a hybrid index over a large graph."""
    if ranking == "hybrid" and embedder == "minilm" and n_nodes > MINILM_HYBRID_LIMIT:
        return STATIC_PRESET
    return embedder


def build_retriever(
    store: GraphStore, embedder: str = "minilm", ranking: Ranking = "hybrid", *, cache: bool = True,
    progress: bool = True,
) -> HybridIndex:
    """The lexical index of ``store``'s node texts and, unless ``ranking`` is lexical, its dense index."""
    if ranking not in RANKINGS:
        raise ValueError(f"ranking must be one of {', '.join(RANKINGS)}, got {ranking!r}")
    if len(store) == 0:
        raise ValueError(f"graph {store.name!r} has no nodes to index")
    ids = list(store.nodes())
    lexical = LexicalIndex(ids, [store.node_type(n) for n in ids], [store.text(n) for n in ids])
    dense = None
    if ranking != "lexical":
        name = dense_embedder_for(embedder, ranking, len(ids)) if isinstance(embedder, str) else embedder
        # next to the lexical tiers a flat index is enough, and it builds at once
        dense = build_node_index(
            store, name, cache=cache, progress=progress, exact=True if ranking == "hybrid" else None
        )
    return HybridIndex(lexical, dense, ranking)
