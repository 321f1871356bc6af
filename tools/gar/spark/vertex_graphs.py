"""A graph already in memory (:class:`VertexGraph`) as a Spark graph, for ``engine=spark`` on parsed problems."""

from __future__ import annotations

from typing import Any

from graphreason.tools.gar.spark.edges import SparkEdgeGraph
from graphreason.tools.gar.vertex.graph import VertexGraph


def from_vertex_graph(spark: Any, graph: VertexGraph) -> SparkEdgeGraph:
    """The same simple graph on Spark: its arcs as stored (already merged), every node (isolated ones too)."""
    out = graph.out
    rows = zip(out.src.tolist(), out.indices.tolist(), out.weights.astype(float).tolist(), strict=True)
    arcs = spark.createDataFrame(list(rows), schema="src long, dst long, weight double")
    arcs = arcs.repartition("src").persist()
    from pyspark.sql import functions as F

    nodes = spark.range(graph.num_nodes).select("id", F.col("id").alias("label"))
    if graph.node_weights is not None:
        rows = list(enumerate(graph.node_weights.astype(float).tolist()))
        weights = spark.createDataFrame(rows, schema="id long, weight double")
        nodes = nodes.join(weights, "id", "left")
    nodes = nodes.persist()
    weights = out.weights
    return SparkEdgeGraph(
        spark=spark,
        arcs=arcs,
        nodes=nodes,
        num_nodes=graph.num_nodes,
        num_arcs=graph.num_arcs,
        directed=graph.directed,
        weighted=graph.weighted,
        min_weight=float(weights.min()) if weights.size else None,
        label_type="long",
        identity_labels=True,
        names=graph.labels,
        has_node_weights=graph.node_weights is not None,
        in_memory=True,
    )
