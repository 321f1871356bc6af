"""Where data and caches live.

The shared benchmark data is read in place (never copied into the repo). Its root
defaults to ``../shared/data`` next to the checkout and can be moved with
``GRAPHREASON_DATA_ROOT``. Derived artefacts (FAISS indexes, converted model
weights) go to ``GRAPHREASON_CACHE`` (default ``~/.cache/graphreason``).
Graph inputs may state at most ``GRAPHREASON_MAX_NODES`` nodes (see :func:`max_nodes`).
"""

from __future__ import annotations

import os
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent


class DataMissingError(FileNotFoundError):
    """The shared data root, or a dataset inside it, is not where it should be."""


def data_root() -> Path:
    """The configured data root (it may not exist; see :func:`dataset_dir`)."""
    env = os.environ.get("GRAPHREASON_DATA_ROOT")
    return Path(env).expanduser().resolve() if env else (REPO_ROOT.parent / "shared" / "data").resolve()


def dataset_dir(name: str) -> Path:
    """Folder of one dataset under the data root, with a clear error if it is missing."""
    path = data_root() / name
    if not path.exists():
        raise DataMissingError(
            f"dataset folder {path} not found; set GRAPHREASON_DATA_ROOT to the folder holding "
            f"'{name}' (default is ../shared/data beside the checkout)"
        )
    return path


def cache_dir(*parts: str) -> Path:
    """A folder under the cache root, created on demand."""
    root = Path(os.environ.get("GRAPHREASON_CACHE", "~/.cache/graphreason")).expanduser()
    path = root.joinpath(*parts)
    path.mkdir(parents=True, exist_ok=True)
    return path


MAX_NODES_ENV = "GRAPHREASON_MAX_NODES"
# the project benchmarks 10^6-node graphs; five times that still fits in memory, and a
# three-word text ("numbered from 0 to 10^10") must not be able to ask for more
DEFAULT_MAX_NODES = 5_000_000


def max_nodes() -> int:
    """The most nodes a graph input (text, dict, file, array) may have: ``GRAPHREASON_MAX_NODES`` or 5,000,000.

    Read on every call so a test or a long-running server can change it. A
    setting that is not a positive integer is a configuration mistake and is
    refused with a ValueError naming the variable.
    """
    raw = os.environ.get(MAX_NODES_ENV, "").strip().replace("_", "")
    if not raw:
        return DEFAULT_MAX_NODES
    if not (raw.isascii() and raw.isdigit()) or len(raw) > 18 or int(raw) < 1:
        raise ValueError(f"{MAX_NODES_ENV} must be a positive integer, got {raw!r}")
    return int(raw)
