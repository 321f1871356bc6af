"""One definition of a vertex program, two executors: numpy arrays here, Spark DataFrames in ``tools/gar/spark``.

A :class:`KernelAlgorithm` writes GAR's Send and Update parts as *column
expressions*: functions that receive the columns they may read (the sender's
state, the receiver's state, the arc's weight, or one node's state and its
combined mail) and an :class:`Ops` namespace, and return new columns. Only
operators both executors understand are used: ``+ - * / < <= == != & | ~`` on the
columns and ``x.where``, ``x.abs``, ``x.lit``, ``x.inf``, ``x.no_node`` from the
namespace. With numpy arrays as columns the expressions run in the compiled
engine (:func:`graphreason.tools.gar.vertex.engine.run`); with Spark ``Column``
objects the same expressions become a Pregel superstep of DataFrame joins and
aggregations. Nothing else about an algorithm is written twice.

The declarative pieces of a kernel:

* ``fields`` - the per-node state columns and their kind (``int``, ``float``, ``bool``);
* ``initial`` - each field's starting value from the node's id and graph facts
  (``arcs_out``, ``arcs_in``: arc counts, ``weight_out``: summed out-weight, ``self_loop``);
* ``first_active`` - which nodes send in round 1;
* ``mail`` and ``messages`` - named message values and the reduction (min, max, sum,
  count) that combines each per receiver; ``send_if``, the triplet test that drops useless messages;
* ``update`` - the new state of a node from its combined mail, and which nodes changed;
* ``aggregates`` - global values (Pregel's aggregators) read by ``halt``, Termination's rule;
  ``before_round`` aggregates are computed over all nodes before Send and may be read by Update.

A kernel with ``wedges = True`` sends along *wedges* instead of arcs (the
triangle-closing pattern): edge direction ignored and self-loops dropped, nodes
ranked by (degree, id), each active node ``u`` sends, for every two neighbours
``v``, ``w`` ranked above it with ``rank(v) < rank(w)`` and an edge ``v``-``w``,
one message to ``v`` whose values ``wedge_messages`` computes from the three
nodes' states (``u`` is the sender). Each triangle is seen exactly once, and the
degree order keeps the wedges to O(m^1.5).

Mail reductions that report a sender (``with_sender``) keep the sender of the
extreme value; on ties the executors may keep different senders (both are valid
parents), so answers that contain a path are checked, not compared, across executors.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar

import numpy as np

from graphreason.tools.gar.vertex.engine import Combiner, Inbox, Messages, State, VertexAlgorithm
from graphreason.tools.gar.vertex.graph import VertexGraph, VertexProgramError

KINDS = ("int", "float", "bool")
MAIL_REDUCTIONS = ("min", "max", "sum", "count")
AGGREGATIONS = ("sum", "max", "min")
FACTS = ("id", "arcs_out", "arcs_in", "weight_out", "self_loop", "node_weight")  # node_weight: NaN when none
NO_NODE = -1  # the "none" value of node-valued fields (parent pointers)

Expr = Any  # a numpy array / scalar or a Spark Column


class Ops:
    """The functions kernel expressions may call; one subclass per executor."""

    inf: Any = np.inf
    no_node: int = NO_NODE

    def where(self, cond: Expr, yes: Expr, no: Expr) -> Expr:
        return np.where(cond, yes, no)

    def abs(self, value: Expr) -> Expr:
        return np.abs(value)

    def lit(self, value: Any) -> Expr:
        return value


NUMPY_OPS = Ops()


class Columns(Mapping[str, Expr]):
    """Read-only columns of a set of rows, gathered from per-node arrays on first read."""

    def __init__(self, sources: Mapping[str, Any], rows: np.ndarray | slice) -> None:
        self._sources = sources
        self._rows = rows
        self._seen: dict[str, Expr] = {}

    def __getitem__(self, key: str) -> Expr:
        got = self._seen.get(key)
        if got is None:
            source = self._sources[key]
            got = self._seen[key] = source(self._rows) if callable(source) else source[self._rows]
        return got

    def __iter__(self) -> Any:
        return iter(self._sources)

    def __len__(self) -> int:
        return len(self._sources)


class KernelAlgorithm(VertexAlgorithm):
    """A library algorithm whose Send and Update are column expressions (see the module doc).

    Subclasses keep ``prepare``, ``max_rounds`` and ``result`` as any
    :class:`VertexAlgorithm` does, and write the kernel methods below instead of
    ``init_state``, ``send`` and ``update``. ``result`` reads the final state as
    numpy arrays (one per field, index = node) plus the final aggregates under
    their names, whichever executor produced them.
    """

    fields: ClassVar[dict[str, str]]
    mail: ClassVar[dict[str, str]]  # message name -> its reduction; the first one may carry the sender
    with_sender: ClassVar[bool] = False  # Update may read ``sender``: who sent the extreme (min/max) value
    update_all: ClassVar[bool] = False  # Update runs on every node each round, with or without mail
    all_active: ClassVar[bool] = False  # every node sends every round (else: the nodes that changed)
    wedges: ClassVar[bool] = False  # Send follows wedges u -> (v, w) closed by an edge v-w (see the module doc)
    spark: ClassVar[bool] = True  # runs on the Spark executor too

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        fields = getattr(cls, "fields", None)
        if fields is not None:
            bad = {k: v for k, v in fields.items() if v not in KINDS or k in FACTS or k.startswith("_")}
            if bad:
                raise TypeError(f"{cls.__name__}.fields: bad field(s) {bad}; kinds are {KINDS}")
        mail = getattr(cls, "mail", None)
        if mail is not None and (not mail or any(how not in MAIL_REDUCTIONS for how in mail.values())):
            raise TypeError(f"{cls.__name__}.mail must name at least one value, reduced by one of {MAIL_REDUCTIONS}")

    # ----------------------------------------------------------------- kernel parts
    def direction(self, params: dict[str, Any]) -> str:
        """Which arcs Send follows: out, in or any (edge direction ignored)."""
        return "out"

    def initial(
        self, x: Ops, node: Mapping[str, Expr], params: dict[str, Any], glob: Mapping[str, Any]
    ) -> dict[str, Expr]:
        """Initialization: each field's first value (``node`` has the FACTS columns)."""
        raise NotImplementedError

    def first_active(self, x: Ops, node: Mapping[str, Expr], params: dict[str, Any], glob: Mapping[str, Any]) -> Expr:
        """The nodes that send in round 1 (default: every node)."""
        return x.lit(True)

    def messages(self, x: Ops, src: Mapping[str, Expr], weight: Expr, params: dict[str, Any]) -> dict[str, Expr]:
        """Message: the values named in ``mail`` that a sender puts on an arc of this weight."""
        raise NotImplementedError

    def wedge_messages(
        self, x: Ops, u: Mapping[str, Expr], v: Mapping[str, Expr], w: Mapping[str, Expr], params: dict[str, Any]
    ) -> dict[str, Expr]:
        """Message of a wedge kernel: the values named in ``mail`` that ``u`` sends to ``v`` about the triangle u, v, w."""
        raise NotImplementedError

    def send_if(
        self, x: Ops, src: Mapping[str, Expr], dst: Mapping[str, Expr], mail: Mapping[str, Expr],
        params: dict[str, Any],
    ) -> Expr | None:
        """Send's triplet test: keep a message only where this is true (None: keep all)."""
        return None

    def kernel_update(
        self, x: Ops, me: Mapping[str, Expr], mail: Mapping[str, Expr], params: dict[str, Any],
        glob: Mapping[str, Any],
    ) -> tuple[dict[str, Expr], Expr]:
        """Update: (new values of the fields that may change, which nodes changed).

        ``mail`` holds the combined values by name, ``got`` (whether the node has
        mail; only meaningful with ``update_all``) and ``sender`` when asked for.
        ``glob`` holds ``round``, ``num_nodes`` and the ``before_round`` aggregates.
        (The name ``update`` belongs to the engine's interface, which runs this.)
        """
        raise NotImplementedError

    def before_round(self, x: Ops, node: Mapping[str, Expr], params: dict[str, Any]) -> dict[str, tuple[Expr, str]]:
        """Aggregates over all nodes taken before Send, readable by Update (e.g. PageRank's dangling rank)."""
        return {}

    def aggregates(
        self, x: Ops, me: Mapping[str, Expr], changed: Expr, params: dict[str, Any]
    ) -> dict[str, tuple[Expr, str]]:
        """Aggregates over the nodes Update ran on, after it ran (``me`` is their new state)."""
        return {}

    def halt(self, round: int, totals: Mapping[str, Any], params: dict[str, Any], glob: Mapping[str, Any]) -> bool:
        """Termination's rule after a round. ``totals``: this round's aggregates; a ``max``
        aggregate is the largest value seen in any round so far (so a flag that was raised stays up)."""
        return False

    # ----------------------------------------------------------------- numpy executor
    def init_state(self, graph: VertexGraph, params: dict[str, Any]) -> State:
        n = graph.num_nodes
        facts = graph_facts(graph)
        node = Columns(facts, slice(None))
        glob = {"round": 0, "num_nodes": n, "directed": graph.directed}
        values = self.initial(NUMPY_OPS, node, params, glob)
        state: State = {name: _column(values[name], kind, n) for name, kind in self.fields.items()}
        state["_facts"] = facts
        state["_adjacency"] = wedge_lists(graph) if self.wedges else graph.view(self.direction(params))
        state["_params"] = params
        state["_round"] = 0
        state["_totals"] = {}
        state["_glob"] = glob
        first = np.flatnonzero(_column(self.first_active(NUMPY_OPS, node, params, glob), "bool", n))
        seen = self.aggregates(NUMPY_OPS, Columns(self._sources(state), first), np.ones(first.size, bool), params)
        _fold_totals(state, {k: _reduce(v, how, first.size) for k, (v, how) in seen.items()}, seen)
        return state

    def initial_active(self, graph: VertexGraph, state: State, params: dict[str, Any]) -> np.ndarray:
        node = Columns(state["_facts"], slice(None))
        first = self.first_active(NUMPY_OPS, node, params, state["_glob"])
        return np.flatnonzero(_column(first, "bool", graph.num_nodes))

    def _sources(self, state: State) -> dict[str, Any]:
        return {**state["_facts"], **{name: state[name] for name in self.fields}}

    def send(self, graph: VertexGraph, state: State, active: np.ndarray) -> Messages:
        params = state["_params"]
        pre = self.before_round(NUMPY_OPS, Columns(self._sources(state), slice(None)), params)
        state["_before"] = {k: _reduce(v, how, graph.num_nodes) for k, (v, how) in pre.items()}
        if self.wedges:
            return self._send_wedges(state, active, params)
        arcs = state["_adjacency"].edges_of(active)
        sources = self._sources(state)
        src = Columns(sources, arcs.src)
        with np.errstate(divide="ignore", invalid="ignore"):  # where() picks the defined branch
            sent = self.messages(NUMPY_OPS, src, arcs.weight, params)
        mail = {k: np.broadcast_to(sent[k], arcs.dst.shape) for k in self.mail}
        keep = self.send_if(NUMPY_OPS, src, Columns(sources, arcs.dst), mail, params)
        targets, senders = arcs.dst, (arcs.src if self.with_sender else None)
        if keep is not None:
            keep = np.flatnonzero(np.broadcast_to(keep, arcs.dst.shape))
            targets = targets[keep]
            mail = {k: v[keep] for k, v in mail.items()}
            senders = senders[keep] if senders is not None else None
        first, *rest = mail
        return Messages(targets, mail[first], senders, {k: mail[k] for k in rest})

    def _send_wedges(self, state: State, active: np.ndarray, params: dict[str, Any]) -> Messages:
        u, v, w = state["_adjacency"].closed(active)
        sources = self._sources(state)
        with np.errstate(divide="ignore", invalid="ignore"):
            sent = self.wedge_messages(NUMPY_OPS, Columns(sources, u), Columns(sources, v), Columns(sources, w), params)
        mail = {k: np.broadcast_to(sent[k], v.shape) for k in self.mail}
        first, *rest = mail
        return Messages(v, mail[first], u if self.with_sender else None, {k: mail[k] for k in rest})

    @property
    def combine(self) -> Callable[[Messages, int], Inbox]:  # type: ignore[override]
        return _KernelCombiner(self)

    def update(self, graph: VertexGraph, state: State, inbox: Inbox) -> tuple[State, np.ndarray]:
        n, params = graph.num_nodes, state["_params"]
        state["_round"] += 1
        glob = {**state["_glob"], "round": state["_round"], **state.get("_before", {})}
        received = inbox.raw  # the combined mail per name (see _KernelCombiner)
        if self.update_all:
            rows: np.ndarray | slice = slice(None)
            count = n
            mail: dict[str, Expr] = {}
            got = np.zeros(n, dtype=bool)
            got[inbox.nodes] = True
            for name, how in self.mail.items():
                dtype = received[name].dtype
                full = np.full(n, _identity(how, dtype), dtype=dtype)
                full[inbox.nodes] = received[name]
                mail[name] = full
            mail["got"] = got
        else:
            rows = inbox.nodes
            count = inbox.nodes.size
            mail = dict(received)
            mail["got"] = np.ones(count, dtype=bool)
        if self.with_sender:
            mail["sender"] = inbox.senders
        me = Columns(self._sources(state), rows)
        new, changed = self.kernel_update(NUMPY_OPS, me, mail, params, glob)
        changed = np.broadcast_to(changed, (count,))
        for name, value in new.items():
            state[name][rows] = np.broadcast_to(value, (count,))
        after = Columns(self._sources(state), rows)
        seen = self.aggregates(NUMPY_OPS, after, changed, params)
        _fold_totals(state, {k: _reduce(v, how, count) for k, (v, how) in seen.items()}, seen)
        ids = np.flatnonzero(changed) if self.update_all else inbox.nodes[changed]
        return state, ids.astype(np.int64, copy=False)

    def terminated(self, round: int, state: State, changed: np.ndarray) -> bool:
        return self.halt(round, state["_totals"], state["_params"], state["_glob"])

    def next_active(self, graph: VertexGraph, state: State, changed: np.ndarray) -> np.ndarray:
        return np.arange(graph.num_nodes, dtype=np.int64) if self.all_active else changed


