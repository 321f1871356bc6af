"""GraphAgent's experience retrieval: what T_i / alpha change in the episodes a node is shown.

The paper scores a past episode by ``cos(E(title_i), E(title)) + T_i / alpha``
and leaves ``T_i`` and ``alpha`` undefined (see :mod:`graphreason.memory.experience`). A
lesson helps when its episode is about a similar paper (ideally one with the
same label) and shows a strategy that worked. This benchmark measures both for
every choice, with no LLM in the loop:

* the store holds one episode per Cora validation paper of the public split,
  "answered" by the node classifier (so about a fifth are failures, as an
  agent's would be);
* each test paper's title retrieves the top-k episodes;
* printed per (bonus, alpha): the share of retrieved episodes whose gold label
  is the query's, the share that are successes, and how often the majority
  label of the retrieved episodes is the query's label.

Run: ``python benchmarks/bench_graphagent_retrieval.py [--queries 1000] [--k 3] [--embedding minilm]``
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from graphreason.memory.experience import Episode, ExperienceMemory  # noqa: E402
from graphreason.memory.longterm import make_store  # noqa: E402
from graphreason.tools.core.loaders.node_data import load_node_data  # noqa: E402
from graphreason.tools.graph_models.hub import node_classifier  # noqa: E402

CHOICES = [("none", math.inf), ("success", 20.0), ("success", 5.0), ("success", 2.0), ("success", 1.0)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=1000, help="test papers used as queries")
    parser.add_argument("--k", type=int, default=3, help="episodes retrieved per query")
    parser.add_argument("--embedding", default="minilm", help="sentence encoder (minilm, hash, ...)")
    args = parser.parse_args()

    data = load_node_data("cora", "public")
    graph = data.graph
    model = node_classifier("cora", "public")
    titles = graph.titles or [""] * graph.num_nodes
    start = time.perf_counter()
    memory = ExperienceMemory(make_store(args.embedding, fields=("title",)), ("bench", "episodes"))
    for position in data.parts["val"]:
        node = graph.ids[int(position)]
        predicted = model.predict(node)[0]
        gold = graph.labels[int(position)]
        memory.add(Episode(node, "cora", titles[int(position)], [], predicted, gold, predicted == gold, 1))
    stored = time.perf_counter() - start
    episodes = len(data.parts["val"])
    successes = sum(1 for p in data.parts["val"] if model.predict(graph.ids[int(p)])[0] == graph.labels[int(p)])
    print(f"store: {episodes} episodes ({successes / episodes:.1%} successes), embedded in {stored:.1f} s")

    queries = [int(p) for p in data.parts["test"][: args.queries]]
    print(f"queries: {len(queries)} test titles, k={args.k}, encoder={args.embedding}")
    print(f"{'bonus':>8} {'alpha':>6} {'same label':>11} {'successes':>10} {'majority right':>15} {'s/query':>8}")
    for bonus, alpha in CHOICES:
        same = success = majority = 0
        begin = time.perf_counter()
        for position in queries:
            hits = memory.search(titles[position], k=args.k, alpha=alpha, bonus=bonus)  # type: ignore[arg-type]
            gold = graph.labels[position]
            same += sum(1 for episode, _ in hits if episode.gold == gold)
            success += sum(1 for episode, _ in hits if episode.success)
            top = Counter(episode.gold for episode, _ in hits).most_common(1)
            majority += int(bool(top) and top[0][0] == gold)
        shown = len(queries) * args.k
        per_query = (time.perf_counter() - begin) / len(queries)
        print(
            f"{bonus:>8} {alpha:>6g} {same / shown:>11.1%} {success / shown:>10.1%} "
            f"{majority / len(queries):>15.1%} {per_query:>8.3f}"
        )


if __name__ == "__main__":
    main()
