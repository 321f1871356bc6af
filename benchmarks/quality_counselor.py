"""How the shipped tuned reasoner does on graphs and wordings it was never trained on: a result file and its card.

For each graph, runs ``graphreason eval counselor --dataset programs`` (question programs over the
graph's own schema, ten wordings per shape, golds from an independent evaluator) with embedded
defaults, and reads its summary. Each graph is labelled from the adapter's card:

* ``unseen graph``: CiteSeer and Last.fm, never training data for any model here;
* ``never trained on``: a graph none of the adapter's training questions came from;
* ``held-out wording family``: a graph it trained on, asked only in the wording family the card says
  was held out of training (``--hold-out-family``): leave-one-wording-family-out;
* ``trained on (other questions)``: in-distribution (an adapter trained on every family), reported
  beside the rest, never pooled with them;
* ``never trained on, names unquoted``: the graphs of the first two kinds asked again with every node's
  name written bare (``--bare-names``), pooled apart (``--no-bare-names`` skips them);
* ``never trained on, evaluation-only wordings``: the graphs of the first two kinds asked again in the
  evaluation-only wording families (``--families`` all of ``EVAL_ONLY_FAMILIES``: sentence frames no model trained on,
  many of them phrasing relations their own way), one run per graph whose every question is worded in one of them at
  random; pooled apart, and per family, each question counted under its own family (``--no-others`` skips them). One
  run per family and graph asked fifteen times as many questions: some three hours here;
* ``never trained on, tied superlatives``: the graphs of the first two kinds asked again in the tie shapes
  (``--shapes most_tied fewest_tied extreme_feature_tied extreme_count_tied``: a superlative no single node wins,
  answered by every tied node); pooled apart (``--no-ties`` skips them).

The pooled exact match over the first two kinds is the headline (leave-one-graph-out, out of
distribution); the pooled held-out-family figure stands beside it. The result
goes to ``benchmarks/results/quality_counselor.json``; with ``--card`` it is also written into the
shipped card as ``generalization_scores`` with the adapter's digest, so the run banner quotes it only
while the card describes those exact bytes. ``docs/generate.py`` draws the docs' table from the result.

    python benchmarks/quality_counselor.py [--graphs wikispeedia,wn18rr,...] [--n-per-template 3] [--card] [--keep DIR]

``--keep`` leaves every run's records in DIR, so two commits can be compared question by question (each
program shape draws its questions from a stream of its own, so a shape added since asks nothing else anew).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from contextlib import nullcontext
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from record import write_result  # noqa: E402

from graphreason.evals.datasets.program_questions import BLIND_FAMILIES, EVAL_ONLY_FAMILIES, TIE_SHAPES  # noqa: E402
from graphreason.evals.runner import load_records  # noqa: E402
from graphreason.tools.core.loaders import UNSEEN_GRAPHS  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
CARD = ROOT / "llm" / "adapters" / "counselor-reasoner" / "card.json"
GRAPHS = ("wikispeedia", "wn18rr", "fb15k-237", "last-fm", "citeseer", "cora", "movielens")
KEPT = ("n", "exact_match", "rouge_l", "finals_refused", "finals_mapped", "seconds_mean", "llm_calls")


def trained_graphs(card: dict) -> set[str]:
    """The graphs the adapter's training questions came from (templates, program graphs, Cora's copies)."""
    data = card.get("data") or {}
    graphs = {str(g).lower() for g in [*(data.get("graphs") or []), *(data.get("program_graphs") or [])]}
    if data.get("undirected_cora_relations"):
        graphs.add("cora")
    if isinstance(card.get("earlier_stage"), dict):  # a second stage also carries what the first was trained on
        graphs |= trained_graphs(card["earlier_stage"])
    return graphs


UNSEEN, NEVER_TRAINED = "unseen graph", "never trained on"  # pooled: leave-one-graph-out
FAMILY_OUT = "held-out wording family"  # pooled apart: leave-one-wording-family-out
BARE = "never trained on, names unquoted"  # pooled apart: the leave-one-graph-out questions, names without quotes
OTHERS = "never trained on, evaluation-only wordings"  # pooled apart: the leave-one-graph-out graphs, EVAL_ONLY_FAMILIES
TIED = "never trained on, tied superlatives"  # pooled apart: the leave-one-graph-out graphs, TIE_SHAPES
IN_DISTRIBUTION = "trained on (other questions)"


def kind_of(graph: str, trained: set[str], held_out_family: str | None = None) -> str:
    if graph in UNSEEN_GRAPHS:
        return UNSEEN
    if graph not in trained:
        return NEVER_TRAINED
    return FAMILY_OUT if held_out_family else IN_DISTRIBUTION


def family_scores(run: Path) -> dict[str, list[float]]:
    """Each evaluation-only family's exact-match scores (0 or 1) in ``run``'s records, by each record's ``family``:
    one record per question (a resumed run's last), scored as the run's summary scores them (answered ones only)."""
    scores: dict[str, list[float]] = {}
    for record in load_records(run / "records.jsonl"):
        if record.get("status") == "ok":
            scores.setdefault(record["family"], []).append(float(record["scores"]["exact_match"]))
    return scores


def pooled(rows: list[dict]) -> tuple[float | None, int]:
    """Exact match over the rows' questions together, and how many there were."""
    n = sum(row["n"] for row in rows)
    return (round(sum(row["exact_match"] * row["n"] for row in rows) / n, 2) if n else None), n


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--graphs", default=",".join(GRAPHS), help=f"comma-separated (default {','.join(GRAPHS)})")
    parser.add_argument("--n-per-template", type=int, default=3, help="questions per program shape and graph")
    parser.add_argument("--card", action="store_true", help="also record the figures in the shipped card")
    parser.add_argument("--keep", metavar="DIR", help="keep each eval's run folder (records, summary) under DIR")
    parser.add_argument(
        "--no-bare-names", action="store_true",
        help="skip asking the graphs it never trained on again with their names unquoted",
    )  # fmt: skip
    parser.add_argument(
        "--no-others", action="store_true",
        help="skip asking the graphs it never trained on again in the evaluation-only wording families",
    )  # fmt: skip
    parser.add_argument(
        "--no-ties", action="store_true",
        help="skip asking the graphs it never trained on again in the tie shapes (a superlative no single node wins)",
    )  # fmt: skip
    args = parser.parse_args()
    card = json.loads(CARD.read_text())
    trained = trained_graphs(card)
    family = (card.get("data") or {}).get("held_out_family")
    rows, by_shape, settings, family_runs = {}, {}, None, {}
    with nullcontext(args.keep) if args.keep else tempfile.TemporaryDirectory(prefix="counselor-quality-") as tmp:
        graphs = [g.strip().lower() for g in args.graphs.split(",") if g.strip()]
        logo_graphs = [g for g in graphs if kind_of(g, trained, family) in (UNSEEN, NEVER_TRAINED)]
        bare = [] if args.no_bare_names else logo_graphs
        others = [] if args.no_others else logo_graphs
        tied = [] if args.no_ties else logo_graphs
        runs = [*((g, kind_of(g, trained, family)) for g in graphs), *((g, BARE) for g in bare),
                *((g, OTHERS) for g in others), *((g, TIED) for g in tied)]  # fmt: skip
        for graph, kind in runs:
            run = Path(tmp) / {BARE: f"{graph}-bare", OTHERS: f"{graph}-others", TIED: f"{graph}-tied"}.get(kind, graph)
            command = [sys.executable, "-m", "graphreason.cli", "eval", "counselor", "--dataset", "programs",
                       "--graph", graph, "--n-per-template", str(args.n_per_template), "--modes", "counselor",
                       "--out", str(run), "--no-progress"]  # fmt: skip
            if kind == FAMILY_OUT:
                command += ["--families", family]
            if kind == BARE:
                command += ["--bare-names"]
                graph = f"{graph} (names unquoted)"  # noqa: PLW2901 - the row's name
            if kind == OTHERS:
                command += ["--families", *EVAL_ONLY_FAMILIES, "--seed", "0"]
            if kind == TIED:
                command += ["--shapes", *TIE_SHAPES]
                graph = f"{graph} (ties)"  # noqa: PLW2901 - the row's name
            subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
            if kind == OTHERS:
                for name, found in family_scores(run).items():
                    family_runs.setdefault(name, []).extend(found)
                graph = f"{graph} (evaluation-only wordings)"  # noqa: PLW2901 - the row's name
            summary = json.loads((run / "summary.json").read_text())
            mode = summary["modes"]["counselor"]
            rows[graph] = {"kind": kind, **{key: mode.get(key) for key in KEPT}}
            by_shape[graph] = {
                name.removeprefix("program:"): {"n": row["n"], "exact_match": row["exact_match"]}
                for name, row in summary["by_template"]["counselor"].items()
            }
            settings = settings or {"models": summary["models"], "settings": summary["settings"]}
            print(f"{graph:12s} {rows[graph]['kind']:28s} n={mode['n']:3d} EM={mode['exact_match']:5.1f} "
                  f"refused={mode['finals_refused']} mapped={mode['finals_mapped']} s/q={mode['seconds_mean']:.2f}")  # fmt: skip
    logo, n = pooled([row for row in rows.values() if row["kind"] in (UNSEEN, NEVER_TRAINED)])
    lofo, n_family = pooled([row for row in rows.values() if row["kind"] == FAMILY_OUT])
    unquoted, n_bare = pooled([row for row in rows.values() if row["kind"] == BARE])
    fresh, n_others = pooled([row for row in rows.values() if row["kind"] == OTHERS])
    ties, n_tied = pooled([row for row in rows.values() if row["kind"] == TIED])
    by_family = {
        worded: {"exact_match": round(100 * sum(found) / len(found), 2), "questions": len(found)}
        for worded in EVAL_ONLY_FAMILIES if (found := family_runs.get(worded))
    }
    print(f"leave-one-graph-out, pooled over {n} questions: EM={logo}")
    if n_family:
        print(f"held-out wording family {family!r}, pooled over {n_family} questions: EM={lofo}")
    if n_bare:
        print(f"leave-one-graph-out with names unquoted, pooled over {n_bare} questions: EM={unquoted}")
    if n_others:
        print(f"leave-one-graph-out in the evaluation-only wordings, pooled over {n_others} questions: EM={fresh}")
        for worded, row in by_family.items():
            print(f"  {worded} wordings, pooled over {row['questions']} questions: EM={row['exact_match']}")
    if n_tied:
        print(f"leave-one-graph-out tied superlatives, pooled over {n_tied} questions: EM={ties}")
    figures = {
        "out_of_distribution_exact_match": logo, "out_of_distribution_questions": n,
        "held_out_family": family if n_family else None,
        "family_out_exact_match": lofo, "family_out_questions": n_family,
        "bare_names_exact_match": unquoted, "bare_names_questions": n_bare,
        "others_wording_exact_match": fresh, "others_wording_questions": n_others, "eval_only_by_family": by_family,
        "ties_exact_match": ties, "ties_questions": n_tied,
        # the evaluation-only families no grammar rule had read when this ran: their figures are first looks
        "blind_families": [name for name in BLIND_FAMILIES if name in by_family],
        "graphs": rows, "by_shape": by_shape, "n_per_template": args.n_per_template,
        "adapter_sha256": (card.get("shipped") or {}).get("sha256"), "trained_graphs": sorted(trained),
        **(settings or {}),
    }  # fmt: skip
    path = write_result("quality_counselor", figures)
    if args.card:
        result = json.loads(path.read_text())
        card["generalization_scores"] = {key: result[key] for key in ("date", "commit", "command")} | {
            key: figures[key] for key in ("out_of_distribution_exact_match", "out_of_distribution_questions",
                                          "held_out_family", "family_out_exact_match", "family_out_questions",
                                          "bare_names_exact_match", "bare_names_questions",
                                          "others_wording_exact_match", "others_wording_questions",
                                          "eval_only_by_family", "blind_families", "ties_exact_match", "ties_questions",
                                          "graphs", "n_per_template", "adapter_sha256")  # fmt: skip
        } | {"operation_planner": figures["models"].get("operation_planner")}
        CARD.write_text(json.dumps(card, indent=2, default=str) + "\n")


if __name__ == "__main__":
    main()