class _KernelCombiner:
    """Reduces each named message value by its own reduction; the sender of the first (min/max) one."""

    def __init__(self, algorithm: KernelAlgorithm) -> None:
        self.algorithm = algorithm
        self._combiners: dict[tuple[int, str], Combiner] = {}

    def _combiner(self, n: int, how: str) -> Combiner:
        key = (n, how)
        if key not in self._combiners:
            self._combiners[key] = Combiner(n, how)
        return self._combiners[key]

    def __call__(self, messages: Messages, n: int) -> Inbox:
        # the names and reductions were recorded by send(); the first name's value is messages.values
        how = self.algorithm.mail
        names = list(how)
        first = self._combiner(n, how[names[0]])(
            Messages(messages.targets, messages.values, messages.senders)
        )
        combined = {names[0]: first.values}
        for name in names[1:]:
            other = self._combiner(n, how[name])(Messages(messages.targets, messages.extra[name]))
            combined[name] = other.values  # same receivers, same (ascending or first-seen) order
            if not np.array_equal(other.nodes, first.nodes):
                order = np.argsort(other.nodes)
                pos = np.searchsorted(other.nodes[order], first.nodes)
                combined[name] = other.values[order][pos]
        return Inbox(first.nodes, first.values, first.senders, raw=combined)  # type: ignore[arg-type]


