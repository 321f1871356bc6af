"""Memory and time of loading a user's ``graph.json`` into Counselor and indexing it for Retrieve.

    python benchmarks/graph_json_scale.py [--nodes 20000] [--embeddings hash minilm]

Generates a GRBench-format citation graph (title, ~60-word abstract, label; ~5
references per paper listed under ``cites`` and ``cited_by``), then, in a fresh
child process per encoder with an empty cache, loads it the way Counselor does
and builds the Retrieve index. Prints file size, load and index seconds and the
peak resident memory, also per 10k nodes. These numbers back the README's limits.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
WORDS = (
    "graph neural network learning model data node edge citation method approach analysis "
    "deep sparse random feature vector kernel inference bayesian markov process optimal search "
    "tree path cluster spectral embedding attention reasoning agent language retrieval index"
).split()


def make_graph(nodes: int, path: Path, seed: int = 0) -> Path:
    """Write a ``graph.json`` of ``nodes`` papers with about 5 references each."""
    rng = random.Random(seed)
    cites: list[list[str]] = [[] for _ in range(nodes)]
    cited_by: list[list[str]] = [[] for _ in range(nodes)]
    for i in range(nodes):
        for j in rng.sample(range(nodes), min(5, nodes - 1)):
            if j != i:
                cites[i].append(str(j))
                cited_by[j].append(str(i))
    papers = {
        str(i): {
            "features": {
                "title": " ".join(rng.choices(WORDS, k=8)) + f" {i}",
                "abstract": " ".join(rng.choices(WORDS, k=60)),
                "label": rng.choice(("ml", "theory", "systems", "vision")),
            },
            "neighbors": {"cites": cites[i], "cited_by": cited_by[i]},
        }
        for i in range(nodes)
    }
    path.write_text(json.dumps({"paper_nodes": papers}))
    return path


def measure(graph: Path, embedding: str) -> dict[str, float]:
    """Load ``graph`` and index it with ``embedding`` in this process; seconds and peak RSS."""
    from graphreason.tools.core.loaders.grbench import load_graph_json
    from graphreason.tools.core.retrieval.node_index import build_node_index

    start = time.perf_counter()
    store = load_graph_json(graph, progress=False)
    loaded = time.perf_counter()
    rss_loaded = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    build_node_index(store, embedding, progress=False)
    indexed = time.perf_counter()
    return {
        "load_s": loaded - start,
        "index_s": indexed - loaded,
        "peak_rss_after_load_mb": rss_loaded,
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=20_000)
    parser.add_argument("--embeddings", nargs="+", default=["hash"])  # minilm: minutes per 10k nodes
    parser.add_argument("--child", nargs=2, metavar=("GRAPH", "EMBEDDING"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure(Path(args.child[0]), args.child[1])))
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        graph = make_graph(args.nodes, Path(tmp) / "graph.json")
        size_mb = graph.stat().st_size / 1e6
        print(f"graph.json: {args.nodes:,} nodes, {size_mb:.1f} MB")
        for embedding in args.embeddings:
            env_cache = Path(tmp) / f"cache-{embedding}"  # empty cache: the index is really built
            done = subprocess.run(
                [sys.executable, __file__, "--child", str(graph), embedding],
                capture_output=True,
                text=True,
                cwd=REPO,
                env={**os.environ, "GRAPHREASON_CACHE": str(env_cache)},
            )
            if done.returncode:
                print(f"{embedding}: failed\n{done.stderr[-2000:]}")
                return 1
            row = json.loads(done.stdout.strip().splitlines()[-1])
            per = 10_000 / args.nodes
            print(
                f"{embedding:>7}: load {row['load_s']:.1f} s ({row['load_s'] * per:.1f} s/10k), "
                f"index {row['index_s']:.1f} s ({row['index_s'] * per:.1f} s/10k), "
                f"peak RSS after load {row['peak_rss_after_load_mb']:.0f} MB, "
                f"peak RSS {row['peak_rss_mb']:.0f} MB ({row['peak_rss_mb'] * per:.0f} MB/10k)"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
