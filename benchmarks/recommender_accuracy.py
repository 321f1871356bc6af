"""Accuracy of the BPR recommender (LightGCN) and what Graph-ToolFormer's golds let us check.

For MovieLens-100K and Last.FM: Recall@10 / NDCG@10 on the leave-last-out
held-out items (the model's own report), beside two rankings that need no
training on the same split (random, and most-popular-in-training), and the
training seconds (the cached report's, unless ``--force`` retrains).

Then the prompts (``Graph_Toolformer/prompt/recommender_systems/<dataset>/
prompts_train``): how many ``bpr:recommendation`` / ``bpr:topk_recommendation``
calls there are, how many golds (``Reasoning Result:``) are checkable values
rather than "Unknown", how many of those ``score`` and ``observed`` reproduce,
and how many asked pairs are observed in the data.

    python benchmarks/recommender_accuracy.py [--dataset movielens] [--force]
"""

from __future__ import annotations

import argparse
import math
import re
from collections import Counter

import numpy as np

from graphreason.settings import dataset_dir
from graphreason.tools.core.loaders.interactions import leave_last_out, load_interactions
from graphreason.tools.graph_models.recommender import BPRModel, ranking_metrics
from graphreason.tools.toolformer.loaders.prompts import read_prompts

CALL = re.compile(r'"bpr:(recommendation|topk_recommendation)",\s*user#(\w+),\s*(?:\w+#)?(\w+)\)')


def popularity_metrics(name: str, seed: int = 0) -> dict[str, float]:
    """Recall@10 / NDCG@10 of ranking every unseen item by its number of training interactions."""
    data = load_interactions(name)
    split = leave_last_out(data, seed=seed)
    users, items = data.user[split.train], data.item[split.train]
    popularity = np.bincount(items, minlength=data.num_items).astype(np.float64)
    target = np.full(data.num_users, np.inf)
    target[split.test_user] = popularity[split.test_item]
    # items more popular than the held-out one (ties count in its favour), less those the user has seen
    ordered = np.sort(popularity)
    more = len(ordered) - np.searchsorted(ordered, target[split.test_user], side="right")
    seen_more = np.bincount(users, weights=popularity[items] > target[users], minlength=data.num_users)
    ranks = more - seen_more[split.test_user].astype(np.int64)
    return ranking_metrics(ranks)


def gold_agreement(model: BPRModel) -> dict[str, float]:
    """Counts over the dataset's prompts_train file (see the module docstring)."""
    path = (
        dataset_dir("Graph_Toolformer") / "prompt" / "recommender_systems" / model.dataset / "prompts_train"
    )
    counts: Counter[str] = Counter()
    scores: dict[bool, list[float]] = {True: [], False: []}  # asked pairs, by whether the data has them
    for record in read_prompts(path):
        call = CALL.search(record.output)
        if call is None:
            counts["records without a bpr call"] += 1
            continue
        function, user, arg = call.groups()
        value = (record.result or "").strip()
        checkable = value.lower() not in ("", "unknown")
        counts[f"{function}: calls"] += 1
        counts[f"{function}: golds that are a value (not Unknown)"] += checkable
        if function == "topk_recommendation":
            counts["topk_recommendation: golds reproduced by topk"] += checkable and model.topk(
                user, int(arg)
            ) == re.findall(r"i\d+", value)
            continue
        if not (model.has_user(user) and model.has_item(arg)):
            counts["recommendation: pairs with an unknown id"] += 1
            continue
        observed = model.observed(user, arg)
        score = model.score(user, arg)
        scores[observed is not None].append(score)
        number = _number(value) if checkable else None
        counts["recommendation: golds reproduced by score"] += number is not None and math.isclose(
            score, number, abs_tol=5e-4
        )
        counts["recommendation: golds reproduced by observed"] += number is not None and observed == number
    result: dict[str, float] = dict(counts)
    result["recommendation: pairs observed in the data"] = len(scores[True])
    for seen, label in ((True, "observed"), (False, "unobserved")):
        result[f"recommendation: mean score of {label} pairs"] = round(float(np.mean(scores[seen])), 3)
    # how often an observed pair outscores an unobserved one (AUC; observed pairs include training pairs)
    pos, neg = np.array(scores[True]), np.array(scores[False])
    result["recommendation: P(score observed > unobserved)"] = round(
        float((pos[:, None] > neg[None, :]).mean() + 0.5 * (pos[:, None] == neg[None, :]).mean()), 3
    )
    return result


def _number(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", choices=BPRModel.datasets, action="append")
    parser.add_argument("--force", action="store_true", help="retrain instead of reading the cached model")
    args = parser.parse_args()
    for name in args.dataset or BPRModel.datasets:
        model = BPRModel(name)
        report = model.ensure(progress=True, force=args.force)
        m = report.metrics
        popular = popularity_metrics(name, seed=model.seed)
        where = "cached run" if report.cached else "this run"
        print(
            f"== {name}: {int(m['test_users'])} test users ({int(m['test_items_by_time'])} held out by time)"
        )
        print(f"  LightGCN-BPR  Recall@10 {m['recall@10']:.4f}  NDCG@10 {m['ndcg@10']:.4f}")
        print(f"  popularity    Recall@10 {popular['recall@10']:.4f}  NDCG@10 {popular['ndcg@10']:.4f}")
        print(f"  random        Recall@10 {m['random_recall@10']:.4f}  (expected)")
        print(f"  training      {report.seconds:.1f} s wall ({where}); settings {report.settings}")
        for key, value in gold_agreement(model).items():
            print(f"  {key:55} {value:g}")


if __name__ == "__main__":
    main()
