"""The one embedding cache: vectors of a list of texts, keyed by (texts digest, embedder name).

Every use of a transformer encoder over many texts goes through :func:`cached_vectors`:
Graph Counselor's Retrieve index, GraphAgent's node features, any graph model
that embeds node texts. The same texts under the same model are embedded once
per machine, whoever asks first. Files live in ``<cache>/embeddings/`` as
``<label>-<embedder>-<digest>.npy``; the label is only a readable hint, the
digest of the texts is the key.

Encoders that cost nothing to rerun (the hash encoder, the static table) are not
cached: their vectors would only take disk (a million static vectors is 1.5 GB).
"""

from __future__ import annotations

import hashlib
import os
import re
import tempfile
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from tqdm import tqdm

from graphreason.runtime.cancel import check_cancelled
from graphreason.settings import cache_dir
from graphreason.tools.core.retrieval.embedders import Embedder, announce_embedding, get_embedder


def texts_digest(texts: Sequence[str]) -> str:
    """SHA-256 of the texts in order (a separator byte between them), first 16 hex digits."""
    digest = hashlib.sha256()
    for text in texts:
        digest.update(text.encode("utf-8") + b"\x1e")
    return digest.hexdigest()[:16]


def vector_path(texts: Sequence[str], embedder: Embedder, label: str = "texts") -> Path:
    """Where the vectors of ``texts`` under ``embedder`` are kept."""
    safe = re.sub(r"[^A-Za-z0-9_.-]+", "_", label)[:40] or "texts"
    model = re.sub(r"[^A-Za-z0-9_.-]+", "_", embedder.name)[:60]
    return cache_dir("embeddings") / f"{safe}-{model}-{texts_digest(texts)}.npy"


def embed_by_length(
    embedder: Embedder, texts: Sequence[str], batch_size: int = 64, progress: bool = False, desc: str = "embedding"
) -> np.ndarray:
    """Embed in chunks, shortest texts first so each batch pads little; rows come back in input order."""
    order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
    chunk = max(batch_size, 1) * 16
    out: np.ndarray | None = None
    with tqdm(total=len(texts), desc=desc, unit="text", disable=not progress) as bar:
        for start in range(0, len(order), chunk):
            check_cancelled()  # a cancelled served run stops between chunks
            rows = order[start : start + chunk]
            vectors = np.asarray(embedder.embed([texts[i] for i in rows], batch_size=batch_size), np.float32)
            if out is None:
                out = np.zeros((len(texts), vectors.shape[1]), dtype=np.float32)
            if vectors.shape != (len(rows), out.shape[1]):
                raise ValueError(f"embedder {embedder.name!r} returned shape {vectors.shape} for {len(rows)} texts")
            out[rows] = vectors
            bar.update(len(rows))
    return out if out is not None else np.zeros((0, embedder.dim), dtype=np.float32)


def cached_vectors(
    texts: Sequence[str],
    embedder: str | Embedder = "minilm",
    *,
    label: str = "texts",
    what: str | None = None,
    batch_size: int = 64,
    progress: bool = False,
    cache: bool = True,
) -> np.ndarray:
    """``(len(texts), dim)`` float32 unit rows, read from the cache or embedded once (announced) and stored.

    ``what`` words the first-use announcement (default: "embedding N texts").
    """
    model = get_embedder(embedder)
    texts = list(texts)
    keep = cache and getattr(model, "cache_vectors", True)
    path = vector_path(texts, model, label) if keep else None
    if path is not None and path.is_file():
        try:
            vectors = np.load(path)
            if vectors.shape[0] == len(texts) and vectors.dtype == np.float32:
                return vectors
        except (OSError, ValueError):
            pass  # a damaged file is embedded again and replaced
    if path is not None:
        announce_embedding(what or f"embedding {len(texts):,} {label} texts with {model.name}", texts, model.name, path)
    vectors = embed_by_length(model, texts, batch_size, progress, desc=f"embedding {label}")
    if path is not None:
        write_array(path, vectors)
    return vectors


def write_array(path: Path, array: np.ndarray) -> None:
    """``np.save`` beside the target and rename, so a concurrent reader never sees half a file."""
    handle, tmp = tempfile.mkstemp(prefix=path.name, suffix=".npy", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as fh:
            np.save(fh, array)
        os.replace(tmp, path)
    except OSError:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
