"""GAR on an edge dataset held by Spark (the context's ``dataset``): the session, the loaded graph, the problem.

A dataset is loaded once per process and kept for the next questions (loading
is a few Spark jobs: the checks, the numbering, the arcs); a different dataset,
direction or session replaces it. Questions then run as any other: the master
chooses, and the library's vertex programs run on Spark over the dataset's arcs.
"""

from __future__ import annotations

import threading
from typing import Any

from graphreason.tools.gar.graph_text import GraphTextError
from graphreason.workflows.gar.context import GARContext

_lock = threading.Lock()
_loaded: dict[str, Any] = {}  # "key" -> (path, directed, settings), "graph" -> SparkEdgeGraph


def spark_settings(ctx: GARContext) -> Any:
    """The Spark session settings a context names (unset master: local[*])."""
    from graphreason.tools.gar.spark.session import SparkSettings, parse_conf

    return SparkSettings(
        master=ctx.spark_master or "local[*]",
        conf=parse_conf(ctx.spark_conf),
        checkpoint_dir=ctx.spark_checkpoint_dir,
        checkpoint_interval=ctx.spark_checkpoint_interval,
    )


def check_dataset_settings(ctx: GARContext) -> None:
    """The settings a dataset run cannot have, each with what to do instead."""
    if ctx.engine == "compiled":
        raise GraphTextError(
            "a dataset is read and run on Spark: use engine auto or spark (a graph file that fits in memory "
            "goes as --graph-file with the compiled engine)"
        )
    if ctx.mode == "agents":
        raise GraphTextError("agents mode needs the graph in one process; a dataset runs in compiled mode on Spark")


def load_dataset(ctx: GARContext) -> Any:
    """The context's dataset as a :class:`SparkEdgeGraph` (loaded once per process and settings)."""
    from graphreason.tools.gar.spark.edges import load_edges
    from graphreason.tools.gar.spark.session import get_session

    settings = spark_settings(ctx)
    key = (ctx.edge_dataset, bool(ctx.edge_dataset_directed), settings)
    with _lock:
        if _loaded.get("key") == key:
            return _loaded["graph"]
        spark = get_session(settings)
        graph = load_edges(spark, str(ctx.edge_dataset), directed=bool(ctx.edge_dataset_directed))
        old = _loaded.get("graph")
        if old is not None:
            old.release()
        _loaded.update(key=key, graph=graph)
        return graph


def dataset_question(ctx: GARContext, question: str) -> Any:
    """The :class:`DatasetProblem` of ``question`` about the context's dataset."""
    from graphreason.tools.gar.spark.problem import dataset_problem

    check_dataset_settings(ctx)
    return dataset_problem(load_dataset(ctx), question)
