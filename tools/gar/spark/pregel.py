"""The Spark executor of GAR's kernel algorithms: Pregel supersteps on plain DataFrames.

The state is one table (a row per node: id, graph facts, the kernel's fields and
an ``_active`` flag); the arcs are another, partitioned by source. One superstep:

1. the active rows, with the columns Send reads, are joined to their out-arcs;
2. each arc's message values come from the kernel's ``messages`` expressions; the
   receivers' state is joined in only when ``send_if`` reads it (the triplet);
3. messages are combined per receiver by the kernel's reductions (``min`` with
   its sender is ``min(struct(value, sender))``);
4. the state is left-joined with the combined mail and the kernel's ``update``
   expressions give the new fields and the ``changed`` flag, which becomes the
   next round's frontier;
5. one aggregation job counts changed nodes and messages and evaluates the
   kernel's aggregates (and the next round's ``before_round`` ones, over the same
   new state); Termination reads them on the driver.

The new state is cut from its lineage every round (rebuilt from its rows and
checkpointed locally, see :func:`_cut`), so the query plan and the planner's
size estimates stay one round deep however long the run. The expressions are
the very functions the compiled engine evaluates on numpy arrays
(:mod:`graphreason.tools.gar.vertex.kernel`).

After the last round, on a graph given in memory, the kernel's fields are collected
to the driver (n values each; the arcs never are) and the algorithm's own Result
part words the answer. On an edge dataset nothing per node is collected: the
answer is made in Spark and per-node answers are written as Parquet
(:mod:`graphreason.tools.gar.spark.answers`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from graphreason.runtime.cancel import check_cancelled
from graphreason.tools.gar.datasets import relabel
from graphreason.tools.gar.spark.answers import DatasetAnswer, dataset_result
from graphreason.tools.gar.spark.edges import SparkEdgeGraph, detached, kept, rows_of
from graphreason.tools.gar.spark.session import SparkUnavailableError, checkpoint_interval
from graphreason.tools.gar.vertex.engine import RoundInfo, RunResult, VertexAlgorithm, out_of_time, round_cap
from graphreason.tools.gar.vertex.flow import MaxFlow
from graphreason.tools.gar.vertex.graph import VertexProgramError, node_in_range
from graphreason.tools.gar.vertex.kernel import FACTS, KernelAlgorithm, Ops, fold_totals
from graphreason.tools.gar.vertex.traversal import NegativeWeightError, as_number

SPARK_TYPES = {"int": "long", "float": "double", "bool": "boolean"}


class SparkOps(Ops):
    """Kernel expressions over Spark ``Column`` objects."""

    def __init__(self) -> None:
        from pyspark.sql import functions as F

        self._F = F
        self.inf = F.lit(float("inf"))
        self.no_node = -1

    def where(self, cond: Any, yes: Any, no: Any) -> Any:
        return self._F.when(self._col(cond), yes).otherwise(no)

    def abs(self, value: Any) -> Any:
        return self._F.abs(value)

    def lit(self, value: Any) -> Any:
        return self._F.lit(value)

    def _col(self, value: Any) -> Any:
        return value if not isinstance(value, bool | int | float) else self._F.lit(value)


class _Prefixed(Mapping[str, Any]):
    """Columns of a joined table under a prefix (``s_level`` for the sender's level); records what is read."""

    def __init__(self, prefix: str, names: list[str]) -> None:
        from pyspark.sql import functions as F

        self._F, self._prefix, self._names = F, prefix, names
        self.read: set[str] = set()

    def __getitem__(self, key: str) -> Any:
        if key not in self._names:
            raise KeyError(key)
        self.read.add(key)
        return self._F.col(self._prefix + key)

    def __iter__(self) -> Any:
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)