class _Ids:
    """The ``id`` column: the row numbers themselves (no length-n array per read)."""

    def __init__(self, n: int) -> None:
        self.n = n

    def __call__(self, rows: np.ndarray | slice) -> np.ndarray:
        return np.arange(self.n, dtype=np.int64)[rows] if isinstance(rows, slice) else rows


def graph_facts(graph: VertexGraph) -> dict[str, Any]:
    """The FACTS columns of every node (computed once, from the CSR arrays)."""
    n = graph.num_nodes
    out = graph.out
    weights = graph.node_weights
    return {
        "id": _Ids(n),
        "arcs_out": out.degree(),
        "arcs_in": graph.inn.degree() if graph.directed else out.degree(),
        "weight_out": np.bincount(out.src, weights=out.weights, minlength=n),
        "self_loop": graph.self_loops,
        "node_weight": _Filled(n, np.nan) if weights is None else np.asarray(weights, dtype=np.float64),
    }


class _Filled:
    """A column with the same value on every node, made only for the rows that are read (no length-n array per run)."""

    def __init__(self, n: int, value: float) -> None:
        self.n, self.value = n, value

    def __call__(self, rows: np.ndarray | slice) -> np.ndarray:
        count = len(range(self.n)[rows]) if isinstance(rows, slice) else len(rows)
        return np.full(count, self.value)


