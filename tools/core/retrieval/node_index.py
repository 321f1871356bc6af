"""Dense node retrieval: FAISS inner-product search over embedded node texts.

One sub-index per node type, so ``search(..., node_type=T)`` scans only the
nodes of type T (exact and as fast as a graph with only those nodes), and an
untyped search merges the per-type top-k lists (still exact, since every
global top-k hit is in its own type's top-k).

Index kind, per node type:

* ``IndexFlatIP`` (exact cosine) when the type has fewer than
  :data:`EXACT_LIMIT` nodes, or always with ``exact=True``;
* ``IndexHNSWFlat`` (approximate) above that, or always with ``exact=False``.
  A flat scan reads every vector, so its time grows with the node count; HNSW
  (M=32, ef_search=128) answers in about the same time at any size, close to
  the exact answer, and costs a build once, then it is cached
  (``benchmarks/bench_retrieve.py`` measures both).
  ``ef_search`` sets its accuracy/speed balance. HNSW construction runs on
  several threads, so two builds may differ slightly; a cached index does not.

Ties are broken by node insertion order, so equal texts always rank the same
way. The vectors are kept in the one embedding cache (keyed by the texts and the
embedder); an HNSW index also persists under ``cache_dir("indexes")``, keyed by
the same and the index settings, since its graph is slow to build. A flat index
is rebuilt from the cached vectors in milliseconds.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import shutil
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Literal

import faiss
import numpy as np

from graphreason.settings import cache_dir
from graphreason.tools.core.retrieval.base import Retriever
from graphreason.tools.core.retrieval.embedders import Embedder, get_embedder
from graphreason.tools.core.store import GraphStore

TextMode = Literal["main", "all"]
TEXT_MODES = ("main", "all")
EXACT_LIMIT = 50_000  # per node type: below this a flat scan is already ~ms
HNSW_M = 32
HNSW_EF_CONSTRUCTION = 64
HNSW_EF_SEARCH = 128
_FORMAT_VERSION = 1

log = logging.getLogger(__name__)


# ------------------------------------------------------------------ node text
def node_text(store: GraphStore, node: str, text_mode: TextMode = "main") -> str:
    """Text embedded for one node.

    ``"main"``: the node's name/title (``store.text``). ``"all"``: the main text
    followed by every other non-empty string feature, joined by ``". "``.
    """
    main = store.text(node)
    if text_mode == "main":
        return main
    if text_mode != "all":
        raise ValueError(f"text_mode must be one of {TEXT_MODES}, got {text_mode!r}")
    pieces = [main]
    for value in store.features(node).values():
        if isinstance(value, str) and value.strip() and value not in pieces:
            pieces.append(value.strip())
    return ". ".join(pieces)


# ------------------------------------------------------------------ partitions
@dataclass
class _Partition:
    """The FAISS index of one node type plus its row -> node mapping."""

    node_type: str
    index: faiss.Index
    ids: list[str]
    positions: np.ndarray  # global insertion position of each row, for tie-breaks

    @property
    def kind(self) -> str:
        return "hnsw" if isinstance(self.index, faiss.IndexHNSW) else "flat"


def _make_index(vectors: np.ndarray, exact: bool | None, hnsw_m: int, ef_construction: int) -> faiss.Index:
    use_flat = exact if exact is not None else len(vectors) < EXACT_LIMIT
    dim = vectors.shape[1]
    if use_flat:
        index = faiss.IndexFlatIP(dim)
    else:
        index = faiss.IndexHNSWFlat(dim, hnsw_m, faiss.METRIC_INNER_PRODUCT)
        index.hnsw.efConstruction = ef_construction
    index.add(vectors)
    return index


def _search_partition(part: _Partition, query: np.ndarray, k: int) -> list[tuple[float, int, str]]:
    """Top-k of one partition as ``(score, position, id)``, including every row
    tied with the k-th score so the caller's tie-break is exact."""
    total = part.index.ntotal
    if total == 0:
        return []
    want = min(k, total)
    fetch = min(total, max(2 * want, want + 8))
    while True:
        scores, rows = part.index.search(query, fetch)
        scores, rows = scores[0], rows[0]
        found = int((rows >= 0).sum())  # HNSW may return fewer than asked
        if fetch >= total or found < fetch or scores[fetch - 1] < scores[want - 1]:
            break
        fetch = min(total, fetch * 4)
    return [(float(scores[i]), int(part.positions[rows[i]]), part.ids[rows[i]]) for i in range(found)]


