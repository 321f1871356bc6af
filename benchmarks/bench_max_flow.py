"""GAR's max flow (synchronous push-relabel) against networkx, with and without global relabels.

    python benchmarks/bench_max_flow.py [--graphs 400] [--seed 0]

Random graphs of 3-40 nodes, directed and undirected, with parallel edges (capacities
added up), self-loops and capacities that are whole numbers 0-9 or fractions: for each,
the compiled engine's value is compared with ``networkx.maximum_flow_value``, the
returned flow is checked (capacity on every edge, conservation at every inner node),
and the rounds are counted with the default global relabel (every 8 relabel rounds)
and with none. Then the same on the Spark benchmark's random graphs of 10^4 and 10^5
edges (``bench_gar_spark.write_graph``), node 0 to node 1.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

import networkx as nx
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_gar_spark import write_graph  # noqa: E402

from graphreason.tools.gar.datasets import read_edge_csv  # noqa: E402
from graphreason.tools.gar.vertex import VertexGraph, run  # noqa: E402
from graphreason.tools.gar.vertex.flow import MaxFlow  # noqa: E402

NEVER = 10**9  # global relabels off


def flow_of(every: int) -> MaxFlow:
    algorithm = MaxFlow()
    algorithm.global_every = every
    return algorithm


def arcs_of(graph: VertexGraph) -> list[tuple[int, int, float]]:
    out = graph.out
    return list(zip(out.src.tolist(), out.indices.tolist(), out.weights.tolist(), strict=True))


def valid(graph: VertexGraph, edges: list[tuple[int, int, float]], s: int, t: int) -> bool:
    cap = {(u, v): w for u, v, w in arcs_of(graph)}
    net = np.zeros(graph.num_nodes)
    for u, v, f in edges:
        if f > cap[(u, v)] + 1e-9:
            return False
        net[u] -= f
        net[v] += f
    inner = [i for i in range(graph.num_nodes) if i not in (s, t)]
    return bool(np.allclose(net[inner], 0.0, atol=1e-9))


def small(graphs: int, seed: int) -> None:
    agree = ok = 0
    rounds = {8: [], NEVER: []}
    for k in range(graphs):
        rng = random.Random(seed * 100_003 + k)
        n = rng.randint(3, 40)
        rows = [(rng.randrange(n), rng.randrange(n), rng.choice([rng.randint(0, 9), rng.random() * 5]))
                for _ in range(rng.randint(n, 4 * n))]  # fmt: skip
        graph = VertexGraph.from_edges(n, rows, directed=k % 2 == 0, parallel="sum")
        want_graph = nx.DiGraph()
        want_graph.add_nodes_from(range(n))
        for u, v, w in arcs_of(graph):
            if u != v:
                want_graph.add_edge(u, v, capacity=w)
        want = nx.maximum_flow_value(want_graph, 0, n - 1)
        for every in rounds:
            result = run(flow_of(every), graph, {"source": 0, "target": n - 1})
            rounds[every].append(result.rounds)
            if every == 8:
                agree += abs(result.answer - want) <= 1e-9 * max(1.0, want)
                ok += valid(graph, result.output["edge_flows"], 0, n - 1) and result.complete
    print(f"{graphs} random graphs of 3-40 nodes: value equals networkx on {agree}, valid flow on {ok}")
    for every, counts in rounds.items():
        name = "global relabel every 8" if every == 8 else "no global relabel"
        print(f"  {name}: rounds mean {np.mean(counts):.1f}, max {max(counts)}, total {sum(counts)}")


def large() -> None:
    folder = Path(tempfile.mkdtemp())
    for m in (10_000, 100_000):
        graph = read_edge_csv(str(write_graph(folder, m)), directed=True, parallel="sum")
        for every in (8, 2, NEVER):
            if every == NEVER and m > 10_000:
                continue  # hours
            start = time.perf_counter()
            result = run(flow_of(every), graph, {"source": 0, "target": 1})
            name = "none" if every == NEVER else f"every {every}"
            print(f"{m} edges ({graph.num_nodes} nodes), global relabel {name}: value {result.answer}, "
                  f"{result.rounds} rounds, {time.perf_counter() - start:.2f} s")  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--graphs", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    small(args.graphs, args.seed)
    large()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
