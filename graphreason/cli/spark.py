"""``graphreason spark up | down | status``: a Spark standalone cluster on this machine for GAR's Spark engine.

    graphreason spark up --workers 2 --cores 1 --memory 2g   # a master and two worker JVMs; prints the master URL
    graphreason vertex --edges edges.parquet --algorithm pagerank --engine spark --spark-master spark://127.0.0.1:PORT
    graphreason spark down

The JVMs come from the installed pyspark (``pip install -e '.[spark]'``) and need
Java 17 or 21; their logs and work folders are under the cache
(``spark-cluster/<name>``).
"""

from __future__ import annotations

import argparse
import json
import sys

from graphreason.cli.options import positive


def add_spark_parser(subparsers: argparse._SubParsersAction) -> None:
    """Register ``spark`` (up, down, status) on the top-level sub-command parsers."""
    spark = subparsers.add_parser("spark", help="start, stop or show a local Spark standalone cluster for GAR")
    actions = spark.add_subparsers(dest="action", required=True)
    up = actions.add_parser("up", help="start a master and worker JVMs; wait until every worker has registered")
    up.add_argument("--workers", type=positive, default=2, help="worker JVMs (default 2)")
    up.add_argument("--cores", type=positive, default=1, help="cores each worker offers (default 1)")
    up.add_argument("--memory", default="1g", help="memory each worker offers its executor, e.g. 1g or 512m (default 1g)")
    up.add_argument(
        "--host", default="127.0.0.1",
        help="address the master and workers bind to (default 127.0.0.1; another address lets other machines join)",
    )  # fmt: skip
    up.add_argument("--port", type=int, default=0, help="the master's port (default: a free one)")
    up.add_argument("--ui-port", type=int, default=0, help="the master's web UI port (default: a free one)")
    for action in (up, actions.add_parser("down", help="stop the cluster's JVMs"),
                   actions.add_parser("status", help="the cluster's master URL, web UI and live workers")):  # fmt: skip
        action.add_argument("--name", default="local", help="which cluster (default: local)")
        action.add_argument("--json", action="store_true", help="print JSON")
    spark.set_defaults(handler=cmd_spark)


def cmd_spark(args: argparse.Namespace) -> int:
    from dataclasses import asdict

    from graphreason.tools.gar.spark.cluster import ClusterSpec, read_cluster, start_cluster, stop_cluster

    out = sys.stdout
    if args.action == "up":
        spec = ClusterSpec(
            workers=args.workers, cores=args.cores, memory=args.memory, host=args.host, port=args.port,
            ui_port=args.ui_port,
        )  # fmt: skip
        cluster = start_cluster(spec, name=args.name)
        if args.json:
            print(json.dumps(asdict(cluster)), file=out)
            return 0
        print(f"Spark master  {cluster.master_url}", file=out)
        print(f"web UI        {cluster.ui_url}", file=out)
        print(f"workers       {cluster.workers} x {args.cores} core(s), {args.memory} each, all registered", file=out)
        print(f"logs          {cluster.folder}/logs", file=out)
        print(f"use it with   --engine spark --spark-master {cluster.master_url}", file=out)
        return 0
    if args.action == "down":
        stopped = stop_cluster(args.name)
        if args.json:
            print(json.dumps({"stopped": stopped}), file=out)
        else:
            print(f"stopped {len(stopped)} JVM(s)" if stopped else f"no cluster {args.name!r} is up", file=out)
        return 0
    cluster = read_cluster(args.name)
    if cluster is None:
        print(json.dumps({"up": False}) if args.json else f"no cluster {args.name!r} is up", file=out)
        return 1
    try:
        alive = cluster.alive_workers()
    except OSError:
        alive = None
    state = {**asdict(cluster), "up": alive is not None, "alive_workers": alive}
    if args.json:
        print(json.dumps(state), file=out)
    elif alive is None:
        print(f"cluster {args.name!r} is recorded but its master does not answer at {cluster.ui_url}", file=out)
    else:
        print(f"{cluster.master_url}: {alive} of {cluster.workers} workers alive (web UI {cluster.ui_url})", file=out)
    return 0 if alive is not None else 1
