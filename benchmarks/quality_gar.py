"""GAR's answer quality on the shared GraphInstruct questions, written as a result file for the docs.

Runs ``graphreason eval gar`` (compiled mode, the embedded master, every task of the shared split unless
``--limit``) in a run folder of its own, then writes ``benchmarks/results/quality_gar.json``: per task the
questions, the accuracy, the share answered by the right algorithm and the share that needed the
deterministic fallback, plus the eval's own settings. Accuracy is checked against an exact reference
(networkx, or the structure itself where many answers are right); label agreement compares with the
dataset's own labels. ``docs/generate.py`` draws the quality table of
the GAR page and GAR's panel of the accuracy-against-the-paper plot from it.

    python benchmarks/quality_gar.py [--limit N] [--concurrency 2]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from record import write_result  # noqa: E402

KEPT = ("n", "accuracy", "label_agreement", "algorithm_accuracy", "fallback_rate", "errors", "mean_nodes", "max_nodes")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=None, help="at most N questions, spread over tasks")
    parser.add_argument("--concurrency", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="gar-quality-") as tmp:
        run = Path(tmp) / "run"
        command = [sys.executable, "-m", "graphreason.cli", "eval", "gar", "--dataset", "graphinstruct",
                   "--out", str(run), "--no-progress", "--concurrency", str(args.concurrency)]  # fmt: skip
        if args.limit:
            command += ["--limit", str(args.limit)]
        subprocess.run(command, check=True)
        summary = json.loads((run / "summary.json").read_text())
    settings = {key: summary.get(key) for key in ("mode", "dataset", "split", "master_model", "embedding_model", "engine")}
    by_task = {name: {key: row.get(key) for key in KEPT} for name, row in summary["tasks"].items()}
    overall = {key: summary["overall"].get(key) for key in KEPT}
    for name, row in by_task.items():
        print(f"{name:14s} n={row['n']:4d} accuracy={row['accuracy']:.3f} right algorithm={row['algorithm_accuracy']:.3f}")
    print(f"{'all':14s} n={overall['n']:4d} accuracy={overall['accuracy']:.3f}")
    write_result("quality_gar", {
        "questions": overall["n"], "accuracy": overall["accuracy"], "settings": settings,
        "by_task": by_task, "overall": overall,
    })  # fmt: skip


if __name__ == "__main__":
    main()
