"""Graph-ToolFormer's ``seg_bert:molecule_function``: GIN graph classifiers on TU datasets.

The paper answers molecule-function questions with SEG-Bert; here a GIN-0
(:mod:`graphreason.tools.graph_models.gin`, Xu et al. 2019) trained on the GIN / DGCNN
copies of MUTAG, PTC, PROTEINS and NCI1 stands in for it (the SEG-Bert weights
are not available). ``instance#N`` in the prompts is the ``N``-th graph of the
data file counted from 0, and the answer is the file's own label value (MUTAG:
0 or 2; the others 0 or 1): every ``prompts_train`` record agrees with that
reading (see :mod:`graphreason.tools.core.loaders.tu_gin`).

The on-demand model (:meth:`MoleculeModel.ensure`) trains on fold 1 of the
dataset's ``10fold_idx`` and reports accuracy on that fold's test graphs.
:func:`cross_validate` runs the paper-style protocol over all ten folds.
Training uses Adam (lr 0.01, halved every 50 epochs), mini-batches of 32 graphs,
hidden size 64 (PTC: 32) and dropout 0.5 as in the GIN paper, with each epoch one pass
over the training graphs (the GIN code instead draws 50 random batches).
``benchmarks/first_use.py`` records what each dataset takes to train and
``benchmarks/graph_models_accuracy.py`` the accuracies.
"""

from __future__ import annotations

import re
import time
from typing import Any, ClassVar

import numpy as np

from graphreason.tools.core.loaders.tu_gin import GraphSet, load_folds, load_gin_dataset
from graphreason.tools.graph_models.base import GraphModel, GraphModelError, progress_bar, seed_everything
from graphreason.tools.graph_models.threads import torch_threads

# epochs of the on-demand model (one pass over the training graphs each; the learning rate halves every 50):
# PROTEINS levels off by 100, NCI1 still gains after the second halving (71% at 50, 76% at 150)
DEFAULT_EPOCHS = {"mutag": 150, "ptc": 150, "proteins": 100, "nci1": 150}
# hidden units: 64, except PTC, where 32 (in the GIN paper's {16, 32} grid for these datasets) scored
# 62.1 +- 7.7 instead of 57.4 +- 5.3 over the ten folds; MUTAG did not gain (84.4 vs 85.6)
DEFAULT_HIDDEN = {"ptc": 32}
GIN_PAPER = {"mutag": 89.4, "ptc": 64.6, "proteins": 76.2, "nci1": 82.7}  # GIN-0, 10-fold accuracy (%)
_INSTANCE = re.compile(r"^(?:instance)?\s*#?\s*(\d+)$", re.IGNORECASE)


