"""Shortest path with the compiled vertex-program engine vs scipy.sparse.csgraph.

Random directed graphs with ``--degree`` out-edges per node on average and
uniform weights in [1, 100); the engine's distances are checked against
Dijkstra's on every size. Times are the best of ``--repeats`` runs (the
machine may be shared: the load average is printed with every row).

    python benchmarks/bench_vertex_sssp.py [--sizes 1000 10000 100000 1000000] [--degree 5]
Target: engine time within 3x of scipy's dijkstra.
Bellman-Ford (scipy) is O(n m), so it is only timed up to --bellman-ford-max nodes.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable
from functools import partial

import numpy as np
from scipy.sparse.csgraph import bellman_ford, dijkstra

from graphreason.tools.gar.vertex import VertexGraph, get_algorithm, run


def best_of(repeats: int, fn: Callable[[], object]) -> tuple[float, object]:
    best, out = float("inf"), None
    for _ in range(repeats):
        start = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - start)
    return best, out


def random_graph(n: int, degree: float, seed: int, directed: bool) -> VertexGraph:
    rng = np.random.default_rng(seed)
    m = int(n * degree)
    edges = np.column_stack([rng.integers(0, n, m), rng.integers(0, n, m)])
    return VertexGraph.from_edges(n, edges, directed=directed, weights=rng.uniform(1.0, 100.0, m))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000, 10_000, 100_000, 1_000_000])
    parser.add_argument("--degree", type=float, default=5.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--undirected", action="store_true")
    parser.add_argument("--bellman-ford-max", type=int, default=10_000)
    args = parser.parse_args()

    algorithm = get_algorithm("shortest_path")
    print(
        f"cores: {os.cpu_count()}, graph: {'undirected' if args.undirected else 'directed'}, "
        f"{args.degree:g} edges per node, weights U[1, 100)\n"
    )
    print(
        "| nodes | arcs | build s | rounds | messages | dijkstra s | bellman-ford s | engine s | "
        "engine / dijkstra | distances equal | load avg (1 min) |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|:---:|---:|")
    for n in args.sizes:
        repeats = 20 if n <= 10_000 else 5 if n <= 100_000 else 3
        start = time.perf_counter()
        graph = random_graph(n, args.degree, args.seed, not args.undirected)
        build = time.perf_counter() - start
        matrix = graph.to_scipy()  # an undirected graph already holds both arcs of every edge
        directed = True
        t_dijkstra, expected = best_of(repeats, partial(dijkstra, matrix, directed=directed, indices=0))
        t_bf = float("nan")
        if n <= args.bellman_ford_max:
            t_bf, bf = best_of(
                max(1, repeats // 10), partial(bellman_ford, matrix, directed=directed, indices=0)
            )
            assert np.allclose(bf, expected)
        params = {"source": 0, "target": n - 1}
        t_engine, result = best_of(repeats, partial(run, algorithm, graph, params))
        got = result.state["distance"]
        equal = bool(np.array_equal(np.isinf(got), np.isinf(expected))) and bool(
            np.allclose(got[np.isfinite(got)], expected[np.isfinite(expected)], rtol=1e-12, atol=0)
        )
        messages = sum(r.messages for r in result.trace)
        print(
            f"| {n:,} | {graph.num_arcs:,} | {build:.3f} | {result.rounds} | {messages:,} | {t_dijkstra:.5f} | "
            f"{t_bf:.5f} | {t_engine:.5f} | {t_engine / t_dijkstra:.2f}x | {'yes' if equal else 'NO'} | "
            f"{os.getloadavg()[0]:.2f} |",
            flush=True,
        )
        if not equal:
            raise SystemExit(f"engine distances differ from dijkstra at n={n}")


if __name__ == "__main__":
    main()
