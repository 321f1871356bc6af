"""Latency of the graph functions on a synthetic 100k-node / ~500k-edge graph.

Three layers are timed per operation: the bare GraphStore lookup, the
GraphFunctions call with observation rendering, and ``run_action`` (parse and
execute) for Action text. Each sample is one call on a random node.

    python benchmarks/bench_graph_functions.py [--nodes 100000] [--edges 500000] [--samples 20000]
Target: graph functions (with rendering) <= 20 us at p50.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from graphreason.tools.core.retrieval.base import Retriever
from graphreason.tools.core.store import GraphStore
from graphreason.tools.counselor.calls import parse_action, run_action
from graphreason.tools.counselor.functions import GraphFunctions


class ExactTitleRetriever(Retriever):
    """Dict lookup stand-in so Retrieve's cost here is the call machinery, not an encoder."""

    def __init__(self, store: GraphStore) -> None:
        self.by_text = {store.text(n).lower(): n for n in store.nodes()}

    def search(self, text: str, k: int = 1, node_type: str | None = None) -> list[tuple[str, float]]:
        hit = self.by_text.get(text.lower())
        return [(hit, 1.0)] if hit else []


def build_graph(n_nodes: int, n_edges: int, seed: int = 0) -> GraphStore:
    """Papers citing papers (80% of edges) and papers written by authors (20%)."""
    rng = random.Random(seed)
    n_authors = n_nodes // 10
    n_papers = n_nodes - n_authors
    store = GraphStore("synthetic", directed=True, text_keys={"paper": "title", "author": "name"})
    for i in range(n_papers):
        store.add_node(f"p{i}", "paper", {"title": f"Paper number {i}", "year": 1990 + i % 35})
    for i in range(n_authors):
        store.add_node(f"a{i}", "author", {"name": f"Author {i}"})
    n_cites = int(n_edges * 0.8)
    for _ in range(n_cites):
        store.add_edge(f"p{rng.randrange(n_papers)}", f"p{rng.randrange(n_papers)}", "cites", "cited_by")
    for _ in range(n_edges - n_cites):
        store.add_edge(f"p{rng.randrange(n_papers)}", f"a{rng.randrange(n_authors)}", "written_by", "writes")
    return store


def percentiles(fn: Callable[[int], object], samples: int) -> tuple[float, float]:
    """p50 and p95 in microseconds of ``fn(i)`` over ``samples`` calls (after a warm-up)."""
    for i in range(min(1000, samples)):
        fn(i)
    times = []
    clock = time.perf_counter_ns
    for i in range(samples):
        start = clock()
        fn(i)
        times.append(clock() - start)
    times.sort()
    return times[len(times) // 2] / 1000, times[int(len(times) * 0.95)] / 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=100_000)
    parser.add_argument("--edges", type=int, default=500_000)
    parser.add_argument("--samples", type=int, default=20_000)
    args = parser.parse_args()

    start = time.perf_counter()
    store = build_graph(args.nodes, args.edges)
    print(f"built {store!r} in {time.perf_counter() - start:.1f} s")
    functions = GraphFunctions(store, ExactTitleRetriever(store))
    rng = random.Random(1)
    papers = [f"p{rng.randrange(args.nodes - args.nodes // 10)}" for _ in range(args.samples)]

    def row(label: str, fn: Callable[[int], object]) -> None:
        p50, p95 = percentiles(fn, args.samples)
        print(f"  {label:<68} p50 {p50:8.2f} us   p95 {p95:8.2f} us")

    print("GraphStore")
    row("feature(p, 'title')", lambda i: store.feature(papers[i], "title"))
    row("neighbors(p, 'cites')", lambda i: store.neighbors(papers[i], "cites"))
    row("degree(p, 'cited_by')", lambda i: store.degree(papers[i], "cited_by"))
    print("GraphFunctions.call (value + observation)")
    row("Feature[p, title]", lambda i: functions.call("Feature", papers[i], "title"))
    row("Neighbour[p, cites]", lambda i: functions.call("Neighbour", papers[i], "cites"))
    row("Degree[p, cited_by]", lambda i: functions.call("Degree", papers[i], "cited_by"))
    row("Retrieve[title] (dict retriever)", lambda i: functions.call("Retrieve", f"Paper number {i}"))
    row(
        "Feature[paper#p, Title] (tolerant resolution)",
        lambda i: functions.call("Feature", f"paper#{papers[i]}", "Title"),
    )
    print("run_action (parse + execute)")
    row("Feature[p, title]", lambda i: run_action(f"Action 1: Feature[{papers[i]}, title]", functions))
    compound = [f"Feature[Neighbour[{p}, cites], title]" for p in papers]
    row("parse only: Feature[Neighbour[p, cites], title]", lambda i: parse_action(compound[i]))
    row("Feature[Neighbour[p, cites], title]", lambda i: run_action(compound[i], functions))
    row(
        "Feature[Neighbour[Retrieve[..], cites], title], Degree[p, cited_by]",
        lambda i: run_action(
            f"Feature[Neighbour[Retrieve[Paper number {i}], cites], title], Degree[{papers[i]}, cited_by]",
            functions,
        ),
    )
    print("target: graph functions with rendering <= 20 us")


if __name__ == "__main__":
    main()