# ------------------------------------------------------------------ the index
class NodeIndex(Retriever):
    """Cosine search over node texts, one FAISS sub-index per node type.

    Build it with :func:`build_node_index` (or :meth:`from_vectors` for
    precomputed vectors). Query embeddings are kept in an LRU cache
    (``query_cache_size`` entries) because agents repeat queries.
    ``search_threads`` is the OpenMP thread count of one search (default 1).
    """

    def __init__(
        self,
        embedder: Embedder,
        partitions: Sequence[_Partition],
        *,
        text_mode: TextMode = "main",
        ef_search: int = HNSW_EF_SEARCH,
        query_cache_size: int = 4096,
        search_threads: int | None = 1,
        path: Path | None = None,
    ) -> None:
        self.embedder = embedder
        self.text_mode = text_mode
        self.path = path
        # One OpenMP thread per query by default: agents send one query at a time and
        # parallel runs already fill the cores; on a busy 2-core box FAISS's second
        # thread mostly spin-waits, several times slower. None keeps FAISS's setting.
        self.search_threads = search_threads
        self._parts: dict[str, _Partition] = {p.node_type: p for p in partitions}
        self.set_ef_search(ef_search)
        self._query_vector = lru_cache(maxsize=query_cache_size)(self._embed_query)

    # ----------------------------------------------------------- construction
    @classmethod
    def from_vectors(
        cls,
        ids: Sequence[str],
        node_types: Sequence[str],
        vectors: np.ndarray,
        embedder: Embedder,
        *,
        exact: bool | None = None,
        hnsw_m: int = HNSW_M,
        ef_construction: int = HNSW_EF_CONSTRUCTION,
        **kwargs,
    ) -> NodeIndex:
        """Index precomputed unit vectors (row i belongs to ``ids[i]`` of type ``node_types[i]``)."""
        vectors = np.ascontiguousarray(vectors, dtype=np.float32)
        if vectors.ndim != 2 or len(vectors) != len(ids) or len(ids) != len(node_types):
            raise ValueError(
                f"need one vector and one type per id: got {len(ids)} ids, {len(node_types)} types "
                f"and vectors of shape {vectors.shape}"
            )
        groups: dict[str, list[int]] = {}
        for pos, t in enumerate(node_types):
            groups.setdefault(t, []).append(pos)
        parts = []
        for t, positions in groups.items():
            rows = np.asarray(positions, dtype=np.int64)
            index = _make_index(vectors[rows], exact, hnsw_m, ef_construction)
            parts.append(_Partition(t, index, [str(ids[p]) for p in positions], rows))
        return cls(embedder, parts, **kwargs)

    def clear_query_cache(self) -> None:
        """Forget cached query embeddings (e.g. after swapping ``embedder``)."""
        self._query_vector.cache_clear()

    def set_ef_search(self, ef_search: int) -> None:
        """HNSW candidate-list size (higher = better recall, slower); no effect on flat parts."""
        if ef_search < 1:
            raise ValueError(f"ef_search must be positive, got {ef_search}")
        self.ef_search = int(ef_search)
        for part in self._parts.values():
            if isinstance(part.index, faiss.IndexHNSW):
                part.index.hnsw.efSearch = self.ef_search

    # ----------------------------------------------------------- queries
    def _embed_query(self, text: str) -> np.ndarray:
        vector = np.ascontiguousarray(self.embedder.embed([text]), dtype=np.float32).reshape(1, -1)
        vector.setflags(write=False)  # shared through the LRU cache
        return vector

    def search(self, text: str, k: int = 1, node_type: str | None = None) -> list[tuple[str, float]]:
        """Top-``k`` ``(node_id, cosine)`` pairs for a text query, best first."""
        if not isinstance(text, str):
            raise TypeError(f"Retrieve needs a text query, got {type(text).__name__}")
        query = text.strip()
        if not query:
            raise ValueError(
                "Retrieve needs a non-empty text to search for; the query was empty or only whitespace"
            )
        self._check_args(k, node_type)
        return self.search_vector(self._query_vector(query), k, node_type)

    def search_vector(
        self, vector: np.ndarray, k: int = 1, node_type: str | None = None
    ) -> list[tuple[str, float]]:
        """Like :meth:`search` for an already embedded (unit-length) query."""
        self._check_args(k, node_type)
        query = np.ascontiguousarray(vector, dtype=np.float32).reshape(1, -1)
        if query.shape[1] != self.dim:
            raise ValueError(
                f"query vector has dimension {query.shape[1]} but the index holds {self.dim}-d vectors "
                f"(embedder {self.embedder.name!r})"
            )
        parts = self._parts.values() if node_type is None else [self._parts[node_type]]
        hits: list[tuple[float, int, str]] = []
        previous = faiss.omp_get_max_threads()
        limit = self.search_threads
        if limit:  # the OpenMP setting is per calling thread, so this does not leak across threads
            faiss.omp_set_num_threads(limit)
        try:
            for part in parts:
                hits.extend(_search_partition(part, query, k))
        finally:
            if limit:
                faiss.omp_set_num_threads(previous)
        hits.sort(key=lambda h: (-h[0], h[1]))
        return [(node, score) for score, _, node in hits[:k]]

    def _check_args(self, k: int, node_type: str | None) -> None:
        if isinstance(k, bool) or not isinstance(k, int) or k < 1:
            raise ValueError(f"k must be a positive integer, got {k!r}")
        if node_type is not None and node_type not in self._parts:
            raise ValueError(
                f"no nodes of type {node_type!r} in this index; node types: {', '.join(self.node_types) or '(none)'}"
            )

    # ----------------------------------------------------------- info
    @property
    def dim(self) -> int:
        return next(iter(self._parts.values())).index.d if self._parts else self.embedder.dim

    @property
    def node_types(self) -> list[str]:
        return sorted(self._parts)

    def kinds(self) -> dict[str, str]:
        """Index kind ('flat' or 'hnsw') per node type."""
        return {t: p.kind for t, p in self._parts.items()}

    def __len__(self) -> int:
        return sum(p.index.ntotal for p in self._parts.values())

    def __repr__(self) -> str:
        return f"NodeIndex(nodes={len(self)}, types={self.kinds()}, embedder={self.embedder.name!r})"

    # ----------------------------------------------------------- persistence
    def save(self, folder: Path) -> Path:
        """Write the sub-indexes and ``meta.json`` (ids, positions) atomically into ``folder``."""
        folder = Path(folder)
        folder.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(dir=folder.parent, prefix=f".{folder.name}-"))
        meta = {
            "version": _FORMAT_VERSION,
            "embedder": self.embedder.name,
            "text_mode": self.text_mode,
            "parts": [],
        }
        for i, part in enumerate(self._parts.values()):
            filename = f"part-{i}.faiss"
            faiss.write_index(part.index, str(tmp / filename))
            meta["parts"].append(
                {
                    "type": part.node_type,
                    "file": filename,
                    "ids": part.ids,
                    "positions": part.positions.tolist(),
                }
            )
        (tmp / "meta.json").write_text(json.dumps(meta))
        try:
            os.rename(tmp, folder)  # atomic; fails if another process saved first
        except OSError:
            shutil.rmtree(tmp, ignore_errors=True)
            if not (folder / "meta.json").exists():
                raise
        self.path = folder
        return folder

    @classmethod
    def load(cls, folder: Path, embedder: Embedder, **kwargs) -> NodeIndex:
        """Read an index written by :meth:`save`; ``embedder`` must be the one it was built with."""
        folder = Path(folder)
        meta = json.loads((folder / "meta.json").read_text())
        if meta.get("version") != _FORMAT_VERSION:
            raise ValueError(f"{folder} has index format {meta.get('version')}, expected {_FORMAT_VERSION}")
        if meta["embedder"] != embedder.name:
            raise ValueError(f"{folder} was built with embedder {meta['embedder']!r}, not {embedder.name!r}")
        parts = []
        for entry in meta["parts"]:
            index = faiss.read_index(str(folder / entry["file"]))
            if index.ntotal != len(entry["ids"]):
                raise ValueError(
                    f"{folder / entry['file']} holds {index.ntotal} vectors for {len(entry['ids'])} ids"
                )
            parts.append(
                _Partition(entry["type"], index, entry["ids"], np.asarray(entry["positions"], dtype=np.int64))
            )
        return cls(embedder, parts, text_mode=meta["text_mode"], path=folder, **kwargs)


