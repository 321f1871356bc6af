"""Retrieve at graph scale: index build time and accuracy, encoder throughput, and search latency.

``--part scale`` (first use at graph scale): node-name graphs of 10^4, 10^5 and 10^6
nodes, made of the real names in the data root (Hetionet, WordNet synsets, FB15k
entities, Cora titles, MovieLens titles: about 110k) and, beyond them, generated
person-like names and ``user N`` ids. For each size and ranking (lexical, dense,
hybrid; dense sides with the static table, and with MiniLM itself at 10^4): the
build time from nothing (no cache) and accuracy@1 on quoted names (the name
verbatim, and lower-cased with a trailing full stop), where a hit counts when the
node found carries the quoted name (duplicate names are indistinguishable).

``--part throughput``: MiniLM's own throughput through the project's path
(``cached_vectors``, batched by length) against sentence-transformers' ``encode``
on the same texts in the same process, for short names and for long abstracts.

``--part latency`` (below): Retrieve latency on synthetic graphs of 10k and 100k nodes.
Three measurements per graph size:

1. index only: random unit vectors (dim 384, like minilm), queries are noisy
   copies of stored vectors; ``search_vector`` p50/p95 for the exact flat index
   and for HNSW, with HNSW recall@1 / recall@10 against the exact answer;
2. end to end with the hash embedder: ``build_node_index`` on random short
   titles (build and cache-reload time), then ``search(text)`` on unseen
   queries (query embedding included) and on repeated queries (LRU hit);
3. with minilm query embedding: a few hundred ``search(text)`` calls whose
   query is encoded by all-MiniLM-L6-v2, against the 384-d index of step 1.

    python benchmarks/bench_retrieve.py [--part scale throughput latency] [--scale-sizes 10000 100000 1000000]

Targets: 10^6 names indexed in <= 60 s (lexical and hybrid); dense throughput >= 80% of
sentence-transformers' encode; accuracy@1 >= 99% on quoted names at 10^5; Retrieve <= 2 ms
p50 at 100k nodes (dense search alone). ``scale`` and ``throughput`` write
``benchmarks/results/retrieve_scale.json`` and ``retrieve_throughput.json``.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from record import write_result  # noqa: E402

from graphreason.settings import data_root  # noqa: E402
from graphreason.tools.core.retrieval.embedders import Embedder, HashEmbedder, get_embedder  # noqa: E402
from graphreason.tools.core.retrieval.hybrid import build_retriever  # noqa: E402
from graphreason.tools.core.retrieval.lexical import normalise  # noqa: E402
from graphreason.tools.core.retrieval.node_index import NodeIndex, build_node_index  # noqa: E402
from graphreason.tools.core.store import GraphStore  # noqa: E402

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


# ------------------------------------------------------------------ scale: names, build, accuracy
def real_names() -> list[tuple[str, str]]:
    """``(node type, name)`` of every named node of five data-root graphs (none of the unseen ones)."""
    root = data_root()
    names: list[tuple[str, str]] = []
    with (root / "hetionet-v1.0" / "hetionet-v1.0-nodes.tsv").open(encoding="utf-8") as fh:
        for row in list(csv.reader(fh, delimiter="\t"))[1:]:
            names.append((row[2].lower().replace(" ", "_"), row[1]))
    with (root / "kg-wn18" / "DERIVED_wn18_entity2synset.tsv").open(encoding="utf-8") as fh:
        names.extend(("synset", row[2]) for row in list(csv.reader(fh, delimiter="\t"))[1:])
    entities = json.loads((root / "kg-fb15k" / "villmow" / "entity2wikidata.json").read_text(encoding="utf-8"))
    names.extend(("entity", e["label"]) for e in entities.values() if e.get("label"))
    with (root / "cora-citeseer-text" / "cora" / "node_info.csv").open(encoding="utf-8") as fh:
        names.extend(("paper", " ".join(row[1].split())) for row in list(csv.reader(fh))[1:] if row[1].strip())
    with (root / "movielens-100k" / "u.item").open(encoding="latin-1") as fh:
        names.extend(("movie", line.split("|")[1]) for line in fh if line.strip())
    return [(t, n) for t, n in names if n.strip()]


FIRST = "ada alan anna ben carla dan eva finn gia hugo ines jon kira leo mia nora omar pia quinn rosa sam tara uma vic".split()


def scale_names(n: int, seed: int = 0) -> list[tuple[str, str]]:
    """``n`` typed names: the real ones (shuffled), then generated people and ``user N`` ids."""
    rng = random.Random(seed)
    names = real_names()
    rng.shuffle(names)
    if n <= len(names):
        return names[:n]
    vocab = make_vocabulary(20_000, rng)
    extra = n - len(names)
    for i in range(extra):
        if i % 3 == 0:
            names.append(("user", f"user {i // 3}"))
        else:
            names.append(("person", f"{rng.choice(FIRST).title()} {rng.choice(vocab).title()} {rng.choice(vocab).title()}"))
    return names


def name_graph(names: list[tuple[str, str]]) -> GraphStore:
    store = GraphStore(f"names{len(names)}", text_keys={t: "name" for t in {t for t, _ in names}})
    for i, (node_type, name) in enumerate(names):
        store.add_node(f"n{i}", node_type, {"name": name})
    return store


def quoted_queries(names: list[tuple[str, str]], count: int, rng: random.Random) -> dict[str, list[str]]:
    picks = [names[rng.randrange(len(names))][1] for _ in range(count)]
    return {"verbatim": picks, "lower-case, full stop": [p.lower().rstrip(".") + "." for p in picks]}


def accuracy(retriever, store: GraphStore, queries: list[str]) -> tuple[float, float]:
    """(accuracy@1, p50 ms): a hit is a node whose name is the query's, up to case and punctuation."""
    right, samples = 0, []
    for query in queries:
        start = time.perf_counter()
        node = retriever.search(query, 1)[0][0]
        samples.append(time.perf_counter() - start)
        right += normalise(store.text(node)) == normalise(query)
    return right / len(queries), float(np.percentile(np.asarray(samples) * 1e3, 50))


