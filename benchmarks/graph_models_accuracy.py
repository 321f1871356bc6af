"""Held-out accuracy of the topic and molecule graph models, and how they answer the prompts.

For each (model, dataset) the model is loaded from the cache or trained
(``--force`` retrains), then the script prints:

* the held-out metrics of its report (Cora: Planetoid public test split;
  CiteSeer: seeded stratified split; molecules: fold 1 of ``10fold_idx``),
  and the training seconds (timings on a shared machine are noisy);
* ``data=gold``: the share of ``prompts_train`` records whose gold answer is
  the dataset's own label for the record's id (checks the id / label mapping);
* ``model=gold``: the share whose gold answer the model predicts, over all
  records with a known id and over those whose id is in the held-out split.

``--cv`` runs the GIN paper's 10-fold protocol on the molecule datasets
instead (mean ± std of the last-epoch accuracy over folds, and of the epoch
with the best fold-averaged accuracy, which is how the paper reports).

    python benchmarks/graph_models_accuracy.py [--only cora,mutag] [--force]
    python benchmarks/graph_models_accuracy.py --cv [--only mutag,ptc] [--folds 10] [--epochs N]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a script from anywhere

from graphreason.tools.core.loaders.linqs_text import load_text_graph  # noqa: E402
from graphreason.tools.core.loaders.tu_gin import load_gin_dataset  # noqa: E402
from graphreason.tools.graph_models.base import GraphModelError  # noqa: E402
from graphreason.tools.graph_models.molecule import GIN_PAPER, MoleculeModel, cross_validate  # noqa: E402
from graphreason.tools.graph_models.prompt_golds import prompt_golds  # noqa: E402
from graphreason.tools.graph_models.topic import TopicModel  # noqa: E402

MODELS = {"cora": TopicModel, "citeseer": TopicModel} | {d: MoleculeModel for d in MoleculeModel.datasets}


def share(hits: int, total: int) -> str:
    return f"{hits / total:6.1%} of {total:>4}" if total else "   n/a"


def dataset_labels(name: str) -> dict[str, str]:
    """``id -> the dataset's own label`` as text, in the prompts' spelling."""
    if MODELS[name] is TopicModel:
        graph = load_text_graph(name)
        return dict(zip(graph.ids, graph.labels, strict=True))
    graphs = load_gin_dataset(name)
    return {str(i): str(int(v)) for i, v in enumerate(graphs.labels)}


def held_out_ids(model) -> set[str]:
    """Ids of the model's test split: paper ids for topics, instance numbers for molecules."""
    if isinstance(model, TopicModel):
        return {model.ids[i] for i in model.parts["test"]}
    return {str(int(i)) for i in model.parts["test"]}


def answer(model, node: str) -> str:
    return model.topic(node) if isinstance(model, TopicModel) else str(model.function(node))


def evaluate(name: str, force: bool) -> None:
    model = MODELS[name](name)
    start = time.perf_counter()
    report = model.ensure(progress=True, force=force)
    took = time.perf_counter() - start
    golds = prompt_golds(name)
    truth = dataset_labels(name)
    held_out = held_out_ids(model)
    data_hits = sum(truth.get(node) == gold for node, gold in golds)
    known = [(node, gold) for node, gold in golds if node in truth]
    model_hits = sum(answer(model, node) == gold for node, gold in known)
    test_records = [(node, gold) for node, gold in known if node in held_out]
    test_hits = sum(answer(model, node) == gold for node, gold in test_records)
    metrics = "  ".join(f"{k}={v:.3f}" for k, v in report.metrics.items() if k.endswith("accuracy"))
    # report.seconds is the training alone; took adds reading the data and importing torch
    how = f"trained in {report.seconds:.1f}s" + (f", loaded in {took:.1f}s" if report.cached else "")
    print(f"{report.domain}:{name:9} {metrics}  {how}")
    print(f"    split: {report.split}")
    print(
        f"    prompts: data=gold {share(data_hits, len(golds))} records | model=gold {share(model_hits, len(known))}"
        f" known ids, {share(test_hits, len(test_records))} held-out ids | unknown ids {len(golds) - len(known)}"
    )


def run_cv(name: str, folds: int, epochs: int | None) -> None:
    options = {"epochs": epochs} if epochs else {}
    result = cross_validate(name, folds=folds, progress=True, **options)
    print(
        f"seg_bert:{name:9} {folds}-fold GIN-0, {result['epochs']} epochs: "
        f"last epoch {100 * result['accuracy_mean']:.1f} ± {100 * result['accuracy_std']:.1f}  |  "
        f"best averaged epoch ({result['best_epoch']}) {100 * result['best_epoch_mean']:.1f} "
        f"± {100 * result['best_epoch_std']:.1f}  |  GIN paper {GIN_PAPER[name]}  |  {result['seconds']:.0f}s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="", help="comma-separated datasets (default: all)")
    parser.add_argument("--force", action="store_true", help="retrain even when a cached model exists")
    parser.add_argument("--cv", action="store_true", help="10-fold cross-validation of the molecule models")
    parser.add_argument("--folds", type=int, default=10)
    parser.add_argument(
        "--epochs", type=int, default=None, help="epochs per fold for --cv (default: the model's)"
    )
    args = parser.parse_args()
    names = [n.strip().lower() for n in args.only.split(",") if n.strip()] or list(MODELS)
    unknown = [n for n in names if n not in MODELS]
    if unknown:
        parser.error(f"unknown dataset(s) {unknown}; choose from {', '.join(MODELS)}")
    try:
        for name in names:
            if args.cv:
                if MODELS[name] is MoleculeModel:
                    run_cv(name, args.folds, args.epochs)
            else:
                evaluate(name, args.force)
    except GraphModelError as err:
        sys.exit(f"graph_models_accuracy: {err}")


if __name__ == "__main__":
    main()
