"""``graphreason vertex``: one GAR library algorithm on an edge dataset, compiled or on Spark (no LLM).

    graphreason vertex --edges edges.parquet --algorithm shortest_path --param source=3 --param target=9
    graphreason vertex --edges s3a://lake/web/edges --algorithm pagerank --engine spark \\
        --spark-master spark://head:7077 --spark-conf spark.executor.memory=8g

The dataset holds columns ``src``, ``dst`` and optionally ``weight`` (Parquet or
CSV, any filesystem Spark reads). The rounds are printed as they finish; the
answer is given in the dataset's own node ids.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from graphreason.cli.options import positive

# graphreason.tools.gar.datasets.ENGINES (not imported here: `graphreason --help` imports no numpy)
ENGINES = ("auto", "compiled", "spark")


def add_vertex_parser(subparsers: argparse._SubParsersAction) -> None:
    """Register ``vertex`` on the top-level sub-command parsers."""
    vertex = subparsers.add_parser(
        "vertex",
        help="one GAR library algorithm on an edge dataset (Parquet/CSV, local or a data lake), compiled or on Spark",
    )
    vertex.add_argument("--edges", required=True, help="edge dataset: a path or URI (file, hdfs://, s3a://)")
    vertex.add_argument("--algorithm", required=True, help="library algorithm, e.g. shortest_path, pagerank")
    vertex.add_argument(
        "--param", action="append", default=[], metavar="KEY=VALUE",
        help="an algorithm parameter (repeatable), e.g. source=3; node ids as in the dataset",
    )  # fmt: skip
    vertex.add_argument("--directed", action="store_true", help="read src -> dst as arcs (default: undirected)")
    vertex.add_argument("--format", choices=("parquet", "csv"), default=None, help="default: from the path")
    vertex.add_argument(
        "--engine", choices=ENGINES, default="auto",
        help="compiled: numpy in this process; spark: Pregel on Spark DataFrames; auto (default): Spark for a "
        "remote or Parquet dataset or a CSV too large for this process's available memory",
    )  # fmt: skip
    vertex.add_argument(
        "--spark-master", default="local[*]",
        help="Spark master URL: local[*] (default), spark://host:7077, yarn, k8s://https://host:443",
    )  # fmt: skip
    vertex.add_argument(
        "--spark-conf", action="append", default=[], metavar="KEY=VALUE",
        help="extra spark.* setting (repeatable), e.g. spark.executor.memory=8g",
    )  # fmt: skip
    vertex.add_argument("--spark-ui", action="store_true", help="start the Spark web UI and print its address")
    vertex.add_argument(
        "--checkpoint-dir", default=None,
        help="Spark: folder of reliable checkpoints every executor reaches (hdfs://, s3a://, NFS; default: the cache's)",
    )  # fmt: skip
    vertex.add_argument(
        "--checkpoint-interval", type=int, default=None,
        help="Spark: supersteps between reliable checkpoints (0: in-memory cuts; default 0 locally, 10 on a cluster)",
    )  # fmt: skip
    vertex.add_argument(
        "--results-dir", default=None,
        help="Spark: where answers that map every node are written as Parquet (default: the cache's gar-results)",
    )  # fmt: skip
    vertex.add_argument("--max-rounds", type=positive, default=None, help="round cap (default: the algorithm's)")
    vertex.add_argument("--json", action="store_true", help="print the result as JSON")
    vertex.set_defaults(handler=cmd_vertex)


def _params(items: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"--param must read KEY=VALUE, got {item!r}")
        text = value.strip()
        try:
            out[key.strip()] = json.loads(text)  # numbers, true/false
        except ValueError:
            out[key.strip()] = text  # a string node id
    return out


def cmd_vertex(args: argparse.Namespace) -> int:
    from graphreason.tools.core.jsonable import jsonable
    from graphreason.tools.gar.datasets import choose_engine, identity_labels, read_edge_csv, relabel
    from graphreason.tools.gar.vertex import RoundInfo, get_algorithm, run

    params = _params(args.param)
    algorithm = get_algorithm(args.algorithm)
    engine, why = choose_engine(args.edges, args.engine, args.format)
    out = sys.stdout

    def progress(info: RoundInfo) -> None:
        if not args.json:
            print(
                f"     round {info.round}: {info.active} active, {info.messages} messages, "
                f"{info.changed} changed ({info.seconds:.2f} s)", file=out, flush=True,
            )  # fmt: skip

    if not args.json:
        print(f"    engine: {engine} ({why})", file=out)
    if engine == "compiled":
        graph = read_edge_csv(args.edges, directed=args.directed, parallel="sum" if algorithm.name == "max_flow" else "min")
        index = {label: i for i, label in enumerate(graph.labels)}
        for key in ("source", "target", "node"):  # node parameters name dataset ids, as on Spark
            if params.get(key) is not None:
                if params[key] not in index:
                    raise ValueError(f"the {key} {params[key]!r} is not a node of {args.edges}")
                params[key] = index[params[key]]
        result = run(algorithm, graph, params, max_rounds=args.max_rounds, on_round=progress)
        output = result.output if identity_labels(graph.labels) else relabel(algorithm.name, result.output, graph.labels)
    else:
        from graphreason.tools.gar.spark.edges import load_edges
        from graphreason.tools.gar.spark.pregel import run_spark, spark_support
        from graphreason.tools.gar.spark.session import (
            SparkSettings,
            get_session,
            parse_conf,
            run_info,
            ui_url,
        )

        reason = spark_support(algorithm)
        if reason is not None:
            raise ValueError(reason)
        conf = parse_conf(args.spark_conf)
        settings = SparkSettings(
            master=args.spark_master, conf=conf, ui=args.spark_ui, checkpoint_dir=args.checkpoint_dir,
            checkpoint_interval=args.checkpoint_interval,
        )  # fmt: skip
        get_session(settings)
        spark_info = run_info()
        if not args.json:
            print(f"     spark: application {spark_info['application_id']} on {spark_info['master']}", file=out)
            if ui_url():
                print(f"  Spark UI: {ui_url()}", file=out)
            if spark_info.get("event_log"):
                print(f" event log: {spark_info['event_log']}", file=out)
        graph = load_edges(get_session(settings), args.edges, directed=args.directed, fmt=args.format)
        if not args.json:
            kind = "directed" if graph.directed else "undirected"
            print(f"     graph: {graph.num_nodes} nodes, {graph.num_arcs} arcs ({kind})", file=out)
        result = run_spark(
            algorithm, graph, params, max_rounds=args.max_rounds, on_round=progress, results_dir=args.results_dir
        )
        output = result.output
    summary = {
        "algorithm": result.algorithm,
        "engine": engine,
        "answer": jsonable(output.get("answer"), limit=1000, int_floats=True),
        "text": output.get("text", ""),
        "rounds": result.rounds,
        "stop_reason": result.stop_reason,
        "complete": result.complete,
        "seconds": round(result.seconds, 3),
    }
    if engine != "compiled":
        summary["spark"] = spark_info
    if args.json:
        print(json.dumps(summary, ensure_ascii=False), file=out)
    else:
        print(f"    answer: {summary['text']}", file=out)
        print(f"({result.rounds} round(s), stopped: {result.stop_reason}, {result.seconds:.2f} s)", file=out)
    return 0