class WedgeLists:
    """Forward lists of a graph (direction ignored, no self-loops): each node's neighbours ranked above it by
    (degree, id), in rank order, and the edge set, for wedge kernels on the numpy executor."""

    def __init__(self, graph: VertexGraph) -> None:
        adj = graph.both
        simple = adj.src != adj.indices
        src, dst = adj.src[simple], adj.indices[simple]
        n = graph.num_nodes
        degree = np.bincount(src, minlength=n)
        rank = np.empty(n, dtype=np.int64)
        rank[np.lexsort((np.arange(n), degree))] = np.arange(n)
        forward = rank[src] < rank[dst]
        fsrc, fdst = src[forward], dst[forward]
        order = np.lexsort((rank[fdst], fsrc))
        self.src, self.dst = fsrc[order], fdst[order]
        self.ptr = np.searchsorted(self.src, np.arange(n + 1))
        self.n = n
        self.edge_keys = np.unique(np.minimum(src, dst) * n + np.maximum(src, dst))

    def closed(self, active: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(u, v, w) of every closed wedge of the active nodes ``u``: rank(u) < rank(v) < rank(w), edge v-w."""
        sends = np.zeros(self.n, dtype=bool)
        sends[active] = True
        slots = np.flatnonzero(sends[self.src])
        later = self.ptr[self.src[slots] + 1] - slots - 1  # the slots after each one in its list
        first = np.repeat(slots, later)
        offsets = np.cumsum(later) - later
        second = first + 1 + (np.arange(first.size) - np.repeat(offsets, later))
        u, v, w = self.src[first], self.dst[first], self.dst[second]
        keys = np.minimum(v, w) * self.n + np.maximum(v, w)
        pos = np.searchsorted(self.edge_keys, keys)
        hit = pos < self.edge_keys.size
        hit[hit] = self.edge_keys[pos[hit]] == keys[hit]
        return u[hit], v[hit], w[hit]


def wedge_lists(graph: VertexGraph) -> WedgeLists:
    return WedgeLists(graph)


def _column(value: Expr, kind: str, n: int) -> np.ndarray:
    dtype = {"int": np.int64, "float": np.float64, "bool": bool}[kind]
    return np.array(np.broadcast_to(np.asarray(value, dtype=dtype), (n,)))


def _identity(how: str, dtype: np.dtype) -> Any:
    if how in ("sum", "count"):
        return 0
    if dtype.kind == "f":
        return np.inf if how == "min" else -np.inf
    info = np.iinfo(dtype) if dtype.kind in "iu" else np.iinfo(np.int64)
    return info.max if how == "min" else info.min


def _reduce(value: Expr, how: str, count: int) -> Any:
    if how not in AGGREGATIONS:
        raise VertexProgramError(f"unknown aggregation {how!r}; use one of {AGGREGATIONS}")
    arr = np.broadcast_to(np.asarray(value), (count,))
    if arr.size == 0:
        return None
    out = {"sum": np.sum, "max": np.max, "min": np.min}[how](arr)
    return out.item()


def _fold_totals(state: State, values: dict[str, Any], spec: Mapping[str, tuple[Expr, str]]) -> None:
    state["_totals"] = fold_totals(state["_totals"], values, {k: how for k, (_, how) in spec.items()})


def fold_totals(previous: Mapping[str, Any], values: Mapping[str, Any], hows: Mapping[str, str]) -> dict[str, Any]:
    """This round's aggregates; ``max`` ones keep the largest value of any round (a raised flag stays up)."""
    out = dict(previous)
    for name, value in values.items():
        if hows[name] == "max" and out.get(name) is not None:
            out[name] = out[name] if value is None else max(out[name], value)
        else:
            out[name] = value
    return out