def spark_support(algorithm: VertexAlgorithm) -> str | None:
    """None when ``algorithm`` runs on Spark, else the reason it does not (said to the user)."""
    if (isinstance(algorithm, KernelAlgorithm) and algorithm.spark) or isinstance(algorithm, MaxFlow):
        return None  # max flow: its own superstep (tools/gar/spark/flow.py) over the same rules
    return (
        f"{algorithm.name} is not a kernel algorithm (its Send and Update are written for numpy arrays only), "
        "so it runs on one machine only: use --engine compiled"
    )


class _Facts:
    """What an algorithm's ``prepare`` reads from a graph, answered by the Spark graph.

    Node parameters are the dataset's ids (looked up), or with ``dense`` the graph's
    own ids 0..n-1 (a range check, as :meth:`VertexGraph.check_node` does).
    """

    def __init__(self, graph: SparkEdgeGraph, dense: bool = False) -> None:
        self.dense = dense
        self.num_nodes = graph.num_nodes
        self.directed = graph.directed
        self.weighted = graph.weighted
        self.graph = graph
        weights = np.array([] if graph.min_weight is None else [graph.min_weight])
        zero = np.zeros(weights.size, dtype=np.int64)
        self.out = type("Arcs", (), {"weights": weights, "src": zero, "indices": zero})()
        self.num_arcs = graph.num_arcs
        self._loops: np.ndarray | None = None
        self._node_weights: np.ndarray | None = None

    def check_node(self, node: Any, role: str = "node") -> int:
        if not self.dense:
            return self.graph.index_of(node, role)
        if isinstance(node, bool) or not isinstance(node, int | np.integer):
            raise VertexProgramError(f"the {role} must be a node id (an integer), got {node!r}")
        return node_in_range(int(node), self.num_nodes, role)

    def label(self, node: int) -> Any:
        return self.graph.label(node)

    @property
    def node_weights(self) -> np.ndarray | None:
        """Every node's weight (n values collected to the driver when a Result part asks), None when the graph has none."""
        if not self.graph.has_node_weights:
            return None
        if self._node_weights is None:
            weights = np.empty(self.num_nodes)
            for row in rows_of(self.graph.facts().select("id", "node_weight"), self.num_nodes):
                weights[row[0]] = row[1]
            self._node_weights = weights
        return self._node_weights

    def common_neighbours(self, u: int, v: int) -> np.ndarray:
        """The nodes joined to both ``u`` and ``v`` (edge direction ignored), ascending (one small job)."""
        from pyspark.sql import functions as F

        near = self.graph.view("any").filter(F.col("src").isin(u, v)).groupBy("dst").agg(F.countDistinct("src").alias("k"))
        return np.array(sorted(int(r[0]) for r in near.filter(F.col("k") == 2).select("dst").collect()), dtype=np.int64)

    @property
    def self_loops(self) -> np.ndarray:
        """Which nodes have a self-loop (n booleans, collected to the driver when a Result part asks)."""
        if self._loops is None:
            loops = np.zeros(self.num_nodes, dtype=bool)
            for row in self.graph.facts().filter("self_loop").select("id").toLocalIterator():  # few rows
                loops[row[0]] = True
            self._loops = loops
        return self._loops


def stand_in(graph: SparkEdgeGraph) -> Any:
    """What ``prepare`` reads of ``graph``, for checking parameters given as dense ids (no arcs, no n-sized arrays)."""
    return _Facts(graph, dense=True)


