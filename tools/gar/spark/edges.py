"""An edge-list dataset (Parquet or CSV, any filesystem Spark reads) as the graph a Spark superstep runs on.

The dataset has columns ``src`` and ``dst`` (integers or strings) and optionally
``weight`` (numbers). It is checked in one pass before any algorithm runs: a
missing path, a missing column, an empty id, a non-numeric or non-finite weight
each get one clear :class:`EdgeDatasetError`.

The graph it describes is the same *simple* graph
:meth:`graphreason.tools.gar.vertex.graph.VertexGraph.from_edges` builds: parallel
edges merged to the lightest (for max flow, whose weights are capacities, added up:
:meth:`SparkEdgeGraph.capacities`), an undirected edge stored as two arcs, self-loops
kept once. Nodes are the ids that occur in the edges, numbered ``0 .. n-1`` in
sorted id order (so integer ids ``0 .. n-1`` keep their numbers); answers are
given in the original ids.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any
from urllib.parse import urlparse

import numpy as np

from graphreason.tools.gar.vertex.graph import VertexProgramError

FORMATS = ("parquet", "csv")


class EdgeDatasetError(VertexProgramError):
    """The edge dataset cannot be read as a graph (path, columns or values)."""


def dataset_format(path: str, given: str | None = None) -> str:
    """``parquet`` or ``csv``: as given, else from the path's ending (a folder of part files is Parquet)."""
    if given:
        if given not in FORMATS:
            raise EdgeDatasetError(f"unknown edge dataset format {given!r}; use {' or '.join(FORMATS)}")
        return given
    name = path.rstrip("/").lower()
    if name.endswith((".csv", ".csv.gz", ".tsv")):
        return "csv"
    return "parquet"


def is_local(path: str) -> bool:
    """A plain path or ``file://`` URI (checked on this machine before Spark starts)."""
    scheme = urlparse(path).scheme
    return scheme in ("", "file") or (len(scheme) == 1 and os.name == "nt")


def check_path(path: str) -> None:
    """A clear error for an empty or missing local path (remote ones are checked by Spark)."""
    if not path or not path.strip():
        raise EdgeDatasetError("the edge dataset path is empty")
    if is_local(path):
        local = urlparse(path).path if path.startswith("file:") else path
        if not os.path.exists(local):
            raise EdgeDatasetError(f"no edge dataset at {path!r} (a Parquet or CSV file or folder)")


