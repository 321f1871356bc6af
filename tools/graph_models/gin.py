"""GIN-0 for graph classification, and a fast mini-batcher over a flat graph set.

The network follows Xu et al. (ICLR 2019, "How Powerful are Graph Neural
Networks?"): ``layers - 1`` GIN convolutions with a fixed epsilon of 0, each
updating nodes with a two-layer MLP followed by batch norm and ReLU; every
layer's node states (the one-hot input included) are summed per graph, mapped
to class scores by their own linear layer with dropout, and the scores of all
layers are added.

:class:`Batcher` cuts mini-batches straight out of the flat arrays of a
:class:`~graphreason.tools.core.loaders.tu_gin.GraphSet` with NumPy index arithmetic, instead of
collating one PyG ``Data`` object per graph on every step: that collation was
the larger cost on a 2-core machine. PyG is imported by the network only (3-4 s
of imports on that machine), so the batcher and its tests do without it.
"""

from __future__ import annotations

import numpy as np
import torch
from torch import nn

from graphreason.tools.core.loaders.tu_gin import GraphSet


class GIN(nn.Module):
    """Sum-readout GIN-0 (see the module docstring)."""

    def __init__(self, in_dim: int, hidden: int, classes: int, *, layers: int = 5, dropout: float = 0.5):
        from torch_geometric.nn import GINConv

        super().__init__()
        self.convs = nn.ModuleList()
        self.norms = nn.ModuleList()
        dims = [in_dim] + [hidden] * (layers - 1)
        for d_in in dims[:-1]:
            mlp = nn.Sequential(
                nn.Linear(d_in, hidden), nn.BatchNorm1d(hidden), nn.ReLU(), nn.Linear(hidden, hidden)
            )
            self.convs.append(GINConv(mlp, eps=0.0, train_eps=False))
            self.norms.append(nn.BatchNorm1d(hidden))
        self.heads = nn.ModuleList(nn.Linear(d, classes) for d in dims)
        self.dropout = nn.Dropout(dropout)

    def forward(
        self, x: torch.Tensor, edge_index: torch.Tensor, batch: torch.Tensor, graphs: int
    ) -> torch.Tensor:
        from torch_geometric.nn import global_add_pool

        states = [x]
        for conv, norm in zip(self.convs, self.norms, strict=True):
            x = torch.relu(norm(conv(x, edge_index)))
            states.append(x)
        return sum(
            self.dropout(head(global_add_pool(h, batch, size=graphs)))
            for head, h in zip(self.heads, states, strict=True)
        )


class Batcher:
    """Node features, edges and graph index of any subset of a graph set's graphs."""

    def __init__(self, graphs: GraphSet) -> None:
        values = graphs.tag_values
        lookup = np.full(max(values) + 1, -1, dtype=np.int64)
        lookup[values] = np.arange(len(values))
        # one-hot node tags, as in the GIN paper for datasets without node attributes
        self.x = torch.nn.functional.one_hot(torch.from_numpy(lookup[graphs.tags]), len(values)).float()
        count = graphs.num_graphs
        self.node_count = np.bincount(graphs.node_graph, minlength=count)
        self.node_start = np.concatenate([[0], np.cumsum(self.node_count)[:-1]])
        order = np.argsort(graphs.edges[0], kind="stable")  # edges grouped by source, hence by graph
        self.edges = graphs.edges[:, order]
        self.edge_count = np.bincount(graphs.node_graph[self.edges[0]], minlength=count)
        self.edge_start = np.concatenate([[0], np.cumsum(self.edge_count)[:-1]])

    @property
    def in_dim(self) -> int:
        return self.x.shape[1]

    def batch(self, ids: np.ndarray) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """``(x, edge_index, batch)`` of graphs ``ids``, renumbered from 0 in that order."""
        sizes = self.node_count[ids]
        new_start = np.concatenate([[0], np.cumsum(sizes)[:-1]])
        nodes = _ranges(self.node_start[ids], sizes)
        edge_sizes = self.edge_count[ids]
        edges = self.edges[:, _ranges(self.edge_start[ids], edge_sizes)]
        shift = np.repeat(new_start - self.node_start[ids], edge_sizes)
        batch = np.repeat(np.arange(len(ids)), sizes)
        return self.x[torch.from_numpy(nodes)], torch.from_numpy(edges + shift), torch.from_numpy(batch)


def _ranges(starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """Concatenation of ``arange(s, s + n)`` for each ``(s, n)``, without a Python loop."""
    total = int(lengths.sum())
    if total == 0:
        return np.zeros(0, dtype=np.int64)
    offsets = np.cumsum(lengths) - lengths
    return np.repeat(starts - offsets, lengths) + np.arange(total)
