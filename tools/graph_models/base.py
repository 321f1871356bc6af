"""One contract for every trained graph model: train on demand, cache, report.

A :class:`GraphModel` is one model family (``domain``, e.g. ``graph_bert``) on
one dataset. :meth:`GraphModel.ensure` loads the trained state from the cache,
or trains it (with a progress bar when asked) and saves it first. The cache
folder is keyed by the domain, the dataset, the class ``version`` and the
hyper-parameters from :meth:`GraphModel.settings`, so changing any of them
trains a new model instead of reusing a stale one. Writes go to a temporary
folder that is renamed into place, so an interrupted or concurrent training
never leaves a half-written model behind.

Subclasses implement :meth:`fit` (train, keep the state, return metrics on the
held-out split), :meth:`state` / :meth:`load_state` (what is saved) and their
prediction methods.

The cache holds data, never code: ``state.pt`` loads with
``torch.load(weights_only=True)``. NumPy arrays in a state are saved as tensors
(tagged, and given back as arrays), NumPy scalars as Python numbers, so the
file holds only tensors and plain values; ``meta.json`` names that
``state_format``. A cache written before (no ``state_format``) holds pickled
NumPy arrays: it loads weights-only too, with NumPy's array, dtype and scalar
rebuilders allowed and nothing else. A ``state.pt`` that needs anything more
is refused, not run: delete its folder to train the model again. Predictions raise :class:`GraphModelError` (a
:class:`~graphreason.tools.core.errors.GraphError`) with a message naming what is wrong.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
import tempfile
import time
from abc import ABC, abstractmethod
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from graphreason.runtime.cancel import check_cancelled
from graphreason.runtime.first_use import announce_first_use
from graphreason.settings import cache_dir
from graphreason.tools.core.errors import GraphError

STATE_FORMAT = 2  # 2: NumPy arrays saved as tagged tensors; 1 (older caches, no state_format): pickled arrays
_ARRAY_TAG = "__ndarray__"


class GraphModelError(GraphError):
    """A graph model cannot answer: unknown dataset, unknown id, missing data."""


# The estimate a first-use announcement gives for training each model, fit and feature building included
# (the ``seconds`` of its report). tests/runtime/test_first_use.py keeps each within a factor of 2 of
# what benchmarks/first_use.py recorded (benchmarks/results/first_use.json). A pair not listed (a dataset
# a caller provides) is announced without one.
MEASURED_TRAIN_SECONDS: dict[tuple[str, str], float] = {
    ("graph_bert", "cora"): 105.9,
    ("graph_bert", "citeseer"): 144.9,
    ("seg_bert", "mutag"): 5.3,
    ("seg_bert", "ptc"): 5.1,
    ("seg_bert", "proteins"): 30.2,
    ("seg_bert", "nci1"): 121.6,
    ("bpr", "movielens"): 25.2,
    ("bpr", "last-fm"): 39.8,
    ("transe", "wordnet"): 18.8,
    ("transe", "freebase"): 29.1,
    ("kmeans", "foursquare"): 4.0,
    ("kmeans", "twitter"): 7.5,
}


@dataclass
class TrainReport:
    """What a training run measured; saved beside the weights as ``meta.json``."""

    domain: str
    dataset: str
    metrics: dict[str, float]
    seconds: float
    split: str
    settings: dict[str, Any] = field(default_factory=dict)
    path: str = ""
    cached: bool = False

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


class GraphModel(ABC):
    """Base of the graph model hub's models (see the module docstring)."""

    domain: ClassVar[str]
    datasets: ClassVar[tuple[str, ...]]
    version: ClassVar[int] = 1
    split: ClassVar[str] = ""  # one line saying which split the metrics are on

    def __init__(self, dataset: str, *, seed: int = 0) -> None:
        key = dataset.strip().lower().replace("_", "-")
        if key not in self.datasets:
            raise GraphModelError(
                f"{self.domain} has no model for dataset {dataset!r}; it supports {', '.join(self.datasets)}."
            )
        self.dataset = key
        self.seed = seed
        self.report: TrainReport | None = None

    # ------------------------------------------------------------------ to implement
    def settings(self) -> dict[str, Any]:
        """Hyper-parameters that change the trained model (part of the cache key)."""
        return {}

    @abstractmethod
    def fit(self, progress: bool) -> dict[str, float]:
        """Train from scratch, keep the state on ``self``; return held-out metrics."""

    @abstractmethod
    def state(self) -> dict[str, Any]:
        """Everything :meth:`load_state` needs: tensors, NumPy arrays and numbers, str, None, lists, tuples, dicts."""

    @abstractmethod
    def load_state(self, state: dict[str, Any]) -> None:
        """Restore what :meth:`state` returned."""

    # ------------------------------------------------------------------ provided
    def cache_key(self) -> str:
        payload = json.dumps(
            {"settings": self.settings(), "seed": self.seed, "version": self.version}, sort_keys=True
        )
        return hashlib.sha256(payload.encode()).hexdigest()[:12]

    def cache_path(self) -> Path:
        return cache_dir("graph_models") / f"{self.domain}-{self.dataset}-{self.cache_key()}"

    @property
    def trained(self) -> bool:
        return self.report is not None

    def ensure(self, *, progress: bool = False, force: bool = False) -> TrainReport:
        """Load the cached model, or train and cache it; returns its report."""
        if self.report is not None and not force:
            return self.report
        folder = self.cache_path()
        if not force and (folder / "meta.json").exists():
            return self._load(folder)
        return self._train_and_save(folder, progress)

    def _load(self, folder: Path) -> TrainReport:
        meta = json.loads((folder / "meta.json").read_text())
        legacy = meta.pop("state_format", 1) != STATE_FORMAT
        self.load_state(decode_state(load_weights_only(folder / "state.pt", legacy=legacy)))
        self.report = TrainReport(**{**meta, "path": str(folder), "cached": True})
        return self.report

    def _train_and_save(self, folder: Path, progress: bool) -> TrainReport:
        import torch

        seed_everything(self.seed)
        what = f"training the {self.domain} graph model on {self.dataset}"
        if self.domain == "graph_bert":
            what += " (with its text embedding)"
        announce_first_use(what, MEASURED_TRAIN_SECONDS.get((self.domain, self.dataset)), folder)
        start = time.perf_counter()
        metrics = self.fit(progress)
        report = TrainReport(
            domain=self.domain,
            dataset=self.dataset,
            metrics={k: float(v) for k, v in metrics.items()},
            seconds=round(time.perf_counter() - start, 2),
            split=self.split,
            settings=self.settings(),
        )
        tmp = Path(tempfile.mkdtemp(prefix=folder.name + ".", dir=folder.parent))
        try:
            torch.save(encode_state(self.state()), tmp / "state.pt")
            meta = {**report.to_dict(), "state_format": STATE_FORMAT}
            (tmp / "meta.json").write_text(json.dumps(meta, indent=2))
            if folder.exists():
                shutil.rmtree(folder, ignore_errors=True)
            os.replace(tmp, folder)
        except OSError:
            shutil.rmtree(tmp, ignore_errors=True)
            if not (folder / "meta.json").exists():  # a concurrent writer may have won the rename
                raise
        report.path = str(folder)
        self.report = report
        return report


