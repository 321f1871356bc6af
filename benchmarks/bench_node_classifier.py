"""Validation and test accuracy of the node classifier per dataset, split, feature set and architecture.

For every (dataset, split) the script loads the data and the feature blocks
(MiniLM embeddings from the cache; the first run on a machine embeds and says
how long it took), then trains each (features, architecture) candidate of
:mod:`graphreason.tools.graph_models.topic` with each seed and prints validation and test
accuracy and training seconds. The last lines per (dataset, split) give the
candidate with the best mean *validation* accuracy (how ``features="auto"`` /
``arch="auto"`` choose) and its test accuracy, next to the default model's.
Test accuracy is printed, never used to choose.

``--time-embedding`` embeds the texts again into a temporary cache to time it
(with ``--splits ""`` nothing else runs).
Timings on a shared machine are noisy; the load average is printed with them.

    python benchmarks/bench_node_classifier.py [--datasets cora,citeseer] [--splits public,random]
        [--features text,text+bow,bow] [--archs gcn,appnp,sgc] [--seeds 0,1,2] [--time-embedding]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a script from anywhere

import numpy as np  # noqa: E402

from graphreason.settings import CACHE  # noqa: E402
from graphreason.tools.core.loaders.node_data import load_node_data  # noqa: E402
from graphreason.tools.graph_models.node_features import feature_blocks  # noqa: E402
from graphreason.tools.graph_models.node_training import as_blocks, propagation_matrix, train_node_net  # noqa: E402
from graphreason.tools.graph_models.threads import torch_threads  # noqa: E402
from graphreason.tools.graph_models.topic import ARCH_CONFIGS, DEFAULT_ARCH, DEFAULT_FEATURES, SEARCH_ARCHS  # noqa: E402


def load() -> str:
    return f"load {os.getloadavg()[0]:.1f}"


def time_embedding(dataset: str, embedder: str) -> None:
    """Embed ``dataset``'s texts into a fresh temporary cache and print the seconds."""
    graph = load_node_data(dataset, "random").graph
    with tempfile.TemporaryDirectory() as tmp, CACHE.set_to(tmp):
        start = time.perf_counter()
        feature_blocks(graph, "text", embedder)
        took = time.perf_counter() - start
    print(
        f"embedding {dataset}: {graph.num_nodes} texts with {embedder} in {took:.1f}s ({load()})", flush=True
    )


def run(
    dataset: str, split: str, features: list[str], archs: list[str], seeds: list[int], embedder: str
) -> None:
    import torch

    data = load_node_data(dataset, split)
    graph = data.graph
    y = graph.label_index()
    sizes = "/".join(str(len(data.parts[p])) for p in ("train", "val", "test"))
    print(f"\n== {dataset} {split} (train/val/test {sizes})", flush=True)
    rows: dict[tuple[str, str], list[dict[str, float]]] = {}
    with torch_threads(1):
        propagation = propagation_matrix(graph.edges, graph.num_nodes)
        for kind in features:
            start = time.perf_counter()
            blocks = as_blocks(feature_blocks(graph, kind, embedder, progress=True))
            print(f"features {kind}: ready in {time.perf_counter() - start:.1f}s", flush=True)
            for arch in archs:
                for seed in seeds:
                    torch.manual_seed(seed)
                    start = time.perf_counter()
                    result = train_node_net(blocks, propagation, y, data.parts, ARCH_CONFIGS[arch])
                    metrics = {**result["metrics"], "seconds": time.perf_counter() - start}
                    rows.setdefault((kind, arch), []).append(metrics)
                    print(
                        f"{dataset:9s} {split:7s} {kind:9s} {arch:6s} seed {seed}  "
                        f"val {metrics['val_accuracy']:.3f}  test {metrics['test_accuracy']:.3f}  "
                        f"train {metrics['seconds']:.1f}s  ({load()})",
                        flush=True,
                    )

    def mean(key: tuple[str, str], metric: str) -> float:
        return float(np.mean([r[metric] for r in rows[key]]))

    best = max(rows, key=lambda key: mean(key, "val_accuracy"))
    # the default model: its features, and its architecture or (when "auto") the best of the searched ones
    archs = SEARCH_ARCHS if DEFAULT_ARCH == "auto" else (DEFAULT_ARCH,)
    defaults = [(f, a) for f, a in rows if f == DEFAULT_FEATURES and a in archs]
    default = max(defaults, key=lambda key: mean(key, "val_accuracy")) if defaults else None
    for title, key in (("best by validation", best), ("default model", default)):
        if key is not None:
            test = [r["test_accuracy"] for r in rows[key]]
            print(
                f"{title:18s}: {key[0]} / {key[1]}  val {mean(key, 'val_accuracy'):.3f}  "
                f"test {np.mean(test):.3f} +- {np.std(test):.3f} over {len(test)} seeds",
                flush=True,
            )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--datasets", default="cora,citeseer")
    parser.add_argument("--splits", default="public,random")
    parser.add_argument("--features", default="text,text+bow,bow")
    parser.add_argument("--archs", default="gcn,appnp,sgc")
    parser.add_argument("--seeds", default="0")
    parser.add_argument("--embedder", default="minilm")
    parser.add_argument("--time-embedding", action="store_true", help="embed again into a temporary cache")
    args = parser.parse_args()
    datasets = args.datasets.split(",")
    if args.time_embedding:
        for dataset in datasets:
            time_embedding(dataset, args.embedder)
    for dataset in datasets:
        for split in [s for s in args.splits.split(",") if s]:  # --splits "" times the embedding only
            run(
                dataset,
                split,
                args.features.split(","),
                args.archs.split(","),
                [int(s) for s in args.seeds.split(",")],
                args.embedder,
            )


if __name__ == "__main__":
    main()