def run_spark(
    algorithm: VertexAlgorithm,
    graph: SparkEdgeGraph,
    params: dict[str, Any] | None = None,
    *,
    max_rounds: int | None = None,
    on_round: Callable[[RoundInfo], None] | None = None,
    results_dir: str | None = None,
    seconds: float | None = None,
) -> RunResult:
    """Run a kernel algorithm on ``graph`` in Spark supersteps; the same :class:`RunResult` as the compiled engine
    (``seconds``: stop at the first superstep's end past that much wall-clock time).

    On an edge dataset the answer is made in Spark (:mod:`graphreason.tools.gar.spark.answers`): an answer
    that maps every node is written as Parquet under ``results_dir`` (default: the cache's ``gar-results``)
    and summarised, and ``state`` holds only the aggregates' totals, not the n-value fields.
    """
    from pyspark.sql import functions as F

    reason = spark_support(algorithm)
    if reason is not None:
        raise SparkUnavailableError(reason)
    if isinstance(algorithm, MaxFlow):  # per-arc state: its own data movement, the same rules
        from graphreason.tools.gar.spark.flow import run_max_flow

        return run_max_flow(
            algorithm, graph, params, max_rounds=max_rounds, on_round=on_round, results_dir=results_dir, seconds=seconds
        )
    assert isinstance(algorithm, KernelAlgorithm)
    start = time.perf_counter()
    facts_graph = _Facts(graph)
    try:
        params = algorithm.prepare(facts_graph, dict(params or {}))  # type: ignore[arg-type]
    except NegativeWeightError:
        u, v, w = graph.lightest_arc()
        raise NegativeWeightError(
            f"{algorithm.name} needs non-negative edge weights; edge ({u}, {v}) has weight {as_number(w)}"
        ) from None
    cap = round_cap(algorithm, facts_graph, params, max_rounds)
    x = SparkOps()
    n = graph.num_nodes
    fields = list(algorithm.fields)
    columns = [*FACTS, *fields]
    glob: dict[str, Any] = {"round": 0, "num_nodes": n, "directed": graph.directed}

    node = {name: F.col(name) for name in FACTS}
    init = algorithm.initial(x, node, params, glob)
    first = algorithm.first_active(x, node, params, glob)
    state = graph.facts().select(
        *FACTS,
        *[_as(x, init[f]).cast(SPARK_TYPES[k]).alias(f) for f, k in algorithm.fields.items()],
        _as(x, first).cast("boolean").alias("_active"),
    )
    state = state.repartition("id").persist()
    me = {name: F.col(name) for name in columns}
    seen = algorithm.aggregates(x, me, F.lit(True), params)
    hows = {k: how for k, (_, how) in seen.items()}
    before = algorithm.before_round(x, me, params)  # taken over the state each round starts from
    active_col = F.col("_active")
    counts = state.agg(
        F.sum(active_col.cast("long")).alias("_n"),
        *[_agg(F, how, F.when(active_col, _as(x, expr))).alias(k) for k, (expr, how) in seen.items()],
        *[_agg(F, how, _as(x, expr)).alias("_before_" + k) for k, (expr, how) in before.items()],
    ).collect()[0]
    totals = fold_totals({}, {k: counts[k] for k in seen}, hows)
    start_of_round = {k: counts["_before_" + k] for k in before}
    active = int(counts["_n"] or 0)
    arcs = _closed_wedges(graph) if algorithm.wedges else graph.view(algorithm.direction(params))

    trace: list[RoundInfo] = []
    stop, rnd = "max_rounds", 0
    old = state
    while rnd < cap:
        if active == 0 and algorithm.stop_on_no_change:
            stop = "no_active"
            break
        check_cancelled()
        rnd += 1
        t0 = time.perf_counter()
        glob = {"round": rnd, "num_nodes": n, "directed": graph.directed}
        glob.update(start_of_round)

        # Send: active rows joined to their arcs (or closed wedges), message values, the triplet test
        senders = state if algorithm.all_active else state.filter("_active")
        if algorithm.wedges:
            messages = _send_wedges(x, algorithm, arcs, senders, state, columns, params)
        else:
            messages = _send_arcs(x, algorithm, arcs, senders, state, columns, params)

        # Combine per receiver
        names = list(algorithm.mail)
        parts = []
        for i, name in enumerate(names):
            how = algorithm.mail[name]
            if i == 0 and algorithm.with_sender:
                pick = F.min if how == "min" else F.max
                parts.append(pick(F.struct(F.col("m_" + name).alias("v"), F.col("src").alias("s"))).alias("_best"))
            elif how == "count":
                parts.append(F.count(F.lit(1)).alias("mail_" + name))
            else:
                parts.append(_agg(F, how, F.col("m_" + name)).alias("mail_" + name))
        inbox = messages.groupBy(F.col("dst").alias("id")).agg(F.count(F.lit(1)).alias("_sent"), *parts)
        if algorithm.with_sender:
            inbox = inbox.select(
                "*", F.col("_best.v").alias("mail_" + names[0]), F.col("_best.s").alias("mail_sender")
            ).drop("_best")

        # Update
        joined = state.join(inbox, "id", "left")
        got = F.col("_sent").isNotNull()
        mail: dict[str, Any] = {}
        for name in names:
            value = F.col("mail_" + name)
            if algorithm.update_all:
                value = F.coalesce(value, F.lit(0) if algorithm.mail[name] in ("sum", "count") else value)
            mail[name] = value
        mail["got"] = got
        if algorithm.with_sender:
            mail["sender"] = F.col("mail_sender")
        mine = {name: F.col(name) for name in columns}
        new, changed = algorithm.kernel_update(x, mine, mail, params, glob)
        ran = F.lit(True) if algorithm.update_all else got
        changed_col = (ran & _as(x, changed)) if not algorithm.update_all else _as(x, changed)
        changed_col = F.coalesce(changed_col, F.lit(False))
        out_fields = []
        for f, kind in algorithm.fields.items():
            if f in new:
                value = _as(x, new[f]) if algorithm.update_all else F.when(got, _as(x, new[f])).otherwise(F.col(f))
                out_fields.append(value.cast(SPARK_TYPES[kind]).alias(f))
            else:
                out_fields.append(F.col(f))
        nxt = joined.select(
            *FACTS, *out_fields, changed_col.alias("_changed"), ran.alias("_ran"), F.coalesce("_sent", F.lit(0)).alias("_sent")
        )
        nxt = _cut(nxt, rnd=rnd)
        after = {name: F.col(name) for name in columns}
        seen = algorithm.aggregates(x, after, F.col("_changed"), params)
        hows = {k: how for k, (_, how) in seen.items()}
        stats = nxt.agg(
            F.sum(F.col("_changed").cast("long")).alias("_changed"),
            F.sum("_sent").alias("_messages"),
            *[_agg(F, how, F.when(F.col("_ran"), _as(x, expr))).alias(k) for k, (expr, how) in seen.items()],
            *[_agg(F, how, _as(x, expr)).alias("_before_" + k) for k, (expr, how) in before.items()],
        ).collect()[0]
        start_of_round = {k: stats["_before_" + k] for k in before}
        changed_n = int(stats["_changed"] or 0)
        totals = fold_totals(totals, {k: stats[k] for k in seen}, hows)
        state = nxt.select(
            *FACTS, *fields, (F.lit(True) if algorithm.all_active else F.col("_changed")).alias("_active")
        )
        if old is not state:
            old.unpersist()
        old = nxt
        info = RoundInfo(rnd, active, int(stats["_messages"] or 0), changed_n, time.perf_counter() - t0)
        trace.append(info)
        if on_round is not None:
            on_round(info)
        if algorithm.halt(rnd, totals, params, glob):
            stop = "rule"
            break
        if algorithm.stop_on_no_change and changed_n == 0:
            stop = "no_change"
            break
        if out_of_time(start, seconds):
            stop = "time_limit"
            break
        active = n if algorithm.all_active else changed_n
    else:
        if algorithm.halt(rnd, totals, params, glob):
            stop = "rule"

    if graph.in_memory:  # the driver holds the graph already: the algorithm's own Result part, on arrays
        final = _collect(state, algorithm, n)
        final["_totals"] = totals
        output = algorithm.result(facts_graph, final, params)  # type: ignore[arg-type]
        if not graph.identity_labels:
            output = relabel(algorithm.name, output, graph.labels)
    else:  # an edge dataset: answered where the state is, per-node answers written (nothing per node collected)
        final = {"_totals": totals}
        output = dataset_result(algorithm, DatasetAnswer(graph, state, algorithm.name, results_dir), params, totals)
    old.unpersist()
    if algorithm.wedges:
        arcs.unpersist()
    return RunResult(algorithm.name, output, rnd, stop, trace, final, params, time.perf_counter() - start)