def encode_state(value: Any) -> Any:
    """``value`` with every NumPy array as a tagged tensor and every NumPy scalar as a Python number.

    What comes out loads with ``torch.load(weights_only=True)``; :func:`decode_state` undoes it.
    """
    import numpy as np
    import torch

    if isinstance(value, np.generic):  # before str and float: np.str_ and np.float64 subclass them
        return value.item()
    if isinstance(value, torch.Tensor) or value is None or isinstance(value, str | bool | int | float):
        return value
    if isinstance(value, np.ndarray):
        if value.dtype.kind not in "biufc":
            raise TypeError(f"a graph model state cannot hold a NumPy array of dtype {value.dtype}")
        return {_ARRAY_TAG: torch.from_numpy(np.array(value, order="C", copy=True))}
    if isinstance(value, dict):
        return {encode_state(k): encode_state(v) for k, v in value.items()}
    if isinstance(value, list):
        return [encode_state(v) for v in value]
    if isinstance(value, tuple):
        return tuple(encode_state(v) for v in value)
    raise TypeError(f"a graph model state cannot hold {type(value).__name__} (only data loads weights-only)")


def decode_state(value: Any) -> Any:
    """What :func:`encode_state` stored, NumPy arrays given back as arrays (a state of the older format passes as is)."""
    if isinstance(value, dict):
        if value.keys() == {_ARRAY_TAG}:
            return value[_ARRAY_TAG].numpy()
        return {k: decode_state(v) for k, v in value.items()}
    if isinstance(value, list):
        return [decode_state(v) for v in value]
    if isinstance(value, tuple):
        return tuple(decode_state(v) for v in value)
    return value


def _numpy_rebuilders() -> list[Any]:
    """What a pickled NumPy array or scalar calls to rebuild itself: the arrays of an older cache, data only."""
    import numpy as np

    dtypes = {type(np.dtype(code)) for code in "?bBhHiIlLqQefdgFDGSUO"}  # NumPy >= 1.25 pickles their classes
    rebuild_array, rebuild_scalar = np.zeros(1).__reduce__()[0], np.float64(0).__reduce__()[0]
    return [rebuild_array, np.ndarray, np.dtype, rebuild_scalar, *dtypes, bytes]  # bytes: an empty array's data


def load_weights_only(path: Path, *, legacy: bool = False) -> Any:
    """``torch.load(path, weights_only=True)``: tensors and plain values, never code.

    ``legacy`` also allows NumPy's array rebuilders (a cache written before
    :data:`STATE_FORMAT` 2). A file that needs anything else is refused with a
    GraphModelError saying to delete the folder, which trains the model again.
    """
    import pickle

    import torch

    try:
        if legacy:
            with torch.serialization.safe_globals(_numpy_rebuilders()):
                return torch.load(path, map_location="cpu", weights_only=True)
        return torch.load(path, map_location="cpu", weights_only=True)
    except (pickle.UnpicklingError, RuntimeError, EOFError, OSError) as exc:
        why = "holds more than tensors and plain values" if isinstance(exc, pickle.UnpicklingError) else str(exc)
        raise GraphModelError(
            f"The cached graph model {path} was not loaded ({why.splitlines()[0] if why else type(exc).__name__}); "
            f"delete {path.parent} and it is trained again on next use."
        ) from None


def seed_everything(seed: int) -> None:
    """Seed Python, NumPy and torch so a training run repeats."""
    import random

    import numpy as np
    import torch

    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


def progress_bar(iterable: Any = None, *, enabled: bool, **kwargs: Any) -> Any:
    """A tqdm bar on stderr, or a silent pass-through when ``enabled`` is false.

    Every training loop iterates one: between items (epochs, candidates) it
    checks whether the served run it works for was cancelled (RunCancelled).
    """
    from tqdm import tqdm

    class StoppableBar(tqdm):
        def __iter__(self) -> Any:
            for item in super().__iter__():
                check_cancelled()
                yield item

    return StoppableBar(iterable, disable=not enabled, file=sys.stderr, leave=False, **kwargs)
