"""The node networks learn a two-community toy graph in a few epochs; propagation is normalised."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from graphreason.tools.graph_models.node_training import (
    ARCHITECTURES,
    NetConfig,
    as_blocks,
    propagation_matrix,
    train_node_net,
)
from graphreason.tools.graph_models.threads import torch_threads


def _toy(nodes: int = 40) -> tuple[np.ndarray, np.ndarray, dict[str, np.ndarray], list[np.ndarray]]:
    """Two rings; only the ring says the class for most nodes (their features are noise)."""
    half = nodes // 2
    edges = np.array(
        [[i, (i + 1) % half] for i in range(half)] + [[half + i, half + (i + 1) % half] for i in range(half)]
    ).T
    y = np.array([0] * half + [1] * half)
    rng = np.random.default_rng(0)
    dense = rng.normal(size=(nodes, 8)).astype(np.float32)
    flags = np.zeros((nodes, 30), dtype=np.float32)
    flags[np.arange(nodes), rng.integers(0, 30, nodes)] = 1.0  # sparse block
    train = np.array([0, 1, 2, half, half + 1, half + 2])
    dense[train, 0] += np.where(y[train] == 0, 3.0, -3.0)  # only training nodes carry a feature cue
    rest = np.setdiff1d(np.arange(nodes), train)
    return edges, y, {"train": train, "val": rest[::2], "test": rest[1::2]}, [dense, flags]


def test_propagation_matrix_is_symmetric_with_self_loops() -> None:
    matrix = propagation_matrix(np.array([[0, 1], [1, 0]]), 3).to_dense()  # 0-1 twice, node 2 alone
    assert torch.allclose(matrix, matrix.T) and matrix[2, 2] == 1.0
    assert torch.allclose(matrix[0], torch.tensor([0.5, 0.5, 0.0]))


@pytest.mark.parametrize("arch", ["gcn", "appnp", "sgc"])
def test_graph_architectures_spread_labels_along_the_rings(arch: str) -> None:
    edges, y, parts, blocks = _toy()
    torch.manual_seed(0)
    config = NetConfig(arch, hidden=16, epochs=40, lr=0.05 if arch != "sgc" else 0.2, k=10)
    with torch_threads(1):  # a tiny graph: extra threads only wait for each other
        result = train_node_net(as_blocks(blocks), propagation_matrix(edges, len(y)), y, parts, config)
    assert result["probs"].shape == (40, 2) and np.allclose(result["probs"].sum(1), 1.0, atol=1e-5)
    assert result["metrics"]["val_accuracy"] >= 0.8 and set(result["metrics"]) == {
        "train_accuracy",
        "val_accuracy",
        "test_accuracy",
    }


def test_sparse_blocks_stay_sparse_and_unknown_architectures_are_refused() -> None:
    edges, y, parts, blocks = _toy()
    dense, flags = as_blocks(blocks)
    assert not dense.is_sparse and flags.is_sparse
    assert "mlp" in ARCHITECTURES
    with pytest.raises(ValueError, match="unknown architecture 'gat'"):
        train_node_net([dense], propagation_matrix(edges, len(y)), y, parts, NetConfig("gat"))