@dataclass
class SparkEdgeGraph:
    """A simple graph held as Spark DataFrames: ``arcs`` (src, dst, weight) over dense ids, ``nodes`` (id, label)."""

    spark: Any
    arcs: Any
    nodes: Any
    num_nodes: int
    num_arcs: int
    directed: bool
    weighted: bool
    min_weight: float | None
    label_type: str  # "long" or "string"
    identity_labels: bool  # labels are exactly 0 .. n-1 (answers need no renaming)
    path: str = ""
    names: list[Any] | None = None  # display names of a graph given in memory with labels
    has_node_weights: bool = False  # ``nodes`` has a ``weight`` column (a graph given in memory with node weights)
    edges: Any = None  # the dataset's edges (src, dst, w) over dense ids before merging; None: ``arcs`` are final
    in_memory: bool = False  # a graph the driver holds already (sent to Spark): answers may collect per-node fields
    _views: dict[str, Any] = field(default_factory=dict, repr=False)
    _index: dict[Any, int] | None = field(default=None, repr=False)  # label -> id, once the labels are collected
    _looked_up: dict[int, Any] = field(default_factory=dict, repr=False)  # id -> label of each node looked up so far

    def view(self, direction: str) -> Any:
        """Arcs to follow: ``out`` as stored, ``in`` reversed, ``any`` both ways (lightest kept)."""
        from pyspark.sql import functions as F

        if direction == "out" or (not self.directed and direction in ("in", "any")):
            return self.arcs
        if direction not in ("in", "any"):
            raise VertexProgramError(f"unknown direction {direction!r}; use out, in or any")
        if direction not in self._views:
            flipped = self.arcs.select(F.col("dst").alias("src"), F.col("src").alias("dst"), "weight")
            view = flipped if direction == "in" else (
                self.arcs.unionByName(flipped).groupBy("src", "dst").agg(F.min("weight").alias("weight"))
            )
            self._views[direction] = kept(view, "src")
        return self._views[direction]

    def capacities(self) -> Any:
        """The arcs with the weights of parallel edges *added* (max flow's capacities) instead of the lightest kept.

        A dataset's merge is redone once, from its edges, and kept; a graph given in memory was
        merged the way its algorithm asked when it was read, so its arcs are returned as they are.
        """
        if self.edges is None:
            return self.arcs
        if "_summed" not in self._views:
            self._views["_summed"] = kept(merged_arcs(self.edges, self.directed, "sum"), "src")
        return self._views["_summed"]

    def facts(self) -> Any:
        """Per node: ``id``, ``arcs_out``, ``arcs_in``, ``weight_out``, ``self_loop``, ``node_weight`` (NaN when the
        graph has none), as the compiled engine has them.

        Computed once per graph and kept (every run of every algorithm starts from it).
        """
        if "_facts" not in self._views:
            self._views["_facts"] = kept(self._facts())
        return self._views["_facts"]

    def _facts(self) -> Any:
        from pyspark.sql import functions as F

        out = self.arcs.groupBy(F.col("src").alias("id")).agg(
            F.count(F.lit(1)).alias("arcs_out"),
            F.sum("weight").alias("weight_out"),
            F.max((F.col("src") == F.col("dst")).cast("int")).alias("loops"),
        )
        inn = self.arcs.groupBy(F.col("dst").alias("id")).agg(F.count(F.lit(1)).alias("arcs_in"))
        weight = F.col("weight").cast("double") if self.has_node_weights else F.lit(float("nan"))
        joined = self.nodes.select("id", weight.alias("node_weight")).join(out, "id", "left").join(inn, "id", "left")
        arcs_out = F.coalesce(F.col("arcs_out"), F.lit(0)).cast("long")
        return joined.select(
            "id",
            arcs_out.alias("arcs_out"),
            (F.coalesce(F.col("arcs_in"), F.lit(0)).cast("long") if self.directed else arcs_out).alias("arcs_in"),
            F.coalesce(F.col("weight_out"), F.lit(0.0)).cast("double").alias("weight_out"),
            (F.coalesce(F.col("loops"), F.lit(0)) > 0).alias("self_loop"),
            "node_weight",
        )

    def index_of(self, node: Any, role: str = "node") -> int:
        """The dense id of the node whose original id is ``node`` (clear error when there is none)."""
        from pyspark.sql import functions as F

        if isinstance(node, bool) or node is None or isinstance(node, float | list | dict):
            raise VertexProgramError(f"the {role} must be a node id, got {node!r}")
        value: Any = node
        if self.label_type == "long":
            try:
                value = int(str(node).strip()) if not isinstance(node, int | np.integer) else int(node)
            except ValueError:
                raise VertexProgramError(f"the {role} {node!r} is not a node id of this graph (ids are integers)") from None
            if self.identity_labels:  # ids are 0 .. n-1: no lookup job
                if not 0 <= value < self.num_nodes:
                    raise VertexProgramError(f"the {role} {node!r} is not a node of this graph ({self.num_nodes} nodes)")
                return value
        else:
            value = str(node)
        if "labels" in self.__dict__:  # every label is on the driver already: no lookup job
            if self._index is None:
                self._index = {label: i for i, label in enumerate(self.labels.tolist())}
            found = self._index.get(value)
            if found is None:
                raise VertexProgramError(f"the {role} {node!r} is not a node of this graph ({self.num_nodes} nodes)")
            return int(found)
        rows = self.nodes.filter(F.col("label") == F.lit(value)).select("id").limit(1).collect()
        if not rows:
            raise VertexProgramError(f"the {role} {node!r} is not a node of this graph ({self.num_nodes} nodes)")
        self._looked_up[int(rows[0]["id"])] = value
        return int(rows[0]["id"])

    @cached_property
    def labels(self) -> np.ndarray:
        """Original id of every dense id (collected to the driver: n values)."""
        if self.identity_labels:
            return np.arange(self.num_nodes, dtype=np.int64)
        out = np.empty(self.num_nodes, dtype=object)
        for row in rows_of(self.nodes.select("id", "label"), self.num_nodes):
            out[row[0]] = row[1]
        return out

    def label_of(self, node: int) -> Any:
        """The dataset id of dense id ``node`` (one small job the first time; no table of every label on the driver)."""
        from pyspark.sql import functions as F

        if self.names is not None:
            return self.names[node]
        if self.identity_labels:
            return int(node)
        if "labels" in self.__dict__:  # already collected
            return self.labels[node]
        if int(node) not in self._looked_up:  # a question's node is named again by each step that shows it
            rows = self.nodes.filter(F.col("id") == F.lit(int(node))).select("label").limit(1).collect()
            if not rows:
                raise VertexProgramError(f"no node {node} in this graph ({self.num_nodes} nodes)")
            self._looked_up[int(node)] = rows[0][0]
        return self._looked_up[int(node)]

    def labels_among(self, words: list[str]) -> list[Any]:
        """Which of ``words`` are node ids of this graph (one small job), sorted."""
        from pyspark.sql import functions as F

        if not words:
            return []
        if self.label_type == "long":
            values: list[Any] = sorted({int(w) for w in words if re.fullmatch(INTEGER_ID, w)})
        else:
            values = sorted(set(words))
        if not values:
            return []
        found = self.nodes.filter(F.col("label").isin(values)).select("label").collect()
        return sorted(r[0] for r in found)

    def label(self, node: int) -> Any:
        if self.names is not None:
            return self.names[node]
        return self.labels[node].item() if self.identity_labels else self.labels[node]

    def lightest_arc(self) -> tuple[Any, Any, float]:
        """(src label, dst label, weight) of one lightest arc (for the negative-weight message)."""
        from pyspark.sql import functions as F

        row = (
            self.arcs.orderBy(F.col("weight").asc(), "src", "dst")
            .limit(1)
            .join(self.nodes.select(F.col("id").alias("src"), F.col("label").alias("u")), "src")
            .join(self.nodes.select(F.col("id").alias("dst"), F.col("label").alias("v")), "dst")
            .collect()[0]
        )
        return row["u"], row["v"], float(row["weight"])

    def release(self) -> None:
        """Drop the cached tables of this graph."""
        for df in (self.arcs, self.nodes, *self._views.values()):
            df.unpersist()


