"""Retrieve latency on synthetic graphs of 10k and 100k nodes.

Three measurements per graph size:

1. index only: random unit vectors (dim 384, like minilm), queries are noisy
   copies of stored vectors; ``search_vector`` p50/p95 for the exact flat index
   and for HNSW, with HNSW recall@1 / recall@10 against the exact answer;
2. end to end with the hash embedder: ``build_node_index`` on random short
   titles (build and cache-reload time), then ``search(text)`` on unseen
   queries (query embedding included) and on repeated queries (LRU hit);
3. with minilm query embedding: a few hundred ``search(text)`` calls whose
   query is encoded by all-MiniLM-L6-v2, against the 384-d index of step 1.

    PYTHONPATH=. python benchmarks/bench_retrieve.py [--sizes 10000 100000] [--queries 300] [--minilm-queries 200]

Target: Retrieve <= 2 ms p50 at 100k nodes (search alone).
"""

from __future__ import annotations

import argparse
import os
import random
import tempfile
import time
from collections.abc import Callable

import numpy as np

from graphreason.tools.core.retrieval.embedders import Embedder, HashEmbedder, get_embedder
from graphreason.tools.core.retrieval.node_index import NodeIndex, build_node_index
from graphreason.tools.core.store import GraphStore

DIM = 384
SYLLABLES = "ka lo mi ne ru sa te vi zo bra cle dri fen gor hul jin kev lum mor nax pil qua ros tib".split()


def make_vocabulary(size: int, rng: random.Random) -> list[str]:
    words: set[str] = set()
    while len(words) < size:
        words.add("".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 4))))
    return sorted(words)


def make_graph(n_nodes: int, seed: int = 0) -> GraphStore:
    """90% papers with 4-10 word titles, 10% authors with two-word names."""
    rng = random.Random(seed)
    vocab = make_vocabulary(5000, rng)
    store = GraphStore(f"bench{n_nodes}", text_keys={"paper": "title", "author": "name"})
    for i in range(n_nodes):
        if i % 10 == 9:
            store.add_node(f"a{i}", "author", {"name": " ".join(rng.sample(vocab, 2)).title()})
        else:
            store.add_node(f"p{i}", "paper", {"title": " ".join(rng.sample(vocab, rng.randint(4, 10)))})
    return store


def percentiles(samples_s: list[float]) -> tuple[float, float]:
    ms = np.asarray(samples_s) * 1e3
    return float(np.percentile(ms, 50)), float(np.percentile(ms, 95))


def time_calls(call: Callable[[object], object], inputs: list) -> tuple[float, float]:
    samples = []
    for item in inputs:
        start = time.perf_counter()
        call(item)
        samples.append(time.perf_counter() - start)
    return percentiles(samples)


def recall(approx: NodeIndex, exact: NodeIndex, queries: np.ndarray, k: int) -> float:
    hits = 0
    for q in queries:
        truth = {n for n, _ in exact.search_vector(q, k)}
        hits += len(truth & {n for n, _ in approx.search_vector(q, k)})
    return hits / (k * len(queries))


def noisy_queries(
    vectors: np.ndarray, count: int, rng: np.random.Generator, noise: float = 0.03
) -> np.ndarray:
    """Stored vectors plus Gaussian noise (cosine to the source about 0.75 at dim 384)."""
    picks = vectors[rng.integers(0, len(vectors), count)]
    queries = picks + rng.normal(0, noise, picks.shape).astype(np.float32)
    return queries / np.linalg.norm(queries, axis=1, keepdims=True)


def perturb_title(text: str, rng: random.Random) -> str:
    """Drop one word and shuffle: a query near, but not equal to, a stored title."""
    words = text.split()
    if len(words) > 2:
        words.pop(rng.randrange(len(words)))
    rng.shuffle(words)
    return " ".join(words)


class Row:
    def __init__(self) -> None:
        self.rows: list[tuple[str, ...]] = []

    def add(self, *cells: object) -> None:
        self.rows.append(tuple(c if isinstance(c, str) else f"{c:.3f}" for c in cells))
        print("  " + " | ".join(self.rows[-1]), flush=True)

    def print(self, header: tuple[str, ...]) -> None:
        widths = [max(len(h), *(len(r[i]) for r in self.rows)) for i, h in enumerate(header)]
        line = " | ".join(h.ljust(w) for h, w in zip(header, widths, strict=True))
        print("\n" + line + "\n" + "-+-".join("-" * w for w in widths))
        for row in self.rows:
            print(" | ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--minilm-queries", type=int, default=200, help="0 skips the minilm step")
    parser.add_argument("--ef-search", type=int, nargs="+", default=[64, 128, 256])
    args = parser.parse_args()
    # a throw-away cache: the benchmark must not fill (or read) the real one
    with tempfile.TemporaryDirectory(prefix="bench-retrieve-") as cache:
        os.environ["GRAPHREASON_CACHE"] = cache
        run(args)


