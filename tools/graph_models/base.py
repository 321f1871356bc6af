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
prediction methods. Predictions raise :class:`GraphModelError` (a
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

from graphreason.llm.first_use import announce_first_use
from graphreason.settings import cache_dir
from graphreason.tools.core.errors import GraphError


class GraphModelError(GraphError):
    """A graph model cannot answer: unknown dataset, unknown id, missing data."""


# What each model took to train on first use, fit and feature building included (the ``seconds`` of its
# report), from `graphreason train all --json` with an empty cache on this project's 2-core machine on
# 2026-11-25 (16 min 59 s in all): the estimate a first-use announcement gives. A pair not listed
# (a dataset a caller provides) is announced without one.
MEASURED_TRAIN_SECONDS: dict[tuple[str, str], float] = {
    ("graph_bert", "cora"): 148.9,
    ("graph_bert", "citeseer"): 199.6,
    ("seg_bert", "mutag"): 16.9,
    ("seg_bert", "ptc"): 16.1,
    ("seg_bert", "proteins"): 67.2,
    ("seg_bert", "nci1"): 301.2,
    ("bpr", "movielens"): 48.6,
    ("bpr", "last-fm"): 89.3,
    ("transe", "wordnet"): 39.7,
    ("transe", "freebase"): 60.3,
    ("kmeans", "foursquare"): 9.3,
    ("kmeans", "twitter"): 12.0,
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
        """Everything :meth:`load_state` needs, as a ``torch.save``-able dict."""

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
        import torch  # only when a model is used

        meta = json.loads((folder / "meta.json").read_text())
        self.load_state(torch.load(folder / "state.pt", weights_only=False))
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
            torch.save(self.state(), tmp / "state.pt")
            (tmp / "meta.json").write_text(json.dumps(report.to_dict(), indent=2))
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


def seed_everything(seed: int) -> None:
    """Seed Python, NumPy and torch so a training run repeats."""
    import random

    import numpy as np
    import torch

    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


def progress_bar(iterable: Any = None, *, enabled: bool, **kwargs: Any) -> Any:
    """A tqdm bar on stderr, or a silent pass-through when ``enabled`` is false."""
    from tqdm import tqdm

    return tqdm(iterable, disable=not enabled, file=sys.stderr, leave=False, **kwargs)