def detached(frame: Any) -> Any:
    """``frame`` rebuilt from its rows: the same data and RDD lineage (a lost partition is recomputed), but a
    query plan of one leaf. Every table a run reads again and again is kept detached: a persisted table keeps
    its whole plan, each query that reads it carries that plan as a tree, and the loaded graph's tables share
    sub-plans (the nodes twice in the arcs, the arcs twice in the per-node facts), so the tree grows with
    every table built on another until the driver's heap runs out, even on a small graph."""
    from pyspark.sql import DataFrame

    session = frame.sparkSession
    rows = frame._jdf.queryExecution().executedPlan().execute()
    return DataFrame(session._jsparkSession.internalCreateDataFrame(rows, frame._jdf.schema(), False), session)


def kept(frame: Any, key: str | None = None) -> Any:
    """``frame`` detached (see :func:`detached`), hash-partitioned by ``key`` when given, and persisted."""
    out = detached(frame)
    return (out.repartition(key) if key else out).persist()


INTEGER_ID = r"-?[0-9]{1,18}"  # an id column's text that reads as a long
COLLECT_AT_ONCE = 200_000  # rows; larger tables stream to the driver a partition at a time


def rows_of(frame: Any, count: int) -> Any:
    """The rows of a small table in one job, of a large one a partition at a time (bounded driver memory)."""
    return frame.collect() if count <= COLLECT_AT_ONCE else frame.toLocalIterator()