# ------------------------------------------------------------------ building
def _index_folder(store: GraphStore, embedder: Embedder, text_mode: str, settings: str, digest: str) -> Path:
    key = hashlib.sha256(f"{embedder.name}|{text_mode}|{settings}|{digest}".encode()).hexdigest()[:16]
    safe_name = re.sub(r"[^A-Za-z0-9_.-]+", "_", store.name)[:40] or "graph"
    return cache_dir("indexes") / f"{safe_name}-{embedder.name}-{text_mode}-{key}"


def _all_flat(store: GraphStore, exact: bool | None) -> bool:
    if exact is not None:
        return exact
    counts: dict[str, int] = {}
    for node in store.nodes():
        t = store.node_type(node)
        counts[t] = counts.get(t, 0) + 1
    return max(counts.values()) < EXACT_LIMIT


def build_node_index(
    store: GraphStore,
    embedder: str | Embedder = "minilm",
    text_mode: TextMode = "main",
    cache: bool = True,
    progress: bool = True,
    *,
    exact: bool | None = None,
    batch_size: int = 64,
    hnsw_m: int = HNSW_M,
    ef_construction: int = HNSW_EF_CONSTRUCTION,
    ef_search: int = HNSW_EF_SEARCH,
    search_threads: int | None = 1,
) -> NodeIndex:
    """Embed every node's text (through the one embedding cache) and index it.

    ``exact=None`` picks a flat (exact) index for node types under
    :data:`EXACT_LIMIT` nodes and HNSW above; ``True``/``False`` force one kind.
    With ``cache`` the vectors are kept by :func:`~graphreason.tools.core.retrieval.vector_cache.cached_vectors`
    (shared with every other use of the same texts and model); a flat index is
    rebuilt from them at once, and only an HNSW index, whose graph takes long to
    build, is stored under ``cache_dir("indexes")``.
    ``ef_search`` and ``search_threads`` are query-time settings (see :class:`NodeIndex`).
    """
    from graphreason.tools.core.retrieval.vector_cache import cached_vectors, texts_digest

    if text_mode not in TEXT_MODES:
        raise ValueError(f"text_mode must be one of {TEXT_MODES}, got {text_mode!r}")
    if len(store) == 0:
        raise ValueError(f"graph {store.name!r} has no nodes to index")
    model = get_embedder(embedder)
    ids = list(store.nodes())
    texts = [node_text(store, n, text_mode) for n in ids]
    query_settings = {"ef_search": ef_search, "search_threads": search_threads, "text_mode": text_mode}
    folder = None
    if cache and not _all_flat(store, exact):
        settings = f"exact={exact}|m={hnsw_m}|efc={ef_construction}|limit={EXACT_LIMIT}|v{_FORMAT_VERSION}"
        folder = _index_folder(store, model, text_mode, settings, texts_digest(texts))
        if (folder / "meta.json").exists():
            try:
                return NodeIndex.load(folder, model, ef_search=ef_search, search_threads=search_threads)
            except Exception as exc:  # a corrupt or stale cache is rebuilt, not fatal
                log.warning("rebuilding node index: could not load %s (%s)", folder, exc)
                shutil.rmtree(folder, ignore_errors=True)
    vectors = cached_vectors(
        texts, model, label=store.name, batch_size=batch_size, progress=progress, cache=cache,
        what=f"embedding the {len(texts):,} node texts of {store.name} with {model.name} for Retrieve",
    )
    index = NodeIndex.from_vectors(
        ids, [store.node_type(n) for n in ids], vectors, model,
        exact=exact, hnsw_m=hnsw_m, ef_construction=ef_construction, **query_settings,
    )
    if folder is not None:
        index.save(folder)
    return index
