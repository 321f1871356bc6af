"""GAR's two executors of one kernel: compiled (numpy) against Spark, on generated edge datasets.

    python benchmarks/bench_gar_spark.py [--edges 10000 100000 1000000]  (default: 10^4 and 10^5) [--algorithm shortest_path]
        [--master local[2]] [--engines compiled spark]
    python benchmarks/bench_gar_spark.py --equality [--seeds 5]     # answers on random graphs, every algorithm Spark runs
    python benchmarks/bench_gar_spark.py --edges 10000000 --memory-limit 2048   # each engine under a memory cap

Each (engine, size) runs in its own process under ``/usr/bin/time``; the peak
memory printed is that process's peak RSS, plus for Spark the JVM's own peak
(``VmHWM``; in local mode the JVM is driver and executor at once). Graphs are
random, directed, with uniform weights in [1, 100) and about 5 arcs per node,
written once as CSV under ``--work``. Times: loading (read + build), the
algorithm's run, its rounds, and the mean time of one superstep. The machine's
load average is printed: other jobs beside it make every figure worse.

``--memory-limit MB`` caps each engine: the compiled process's address space
(``ulimit -v``; its reader refuses a file it would run out of memory on before
reading it) and the Spark driver's heap (``spark.driver.memory``; in local mode
the driver is also the executor, and the JVM's peak RSS, printed, is above its heap).

Spark is for graphs that do not fit one machine, not for speed on small ones: a
Spark superstep costs at least a few hundred milliseconds of job scheduling
however small the graph.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np


def write_graph(folder: Path, m: int, seed: int = 0) -> Path:
    path = folder / f"edges-{m}.csv"
    if path.exists():
        return path
    rng = np.random.default_rng(seed)
    n = max(2, m // 5)
    src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
    w = rng.integers(1, 100, m)
    with open(path, "w", encoding="utf-8") as out:
        out.write("src,dst,weight\n")
        np.savetxt(out, np.column_stack([src, dst, w]), fmt="%d", delimiter=",")
    return path


def one(engine: str, path: str, algorithm: str, master: str, limit_mb: int | None = None) -> dict:
    """Run inside the measured child: load, run, report."""
    from graphreason.tools.gar.datasets import read_edge_csv
    from graphreason.tools.gar.vertex import get_algorithm, run

    params = {"source": 0} if algorithm in ("shortest_path", "bfs_levels") else {}
    t0 = time.perf_counter()
    jvm_peak_kb = 0
    if engine == "compiled":
        graph = read_edge_csv(path, directed=True)
        loaded = time.perf_counter() - t0
        result = run(get_algorithm(algorithm), graph, params)
        nodes, arcs = graph.num_nodes, graph.num_arcs
    else:
        from graphreason.tools.gar.spark.edges import load_edges
        from graphreason.tools.gar.spark.pregel import run_spark
        from graphreason.tools.gar.spark.session import SparkSettings, get_session

        conf = {"spark.driver.memory": f"{limit_mb}m"} if limit_mb else {}
        spark = get_session(SparkSettings(master=master, conf=conf))
        started = time.perf_counter() - t0
        graph = load_edges(spark, path, directed=True)
        graph.facts().count()
        loaded = time.perf_counter() - t0 - started
        result = run_spark(get_algorithm(algorithm), graph, params)
        nodes, arcs = graph.num_nodes, graph.num_arcs
        jvm_peak_kb = _peak_kb(spark.sparkContext._gateway.proc.pid)
    steps = [r.seconds for r in result.trace]
    answer = result.answer
    digest = None
    if algorithm == "shortest_path":
        dist = result.state["distance"]
        digest = float(np.sum(dist[np.isfinite(dist)]))
    return {
        "engine": engine,
        "nodes": nodes,
        "arcs": arcs,
        "load_s": round(loaded, 2),
        "run_s": round(result.seconds, 2),
        "rounds": result.rounds,
        "step_mean_s": round(float(np.mean(steps)), 3) if steps else 0.0,
        "step_max_s": round(float(np.max(steps)), 3) if steps else 0.0,
        "answer_digest": digest if digest is not None else str(answer)[:60],
        "jvm_peak_mb": round(jvm_peak_kb / 1024),
    }


def _peak_kb(pid: int) -> int:
    """A live process's peak resident memory (VmHWM), in KiB (the JVM is not a waited-for child)."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def measured(engine: str, path: Path, algorithm: str, master: str, limit_mb: int | None = None) -> dict:
    cmd = ["/usr/bin/time", "-f", "MAXRSS_KB %M", sys.executable, __file__, "--one", engine, str(path),
           "--algorithm", algorithm, "--master", master]  # fmt: skip
    if limit_mb:
        cmd += ["--memory-limit", str(limit_mb)]
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    rss = re.findall(r"MAXRSS_KB (\d+)", proc.stderr)
    lines = [line for line in proc.stdout.splitlines() if line.startswith("{")]
    if proc.returncode != 0 or not lines:
        tail = "\n".join(proc.stderr.strip().splitlines()[-3:])
        return {"engine": engine, "error": f"exit {proc.returncode}: {tail}"}
    out = json.loads(lines[-1])
    python_mb = round(int(rss[-1]) / 1024) if rss else 0
    out["peak_rss_mb"] = python_mb + out.get("jvm_peak_mb", 0)  # Python process + JVM (Spark), each at its peak
    return out


