"""Full-batch node classifiers (GCN, APPNP, SGC, MLP) and their training loop.

Input features come as *blocks* (e.g. a dense text embedding and sparse word
flags); the first layer gives each block its own weight matrix and sums them,
which equals one linear layer on the concatenation but lets the word flags
(about 1% non-zero) stay sparse: a sparse product and a dropout drawn only for
the non-zeros (as in Kipf's GCN) keep a training step cheap on 2 cores.

* ``gcn`` - two graph convolutions (Kipf & Welling 2017).
* ``appnp`` - a two-layer MLP whose outputs are propagated ``k`` steps with
  restart probability ``alpha`` (Gasteiger et al. 2019).
* ``sgc`` - ``k`` propagation steps on the input, then a linear classifier (Wu et al. 2019).
* ``mlp`` - no graph: the baseline that shows what the citations add.

Citations are taken as undirected; the propagation matrix is
``D^-1/2 (A + I) D^-1/2``. Training keeps the weights of the epoch with the
best validation accuracy (ties: lower validation loss), so test nodes never
influence the model.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
import torch
import torch.nn.functional as F

from graphreason.tools.graph_models.base import progress_bar

ARCHITECTURES = ("gcn", "appnp", "sgc", "mlp")


@dataclass(frozen=True)
class NetConfig:
    """Hyper-parameters of one network (all part of the model's cache key)."""

    arch: str = "gcn"
    hidden: int = 64
    dropout: float = 0.5
    lr: float = 0.01
    weight_decay: float = 5e-4
    epochs: int = 200
    k: int = 10  # propagation steps (appnp, sgc)
    alpha: float = 0.1  # appnp restart probability

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def propagation_matrix(edges: np.ndarray, count: int) -> Any:
    """``D^-1/2 (A + I) D^-1/2`` of the undirected graph as a coalesced torch sparse matrix."""
    loops = np.arange(count, dtype=np.int64)
    rows = np.concatenate([edges[0], edges[1], loops])
    cols = np.concatenate([edges[1], edges[0], loops])
    keys = np.unique(rows * count + cols)  # one entry per linked pair, self-loops once
    rows, cols = keys // count, keys % count
    degree = np.bincount(rows, minlength=count).astype(np.float32)
    values = 1.0 / np.sqrt(degree[rows] * degree[cols])
    # the keys are unique and sorted: the entries are already coalesced
    return torch.sparse_coo_tensor(
        torch.from_numpy(np.stack([rows, cols])),
        torch.from_numpy(values.astype(np.float32)),
        (count, count),
        is_coalesced=True,
        check_invariants=False,
    )


def as_blocks(blocks: list[np.ndarray]) -> list[Any]:
    """Numpy feature blocks as torch tensors; a block under 10% non-zero becomes sparse."""
    tensors = []
    for block in blocks:
        tensor = torch.from_numpy(np.ascontiguousarray(block, dtype=np.float32))
        if np.count_nonzero(block) < 0.1 * block.size:
            tensor = tensor.to_sparse().coalesce()
        tensors.append(tensor)
    return tensors


def train_node_net(
    blocks: list[Any],
    propagation: Any,
    y: np.ndarray,
    parts: dict[str, np.ndarray],
    config: NetConfig,
    *,
    progress: bool = False,
    desc: str = "training",
) -> dict[str, Any]:
    """Train one network; returns ``{"metrics", "probs" [nodes, classes], "weights"}``."""
    if config.arch not in ARCHITECTURES:
        raise ValueError(f"unknown architecture {config.arch!r}; known: {', '.join(ARCHITECTURES)}")
    classes = int(y.max()) + 1
    labels = torch.from_numpy(y)
    index = {name: torch.from_numpy(np.asarray(idx, dtype=np.int64)) for name, idx in parts.items()}
    if config.arch == "sgc":  # propagate once, up front: the model itself is linear
        blocks = [_propagate(propagation, _dense(b), config.k) for b in blocks]
    model = _Net(blocks, propagation, classes, config)
    # L2 on the input layer only, as in the GCN and APPNP papers: decaying the output layer too
    # made APPNP at 5e-3 collapse to one class on Cora's word flags (validation 0.47)
    decayed = {id(p) for p in model.inputs.parameters()}
    optimiser = _Adam(
        list(model.parameters()), lr=config.lr, weight_decay=config.weight_decay, decayed=decayed
    )
    train, val = index["train"], index["val"]
    best: tuple[float, float] = (-1.0, 0.0)
    kept: dict[str, Any] = {}
    for _ in progress_bar(range(config.epochs), enabled=progress, desc=desc, unit="epoch"):
        model.train()
        optimiser.zero_grad()
        F.cross_entropy(model()[train], labels[train]).backward()
        optimiser.step()
        model.eval()
        with torch.no_grad():
            out = model()
        score = (
            (out[val].argmax(1) == labels[val]).float().mean().item(),
            -F.cross_entropy(out[val], labels[val]).item(),
        )
        if score > best:
            best = score
            kept = {k: v.detach().clone() for k, v in model.state_dict().items()}
    model.load_state_dict(kept)
    model.eval()
    with torch.no_grad():
        out = model()
    predicted = out.argmax(1)
    metrics = {
        f"{name}_accuracy": (predicted[idx] == labels[idx]).float().mean().item()
        for name, idx in index.items()
    }
    return {"metrics": metrics, "probs": torch.softmax(out, 1).numpy(), "weights": kept}


class _Adam:
    """Adam with L2 weight decay, the same update as ``torch.optim.Adam(weight_decay=...)``, on chosen parameters.

    Why not torch's: creating a ``torch.optim`` optimiser imports ``torch._dynamo``
    (and sympy), which costs more than training such a model when bytecode is not cached.
    """

    def __init__(
        self,
        params: list[Any],
        *,
        lr: float,
        weight_decay: float,
        decayed: set[int] | None = None,  # ids of the parameters to decay (default: all)
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
    ) -> None:
        self.params, self.lr, self.weight_decay, self.betas, self.eps = params, lr, weight_decay, betas, eps
        self.decayed = decayed if decayed is not None else {id(p) for p in params}
        self.moments = [(torch.zeros_like(p), torch.zeros_like(p)) for p in params]
        self.steps = 0

    def zero_grad(self) -> None:
        for p in self.params:
            p.grad = None

    @torch.no_grad()
    def step(self) -> None:
        self.steps += 1
        beta1, beta2 = self.betas
        correction1, correction2 = 1 - beta1**self.steps, 1 - beta2**self.steps
        for p, (mean, square) in zip(self.params, self.moments, strict=True):
            if p.grad is None:
                continue
            decay = self.weight_decay if id(p) in self.decayed else 0.0
            grad = p.grad.add(p, alpha=decay) if decay else p.grad
            mean.mul_(beta1).add_(grad, alpha=1 - beta1)
            square.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
            denominator = (square.sqrt() / correction2**0.5).add_(self.eps)
            p.addcdiv_(mean, denominator, value=-self.lr / correction1)


def _dense(tensor: Any) -> Any:
    return tensor.to_dense() if tensor.is_sparse else tensor


def _propagate(matrix: Any, h: Any, steps: int, alpha: float = 0.0) -> Any:
    """``steps`` rounds of ``h <- (1 - alpha) M h + alpha h0``."""
    start = h
    for _ in range(steps):
        h = matrix @ h
        if alpha:
            h = (1 - alpha) * h + alpha * start
    return h


def _sparse_dropout(x: Any, rate: float) -> Any:
    """Dropout on the stored entries of a coalesced sparse tensor."""
    keep = torch.rand(x.values().shape[0]) >= rate
    return torch.sparse_coo_tensor(
        x.indices()[:, keep],
        x.values()[keep] / (1.0 - rate),
        x.shape,
        is_coalesced=True,
        check_invariants=False,
    )


class _Net(torch.nn.Module):
    """The four architectures over feature blocks (see the module docstring)."""

    def __init__(self, blocks: list[Any], propagation: Any, classes: int, config: NetConfig) -> None:
        super().__init__()
        self.blocks, self.propagation, self.config = blocks, propagation, config
        width = classes if config.arch == "sgc" else config.hidden
        self.inputs = torch.nn.ModuleList(torch.nn.Linear(b.shape[1], width, bias=False) for b in blocks)
        self.bias = torch.nn.Parameter(torch.zeros(width))
        self.output = None if config.arch == "sgc" else torch.nn.Linear(config.hidden, classes)

    def _first(self) -> Any:
        """Sum of each (dropped-out) block times its weight matrix, without the bias."""
        rate, total = self.config.dropout, None
        for block, layer in zip(self.blocks, self.inputs, strict=True):
            if self.training and rate > 0:
                block = _sparse_dropout(block, rate) if block.is_sparse else F.dropout(block, rate, True)
            part = torch.sparse.mm(block, layer.weight.T) if block.is_sparse else layer(block)
            total = part if total is None else total + part
        return total

    def forward(self) -> Any:
        arch, rate = self.config.arch, self.config.dropout
        h = self._first()
        if arch == "gcn":
            h = self.propagation @ h
        h = h + self.bias
        if arch == "sgc":
            return h
        h = self.output(F.dropout(F.relu(h), rate, self.training))
        if arch == "gcn":
            return self.propagation @ h
        if arch == "appnp":
            return _propagate(self.propagation, h, self.config.k, self.config.alpha)
        return h
