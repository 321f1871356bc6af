"""Graphs, retrievers and graph functions, loaded once per process.

Workflows name a graph by spec (a known name or a graph.json path) and an
embedding model; the first run pays for loading and indexing, later runs and
concurrent eval workers share the result.
"""

from __future__ import annotations

import threading
from functools import lru_cache

from graphreason.tools.core.loaders import load_graph
from graphreason.tools.core.retrieval.hybrid import Ranking, build_retriever
from graphreason.tools.core.store import GraphStore
from graphreason.tools.counselor.functions import GraphFunctions

_lock = threading.Lock()


@lru_cache(maxsize=8)
def _graph(spec: str) -> GraphStore:
    return load_graph(spec)


@lru_cache(maxsize=8)
def _functions(spec: str, embedding_model: str, ranking: Ranking) -> GraphFunctions:
    store = _graph(spec)
    return GraphFunctions(store, build_retriever(store, embedder=embedding_model, ranking=ranking))


def get_graph(spec: str) -> GraphStore:
    """The loaded graph for ``spec`` (cached)."""
    with _lock:
        return _graph(spec)


def get_graph_functions(spec: str, embedding_model: str = "minilm", ranking: Ranking = "hybrid") -> GraphFunctions:
    """Graph functions (with a built or reloaded node index, ranked as ``ranking`` says) for ``spec`` (cached)."""
    with _lock:
        return _functions(spec, embedding_model, ranking)