def answers_agree(name: str, a: Any, b: Any, labels: list) -> bool:
    """The compiled run ``a`` (dense ids) and the Spark run ``b`` (dataset ids) give the same answer."""
    if name == "pagerank":
        return bool(np.allclose(a.output["scores"], b.output["scores"], atol=1e-12))
    want = a.answer
    if name == "max_flow":  # the value and the flow on every edge
        flows = [(labels[u], labels[v], f) for u, v, f in a.output["edge_flows"]]
        return want == b.answer and flows == b.output["edge_flows"]
    if isinstance(want, dict):
        want = {labels[k]: v for k, v in want.items()}
    elif isinstance(want, list) and name in ("neighbourhood", "topological_sort"):
        want = [labels[v] for v in want]
    elif isinstance(want, list) and name == "degree":
        want = dict(zip(labels, want, strict=True))
    return want == b.answer


def equality(seeds: int, master: str) -> int:
    """Every library algorithm Spark runs, on random directed and undirected graphs: Spark answer == compiled answer."""
    from graphreason.tools.gar.datasets import read_edge_csv
    from graphreason.tools.gar.spark.edges import load_edges
    from graphreason.tools.gar.spark.pregel import run_spark, spark_support
    from graphreason.tools.gar.spark.session import SparkSettings, get_session
    from graphreason.tools.gar.spark.vertex_graphs import from_vertex_graph
    from graphreason.tools.gar.vertex import ALGORITHMS, VertexGraph, get_algorithm, run

    spark = get_session(SparkSettings(master=master))
    agree = total = 0
    folder = Path(tempfile.mkdtemp())
    for seed in range(seeds):
        for directed in (True, False):
            rng = np.random.default_rng(seed)
            n = int(rng.integers(8, 30))
            m = int(rng.integers(n, 3 * n))
            rows = [(int(rng.integers(0, n)) * 3, int(rng.integers(0, n)) * 3, float(rng.integers(1, 9))) for _ in range(m)]
            rows += [rows[0], (rows[1][0], rows[1][0], 1.0)]
            path = folder / f"g{seed}{directed}.csv"
            path.write_text("src,dst,weight\n" + "".join(f"{u},{v},{w}\n" for u, v, w in rows))
            cg, sg = read_edge_csv(str(path), directed=directed), load_edges(spark, str(path), directed=directed)
            summed = read_edge_csv(str(path), directed=directed, parallel="sum")  # max flow's capacities
            labels = list(cg.labels)
            for name, algorithm in ALGORITHMS.items():
                if spark_support(algorithm) is not None or (name == "topological_sort" and not directed):
                    continue
                p = {"bfs_levels": {"source": labels[0]}, "connectivity": {"source": labels[0], "target": labels[-1]},
                     "neighbourhood": {"node": labels[0], "hops": 2}, "shortest_path": {"source": labels[0]},
                     "pagerank": {"tol": 1e-8}, "max_flow": {"source": labels[0], "target": labels[-1]},
                     }.get(name, {})  # fmt: skip
                pc = {k: labels.index(v) if k in ("source", "target", "node") else v for k, v in p.items()}
                if name == "max_triangle_sum":  # needs node weights: the same graph in memory, with a few tying values
                    weighted = VertexGraph.from_edges(cg.num_nodes, np.array(cg.edge_list(), dtype=float),
                                                      directed=directed, node_weights=rng.integers(1, 6, cg.num_nodes))  # fmt: skip
                    a = run(get_algorithm(name), weighted)
                    b = run_spark(get_algorithm(name), from_vertex_graph(spark, weighted))
                    tri = b.output["triangle"]
                    near = {(x, y) for x, y, _ in weighted.edge_list()}
                    valid = tri is None or all((x, y) in near or (y, x) in near for x, y in
                                               ((tri[0], tri[1]), (tri[1], tri[2]), (tri[0], tri[2])))  # fmt: skip
                    same = a.answer == b.answer and valid
                else:
                    a = run(get_algorithm(name), summed if name == "max_flow" else cg, pc)
                    b = run_spark(get_algorithm(name), sg, p)
                    same = answers_agree(name, a, b, labels)
                total += 1
                agree += same
                if not same:
                    print(f"DIFFERENT seed={seed} directed={directed} {name}: {a.answer!r} vs {b.answer!r}")
            sg.release()
    print(f"Spark and compiled agree on {agree} of {total} (graph, algorithm) runs ({seeds} seeds x 2 kinds)")
    return 0 if agree == total else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    # 10^6 and 10^7 are left out by default: their Spark runs take one and several minutes (see the README)
    parser.add_argument("--edges", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--algorithm", default="shortest_path")
    parser.add_argument("--engines", nargs="+", default=["compiled", "spark"])
    parser.add_argument("--master", default="local[2]")
    parser.add_argument("--work", default=None, help="folder for the generated CSV files (default: a temp folder)")
    parser.add_argument("--equality", action="store_true")
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--memory-limit", type=int, default=None, metavar="MB",
                        help="cap the compiled process's address space and the Spark driver's heap at MB")
    parser.add_argument("--one", nargs=2, metavar=("ENGINE", "PATH"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        if args.memory_limit and args.one[0] == "compiled":
            import resource

            cap = args.memory_limit * 2**20
            resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
        print(json.dumps(one(args.one[0], args.one[1], args.algorithm, args.master, args.memory_limit)), flush=True)
        return 0
    if args.equality:
        return equality(args.seeds, args.master)
    work = Path(args.work or tempfile.mkdtemp())
    work.mkdir(parents=True, exist_ok=True)
    cap = f", memory limit {args.memory_limit} MB" if args.memory_limit else ""
    print(f"algorithm {args.algorithm}, Spark master {args.master}{cap}, load average {os.getloadavg()[0]:.2f}")
    print(f"{'edges':>10} {'engine':>8} {'nodes':>9} {'load s':>7} {'run s':>7} {'rounds':>6} "
          f"{'step s':>7} {'max step':>8} {'peak MB':>8}  answer digest")  # fmt: skip
    for m in args.edges:
        path = write_graph(work, m)
        for engine in args.engines:
            r = measured(engine, path, args.algorithm, args.master, args.memory_limit)
            if "error" in r:
                print(f"{m:>10} {engine:>8} FAILED {r['error']}")
                continue
            print(f"{m:>10} {engine:>8} {r['nodes']:>9} {r['load_s']:>7} {r['run_s']:>7} {r['rounds']:>6} "
                  f"{r['step_mean_s']:>7} {r['step_max_s']:>8} {r['peak_rss_mb']:>8}  {r['answer_digest']}",
                  flush=True)  # fmt: skip
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