def load_edges(
    spark: Any,
    path: str,
    *,
    directed: bool = False,
    fmt: str | None = None,
    src: str = "src",
    dst: str = "dst",
    weight: str | None = "weight",
) -> SparkEdgeGraph:
    """Read and check an edge dataset; build the simple graph (see the module doc)."""
    from pyspark.errors import AnalysisException
    from pyspark.sql import functions as F

    check_path(path)
    fmt = dataset_format(path, fmt)
    try:
        reader = spark.read.option("header", "true") if fmt == "csv" else spark.read
        if fmt == "csv" and path.lower().endswith(".tsv"):
            reader = reader.option("sep", "\t")
        raw = reader.format(fmt).load(path)
    except AnalysisException as exc:
        raise EdgeDatasetError(f"cannot read {path!r} as {fmt}: {_first_line(exc)}") from exc
    columns = raw.columns
    missing = [c for c in (src, dst) if c not in columns]
    if missing:
        raise EdgeDatasetError(
            f"the edge dataset {path!r} has no column(s) {', '.join(missing)}; its columns are: "
            f"{', '.join(columns) or '(none)'} (it needs {src}, {dst} and optionally {weight or 'weight'})"
        )
    has_weight = weight is not None and weight in columns
    types = dict(raw.dtypes)
    id_type = _id_type(raw, src, dst, types)
    w_raw = F.col(weight) if has_weight else F.lit(1.0)
    w = w_raw.try_cast("double")  # Spark's ANSI cast would fail the job on text; try_cast gives null
    edges = raw.select(
        F.col(src).cast(id_type).alias("s"),
        F.col(dst).cast(id_type).alias("d"),
        w.alias("w"),
        (w_raw.isNotNull() & w.isNull()).alias("bad_w") if has_weight else F.lit(False).alias("bad_w"),
    )
    check = edges.agg(
        F.count(F.lit(1)).alias("rows"),
        F.sum((F.col("s").isNull() | F.col("d").isNull()).cast("int")).alias("no_id"),
        F.sum(F.col("bad_w").cast("int")).alias("bad_w"),
        F.sum(F.col("w").isNull().cast("int")).alias("no_w"),
        F.sum((F.isnan("w") | (F.abs("w") == float("inf"))).cast("int")).alias("not_finite"),
    ).collect()[0]
    if not check["rows"]:
        raise EdgeDatasetError(f"the edge dataset {path!r} has no edges")
    if check["no_id"]:
        raise EdgeDatasetError(f"{check['no_id']} edge(s) of {path!r} have an empty {src} or {dst}")
    if check["bad_w"]:
        bad = raw.select(weight).filter(F.col(weight).isNotNull() & F.col(weight).try_cast("double").isNull())
        value = bad.limit(1).collect()
        example = f" (e.g. {value[0][0]!r})" if value else ""
        raise EdgeDatasetError(f"{check['bad_w']} edge weight(s) of {path!r} are not numbers{example}")
    if check["no_w"]:
        raise EdgeDatasetError(f"{check['no_w']} edge(s) of {path!r} have no weight (the {weight} column is empty)")
    if check["not_finite"]:
        raise EdgeDatasetError(f"{check['not_finite']} edge weight(s) of {path!r} are not finite numbers")

    ids = edges.select(F.col("s").alias("label")).union(edges.select(F.col("d").alias("label"))).distinct()
    nodes, n, lo, hi = _numbered(ids)
    identity = id_type == "long" and lo == 0 and hi == n - 1

    by_label_s = nodes.select(F.col("label").alias("s"), F.col("id").alias("src"))
    by_label_d = nodes.select(F.col("label").alias("d"), F.col("id").alias("dst"))
    dense = edges.join(by_label_s, "s").join(by_label_d, "d").select("src", "dst", "w")
    arcs = kept(merged_arcs(dense, directed, "min"), "src")
    facts = arcs.agg(F.count(F.lit(1)).alias("m"), F.min("weight").alias("w")).collect()[0]
    return SparkEdgeGraph(
        spark=spark,
        arcs=arcs,
        nodes=nodes,
        num_nodes=n,
        num_arcs=int(facts["m"]),
        directed=directed,
        weighted=has_weight,
        min_weight=None if facts["w"] is None else float(facts["w"]),
        label_type=id_type,
        identity_labels=bool(identity),
        path=path,
        edges=dense,
    )


