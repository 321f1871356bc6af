"""The Result part of a Spark run on an edge dataset, computed where the data is: nothing per node reaches the driver.

On a graph given in memory, :func:`graphreason.tools.gar.spark.pregel.run_spark`
collects the kernel's fields (the driver holds the graph anyway) and the
algorithm's own ``result`` words the answer, exactly as the compiled engine
does. An edge dataset may be far larger than the driver, so its answers are
made here instead, from the final state table:

* an answer that maps every node (distances, hop levels, components, degrees,
  PageRank scores, a topological order, a colouring, large neighbourhoods) is
  **written** as Parquet with two columns, ``id`` (the dataset's node id) and
  ``value``, to a run folder; the answer is a summary (counts, the top few, the
  value at the question's nodes) that names the folder;
* an answer about a few nodes (one distance and its path, yes/no with a path,
  a node's degree or component size, the PageRank top k, a max-flow value) is
  read with small jobs and given directly, as on the compiled engine.

The driver receives only the summary rows: a few per question, never n.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from graphreason.tools.gar.results import run_folder
from graphreason.tools.gar.spark.edges import SparkEdgeGraph
from graphreason.tools.gar.vertex.graph import VertexProgramError
from graphreason.tools.gar.vertex.traversal import as_number

FEW = 1000  # node lists up to this long are answered directly; longer ones are written
TOP = 5  # how many extremes a written answer's summary names
PATH_HOPS = 10_000  # a path longer than this is given by its length only (one lookup job per hop)


@dataclass
class DatasetAnswer:
    """The final state of one run (a table: id, the graph facts, the kernel's fields) and what answers read of it."""

    graph: SparkEdgeGraph
    state: Any
    algorithm: str
    results_dir: str | None = None
    _folder: str | None = field(default=None, repr=False)
    _labels: dict[int, Any] = field(default_factory=dict, repr=False)

    # ----------------------------------------------------------------- small reads
    def at(self, node: int, *columns: str) -> Any:
        """The row of ``columns`` of dense id ``node`` (one small job)."""
        from pyspark.sql import functions as F

        rows = self.state.filter(F.col("id") == F.lit(int(node))).select(*columns).limit(1).collect()
        if not rows:
            raise VertexProgramError(f"no node {node} in this graph ({self.graph.num_nodes} nodes)")
        return rows[0]

    def count(self, condition: Any) -> int:
        return int(self.state.filter(condition).count())

    def label(self, node: int) -> Any:
        return self.labels([node])[0]

    def labels(self, nodes: list[int]) -> list[Any]:
        """The dataset ids of a few dense ids (one job for those not looked up yet)."""
        from pyspark.sql import functions as F

        if self.graph.identity_labels:
            return [int(v) for v in nodes]
        missing = sorted({int(v) for v in nodes} - set(self._labels))
        if missing:
            for row in self.graph.nodes.filter(F.col("id").isin(missing)).select("id", "label").collect():
                self._labels[int(row[0])] = row[1]
        return [self._labels[int(v)] for v in nodes]

    def walk(self, parent: str, source: int, target: int) -> list[Any] | None:
        """The path source .. target along the ``parent`` pointers, in dataset ids (one job per hop); None when
        longer than :data:`PATH_HOPS`."""
        from pyspark.sql import functions as F

        path, node = [int(target)], int(target)
        pointers = self.state.select("id", parent)
        while node != source:
            if len(path) > PATH_HOPS:
                return None
            node = int(pointers.filter(F.col("id") == F.lit(node)).collect()[0][1])
            if node < 0:
                raise VertexProgramError(f"the parent pointers do not lead from node {target} back to {source}")
            path.append(node)
        return self.labels(path[::-1])

    def first(self, condition: Any, order: list[Any], limit: int, value: str | None = None) -> list[tuple[Any, Any]]:
        """(dataset id, value) of the first ``limit`` rows meeting ``condition`` in ``order``."""
        cols = ["id"] + ([value] if value else [])
        rows = self.state.filter(condition).orderBy(*order).select(*cols).limit(limit).collect()
        labels = self.labels([int(r[0]) for r in rows])
        return [(lab, as_number(r[1]) if value else None) for lab, r in zip(labels, rows, strict=True)]

    # ----------------------------------------------------------------- written answers
    def folder(self) -> str:
        """This run's folder of written answers (named once, created by the first write)."""
        if self._folder is None:
            self._folder = run_folder(self.algorithm, self.results_dir)
        return self._folder

    def write(self, name: str, condition: Any, value: Any) -> dict[str, Any]:
        """Write (id, value) of the rows meeting ``condition`` as Parquet; the file's description."""
        from pyspark.sql import functions as F

        rows = self.state.filter(condition).select("id", value.alias("value"))
        if not self.graph.identity_labels:
            rows = rows.join(self.graph.nodes.select("id", "label"), "id").select(F.col("label").alias("id"), "value")
        path = f"{self.folder()}/{name}.parquet"
        rows.write.mode("errorifexists").parquet(path)
        shown = path[5:] if path.startswith("file:") else path
        return {"file": shown, "columns": ["id", "value"], "value": name}


def dataset_result(algorithm: Any, answer: DatasetAnswer, params: dict[str, Any], totals: dict[str, Any]) -> dict[str, Any]:
    """The answer of ``algorithm``'s run on a dataset, in the dataset's node ids (see the module doc)."""
    handler = _HANDLERS.get(algorithm.name)
    if handler is None:
        raise VertexProgramError(f"{algorithm.name} has no answer for an edge dataset on Spark; use a graph file")
    return handler(answer, params, totals)


def _distances(a: DatasetAnswer, params: dict[str, Any], field_: str, reached: Any, kind: str) -> dict[str, Any]:
    """shortest_path / bfs_levels: one target (value and path) or every reachable node (written)."""
    from pyspark.sql import functions as F

    s, t = params["source"], params.get("target")
    source = a.label(s)
    value = F.col(field_)
    if t is not None:
        target = a.label(t)
        got = a.at(t, field_)[0]
        if not _reached(got, kind):
            return {"answer": None, "path": None, "text": f"There is no path from node {source} to node {target}."}
        path = a.walk("parent", s, t)
        shown = f": {path}" if path is not None else f" (over {PATH_HOPS} hops; not listed)"
        number = as_number(got)
        what = "has weight" if kind == "distance" else "is"
        unit = "" if kind == "distance" else " hops"
        return {
            "answer": number, "path": path,
            "text": f"The shortest path from node {source} to node {target} {what} {number}{unit}{shown}.",
        }  # fmt: skip
    n_reached = a.count(reached)
    written = a.write(kind, reached, value)
    far = a.first(reached, [value.desc(), F.col("id")], TOP, field_)
    summary = {**written, "rows": n_reached, "nodes": a.graph.num_nodes, "source": source, "farthest": far}
    text = (
        f"{n_reached} of {a.graph.num_nodes} nodes are reachable from node {source}; every {kind} is written to "
        f"{written['file']} (id, value). Farthest: "
        + ", ".join(f"{node} ({v})" for node, v in far)
        + "."
    )
    return {"answer": summary, "reached": n_reached, "text": text}


def _reached(value: Any, kind: str) -> bool:
    return value is not None and (value >= 0 if kind == "level" else value != float("inf"))


def _shortest_path(a: DatasetAnswer, params: dict[str, Any], totals: dict[str, Any]) -> dict[str, Any]:
    from pyspark.sql import functions as F

    return _distances(a, params, "distance", F.col("distance") < F.lit(float("inf")), "distance")


def _bfs_levels(a: DatasetAnswer, params: dict[str, Any], totals: dict[str, Any]) -> dict[str, Any]:
    from pyspark.sql import functions as F

    return _distances(a, params, "level", F.col("level") >= 0, "level")


def _connectivity(a: DatasetAnswer, params: dict[str, Any], totals: dict[str, Any]) -> dict[str, Any]:
    s, t = params["source"], params["target"]
    source, target = a.label(s), a.label(t)
    if a.at(t, "level")[0] < 0:
        return {"answer": False, "path": None, "text": f"No, there is no path from node {source} to node {target}."}
    path = a.walk("parent", s, t)
    return {"answer": True, "path": path, "text": f"Yes, node {source} and node {target} are connected (path {path})."}


def _neighbourhood(a: DatasetAnswer, params: dict[str, Any], totals: dict[str, Any]) -> dict[str, Any]:
    from pyspark.sql import functions as F

    hops, node = params["max_hops"], a.label(params["source"])
    within = (F.col("level") > 0) & (F.col("level") <= hops)
    per_hop = {int(r[0]): int(r[1]) for r in a.state.filter(within).groupBy("level").count().collect()}
    total = sum(per_hop.values())
    if total <= FEW:
        rows = a.first(within, [F.col("id")], FEW, "level")
        nodes = [lab for lab, _ in rows]
        by_hop = {h: [lab for lab, lv in rows if lv == h] for h in range(1, min(hops, a.graph.num_nodes) + 1)}
        return {
            "answer": nodes, "by_hop": by_hop,
            "text": f"Node {node} has {total} nodes within {hops} hop(s): {nodes[:50]}" + (" ..." if total > 50 else ""),
        }  # fmt: skip
    written = a.write("hop", within, F.col("level"))
    summary = {**written, "rows": total, "per_hop": dict(sorted(per_hop.items()))}
    return {
        "answer": summary,
        "text": f"Node {node} has {total} nodes within {hops} hop(s) ({', '.join(f'{c} at hop {h}' for h, c in sorted(per_hop.items()))}); "
        f"they are written to {written['file']} (id, hop).",
    }


def _degree(a: DatasetAnswer, params: dict[str, Any], totals: dict[str, Any]) -> dict[str, Any]:
    from pyspark.sql import functions as F

    directed = a.graph.directed
    total = F.col("out_degree") + F.col("in_degree") if directed else F.col("in_degree") + F.col("self_loop").cast("long")
    node = params.get("node")
    if node is not None:
        row = a.at(node, "out_degree", "in_degree", "self_loop")
        label = a.label(node)
        if directed:
            out_d, in_d = int(row[0]), int(row[1])
            return {
                "answer": out_d + in_d, "in_degree": in_d, "out_degree": out_d,
                "text": f"Node {label} has in-degree {in_d} and out-degree {out_d}.",
            }  # fmt: skip
        degree = int(row[1]) + int(bool(row[2]))
        return {"answer": degree, "text": f"Node {label} has degree {degree}."}
    with_total = a.state.withColumn("_degree", total)
    a.state = with_total
    written = a.write("degree", F.lit(True), F.col("_degree"))
    stats = with_total.agg(F.max("_degree"), F.avg("_degree")).collect()[0]
    top = a.first(F.lit(True), [F.col("_degree").desc(), F.col("id")], TOP, "_degree")
    summary = {**written, "rows": a.graph.num_nodes, "max": int(stats[0]), "mean": float(stats[1]), "top": top}
    return {
        "answer": summary,
        "text": f"Maximum {'total ' if directed else ''}degree {int(stats[0])} at node {top[0][0]} (mean "
        f"{float(stats[1]):.3g}); every node's degree is written to {written['file']} (id, value).",
    }


def _components(a: DatasetAnswer, params: dict[str, Any], totals: dict[str, Any]) -> dict[str, Any]:
    from pyspark.sql import functions as F

    sizes = a.state.groupBy("label").count()
    count = int(sizes.count())
    largest = sizes.orderBy(F.col("count").desc(), F.col("label")).limit(TOP).collect()
    roots = a.labels([int(r[0]) for r in largest])
    named = a.state.select("id", F.col("label").alias("_root"), F.col("label").alias("_root_id"))
    if not a.graph.identity_labels:  # a component is named by its smallest node, in dataset ids
        named = named.join(
            a.graph.nodes.select(F.col("id").alias("_root"), F.col("label").alias("_root_label")), "_root"
        ).select("id", F.col("_root_label").alias("_root"), "_root_id")
    a.state = named
    written = a.write("component", F.lit(True), F.col("_root"))
    summary = {
        **written, "rows": a.graph.num_nodes, "components": count,
        "largest": [{"component": root, "size": int(r[1])} for root, r in zip(roots, largest, strict=True)],
    }  # fmt: skip
    out: dict[str, Any] = {"answer": count, "sizes_top": [int(r[1]) for r in largest], "written": summary}
    where = f"every node's component (its smallest node id) is written to {written['file']}"
    node = params.get("node")
    if node is not None:
        root = int(a.at(node, "_root_id")[0])
        size = int(sizes.filter(F.col("label") == F.lit(root)).collect()[0][1])
        out["component_size_of_node"] = size
        out["text"] = f"The graph has {count} components; node {a.label(node)} is in one of {size} nodes; {where}."
    else:
        out["text"] = f"The graph has {count} connected components (largest: {int(largest[0][1])} nodes); {where}."
    return out


def _pagerank(a: DatasetAnswer, params: dict[str, Any], totals: dict[str, Any]) -> dict[str, Any]:
    from pyspark.sql import functions as F

    top = a.first(F.lit(True), [F.col("rank").desc(), F.col("id")], params["top_k"], "rank")
    written = a.write("rank", F.lit(True), F.col("rank"))
    names = [node for node, _ in top]
    converged = bool(totals["change"] < a.graph.num_nodes * params["tol"])
    return {
        "answer": names,
        "top_scores": [score for _, score in top],
        "converged": converged,
        "written": {**written, "rows": a.graph.num_nodes},
        "text": f"The {len(names)} most important nodes by PageRank (damping {params['damping']}), most important "
        f"first: {', '.join(str(n) for n in names)}; every node's score is written to {written['file']}.",
    }


def _listed(a: DatasetAnswer, condition: Any, name: str, value: Any) -> tuple[int, list[Any], dict[str, Any] | None]:
    """(how many rows meet ``condition``, their ids: all of them up to FEW, else the first 20 as examples, and
    the written file when there are more than FEW)."""
    from pyspark.sql import functions as F

    count = a.count(condition)
    first = [node for node, _ in a.first(condition, [F.col("id")], count if count <= FEW else 20)] if count else []
    written = a.write(name, condition, value) if count > FEW else None
    return count, first, written


def _cycle_detection(a: DatasetAnswer, params: dict[str, Any], totals: dict[str, Any]) -> dict[str, Any]:
    from pyspark.sql import functions as F

    count, first, written = _listed(a, ~F.col("removed"), "unremovable", F.lit(True))
    if not count:
        return {"answer": False, "unremovable": [], "text": "No, the graph has no cycle."}
    where = f"; they are written to {written['file']}" if written else ""
    return {
        "answer": True, "unremovable": first if not written else written,
        "text": f"Yes, there is a cycle (it lies among the {count} nodes that could not be removed{where}).",
    }  # fmt: skip


def _topological_sort(a: DatasetAnswer, params: dict[str, Any], totals: dict[str, Any]) -> dict[str, Any]:
    from pyspark.sql import functions as F

    count, first, written = _listed(a, F.col("level") < 0, "unplaced", F.lit(True))
    if count:
        return {
            "answer": None, "has_cycle": True, "unplaced": first if not written else written,
            "text": f"No topological order exists: {count} nodes lie on or behind a cycle, e.g. {first[:20]}.",
        }  # fmt: skip
    n = a.graph.num_nodes
    if n <= FEW:
        order = [node for node, _ in a.first(F.lit(True), [F.col("level"), F.col("id")], n)]
        return {"answer": order, "has_cycle": False, "text": f"A topological order: {order}."}
    head = [node for node, _ in a.first(F.lit(True), [F.col("level"), F.col("id")], 20)]
    levels = int(a.state.agg(F.max("level")).collect()[0][0]) + 1
    written = a.write("level", F.lit(True), F.col("level"))
    return {
        "answer": {**written, "rows": n, "levels": levels, "first": head, "order": "by value, then by id"},
        "has_cycle": False,
        "text": f"A topological order of the {n} nodes in {levels} levels: listing the nodes by level, ties by id, "
        f"is an order; the levels are written to {written['file']}. It starts {head}.",
    }


def _bipartiteness(a: DatasetAnswer, params: dict[str, Any], totals: dict[str, Any]) -> dict[str, Any]:
    from pyspark.sql import functions as F

    if a.count(F.col("conflict")):
        return {
            "answer": False, "colouring": None,
            "text": "No, the graph is not bipartite (some odd cycle forces two neighbours to share a colour).",
        }  # fmt: skip
    side = [node for node, _ in a.first(F.col("colour") == 0, [F.col("id")], 31)]
    written = a.write("colour", F.lit(True), F.col("colour"))
    return {
        "answer": True, "colouring": {**written, "rows": a.graph.num_nodes},
        "text": f"Yes, the graph is bipartite; one side is {side[:30]}" + (" ..." if len(side) > 30 else "")
        + f"; every node's side (0 or 1) is written to {written['file']}.",
    }  # fmt: skip


_HANDLERS = {
    "shortest_path": _shortest_path,
    "bfs_levels": _bfs_levels,
    "connectivity": _connectivity,
    "neighbourhood": _neighbourhood,
    "degree": _degree,
    "connected_components": _components,
    "pagerank": _pagerank,
    "cycle_detection": _cycle_detection,
    "topological_sort": _topological_sort,
    "bipartiteness": _bipartiteness,
}