def _send_arcs(
    x: SparkOps, algorithm: KernelAlgorithm, arcs: Any, senders: Any, state: Any, columns: list[str],
    params: dict[str, Any],
) -> Any:
    """Messages (src, dst, m_<name>...) along the senders' arcs, after the triplet test."""
    from pyspark.sql import functions as F

    src = _Prefixed("s_", columns)
    sent = algorithm.messages(x, src, F.col("weight"), params)
    mail_cols = {k: F.col("m_" + k) for k in algorithm.mail}
    dst = _Prefixed("d_", columns)
    keep = algorithm.send_if(x, src, dst, mail_cols, params)
    senders = senders.select(F.col("id").alias("src"), *[F.col(c).alias("s_" + c) for c in sorted(src.read)])
    messages = arcs.join(senders, "src").select(
        "src", "dst", *["s_" + c for c in sorted(src.read)], *[_as(x, sent[k]).alias("m_" + k) for k in algorithm.mail]
    )
    if dst.read:
        receivers = state.select(F.col("id").alias("dst"), *[F.col(c).alias("d_" + c) for c in sorted(dst.read)])
        messages = messages.join(receivers, "dst")
    if keep is not None:
        messages = messages.filter(_as(x, keep))
    return messages


def _closed_wedges(graph: SparkEdgeGraph) -> Any:
    """(u, v, w) for every triangle, once: v and w are neighbours of u ranked above it by (degree, id),
    rank(v) < rank(w), and v-w is an edge (direction ignored, self-loops dropped). Persisted."""
    from pyspark.sql import functions as F

    edges = graph.view("any").filter(F.col("src") != F.col("dst")).select("src", "dst")
    degree = edges.groupBy("src").agg(F.count(F.lit(1)).alias("deg"))

    def above(a_deg: Any, a: Any, b_deg: Any, b: Any) -> Any:
        return (a_deg < b_deg) | ((a_deg == b_deg) & (a < b))

    forward = (
        edges.join(degree.select(F.col("src"), F.col("deg").alias("du")), "src")
        .join(degree.select(F.col("src").alias("dst"), F.col("deg").alias("dv")), "dst")
        .filter(above(F.col("du"), F.col("src"), F.col("dv"), F.col("dst")))
        .select(F.col("src").alias("u"), F.col("dst").alias("v"), F.col("dv"))
    )
    pairs = forward.join(forward.select("u", F.col("v").alias("w"), F.col("dv").alias("dw")), "u").filter(
        above(F.col("dv"), F.col("v"), F.col("dw"), F.col("w"))
    )
    closing = edges.select(F.col("src").alias("v"), F.col("dst").alias("w"))
    return kept(pairs.join(closing, ["v", "w"], "left_semi").select("u", "v", "w"))


