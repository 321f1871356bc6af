"""Where data and caches live.

The shared benchmark data is read in place (never copied into the repo). Its root
defaults to ``../shared/data`` next to the checkout and can be moved with
``GRAPHREASON_DATA_ROOT``. Derived artefacts (FAISS indexes, converted model
weights) go to ``GRAPHREASON_CACHE`` (default ``~/.cache/graphreason``).
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
