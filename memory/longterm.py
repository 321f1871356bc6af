"""Long-term memory: a LangGraph store whose items are searchable by meaning.

The store embeds the named fields of each item with one of our sentence
encoders, so ``store.search(namespace, query=...)`` returns the most similar
past items (for example earlier episodes about similar nodes), scored by
cosine similarity.

In memory by default; with ``path`` it is LangGraph's ``SqliteStore`` on that
file, with the same semantic index, so episodes survive the process. The
SQLite store computes similarities in SQL with sqlite-vec's
``vec_distance_*`` functions. Python builds whose ``sqlite3`` cannot load
extensions (no ``enable_load_extension``, as on this project's interpreter)
get the same functions written in numpy instead (:class:`_PortableConnection`):
slower per row, identical scores, and a few thousand episodes are still
searched in milliseconds.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from langgraph.store.base import BaseStore
from langgraph.store.memory import InMemoryStore

from graphreason.tools.core.retrieval.embedders import Embedder, get_embedder


def make_store(
    embedder: str | Embedder = "minilm",
    fields: Sequence[str] = ("text",),
    path: str | Path | None = None,
) -> BaseStore:
    """A LangGraph store with a semantic index over ``fields``: in memory, or SQLite at ``path``."""
    encoder = get_embedder(embedder) if isinstance(embedder, str) else embedder

    def embed(texts: Sequence[str]) -> list[list[float]]:
        return encoder.embed(list(texts)).tolist()

    index: dict[str, Any] = {"dims": encoder.dim, "embed": embed, "fields": list(fields)}
    if path is None:
        return InMemoryStore(index=index)  # type: ignore[arg-type]
    # SqliteStore reads the indexed fields from "text_fields" (InMemoryStore from "fields"): without it
    # the whole item would be embedded and the scores would differ between the two stores
    return sqlite_store(path, {**index, "text_fields": list(fields)})


def sqlite_store(path: str | Path, index: dict[str, Any]) -> BaseStore:
    """LangGraph's ``SqliteStore`` on ``path`` (created with its folder), set up and ready."""
    from langgraph.store.sqlite import SqliteStore

    target = Path(path).expanduser()
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(str(target), check_same_thread=False, isolation_level=None)
    except (OSError, sqlite3.Error) as exc:
        raise ValueError(f"cannot open the experience store {target}: {exc}") from exc
    connection: Any = conn if hasattr(conn, "enable_load_extension") else _PortableConnection(conn)
    store = SqliteStore(connection, index=index)  # type: ignore[arg-type]
    try:
        store.setup()
    except sqlite3.DatabaseError as exc:
        conn.close()
        raise ValueError(f"{target} is not a usable SQLite experience store: {exc}") from exc
    return store


class _PortableConnection:
    """A ``sqlite3.Connection`` that cannot load extensions, given sqlite-vec's distance functions in numpy.

    ``SqliteStore.setup`` loads the sqlite-vec extension through
    ``enable_load_extension`` / ``load_extension``; here those are no-ops and the
    three SQL functions the store's search uses are registered instead. Every
    other attribute is the real connection's.
    """

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn
        conn.create_function("vec_distance_cosine", 2, _cosine_distance, deterministic=True)
        conn.create_function("vec_distance_L2", 2, _l2_distance, deterministic=True)
        conn.create_function("vec_distance_L1", 2, _l1_distance, deterministic=True)

    def enable_load_extension(self, enabled: bool) -> None:  # noqa: ARG002 - the functions are registered
        return None

    def load_extension(self, path: str, *args: Any, **kwargs: Any) -> None:  # sqlite_vec.load calls this
        return None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._conn, name)


def _vectors(left: bytes, right: bytes) -> tuple[np.ndarray, np.ndarray]:
    return np.frombuffer(left, dtype=np.float32), np.frombuffer(right, dtype=np.float32)


def _cosine_distance(left: bytes, right: bytes) -> float | None:
    a, b = _vectors(left, right)
    norms = float(np.linalg.norm(a) * np.linalg.norm(b))
    if norms == 0.0 or a.shape != b.shape:
        return None  # sqlite-vec gives no distance for a zero vector either; the row sorts last
    return 1.0 - float(a @ b) / norms


def _l2_distance(left: bytes, right: bytes) -> float:
    a, b = _vectors(left, right)
    return float(np.linalg.norm(a - b))


def _l1_distance(left: bytes, right: bytes) -> float:
    a, b = _vectors(left, right)
    return float(np.abs(a - b).sum())