class MoleculeModel(GraphModel):
    """GIN-0 graph classifier for one TU dataset; answers in the prompts' label values."""

    domain: ClassVar[str] = "seg_bert"
    datasets: ClassVar[tuple[str, ...]] = ("mutag", "ptc", "proteins", "nci1")
    split: ClassVar[str] = "GIN/DGCNN 10fold_idx fold 1: trained on its train_idx, accuracy on its test_idx"

    def __init__(
        self,
        dataset: str,
        *,
        seed: int = 0,
        epochs: int | None = None,
        hidden: int | None = None,
        layers: int = 5,
        batch_size: int = 32,
        train_limit: int | None = None,
    ) -> None:
        super().__init__(dataset, seed=seed)
        self.epochs = epochs if epochs is not None else DEFAULT_EPOCHS[self.dataset]
        self.hidden = hidden if hidden is not None else DEFAULT_HIDDEN.get(self.dataset, 64)
        self.layers, self.batch_size = layers, batch_size
        self.train_limit = train_limit  # train on the first N training graphs only (quick tests)
        self.classes: list[int] = []
        self.probs: np.ndarray | None = None  # [graphs, classes], every graph of the dataset
        self.weights: dict[str, Any] | None = None
        self.parts: dict[str, np.ndarray] = {}  # fold 1's train / test graph positions

    def settings(self) -> dict[str, Any]:
        return {
            "model": "gin0-sum",
            "epochs": self.epochs,
            "hidden": self.hidden,
            "layers": self.layers,
            "batch_size": self.batch_size,
            "lr": 0.01,
            "lr_half_every": 50,
            "dropout": 0.5,
            "fold": 1,
            "train_limit": self.train_limit,
        }

    # ------------------------------------------------------------------ training
    def fit(self, progress: bool) -> dict[str, float]:
        graphs = load_gin_dataset(self.dataset)
        train, test = load_folds(self.dataset)[0]
        if self.train_limit is not None:
            train = train[: self.train_limit]
        run = train_gin(graphs, train, test, settings=self.settings(), seed=self.seed, progress=progress)
        self.classes = graphs.classes
        self.probs = run["probs"]
        self.weights = run["weights"]
        self.parts = {"train": train, "test": test}
        return {
            "test_accuracy": run["curve"][-1],
            "train_accuracy": run["train_accuracy"],
            "train_graphs": float(len(train)),
            "test_graphs": float(len(test)),
        }

    def state(self) -> dict[str, Any]:
        return {"classes": self.classes, "probs": self.probs, "weights": self.weights, "parts": self.parts}

    def load_state(self, state: dict[str, Any]) -> None:
        self.classes = list(state["classes"])
        self.probs = np.asarray(state["probs"])
        self.weights = state["weights"]
        self.parts = dict(state["parts"])

    # ------------------------------------------------------------------ answers
    def function(self, instance: str | int) -> int:
        """The predicted label of graph ``instance`` (``31``, ``"#31"``, ``"instance#31"``)."""
        return self.predict(instance)[0]

    def predict(self, instance: str | int) -> tuple[int, dict[int, float]]:
        """``(label, {label: probability})`` for graph ``instance`` of the dataset."""
        row = self.probs_of(instance)
        scores = {label: float(p) for label, p in zip(self.classes, row, strict=True)}
        return self.classes[int(np.argmax(row))], scores

    def probs_of(self, instance: str | int) -> np.ndarray:
        """Class probabilities of graph ``instance``, or a GraphModelError saying the valid range."""
        self.ensure()
        assert self.probs is not None  # ensure() trained or loaded them
        count = len(self.probs)
        match = _INSTANCE.match(str(instance).strip())
        if isinstance(instance, bool) or match is None or int(match.group(1)) >= count:
            raise GraphModelError(
                f"{self.dataset} has no graph instance {instance!r}: it has {count} graphs numbered "
                f"0 to {count - 1} in file order, e.g. instance#31."
            )
        return self.probs[int(match.group(1))]


def train_gin(
    graphs: GraphSet,
    train: np.ndarray,
    test: np.ndarray,
    *,
    settings: dict[str, Any],
    seed: int = 0,
    progress: bool = False,
    label: str = "",
) -> dict[str, Any]:
    """Train GIN-0 on ``train`` graphs; return per-epoch test accuracy, final weights and all graphs' probabilities."""
    with torch_threads(1):
        return _train_gin(graphs, train, test, settings, seed, progress, label)


