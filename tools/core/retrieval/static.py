"""A static (per-token) embedding distilled from the packaged MiniLM, for dense search over millions of names.

The distillation follows the idea of model2vec (Tulkens and van Dongen, 2024), in
this project's own code and with no download: every word piece of MiniLM's
vocabulary is run through MiniLM once, as a one-piece text, and the model's own
mean-pooled sentence vector of it becomes that piece's vector. A text is then
embedded as the mean of its pieces' vectors, normalised: a table lookup, with no
transformer at query or build time, so a million short names embed in seconds.

The table is built on first use (a few seconds on 2 cores, announced) and kept in
``<cache>/models/`` keyed by a digest of the source model's weights. It is a
coarser encoder than MiniLM itself: ``benchmarks/bench_retrieve.py`` measures
both on the same queries. Hybrid retrieval pairs it with the lexical index,
which settles names that match word for word.
"""

from __future__ import annotations

import hashlib
import threading
from pathlib import Path

import numpy as np
from scipy import sparse

from graphreason.settings import cache_dir
from graphreason.tools.core.retrieval.embedders import STATIC_PRESET, Embedder, _normalise_rows
from graphreason.tools.core.retrieval.vector_cache import write_array

_TABLE_FORMAT = 1
_lock = threading.Lock()
_tables: dict[str, np.ndarray] = {}


# What the first-use announcement says distilling the table takes, in seconds; tests/runtime/test_first_use.py
# keeps it within a factor of 2 of benchmarks/results/first_use.json (benchmarks/first_use.py).
DISTIL_ESTIMATE_S = 15


def _source_digest(folder: Path) -> str:
    digest = hashlib.sha256(f"static-v{_TABLE_FORMAT}".encode())
    with (folder / "model.safetensors").open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 22), b""):
            digest.update(block)
    return digest.hexdigest()[:12]


def distil_table(folder: Path, batch_size: int = 512) -> np.ndarray:
    """``(vocabulary size, dim)`` float32 unit rows: MiniLM's sentence vector of each word piece alone.

    Special pieces (``[PAD]``, ``[CLS]``, ``[SEP]``, ``[MASK]``, ``[unusedN]``) get a zero row.
    """
    from graphreason.tools.core.retrieval.bert_lite import LiteBertEncoder

    encoder = LiteBertEncoder(folder)
    torch = encoder.torch
    vocab = encoder.tokenizer.get_vocab()
    size = max(vocab.values()) + 1
    table = np.zeros((size, encoder.dim), dtype=np.float32)
    cls, sep = vocab.get("[CLS]"), vocab.get("[SEP]")
    if cls is None or sep is None:
        raise ValueError(f"{folder} has no [CLS]/[SEP] pieces: not a BERT word-piece vocabulary")
    wanted = sorted(i for piece, i in vocab.items() if not (piece.startswith("[") and piece.endswith("]")))
    with torch.inference_mode():
        for start in range(0, len(wanted), batch_size):
            rows = wanted[start : start + batch_size]
            ids = torch.tensor([[cls, i, sep] for i in rows], dtype=torch.long)
            mask = torch.ones_like(ids)
            table[rows] = encoder._forward(ids, mask).numpy()
    return table


def static_table(folder: Path) -> np.ndarray:
    """The distilled table of ``folder``, built once per machine (announced) and then read from the cache."""
    from graphreason.runtime.first_use import announce_first_use

    key = str(folder)
    with _lock:
        if key in _tables:
            return _tables[key]
        path = cache_dir("models") / f"{STATIC_PRESET}-{_source_digest(folder)}.npy"
        if path.is_file():
            table = np.load(path).astype(np.float32)
        else:
            announce_first_use("distilling a static word-piece table from MiniLM", DISTIL_ESTIMATE_S, path)
            stored = distil_table(folder).astype(np.float16)
            write_array(path, stored)
            table = stored.astype(np.float32)  # the same values a later load reads
        _tables[key] = table
        return table


class StaticEmbedder(Embedder):
    """Mean of distilled word-piece vectors (see the module docstring); the table loads on first use."""

    cache_vectors = False  # a million names embed in seconds: cheaper to recompute than to keep

    def __init__(self, folder: str | Path, name: str = STATIC_PRESET) -> None:
        from tokenizers import Tokenizer

        self.folder = Path(folder)
        self.name = name
        self.tokenizer = Tokenizer.from_file(str(self.folder / "tokenizer.json"))
        self.tokenizer.no_padding()
        self.tokenizer.no_truncation()
        self._table: np.ndarray | None = None

    @property
    def table(self) -> np.ndarray:
        if self._table is None:
            self._table = static_table(self.folder)
        return self._table

    @property
    def dim(self) -> int:
        return int(self.table.shape[1])

    def embed(self, texts: list[str], batch_size: int = 64, show_progress: bool = False) -> np.ndarray:
        if isinstance(texts, str):
            raise TypeError("embed() takes a list of texts, not a single string")
        table = self.table
        out = np.zeros((len(texts), table.shape[1]), dtype=np.float32)
        step = 65_536
        for start in range(0, len(texts), step):
            chunk = list(texts[start : start + step])
            encodings = self.tokenizer.encode_batch(chunk, add_special_tokens=False)
            lengths = np.fromiter((len(e.ids) for e in encodings), dtype=np.int64, count=len(chunk))
            indptr = np.concatenate([[0], np.cumsum(lengths)])
            ids = np.fromiter((i for e in encodings for i in e.ids), dtype=np.int64, count=int(indptr[-1]))
            pieces = sparse.csr_matrix(
                (np.ones(len(ids), dtype=np.float32), ids, indptr), shape=(len(chunk), table.shape[0])
            )
            out[start : start + len(chunk)] = pieces @ table  # each row: the sum of its pieces' vectors
        return _normalise_rows(out)