def merged_arcs(dense: Any, directed: bool, how: str) -> Any:
    """Arcs (src, dst, weight) of edges (src, dst, w) with parallel edges merged by ``how`` (min or sum);
    undirected: ``(u, v)`` and ``(v, u)`` are one edge, stored as two arcs (a self-loop once)."""
    from pyspark.sql import functions as F

    merge = {"min": F.min, "sum": F.sum}[how]
    if directed:
        return dense.groupBy("src", "dst").agg(merge("w").alias("weight"))
    lo, hi = F.least("src", "dst"), F.greatest("src", "dst")
    merged = dense.groupBy(lo.alias("a"), hi.alias("b")).agg(merge("w").alias("weight"))
    return merged.select(F.col("a").alias("src"), F.col("b").alias("dst"), "weight").unionByName(
        merged.filter(F.col("a") != F.col("b")).select(F.col("b").alias("src"), F.col("a").alias("dst"), "weight")
    )


def _numbered(ids: Any) -> tuple[Any, int, Any, Any]:
    """``ids`` (one ``label`` column, distinct) with ``id`` = the label's rank in sorted order, 0..n-1 (persisted),
    and the node count, the smallest and the largest label.

    All in the JVM, in two passes: a global sort by label, where each row's
    ``monotonically_increasing_id`` is its partition number in the upper bits
    and its position inside the partition in the lower 33; then one count per
    partition (a few rows to the driver) gives each partition's first rank.
    """
    from pyspark.sql import functions as F

    low = (1 << 33) - 1
    ranked = ids.orderBy("label").select(
        "label",
        F.shiftright(F.monotonically_increasing_id(), 33).alias("_part"),
        F.monotonically_increasing_id().bitwiseAND(F.lit(low)).alias("_pos"),
    ).persist()  # the ids must not be drawn twice
    parts = ranked.groupBy("_part").agg(F.count(F.lit(1)), F.min("label"), F.max("label")).collect()
    counts = sorted((r[0], r[1]) for r in parts)
    starts, total = [], 0
    for part, count in counts:
        starts.append((part, total))
        total += count
    lo = min((r[2] for r in parts), default=None)
    hi = max((r[3] for r in parts), default=None)
    first = ranked.sparkSession.createDataFrame(starts, schema="_part long, _start long")
    nodes = ranked.join(F.broadcast(first), "_part").select("label", (F.col("_start") + F.col("_pos")).alias("id"))
    nodes = kept(nodes)
    nodes.count()
    ranked.unpersist()
    return nodes, total, lo, hi


def _id_type(raw: Any, src: str, dst: str, types: dict[str, str]) -> str:
    """``long`` when both id columns are integers (or integer text everywhere), else ``string``."""
    from pyspark.sql import functions as F

    kinds = {types[src], types[dst]}
    if kinds <= {"int", "bigint", "smallint", "tinyint"}:
        return "long"
    if kinds <= {"string"}:
        digits = f"^{INTEGER_ID}$"
        row = raw.agg(
            F.sum((~F.col(src).rlike(digits) | ~F.col(dst).rlike(digits)).cast("int")).alias("text")
        ).collect()[0]
        return "long" if not row["text"] else "string"
    if kinds & {"double", "float"} or any(k.startswith("decimal") for k in kinds):
        whole = raw.agg(
            F.sum(((F.col(src) != F.floor(src)) | (F.col(dst) != F.floor(dst))).cast("int")).alias("frac")
        ).collect()[0]
        if whole["frac"]:
            raise EdgeDatasetError(f"node ids in {src}/{dst} must be integers or strings, not fractions")
        return "long"
    return "string"


def _first_line(exc: Exception) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__