def _train_gin(
    graphs: GraphSet,
    train: np.ndarray,
    test: np.ndarray,
    settings: dict[str, Any],
    seed: int,
    progress: bool,
    label: str,
) -> dict[str, Any]:
    import torch
    import torch.nn.functional as F

    from graphreason.tools.graph_models.gin import GIN, Batcher

    seed_everything(seed)
    batcher = Batcher(graphs)
    lookup = {value: i for i, value in enumerate(graphs.classes)}
    targets = torch.tensor([lookup[int(v)] for v in graphs.labels])
    model = GIN(
        batcher.in_dim,
        settings["hidden"],
        len(lookup),
        layers=settings["layers"],
        dropout=settings["dropout"],
    )
    optimiser = torch.optim.Adam(model.parameters(), lr=settings["lr"])
    schedule = torch.optim.lr_scheduler.StepLR(optimiser, step_size=settings["lr_half_every"], gamma=0.5)
    rng = np.random.default_rng(seed)
    parts = max(1, round(len(train) / settings["batch_size"]))  # near-equal batches: no 1-graph remainder
    curve: list[float] = []
    epochs = progress_bar(
        range(settings["epochs"]), enabled=progress, desc=label or f"GIN {graphs.name}", unit="epoch"
    )
    for _ in epochs:
        model.train()
        for ids in np.array_split(rng.permutation(train), parts):
            x, edge_index, batch = batcher.batch(ids)
            optimiser.zero_grad()
            loss = F.cross_entropy(model(x, edge_index, batch, len(ids)), targets[ids])
            loss.backward()
            optimiser.step()
        schedule.step()
        curve.append(_accuracy(model, batcher, test, targets))
        if progress:
            epochs.set_postfix(test_acc=f"{curve[-1]:.3f}")
    probs = _probabilities(model, batcher, np.arange(graphs.num_graphs))
    predicted = probs.argmax(1)
    return {
        "curve": curve,
        "train_accuracy": float((predicted[train] == targets.numpy()[train]).mean()),
        "probs": probs,
        "weights": {k: v.detach().clone() for k, v in model.state_dict().items()},
    }


def _probabilities(model: Any, batcher: Any, ids: np.ndarray, chunk: int = 1024) -> np.ndarray:
    import torch

    model.eval()
    out = []
    with torch.no_grad():
        for start in range(0, len(ids), chunk):
            part = ids[start : start + chunk]
            x, edge_index, batch = batcher.batch(part)
            out.append(torch.softmax(model(x, edge_index, batch, len(part)), dim=1))
    return torch.cat(out).numpy().astype(np.float32)


def _accuracy(model: Any, batcher: Any, ids: np.ndarray, targets: Any) -> float:
    if len(ids) == 0:
        return float("nan")
    predicted = _probabilities(model, batcher, ids).argmax(1)
    return float((predicted == targets.numpy()[ids]).mean())


def cross_validate(
    dataset: str, folds: int = 10, progress: bool = True, *, seed: int = 0, **options: Any
) -> dict[str, Any]:
    """The GIN paper's 10-fold protocol on one dataset (``options`` as for :class:`MoleculeModel`).

    Returns the mean and standard deviation over folds of the test accuracy at
    the last epoch (``accuracy_mean`` / ``accuracy_std``, an honest estimate),
    and of the epoch whose fold-averaged accuracy is highest, which is how the
    GIN paper reports its numbers (``best_epoch_mean`` / ``best_epoch_std``:
    the epoch is chosen on the test folds, so it reads optimistic).
    """
    model = MoleculeModel(dataset, seed=seed, **options)
    settings = model.settings()
    if not 1 <= folds <= 10:
        raise GraphModelError(f"folds must be 1 to 10 (the dataset ships 10), got {folds}")
    graphs = load_gin_dataset(model.dataset)
    splits = load_folds(model.dataset)[:folds]
    start = time.perf_counter()
    curves = []
    for k, (train, test) in enumerate(splits, 1):
        run = train_gin(
            graphs,
            train,
            test,
            settings=settings,
            seed=seed + k,
            progress=progress,
            label=f"fold {k}/{folds}",
        )
        curves.append(run["curve"])
    table = np.array(curves)  # [folds, epochs]
    best = int(np.argmax(table.mean(0)))
    return {
        "dataset": model.dataset,
        "folds": folds,
        "epochs": settings["epochs"],
        "accuracy_mean": float(table[:, -1].mean()),
        "accuracy_std": float(table[:, -1].std()),
        "best_epoch": best + 1,
        "best_epoch_mean": float(table[:, best].mean()),
        "best_epoch_std": float(table[:, best].std()),
        "per_fold": [float(v) for v in table[:, -1]],
        "gin_paper": GIN_PAPER[model.dataset],
        "seconds": round(time.perf_counter() - start, 1),
    }
