"""Maximum flow on Spark: the push-relabel program of :mod:`graphreason.tools.gar.vertex.flow` in DataFrame supersteps.

Max flow keeps state per *arc* (the residual capacity), which the kernel
executor (:mod:`graphreason.tools.gar.spark.pregel`) does not hold, so its data
movement is written here; its rules are not: the active set, the admissible-arc
test, the amount pushed, the relabel and the snapping of float residues are the
functions of the vertex program that the compiled engine evaluates on numpy
arrays, evaluated here on Spark columns.

Two tables, each rebuilt and cut from its lineage every round (as the kernel
executor does):

* ``nodes`` (id, excess, height, _active, _changed, _sent), partitioned by id;
* ``arcs``, the residual network (src, dst, kind, cap, res), partitioned by src:
  every arc u->v of the graph, self-loops dropped, is a ``kind`` 0 row with its
  capacity, and its reverse v->u a ``kind`` 1 row with capacity 0; the reverse
  of (u, v, k) is (v, u, 1 - k).

A push round joins the active nodes to their open arcs and the receivers'
heights, orders each sender's admissible arcs as the compiled engine does
(its out-arcs by target, then its reverse arcs by target) and takes the running
total of their room with a window, so each arc gets ``push_amount`` of the excess.
The pushes change the residual of the arc and of its reverse, and the excess of
both ends. A relabel round takes, per active node, the lowest height across its
open arcs and lifts the node by ``lifted``. A global relabel round (after every
``global_every`` relabel rounds) runs the two backward searches of ``exact_heights``
over the open arcs, one job per level, and sets every height from them. The rounds,
their order and the Termination rule are the compiled engine's, so the two give the
same flow.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np

from graphreason.runtime.cancel import check_cancelled
from graphreason.tools.gar.datasets import relabel
from graphreason.tools.gar.spark.edges import SparkEdgeGraph, rows_of
from graphreason.tools.gar.spark.pregel import SparkOps, _cut, _Facts
from graphreason.tools.gar.vertex.engine import RoundInfo, RunResult, out_of_time, round_cap
from graphreason.tools.gar.vertex.flow import (
    MaxFlow,
    admissible,
    capacity_kind,
    flow_answer,
    holding,
    lifted,
    push_amount,
    snapped,
)
from graphreason.tools.gar.vertex.traversal import NegativeWeightError, as_number


def run_max_flow(
    algorithm: MaxFlow,
    graph: SparkEdgeGraph,
    params: dict[str, Any] | None = None,
    *,
    max_rounds: int | None = None,
    on_round: Callable[[RoundInfo], None] | None = None,
    results_dir: str | None = None,
    seconds: float | None = None,
) -> RunResult:
    """Maximum flow from ``params['source']`` to ``params['target']`` on ``graph``, in Spark supersteps.

    The value is the sink's excess. On a graph given in memory every node's state and the flow on each
    arc are collected; on an edge dataset only the value is, and the arcs that carry flow are listed when
    there are at most :data:`~graphreason.tools.gar.spark.answers.FEW`, else written as Parquet
    (src, dst, flow) beside the other written answers.
    """
    from pyspark.sql import Window
    from pyspark.sql import functions as F

    start = time.perf_counter()
    facts = _Facts(graph)
    params = algorithm.prepare(facts, dict(params or {}))  # type: ignore[arg-type]
    cap_rounds = round_cap(algorithm, facts, params, max_rounds)
    s, t, n = params["source"], params["target"], graph.num_nodes
    x = SparkOps()

    simple = graph.capacities().filter(F.col("src") != F.col("dst"))
    fills = (F.col("src") == s) & (F.col("dst") != t) & (F.col("weight") > 0)  # Initialization's step 2
    check = simple.agg(
        F.min("weight").alias("lo"),
        F.max("weight").alias("hi"),
        F.sum((F.col("weight") != F.floor("weight")).cast("long")).alias("fractions"),
        F.sum(fills.cast("long")).alias("filled"),
        F.min(F.when(fills, F.col("weight"))).alias("least_fill"),
    ).collect()[0]
    if check["lo"] is not None and check["lo"] < 0:
        row = simple.orderBy("weight", "src", "dst").limit(1).collect()[0]
        raise NegativeWeightError(
            f"max_flow needs non-negative capacities; edge ({graph.label(row['src'])}, {graph.label(row['dst'])}) "
            f"has {as_number(row['weight'])}"
        )
    exact, eps = capacity_kind(not check["fractions"], float(check["hi"] or 0.0))
    kind = "long" if exact else "double"

    # Initialization: the residual network, with the source's out-arcs already filled to capacity
    cap = F.col("weight").cast(kind)
    zero = F.lit(0).cast(kind)
    both = simple.select("src", "dst", F.lit(0).alias("kind"), cap.alias("cap"), zero.alias("partner")).unionByName(
        simple.select(
            F.col("dst").alias("src"), F.col("src").alias("dst"), F.lit(1).alias("kind"), zero.alias("cap"),
            cap.alias("partner"),
        )
    )  # fmt: skip
    res = F.when(F.col("src") == s, zero).otherwise(
        F.col("cap") + F.when(F.col("dst") == s, F.col("partner")).otherwise(zero)
    )
    arcs = _cut(both.select("src", "dst", "kind", "cap", res.cast(kind).alias("res")), "src")
    filled = (
        simple.filter(F.col("src") == s).groupBy(F.col("dst").alias("id")).agg(F.sum(cap).alias("filled"))
    )
    excess = F.coalesce(F.col("filled"), zero).cast(kind)
    height = F.when(F.col("id") == s, F.lit(n)).otherwise(F.lit(0)).cast("long")
    nodes = graph.nodes.select("id").join(filled, "id", "left").select(
        "id", excess.alias("excess"), height.alias("height"), F.lit(False).alias("_moved"), F.lit(0).alias("_got")
    )
    nodes = _with_flags(x, nodes, eps, s, t)
    if not check["filled"] or check["least_fill"] > eps:  # each filled neighbour holds its arc's capacity
        active = int(check["filled"] or 0)
    else:  # a capacity within float noise of zero: count the way Send will
        active = int(nodes.agg(F.sum(F.col("_active").cast("long"))).collect()[0][0] or 0)

    order = Window.partitionBy("src").orderBy("kind", "dst").rowsBetween(Window.unboundedPreceding, Window.currentRow)
    trace: list[RoundInfo] = []
    stop, rnd, phase, since_global = "max_rounds", 0, "push", 0
    while rnd < cap_rounds:
        check_cancelled()
        rnd += 1
        t0 = time.perf_counter()
        # each phase gives the nodes' new (id, excess, height, _moved, _got) and, after a push, the new arcs
        state = nodes.select("id", "excess", "height")
        new_arcs, spent = None, []  # spent: tables to free once the new ones are computed
        if phase == "global":
            distances = _exact_heights(graph.spark, arcs.filter(F.col("res") > eps).select("src", "dst"), n, s, t)
            new_height = (
                F.when(F.col("id") == s, F.lit(n)).when(F.col("id") == t, F.lit(0))
                .otherwise(F.coalesce(F.col("h"), F.lit(2 * n))).cast("long")
            )  # fmt: skip
            reached = F.col("h").isNotNull() & (F.col("id") != s) & (F.col("id") != t)
            nxt = state.join(distances, "id", "left").select(
                "id", "excess", new_height.alias("height"), (new_height != F.col("height")).alias("_moved"),
                reached.cast("long").alias("_got"),
            )  # fmt: skip
            spent = [distances]
        else:
            senders = nodes.filter("_active").select(
                F.col("id").alias("src"), F.col("excess").alias("s_excess"), F.col("height").alias("s_height")
            )
            heights = nodes.select(F.col("id").alias("dst"), F.col("height").alias("d_height"))
            open_ = arcs.join(senders, "src").filter(F.col("res") > eps).join(heights, "dst")
            if phase == "relabel":
                lowest = open_.groupBy(F.col("src").alias("id")).agg(
                    F.min("d_height").alias("lowest"), F.count(F.lit(1)).alias("_got")
                )
                new_height, moved = lifted(x, F.col("height"), F.col("lowest"))
                got = F.col("lowest").isNotNull()
                nxt = state.join(lowest, "id", "left").select(
                    "id", "excess", F.when(got, new_height).otherwise(F.col("height")).alias("height"),
                    (got & moved).alias("_moved"), "_got",
                )  # fmt: skip
            else:
                ok = admissible(x, F.col("res"), eps, F.col("s_height"), F.col("d_height"))
                before = F.sum("res").over(order) - F.col("res")
                amount = push_amount(x, F.col("s_excess"), before, F.col("res"))
                pushes = open_.filter(ok).select("src", "dst", "kind", amount.alias("amount"))
                pushes = pushes.filter(F.col("amount") > 0).persist()
                delta = pushes.select("src", "dst", "kind", (-F.col("amount")).alias("d")).unionByName(
                    pushes.select(
                        F.col("dst").alias("src"), F.col("src").alias("dst"), (1 - F.col("kind")).alias("kind"),
                        F.col("amount").alias("d"),
                    )
                ).groupBy("src", "dst", "kind").agg(F.sum("d").alias("d"))  # fmt: skip
                new_res = snapped(x, F.col("res") + F.coalesce(F.col("d"), zero), eps)
                new_arcs = _cut(
                    arcs.join(delta, ["src", "dst", "kind"], "left").select(
                        "src", "dst", "kind", "cap", new_res.cast(kind).alias("res")
                    ),
                    "src",
                    rnd,
                )
                moved = pushes.select(
                    F.col("src").alias("id"), (-F.col("amount")).alias("d"), F.lit(0).alias("g")
                ).unionByName(
                    pushes.select(F.col("dst").alias("id"), F.col("amount").alias("d"), F.lit(1).alias("g"))
                ).groupBy("id").agg(F.sum("d").alias("d"), F.sum("g").alias("_got"))  # fmt: skip
                nxt = state.join(moved, "id", "left").select(
                    "id", snapped(x, F.col("excess") + F.coalesce(F.col("d"), zero), eps).cast(kind).alias("excess"),
                    "height", F.col("d").isNotNull().alias("_moved"), "_got",
                )  # fmt: skip
                spent = [pushes, arcs]
        new_nodes = _cut(_with_flags(x, nxt, eps, s, t), "id", rnd)
        stats = _stats(new_nodes, new_arcs)  # one job computes the new tables, while the spent ones are held
        for frame in (nodes, *spent):
            frame.unpersist()
        nodes, arcs = new_nodes, arcs if new_arcs is None else new_arcs
        if phase == "push":
            phase = "relabel"
        elif phase == "relabel":
            since_global += 1
            phase = "global" if since_global >= algorithm.global_every else "push"
        else:
            phase, since_global = "push", 0
        info = RoundInfo(rnd, active, int(stats["sent"] or 0), int(stats["changed"] or 0), time.perf_counter() - t0)
        trace.append(info)
        if on_round is not None:
            on_round(info)
        active = int(stats["active"] or 0)
        if active == 0:  # Termination: nobody but the source and the sink holds excess
            stop = "rule"
            break
        if out_of_time(start, seconds):
            stop = "time_limit"
            break
    else:
        if active == 0:
            stop = "rule"

    if not graph.in_memory:
        output = _dataset_flow(graph, nodes, arcs, s, t, results_dir)
        nodes.unpersist()
        arcs.unpersist()
        return RunResult(algorithm.name, output, rnd, stop, trace, {}, params, time.perf_counter() - start)
    # Result: every node's excess and height, and the flow on each arc that carries some (one job)
    final = {"excess": np.zeros(n, dtype=np.int64 if exact else np.float64), "height": np.zeros(n, dtype=np.int64)}
    carried = arcs.filter((F.col("kind") == 0) & (F.col("cap") - F.col("res") > 0)).select(
        F.lit(1).alias("tag"), "src", "dst", (F.col("cap") - F.col("res")).alias("value")
    )
    rows = nodes.select(F.lit(0).alias("tag"), "id", "height", "excess").unionByName(
        carried.select("tag", F.col("src").alias("id"), F.col("dst").alias("height"), F.col("value").alias("excess"))
    )
    edges = []
    for tag, a, b, value in rows_of(rows, n + graph.num_arcs):
        if tag:
            edges.append((int(a), int(b), as_number(value)))
        else:
            final["excess"][a], final["height"][a] = value, b
    edges.sort()
    value = as_number(final["excess"][t])
    output = flow_answer(value, edges, s, t)
    nodes.unpersist()
    arcs.unpersist()
    if not graph.identity_labels:
        output = relabel(algorithm.name, output, graph.labels)
    return RunResult(algorithm.name, output, rnd, stop, trace, final, params, time.perf_counter() - start)


def _dataset_flow(graph: SparkEdgeGraph, nodes: Any, arcs: Any, s: int, t: int, results_dir: str | None) -> dict:
    """The flow value (the sink's excess) and the arcs carrying flow, in dataset ids, read in small jobs."""
    from pyspark.sql import functions as F

    from graphreason.tools.gar.spark.answers import FEW, DatasetAnswer

    value = as_number(nodes.filter(F.col("id") == F.lit(t)).select("excess").collect()[0][0])
    carried = arcs.filter((F.col("kind") == 0) & (F.col("cap") - F.col("res") > 0)).select(
        "src", "dst", (F.col("cap") - F.col("res")).alias("flow")
    )
    count = carried.count()
    answer = DatasetAnswer(graph, carried, "max_flow", results_dir)
    source, target = answer.labels([s, t])
    out = flow_answer(value, [], source, target)
    if count <= FEW:
        rows = carried.orderBy("src", "dst").collect()
        ends = sorted({int(r[0]) for r in rows} | {int(r[1]) for r in rows})
        label = dict(zip(ends, answer.labels(ends), strict=True))
        out["edge_flows"] = [(label[int(r[0])], label[int(r[1])], as_number(r[2])) for r in rows]
        return out
    if not graph.identity_labels:
        names = graph.nodes.select("id", "label")
        carried = carried.join(names.select(F.col("id").alias("src"), F.col("label").alias("u")), "src").join(
            names.select(F.col("id").alias("dst"), F.col("label").alias("v")), "dst"
        ).select(F.col("u").alias("src"), F.col("v").alias("dst"), "flow")
    path = f"{answer.folder()}/edge_flow.parquet"
    carried.write.mode("errorifexists").parquet(path)
    out["edge_flows"] = {"file": path, "columns": ["src", "dst", "flow"], "rows": count}
    out["text"] += f" {count} arcs carry flow; they are written to {path} (src, dst, flow)."
    return out


def _exact_heights(spark: Any, open_arcs: Any, n: int, s: int, t: int) -> Any:
    """Global relabel (see :func:`graphreason.tools.gar.vertex.flow.exact_heights`): (id, h) for every node the
    backward searches reach over the open arcs, the sink's at distance d, then the source's at n + d; one job a level."""
    from pyspark.sql import functions as F

    labels = spark.createDataFrame([(t, 0), (s, n)], schema="id long, h long")
    labelled = 2
    for root, level in ((t, 0), (s, n)):
        frontier = labels.filter(F.col("id") == root)
        while labelled < n:  # (every node labelled: nothing left to search for)
            level += 1
            found = open_arcs.join(frontier.select(F.col("id").alias("dst")), "dst").select(F.col("src").alias("id"))
            new = _cut(found.distinct().join(labels, "id", "left_anti").select("id", F.lit(level).alias("h")), "id", level)
            count = new.count()
            if count == 0:
                break
            labelled += count
            labels = _cut(labels.unionByName(new), "id", level)
            frontier = new
    return labels.filter((F.col("id") != s) & (F.col("id") != t)).persist()


def _with_flags(x: SparkOps, nodes: Any, eps: float, s: int, t: int) -> Any:
    """``nodes`` (id, excess, height, _moved, _got) as the node table: the next round's active flag, this round's
    changed flag and the messages each node received."""
    from pyspark.sql import functions as F

    return nodes.select(
        "id", "excess", "height",
        holding(x, F.col("excess"), F.col("id"), eps, s, t).alias("_active"),
        F.coalesce(F.col("_moved"), F.lit(False)).alias("_changed"),
        F.coalesce(F.col("_got"), F.lit(0)).cast("long").alias("_sent"),
    )  # fmt: skip


def _stats(nodes: Any, arcs: Any = None) -> Any:
    """One job: how many nodes are active next, changed this round, and the messages they received; with
    ``arcs`` (after a push round), the same job also computes (and so stores) the new arcs."""
    from pyspark.sql import functions as F

    totals = nodes.agg(
        F.sum(F.col("_active").cast("long")).alias("active"),
        F.sum(F.col("_changed").cast("long")).alias("changed"),
        F.sum("_sent").alias("sent"),
    )
    if arcs is not None:
        totals = totals.crossJoin(arcs.agg(F.count(F.lit(1)).alias("arcs")))
    return totals.collect()[0]