def scale(args: argparse.Namespace) -> dict:
    print("== scale: build from nothing, then accuracy@1 on quoted names", flush=True)
    start = time.perf_counter()
    get_embedder("minilm-static").embed(["distil the table once"])  # a one-time cost, measured apart
    distil = time.perf_counter() - start
    print(f"  static table distilled from MiniLM in {distil:.1f} s (once per machine, then cached)", flush=True)
    header = ("nodes", "ranking", "dense side", "build s", "verbatim acc@1", "lower-case acc@1", "p50 ms")
    table = Row()
    rows = []
    for n in args.scale_sizes:
        names = scale_names(n)
        store = name_graph(names)
        queries = quoted_queries(names, args.queries, random.Random(n))
        configs = [("lexical", None), ("dense", "minilm-static"), ("hybrid", "minilm-static")]
        if n <= args.minilm_up_to:
            configs += [("dense", "minilm"), ("hybrid", "minilm")]
        for ranking, dense in configs:
            start = time.perf_counter()
            retriever = build_retriever(store, dense or "minilm", ranking, cache=False, progress=False)
            built = time.perf_counter() - start
            verbatim, p50 = accuracy(retriever, store, queries["verbatim"])
            lower, _ = accuracy(retriever, store, queries["lower-case, full stop"])
            table.add(str(n), ranking, dense or "-", built, verbatim, lower, p50)
            rows.append({
                "nodes": n, "ranking": ranking, "dense": dense, "build_seconds": round(built, 2),
                "accuracy_at_1": {"verbatim": verbatim, "lower-case, full stop": lower},
                "queries": args.queries, "search_p50_ms": round(p50, 2),
            })
            del retriever
    table.print(header)
    return {"static_table_distil_seconds": round(distil, 2), "rows": rows}


def throughput(args: argparse.Namespace) -> dict:
    """texts/s of the project's MiniLM path and of sentence-transformers' encode, same texts, same process."""
    import torch

    from graphreason.tools.core.retrieval.embedders import minilm_path
    from graphreason.tools.core.retrieval.vector_cache import cached_vectors

    print(f"== throughput: MiniLM, {torch.get_num_threads()} torch threads", flush=True)
    names = [n for _, n in scale_names(args.short_texts, seed=3)]
    with (data_root() / "cora-citeseer-text" / "cora" / "node_info.csv").open(encoding="utf-8") as fh:
        abstracts = [row[2] for row in list(csv.reader(fh))[1:] if len(row[2]) > 900][: args.long_texts]
    os.environ["HF_HUB_OFFLINE"] = "1"
    from sentence_transformers import SentenceTransformer

    reference = SentenceTransformer(str(minilm_path()), device="cpu", local_files_only=True)
    ours = get_embedder("minilm")
    ours.embed(["warm up"])
    reference.encode(["warm up"])
    figures = {}
    for label, texts in (("short names", names), ("long abstracts", abstracts)):
        start = time.perf_counter()
        mine = cached_vectors(texts, ours, cache=False)
        own = time.perf_counter() - start
        start = time.perf_counter()
        theirs = reference.encode(texts, batch_size=64, normalize_embeddings=True)
        ref = time.perf_counter() - start
        agree = float(np.abs(mine - theirs).max())
        print(f"  {label}: {len(texts)} texts, mean {np.mean([len(t) for t in texts]):.0f} chars; project "
              f"{len(texts) / own:.0f}/s, sentence-transformers {len(texts) / ref:.0f}/s "
              f"(ours / theirs {ref / own:.2f}); "
              f"max difference {agree:.1e}", flush=True)
        figures[label] = {
            "texts": len(texts), "mean_chars": round(float(np.mean([len(t) for t in texts])), 1),
            "chars_read": sum(min(len(t), 1000) for t in texts),
            "project_seconds": round(own, 3), "sentence_transformers_seconds": round(ref, 3),
            "project_texts_per_s": round(len(texts) / own, 1),
            "sentence_transformers_texts_per_s": round(len(texts) / ref, 1),
            "ratio": round(ref / own, 3), "max_abs_difference": agree,
        }
    figures["torch_threads"] = torch.get_num_threads()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--part", nargs="+", choices=("scale", "throughput", "latency"),
                        default=["scale", "throughput", "latency"])
    parser.add_argument("--scale-sizes", type=int, nargs="+", default=[10_000, 100_000, 1_000_000])
    parser.add_argument("--minilm-up-to", type=int, default=10_000, help="largest size with a MiniLM dense side")
    parser.add_argument("--short-texts", type=int, default=4000)
    parser.add_argument("--long-texts", type=int, default=300)
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--minilm-queries", type=int, default=200, help="0 skips the minilm step")
    parser.add_argument("--ef-search", type=int, nargs="+", default=[64, 128, 256])
    args = parser.parse_args()
    # a throw-away cache: the benchmark must not fill (or read) the real one
    with tempfile.TemporaryDirectory(prefix="bench-retrieve-") as cache:
        os.environ["GRAPHREASON_CACHE"] = cache
        if "scale" in args.part:
            write_result("retrieve_scale", scale(args))
        if "throughput" in args.part:
            write_result("retrieve_throughput", throughput(args))
        if "latency" in args.part:
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