def _send_wedges(
    x: SparkOps, algorithm: KernelAlgorithm, wedges: Any, senders: Any, state: Any, columns: list[str],
    params: dict[str, Any],
) -> Any:
    """Messages (src = u, dst = v, m_<name>...) of the senders' closed wedges."""
    from pyspark.sql import functions as F

    u, v, w = _Prefixed("u_", columns), _Prefixed("v_", columns), _Prefixed("w_", columns)
    sent = algorithm.wedge_messages(x, u, v, w, params)
    messages = wedges.join(
        senders.select(F.col("id").alias("u"), *[F.col(c).alias("u_" + c) for c in sorted(u.read)]), "u"
    )
    for name, side in (("v", v), ("w", w)):
        if side.read:
            cols = [F.col(c).alias(f"{name}_{c}") for c in sorted(side.read)]
            messages = messages.join(state.select(F.col("id").alias(name), *cols), name)
    return messages.select(
        F.col("u").alias("src"), F.col("v").alias("dst"), *[_as(x, sent[k]).alias("m_" + k) for k in algorithm.mail]
    )


def _cut(frame: Any, key: str = "id", rnd: int = 0, eager: bool = False) -> Any:
    """``frame`` as a table with no history: no query plan and no size estimate carried from earlier rounds.

    A round reads the state three times (senders, receivers, update), so an uncut plan grows as
    3^rounds, and a persisted table keeps its plan, so even a short run on a tiny graph slows to a
    crawl without a cut every round. A local checkpoint cuts the plan, but Spark's checkpoint keeps
    the size estimate of the plan it cut, and the estimate of a join is the product of its sides':
    its number of digits doubles every round, and the planner's arithmetic on it comes to dominate
    (each round slower than the last while the frontier shrinks to nothing). Rebuilding the table from its
    rows, which carries no estimate, before the checkpoint keeps every round's planning the same.

    The rows are hash-partitioned by ``key`` (``id`` for node tables, as the arcs are by ``src``, with the
    same number of partitions),
    and the checkpoint keeps that partitioning: the next round's joins with the arcs and with the
    combined mail then shuffle only the messages (checked in the physical plan: one exchange per
    round, where the unpartitioned state needed two more).

    In local mode (checkpoint interval 0) the cut is a local checkpoint, and lazy: the round's
    aggregation job computes the rows and stores them in the same pass (measured, a 13-round BFS on
    13 nodes, local[1]: 9.5-10.0 s lazy against 10.5-12.9 s eager). Blocks of earlier rounds are
    freed by Spark's cleaner once nothing refers to them. A local checkpoint lives only on the
    executor that made it, so on a cluster (interval k > 0) round ``rnd`` is written as a reliable
    checkpoint when ``rnd`` is a multiple of k, and the rounds in between are persisted with their
    lineage: an executor lost mid-run costs the recomputation of at most k rounds, not the run.
    """
    fresh = detached(frame).repartition(key)
    every = checkpoint_interval()
    if every == 0:
        return fresh.localCheckpoint(eager=eager)
    if rnd % every:
        return fresh.persist()  # lineage: a lost partition is recomputed from the last reliable checkpoint
    # A reliable checkpoint: written to the session's checkpoint folder, which every executor reaches, so
    # it outlives the executor that computed it. Staged in memory first (otherwise writing the files would
    # compute the round a second time), then read back once and kept in memory for the round's three reads.
    staged = fresh.persist()
    cut = staged.checkpoint(eager=True).persist()
    staged.unpersist()
    return cut


def _as(x: SparkOps, value: Any) -> Any:
    """A Column from an expression result that may be a plain Python value."""
    return value if not isinstance(value, bool | int | float | np.generic) else x.lit(value.item() if isinstance(value, np.generic) else value)


def _agg(F: Any, how: str, expr: Any) -> Any:
    return {"min": F.min, "max": F.max, "sum": F.sum}[how](expr)


def _collect(state: Any, algorithm: KernelAlgorithm, n: int) -> dict[str, Any]:
    """The kernel's fields as numpy arrays indexed by dense id (n values each, streamed to the driver)."""
    dtypes = {"int": np.int64, "float": np.float64, "bool": bool}
    out = {f: np.empty(n, dtype=dtypes[k]) for f, k in algorithm.fields.items()}
    names = list(algorithm.fields)
    for row in rows_of(state.select("id", *names), n):
        i = row[0]
        for j, f in enumerate(names, start=1):
            out[f][i] = row[j]
    return out
