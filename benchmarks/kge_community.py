"""TransE (WordNet, Freebase) and community detection (Foursquare, Twitter): quality and seconds.

For each knowledge graph: train (or load from the cache) the hub's TransE
model, print filtered MRR / Hits@1 / Hits@10 on the test split (tail, head,
both), the training seconds, and how often its answers agree with the gold
"Reasoning Result" of Graph-ToolFormer's ``prompts_train`` (exact match of
the top answer, and gold within the top 10), split by whether the gold triple
is a training triple. For each social network: both partitions (KMeans on the
spectral embedding of the affinity, Louvain) with modularity, community
count and sizes, and seconds; and how many of the prompts' user ids the
anonymised data can resolve.

    python benchmarks/kge_community.py [--kge wordnet freebase] [--social foursquare twitter] [--force]

Seconds are wall-clock on whatever this machine is doing (the load average
is printed); CPU seconds of the process are printed beside them.
"""

from __future__ import annotations

import argparse
import os
import re
import time
from collections import Counter
from pathlib import Path

from graphreason.settings import dataset_dir
from graphreason.tools.graph_models.base import GraphModelError
from graphreason.tools.graph_models.community import CommunityModel
from graphreason.tools.graph_models.kge import TransEModel

PROMPTS = "Graph_Toolformer/prompt"
# "transe:tail_entity", entity#X, relation#Y)-->r] ... Reasoning Result: GOLD.
CALL = re.compile(r'"transe:(\w+)",\s*(\w+#[^,]+?),\s*(\w+#[^)]+?)\)-->r\].*Reasoning Result:\s*(.*?)\.?\s*$')
USERS = re.compile(r"user#([^,)\s]+)")


def timed(fn):  # type: ignore[no-untyped-def]
    wall, cpu = time.perf_counter(), time.process_time()
    out = fn()
    return out, time.perf_counter() - wall, time.process_time() - cpu


def bare(text: str) -> str:
    """``entity#make.v.03`` -> ``make.v.03`` (gold answers carry no prefix)."""
    return text.split("#", 1)[-1].strip()


def load() -> str:
    return " / ".join(f"{x:.1f}" for x in os.getloadavg())


def prompt_lines(folder: str, name: str) -> list[str]:
    path = dataset_dir(PROMPTS) / folder / name / "prompts_train"
    return Path(path).read_text(encoding="utf-8").splitlines()


