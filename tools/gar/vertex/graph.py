"""The graph a vertex program runs on: compressed sparse rows plus derived views.

A :class:`VertexGraph` has nodes ``0 .. n-1`` and is *simple*: parallel edges are
merged when it is built (by a rule the caller picks, since a shortest-path
question wants the lightest copy and a flow question the summed capacity).
Self-loops are kept, because they decide cycle and bipartiteness questions.

Three adjacency views are exposed, each an :class:`Adjacency`:

* ``out`` - the arcs as given (both directions for an undirected graph);
* ``inn`` - the reversed arcs (the same object as ``out`` when undirected);
* ``both`` - the underlying undirected graph (``out`` when already undirected).

``inn`` and ``both`` are built on first use.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from functools import cached_property
from typing import Any, Literal

import numpy as np

from graphreason.tools.core.errors import GraphError

ParallelRule = Literal["min", "max", "sum", "first"]
Direction = Literal["out", "in", "any"]


class VertexProgramError(GraphError, ValueError):
    """Bad input to the vertex-program layer (graph, parameters or algorithm)."""


try:  # scipy's C row gather: one pass instead of numpy's several
    from scipy.sparse._sparsetools import csr_row_index as _csr_row_index
except ImportError:  # pragma: no cover - private API; the numpy path below is the fallback
    _csr_row_index = None


class EdgeBatch:
    """Arcs gathered for a set of nodes: parallel arrays, one entry per arc.

    ``dst`` and ``weight`` are gathered eagerly; ``src`` and ``arc`` (the
    position of each arc in its adjacency) only when first read, since most
    rounds never need them.
    """

    __slots__ = ("nodes", "counts", "dst", "weight", "_starts", "_src", "_arc")

    def __init__(
        self,
        nodes: np.ndarray | None,
        counts: np.ndarray | None,
        dst: np.ndarray,
        weight: np.ndarray,
        *,
        starts: np.ndarray | None = None,
        src: np.ndarray | None = None,
        arc: np.ndarray | None = None,
    ) -> None:
        self.nodes, self.counts, self.dst, self.weight = nodes, counts, dst, weight
        self._starts, self._src, self._arc = starts, src, arc

    def __len__(self) -> int:
        return int(self.dst.size)

    @property
    def src(self) -> np.ndarray:
        if self._src is None:
            self._src = np.repeat(self.nodes, self.counts)
        return self._src

    @property
    def arc(self) -> np.ndarray:
        if self._arc is None:
            # arc id = start of the node's row + position inside the row
            offsets = np.cumsum(self.counts) - self.counts
            self._arc = np.repeat(self._starts - offsets, self.counts) + np.arange(
                self.dst.size, dtype=np.int64
            )
        return self._arc

    def at_source(self, per_node: np.ndarray) -> np.ndarray:
        """``per_node[src]`` for every arc, by repeating instead of a random gather."""
        if self.nodes is None:  # the whole graph
            return per_node[self._src]
        return per_node[self.nodes].repeat(self.counts)


class Adjacency:
    """One CSR adjacency: the arcs out of node ``u`` are ``indptr[u]:indptr[u+1]``."""

    def __init__(self, indptr: np.ndarray, indices: np.ndarray, weights: np.ndarray) -> None:
        self.indptr = indptr.astype(np.int64, copy=False)
        self.indices = indices.astype(np.int64, copy=False)
        self.weights = weights
        self.num_nodes = indptr.size - 1
        # COO row of every arc: lets "all nodes active" rounds skip the gather entirely
        self.src = np.repeat(np.arange(self.num_nodes, dtype=np.int64), np.diff(self.indptr))
        self._all_arcs = np.arange(indices.size, dtype=np.int64)
        self._c_gather = _csr_row_index is not None and weights.dtype in (np.float64, np.int64)

    @property
    def num_arcs(self) -> int:
        return int(self.indices.size)

    def degree(self) -> np.ndarray:
        """Number of arcs leaving each node."""
        return np.diff(self.indptr)

    def edges_of(self, nodes: np.ndarray) -> EdgeBatch:
        """All arcs leaving ``nodes`` (an array of distinct node ids), without a Python loop."""
        nodes = np.asarray(nodes, dtype=np.int64)
        if nodes.size == self.num_nodes:  # the whole graph: no gather needed
            return EdgeBatch(None, None, self.indices, self.weights, src=self.src, arc=self._all_arcs)
        starts = self.indptr[nodes]
        counts = self.indptr[nodes + 1] - starts
        total = int(counts.sum())
        if self._c_gather and total:
            dst = np.empty(total, dtype=np.int64)
            weight = np.empty(total, dtype=self.weights.dtype)
            _csr_row_index(nodes.size, nodes, self.indptr, self.indices, self.weights, dst, weight)
            return EdgeBatch(nodes, counts, dst, weight, starts=starts)
        batch = EdgeBatch(nodes, counts, self.indices[:0], self.weights[:0], starts=starts)
        if total:
            arc = batch.arc
            batch.dst, batch.weight = self.indices[arc], self.weights[arc]
        return batch

    def neighbours(self, node: int) -> np.ndarray:
        return self.indices[self.indptr[node] : self.indptr[node + 1]]


def _merge_parallel(key: np.ndarray, weight: np.ndarray, rule: ParallelRule) -> tuple[np.ndarray, np.ndarray]:
    """Sort arcs by ``key`` and merge equal keys by ``rule``; returns (unique keys, weights)."""
    # only "first" needs input order inside a group; min/max/sum do not, and the unstable sort is much faster
    order = np.argsort(key, kind="stable" if rule == "first" else None)
    key, weight = key[order], weight[order]
    if key.size == 0:
        return key, weight
    first = np.flatnonzero(np.r_[True, key[1:] != key[:-1]])
    if first.size == key.size:
        return key, weight
    if rule == "first":
        merged = weight[first]  # stable sort keeps input order inside each group
    elif rule == "min":
        merged = np.minimum.reduceat(weight, first)
    elif rule == "max":
        merged = np.maximum.reduceat(weight, first)
    elif rule == "sum":
        merged = np.add.reduceat(weight, first)
    else:
        raise VertexProgramError(f"unknown parallel-edge rule {rule!r}; use one of min, max, sum, first")
    return key[first], merged


def _build_csr(n: int, src: np.ndarray, dst: np.ndarray, w: np.ndarray, rule: ParallelRule) -> Adjacency:
    key, w = _merge_parallel(src * n + dst, w, rule)
    src, dst = key // n, key % n
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(src, minlength=n), out=indptr[1:])
    return Adjacency(indptr, dst, w)


def node_in_range(node: int, num_nodes: int, role: str = "node") -> int:
    """``node`` when it is one of the ids 0..num_nodes-1, else a clear error naming ``role``."""
    if not 0 <= node < num_nodes:
        raise VertexProgramError(f"the {role} {node} is not a node of this graph (nodes are 0..{num_nodes - 1})")
    return node


class VertexGraph:
    """A simple graph on nodes ``0..n-1`` in CSR form, directed or undirected.

    Build it with :meth:`from_edges` or :meth:`from_scipy`.
    ``weights`` are edge weights (1.0 when none were given), ``node_weights``
    optional per-node numbers, ``labels`` optional original ids (index ``i`` is
    node ``i``) used to word answers.
    """

    def __init__(
        self,
        out: Adjacency,
        directed: bool,
        *,
        weighted: bool = False,
        node_weights: np.ndarray | None = None,
        labels: Sequence[Any] | None = None,
    ) -> None:
        self.out = out
        self.directed = directed
        self.weighted = weighted
        self.num_nodes = out.num_nodes
        self.node_weights = node_weights
        self.labels = list(labels) if labels is not None else None
        if self.labels is not None and len(self.labels) != self.num_nodes:
            raise VertexProgramError(f"{len(self.labels)} labels given for {self.num_nodes} nodes")

    # ------------------------------------------------------------------ building
    @classmethod
    def from_edges(
        cls,
        num_nodes: int,
        edges: Any,
        *,
        directed: bool = False,
        weights: Any = None,
        node_weights: Any = None,
        parallel: ParallelRule = "min",
        labels: Sequence[Any] | None = None,
    ) -> VertexGraph:
        """Build from an edge list ``[(u, v), ...]`` or ``[(u, v, w), ...]`` (or an (m, 2|3) array).

        ``weights`` (length m) overrides a third column. Parallel edges are merged
        by ``parallel``; in an undirected graph ``(u, v)`` and ``(v, u)`` are the
        same edge. Node ids must be integers in ``[0, num_nodes)``.
        """
        if not isinstance(num_nodes, int | np.integer) or num_nodes < 1:
            raise VertexProgramError(f"num_nodes must be a positive integer, got {num_nodes!r}")
        n = int(num_nodes)
        if parallel not in ("min", "max", "sum", "first"):
            raise VertexProgramError(
                f"unknown parallel-edge rule {parallel!r}; use one of min, max, sum, first"
            )
        arr = np.asarray(edges if len(edges) else np.empty((0, 2)), dtype=np.float64)
        if arr.ndim != 2 or arr.shape[1] not in (2, 3):
            raise VertexProgramError(
                f"edges must be pairs (u, v) or triples (u, v, w); got an array of shape {arr.shape}"
            )
        ends = arr[:, :2]
        if ends.size and (np.any(ends != np.floor(ends)) or ends.min() < 0 or ends.max() >= n):
            bad = np.flatnonzero(np.any((ends != np.floor(ends)) | (ends < 0) | (ends >= n), axis=1))[0]
            raise VertexProgramError(
                f"edge {tuple(arr[bad].tolist())} names a node outside 0..{n - 1} (the graph has {n} nodes)"
            )
        src, dst = ends[:, 0].astype(np.int64), ends[:, 1].astype(np.int64)
        weighted = weights is not None or arr.shape[1] == 3
        if weights is not None:
            w = np.asarray(weights, dtype=np.float64)
            if w.shape != src.shape:
                raise VertexProgramError(f"{w.size} weights given for {src.size} edges")
        elif arr.shape[1] == 3:
            w = arr[:, 2].copy()
        else:
            w = np.ones(src.size, dtype=np.float64)
        if not np.all(np.isfinite(w)):
            raise VertexProgramError("edge weights must be finite numbers")
        if not directed:
            # one canonical copy per undirected edge, merged, then mirrored
            lo, hi = np.minimum(src, dst), np.maximum(src, dst)
            key, w = _merge_parallel(lo * n + hi, w, parallel)
            lo, hi = key // n, key % n
            loop = lo == hi
            src = np.concatenate([lo, hi[~loop]])
            dst = np.concatenate([hi, lo[~loop]])
            w = np.concatenate([w, w[~loop]])
        out = _build_csr(n, src, dst, w, parallel)
        nw = None
        if node_weights is not None:
            nw = np.asarray(node_weights, dtype=np.float64)
            if nw.shape != (n,):
                raise VertexProgramError(f"{nw.size} node weights given for {n} nodes")
        return cls(out, directed, weighted=weighted, node_weights=nw, labels=labels)

    @classmethod
    def from_scipy(cls, matrix: Any, *, directed: bool = True, **kwargs: Any) -> VertexGraph:
        """Build from a square scipy sparse matrix; entry (u, v) is an edge of that weight."""
        coo = matrix.tocoo()
        if coo.shape[0] != coo.shape[1]:
            raise VertexProgramError(f"adjacency matrix must be square, got shape {coo.shape}")
        edges = np.column_stack([coo.row, coo.col])
        return cls.from_edges(coo.shape[0], edges, directed=directed, weights=coo.data, **kwargs)

    @cached_property
    def inn(self) -> Adjacency:
        """Reversed arcs (``inn.edges_of(v)`` gives the arcs *into* v, with src/dst swapped)."""
        if not self.directed:
            return self.out
        n = self.num_nodes
        return _build_csr(n, self.out.indices, self.out.src, self.out.weights, "first")

    @cached_property
    def both(self) -> Adjacency:
        """The underlying undirected graph (lightest weight kept where both directions exist)."""
        if not self.directed:
            return self.out
        o = self.out
        src = np.concatenate([o.src, o.indices])
        dst = np.concatenate([o.indices, o.src])
        return _build_csr(self.num_nodes, src, dst, np.concatenate([o.weights, o.weights]), "min")

    def view(self, direction: Direction) -> Adjacency:
        """The adjacency to follow for ``direction`` (out / in / any)."""
        if direction == "out":
            return self.out
        if direction == "in":
            return self.inn
        if direction == "any":
            return self.both
        raise VertexProgramError(f"unknown direction {direction!r}; use out, in or any")

    # ------------------------------------------------------------------ facts
    @property
    def num_arcs(self) -> int:
        return self.out.num_arcs

    @property
    def num_edges(self) -> int:
        """Edges as a person counts them (an undirected edge once)."""
        if self.directed:
            return self.out.num_arcs
        loops = int(np.count_nonzero(self.out.src == self.out.indices))
        return (self.out.num_arcs - loops) // 2 + loops

    @cached_property
    def self_loops(self) -> np.ndarray:
        """Boolean mask of nodes with a self-loop."""
        mask = np.zeros(self.num_nodes, dtype=bool)
        mask[self.out.src[self.out.src == self.out.indices]] = True
        return mask

    def common_neighbours(self, u: int, v: int) -> np.ndarray:
        """The nodes joined to both ``u`` and ``v`` (edge direction ignored), ascending."""
        both = self.both
        return np.intersect1d(both.neighbours(u), both.neighbours(v))

    def check_node(self, node: Any, role: str = "node") -> int:
        """Validate a node given as a parameter; returns its index.

        A graph with labels (e.g. built from a store) looks non-integer ids up
        among them first, so the label "12" means that node, not index 12.
        """
        if isinstance(node, bool) or not isinstance(node, int | np.integer):
            if self._label_index is not None and isinstance(node, Hashable) and node in self._label_index:
                return self._label_index[node]
            if isinstance(node, str) and node.strip().lstrip("-").isdigit():
                node = int(node)
            else:
                known = " or one of the node labels" if self.labels is not None else ""
                raise VertexProgramError(f"the {role} must be a node id (an integer){known}, got {node!r}")
        return node_in_range(int(node), self.num_nodes, role)

    @cached_property
    def _label_index(self) -> dict[Any, int] | None:
        return None if self.labels is None else {label: i for i, label in enumerate(self.labels)}

    def label(self, node: int) -> Any:
        return self.labels[node] if self.labels is not None else int(node)

    def edge_list(self) -> list[tuple[int, int, float]]:
        """Edges as ``(u, v, w)``; an undirected edge once, with ``u <= v``."""
        o = self.out
        keep = slice(None) if self.directed else o.src <= o.indices
        return list(
            zip(o.src[keep].tolist(), o.indices[keep].tolist(), o.weights[keep].tolist(), strict=True)
        )

    def to_scipy(self) -> Any:
        """The out-adjacency as a ``scipy.sparse.csr_array`` (weights as values)."""
        from scipy.sparse import csr_array

        n = self.num_nodes
        return csr_array((self.out.weights, self.out.indices, self.out.indptr), shape=(n, n))

    def to_networkx(self) -> Any:
        """A networkx Graph/DiGraph with edge attribute ``weight`` and node attribute ``weight``.

        See :func:`graphreason.tools.gar.conversions.vertex_to_networkx`.
        """
        from graphreason.tools.gar.conversions import vertex_to_networkx

        return vertex_to_networkx(self)

    def __repr__(self) -> str:
        kind = "directed" if self.directed else "undirected"
        return f"VertexGraph({self.num_nodes} nodes, {self.num_edges} edges, {kind})"