def run(args: argparse.Namespace) -> None:
    np_rng = np.random.default_rng(0)
    table = Row()
    header = ("nodes", "what", "index", "build s", "p50 ms", "p95 ms", "recall@1", "recall@10")
    print("  " + " | ".join(header))

    minilm: Embedder | None = None
    minilm_queries: list[str] = []
    if args.minilm_queries:
        minilm = get_embedder("minilm")
        minilm.embed(["warm up the model"])

    for n in args.sizes:
        store = make_graph(n)
        ids = list(store.nodes())
        types = [store.node_type(i) for i in ids]
        rng = random.Random(1)

        # 1. index only, random vectors
        vectors = np_rng.standard_normal((n, DIM)).astype(np.float32)
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        queries = noisy_queries(vectors, args.queries, np_rng)
        start = time.perf_counter()
        flat = NodeIndex.from_vectors(ids, types, vectors, HashEmbedder(DIM), exact=True)
        build_flat = time.perf_counter() - start
        p50, p95 = time_calls(lambda q, index=flat: index.search_vector(q, 10), list(queries))
        table.add(str(n), "vectors, k=10", "flat", build_flat, p50, p95, "1 (exact)", "1 (exact)")
        p50, p95 = time_calls(lambda q, index=flat: index.search_vector(q, 10, "paper"), list(queries))
        table.add(str(n), "vectors, k=10, type=paper", "flat", build_flat, p50, p95, "-", "-")
        start = time.perf_counter()
        hnsw = NodeIndex.from_vectors(ids, types, vectors, HashEmbedder(DIM), exact=False)
        build_hnsw = time.perf_counter() - start
        for ef in args.ef_search:
            hnsw.set_ef_search(ef)
            p50, p95 = time_calls(lambda q, index=hnsw: index.search_vector(q, 10), list(queries))
            r1, r10 = recall(hnsw, flat, queries, 1), recall(hnsw, flat, queries, 10)
            table.add(str(n), "vectors, k=10", f"hnsw ef={ef}", build_hnsw, p50, p95, r1, r10)

        # 2. end to end with the hash embedder (auto index kind, cache on)
        start = time.perf_counter()
        index = build_node_index(store, "hash", progress=False)
        build_auto = time.perf_counter() - start
        start = time.perf_counter()
        build_node_index(store, "hash", progress=False)
        reload = time.perf_counter() - start
        kinds = "+".join(sorted(set(index.kinds().values())))
        texts = [perturb_title(store.text(rng.choice(ids)), rng) for _ in range(args.queries)]
        p50, p95 = time_calls(lambda t, index=index: index.search(t, 1), texts)
        table.add(
            str(n),
            f"hash text, k=1 (reload {reload:.2f} s)",
            f"auto ({kinds})",
            build_auto,
            p50,
            p95,
            "-",
            "-",
        )
        p50, p95 = time_calls(lambda t, index=index: index.search(t, 1), texts)
        table.add(str(n), "hash text, k=1, repeated query", f"auto ({kinds})", build_auto, p50, p95, "-", "-")
        hash_vectors = index.embedder.embed(texts)
        p50, p95 = time_calls(lambda q, index=index: index.search_vector(q, 1), list(hash_vectors))
        table.add(str(n), "hash vectors only, k=1", f"auto ({kinds})", build_auto, p50, p95, "-", "-")
        if kinds != "flat":
            exact_hash = build_node_index(store, "hash", progress=False, exact=True)
            r1, r10 = recall(index, exact_hash, hash_vectors, 1), recall(index, exact_hash, hash_vectors, 10)
            table.add(
                str(n), "hash vectors, recall vs flat", f"auto ({kinds})", build_auto, 0.0, 0.0, r1, r10
            )

        # 3. minilm query embedding + 384-d index (flat and HNSW). torch's intra-op
        # threads matter a lot for one short query on a busy 2-core machine, so both
        # settings are measured.
        if minilm is not None:
            import torch

            default_threads = torch.get_num_threads()
            minilm_queries = [
                perturb_title(store.text(rng.choice(ids)), rng) for _ in range(args.minilm_queries)
            ]
            hnsw.set_ef_search(128)
            for threads in sorted({1, default_threads}):
                minilm.query_threads = threads  # the embedder default is 1
                p50, p95 = time_calls(lambda t: minilm.embed([t]), minilm_queries)
                table.add(
                    str(n), f"minilm query embedding, torch threads={threads}", "-", 0.0, p50, p95, "-", "-"
                )
                for name, idx in (("flat", flat), ("hnsw ef=128", hnsw)):
                    idx.embedder = minilm
                    idx.clear_query_cache()
                    p50, p95 = time_calls(lambda t, index=idx: index.search(t, 1), minilm_queries)
                    table.add(
                        str(n), f"minilm text, k=1, torch threads={threads}", name, 0.0, p50, p95, "-", "-"
                    )
            minilm.query_threads = 1

        # FAISS's own OpenMP threads for a single flat query, for comparison with the default of 1
        flat.search_threads = None
        p50, p95 = time_calls(lambda q, index=flat: index.search_vector(q, 10), list(queries))
        table.add(
            str(n),
            "vectors, k=10, faiss default threads",
            "flat",
            build_flat,
            p50,
            p95,
            "1 (exact)",
            "1 (exact)",
        )
    table.print(header)


if __name__ == "__main__":
    main()