def kge(name: str, force: bool) -> None:
    model = TransEModel(name)
    report, wall, cpu = timed(lambda: model.ensure(progress=True, force=force))
    m = report.metrics
    print(
        f"\n## TransE on {name}  ({'loaded from cache' if report.cached else 'trained'}; load avg {load()})"
    )
    print(f"settings: {report.settings}")
    print(
        f"training seconds (as recorded when trained): {report.seconds:.1f}; this call: {wall:.1f} s wall, {cpu:.1f} s CPU"
    )
    print(
        f"test triples ranked: {int(m['test_triples']):,} (share with head, relation and tail all seen in training: {m['test_share_seen_in_train']:.3f})"
    )
    print("| prediction | filtered MRR | Hits@1 | Hits@10 | mean rank |\n|---|---|---|---|---|")
    for label, prefix in (("tail", "tail_"), ("head", "head_"), ("both", "")):
        print(
            f"| {label} | {m[prefix + 'mrr']:.4f} | {m[prefix + 'hits@1']:.4f} | {m[prefix + 'hits@10']:.4f} | {m[prefix + 'mean_rank']:.1f} |"
        )

    graph = model.graph()
    train = {tuple(t) for t in graph.train.tolist()}
    rows: Counter[tuple[str, str, str]] = Counter()
    refused: Counter[str] = Counter()
    start = time.perf_counter()
    for line in prompt_lines("knowledge_graphs", name):
        found = CALL.search(line)
        if not found:
            rows[("unparsed", "", "")] += 1
            continue
        function, first, second, gold = found.groups()
        try:
            if function == "tail_entity":
                top = [x for x, _ in model.tail_entity_topk(first, second, 10)]
                triple = (first, second, gold)
            elif function == "head_entity":
                top = [x for x, _ in model.head_entity_topk(first, second, 10)]
                triple = (gold, first, second)
            else:
                top = [x for x, _ in model.relation_topk(first, second, 10)]
                triple = (first, gold, second)
        except GraphModelError as error:
            refused[str(error).split(":")[0].split(".")[0][:70]] += 1
            rows[(function, "refused", "")] += 1
            continue
        ids = (
            graph.entity_id(bare(triple[0])),
            graph.relation_id(bare(triple[1])),
            graph.entity_id(bare(triple[2])),
        )
        seen = "train triple" if ids in train else "not in train"
        rows[(function, seen, "top1")] += top[0] == gold
        rows[(function, seen, "top10")] += gold in top
        rows[(function, seen, "n")] += 1
    print(f"\nprompts_train agreement with the gold ({time.perf_counter() - start:.1f} s for all prompts):")
    print("| function | gold triple | prompts | top answer = gold | gold in top 10 |\n|---|---|---|---|---|")
    total = Counter()
    for function in ("tail_entity", "head_entity", "relation"):
        for seen in ("train triple", "not in train"):
            n = rows[(function, seen, "n")]
            if n:
                one, ten = rows[(function, seen, "top1")], rows[(function, seen, "top10")]
                total.update(n=n, one=one, ten=ten)
                print(f"| {function} | {seen} | {n} | {one / n:.3f} | {ten / n:.3f} |")
        if rows[(function, "refused", "")]:
            print(f"| {function} | refused | {rows[(function, 'refused', '')]} | - | - |")
    print(
        f"| all answered | | {total['n']} | {total['one'] / max(total['n'], 1):.3f} | {total['ten'] / max(total['n'], 1):.3f} |"
    )
    if refused:
        print(f"refusals: {dict(refused)}")


def social(name: str, force: bool) -> None:
    print(f"\n## Communities on {name}  (load avg {load()})")
    print(
        "| method | modularity | communities | largest | average size | k grid (modularity) | seconds (recorded) |"
    )
    print("|---|---|---|---|---|---|---|")
    model = None
    for method in ("kmeans", "louvain"):
        model = CommunityModel(name, method=method)
        report, _, _ = timed(lambda m=model: m.ensure(progress=True, force=force))
        m = report.metrics
        grid = ", ".join(
            f"{k.removeprefix('modularity_k')}: {v:.3f}" for k, v in m.items() if k.startswith("modularity_k")
        )
        print(
            f"| {method} | {m['modularity']:.4f} | {int(m['communities'])} | {int(m['max_size'])} | "
            f"{m['avg_size']:.1f} | {grid or '-'} | {report.seconds:.1f} |"
        )
    assert model is not None
    users = [u for line in prompt_lines("social_networks", name) for u in USERS.findall(line)]
    resolved = 0
    for user in users:
        try:
            model.community(f"user#{user}")
            resolved += 1
        except GraphModelError:
            pass
    golds = Counter(
        row.rsplit("Reasoning Result:", 1)[-1].strip() for row in prompt_lines("social_networks", name)
    )
    print(
        f"prompt user ids resolvable in the anonymised data: {resolved} of {len(users)} (gold answers: {dict(golds)})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kge", nargs="*", default=["wordnet", "freebase"])
    parser.add_argument("--social", nargs="*", default=["foursquare", "twitter"])
    parser.add_argument("--force", action="store_true", help="retrain instead of loading cached models")
    args = parser.parse_args()
    import torch

    print(f"cores: {os.cpu_count()}, torch threads: {torch.get_num_threads()}, load avg: {load()}")
    for name in args.kge:
        kge(name, args.force)
    for name in args.social:
        social(name, args.force)


if __name__ == "__main__":
    main()
