"""How the shipped tuned GraphAgent classifies test nodes of its training graph and of an unseen graph.

Runs ``graphreason eval graphagent`` with embedded defaults on seeded samples of test nodes:

* ``cora``, sample seeds 0 and 7: the graph the agent's teacher episodes came from (training and
  validation nodes only); its test nodes were never trained on, so these rows are in-distribution;
* ``citeseer``: the unseen graph (another label set, never training data for any model here):
  out of distribution, the headline.

Each row reads the eval's summary: the faithful agent (the paper's commands only), and on Cora the tool
mode and the graph model alone, on the same nodes. CiteSeer gets no tool-mode or graph-model row: the
graph model is trained on the graph it classifies, and no model here is trained on an unseen graph
(the faithful agent only reads its training part's labels, as ``get_neighbors`` shows them). The result goes to
``benchmarks/results/quality_graphagent.json``; with ``--card`` it is also written into the shipped
card as ``generalization_scores`` with the adapter's digest. ``docs/generate.py`` draws the docs'
table from it.

    python benchmarks/quality_graphagent.py [--limit 200] [--card]
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

from graphreason.tools.core.loaders import UNSEEN_GRAPHS  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
CARD = ROOT / "llm" / "adapters" / "graphagent-agent" / "card.json"
# (dataset, sample seed, variants); CiteSeer gets no graph model, which would be a model trained on it
ROWS = (
    ("citeseer", 0, "faithful"),
    ("cora", 0, "faithful,tool,graph_model"),
    ("cora", 7, "faithful,tool,graph_model"),
)
KEPT = ("n", "accuracy", "macro_f1", "no_answer", "ended_answer", "llm_calls", "seconds")
UNSEEN, TEST_NODES = "unseen graph", "training graph, test nodes (in-distribution)"


def kind_of(dataset: str) -> str:
    return UNSEEN if dataset in UNSEEN_GRAPHS else TEST_NODES


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=200, help="test nodes per row (a seeded sample)")
    parser.add_argument(
        "--rows", default=None,
        help="rows as dataset:seed:variant+variant,... (default: "
        + ",".join(f"{d}:{s}:{v.replace(',', '+')}" for d, s, v in ROWS) + ")",
    )
    parser.add_argument("--card", action="store_true", help="also record the figures in the shipped card")
    parser.add_argument(
        "--out", default=None,
        help="keep each row's eval folder under this folder (a rerun resumes them; default: a temporary folder)",
    )
    args = parser.parse_args()
    rows_asked = ROWS
    if args.rows:
        rows_asked = tuple(
            (d, int(s), v.replace("+", ",")) for d, s, v in (part.split(":") for part in args.rows.split(","))
        )
    card = json.loads(CARD.read_text())
    rows, settings = [], None
    with tempfile.TemporaryDirectory(prefix="graphagent-quality-") as tmp:
        for dataset, seed, variants in rows_asked:
            run = Path(args.out or tmp) / f"{dataset}-{seed}"
            command = [sys.executable, "-m", "graphreason.cli", "eval", "graphagent", "--dataset", dataset,
                       "--variants", variants, "--limit", str(args.limit), "--sample-seed", str(seed),
                       "--out", str(run), "--no-progress"]  # fmt: skip
            subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
            summary = json.loads((run / "summary.json").read_text())
            row = {"dataset": dataset, "sample_seed": seed, "kind": kind_of(dataset), "part": summary["part"],
                   "split": summary["split"],
                   "variants": {name: {key: value.get(key) for key in KEPT}
                                for name, value in summary["variants"].items()}}  # fmt: skip
            rows.append(row)
            settings = settings or {"agent_model": summary.get("agent_model"), "settings": summary.get("settings")}
            for name, value in row["variants"].items():
                print(f"{dataset:9s} seed {seed}  {name:12s} n={value['n']:4d} accuracy={value['accuracy']:5.1f} "
                      f"macro F1={value['macro_f1']:5.1f} s/node={value['seconds']}")  # fmt: skip
    figures = {
        "rows": rows, "limit": args.limit,
        "adapter_sha256": (card.get("shipped") or {}).get("sha256"), **(settings or {}),
    }  # fmt: skip
    path = write_result("quality_graphagent", figures)
    if args.card:
        result = json.loads(path.read_text())
        card["generalization_scores"] = {key: result[key] for key in ("date", "commit", "command")} | {
            key: figures[key] for key in ("rows", "limit", "adapter_sha256")
        }
        CARD.write_text(json.dumps(card, indent=2, default=str) + "\n")


if __name__ == "__main__":
    main()
