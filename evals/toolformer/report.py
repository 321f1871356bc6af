"""Summary, Markdown report and plot of a Graph-ToolFormer eval run, per dataset as the paper's Table 4.

Columns: API-Gen Acc as parsed trees (ours) and as strings (the paper's
stricter reading), Rouge-1/2/L/LSum and BLEU/BP on the generated statement
against the annotated one, and execution accuracy over the records whose gold
``Reasoning Result`` is a checkable value (``exec n`` of them). Scores are
percentages. A ``gold`` run scores the dataset's own annotations: an oracle
(generation metrics are 100 by construction; only execution says something).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from graphreason.evals import report as page
from graphreason.evals.toolformer.metrics import corpus_bleu

SCORES = ("api_gen_acc", "api_gen_acc_string", "parses", "grammar_edits", "rouge1", "rouge2", "rougeL", "rougeLsum")
COLUMNS = (
    ("n", "n"),
    ("errors", "err"),
    ("api_gen_acc", "API-Gen Acc"),
    ("api_gen_acc_string", "API-Gen (string)"),
    ("parses", "parses"),
    ("grammar_edits", "grammar edits"),
    ("rouge1", "R-1"),
    ("rouge2", "R-2"),
    ("rougeL", "R-L"),
    ("rougeLsum", "R-LSum"),
    ("bleu", "BLEU"),
    ("bp", "BP"),
    ("exec_acc", "Exec Acc"),
    ("exec_n", "exec n"),
    ("calls_ok", "calls run"),
    ("seconds_per_q", "s/q"),
)


def _pct(value: float | None) -> float | None:
    return None if value is None else round(100.0 * value, 2)


def _row(records: Sequence[dict[str, Any]]) -> dict[str, Any]:
    ok = [r for r in records if r.get("status") == "ok"]
    scores = [r.get("scores") or {} for r in ok]
    row: dict[str, Any] = {"n": len(records), "errors": len(records) - len(ok)}
    for key in SCORES:
        row[key] = _pct(page.mean([s[key] for s in scores if key in s]))
    row.update(corpus_bleu([str(r.get("prediction") or "") for r in ok], [str(r.get("gold") or "") for r in ok]))
    checked = [s["exec_correct"] for s in scores if "exec_correct" in s]
    row["exec_acc"] = _pct(page.mean(checked))
    row["exec_n"] = len(checked)
    row["calls_ok"] = _pct(page.mean([s["calls_ok"] for s in scores if "calls_ok" in s]))
    row["seconds_per_q"] = page.mean([float(r.get("seconds") or 0.0) for r in ok])
    return row


def summarize(records: page.Records, meta: dict[str, Any]) -> dict[str, Any]:
    by_mode: dict[str, dict[str, list[dict[str, Any]]]] = defaultdict(lambda: defaultdict(list))
    for record in records:
        by_mode[record["mode"]][str(record.get("graph") or "?")].append(record)
    return {
        **meta,
        "modes": {mode: _row([r for rs in groups.values() for r in rs]) for mode, groups in by_mode.items()},
        "by_dataset": {mode: {ds: _row(rs) for ds, rs in sorted(groups.items())} for mode, groups in by_mode.items()},
        "errors": [
            {"mode": r["mode"], "qid": r["qid"], "error": r.get("error", "")}
            for r in records if r.get("status") != "ok"
        ],
    }


def render(summary: dict[str, Any], plot_name: str) -> str:
    facts = [
        f"prompts: {summary.get('path')} ({summary.get('split')}), {summary.get('n_questions')} records",
        f"generator: {summary.get('generator_model')}"
        + (" (the dataset's own annotations: an oracle, not a model)" if summary.get("gold") else ""),
        f"few-shot examples: {summary.get('few_shot')}, embedding: {summary.get('embedding_model')}",
        "calls executed: " + ("yes" if summary.get("execute_calls", True) else "no (--no-execute: call writing only)"),
        "decoding held to the call grammar: " + ("yes" if summary.get("grammar") else "no"),
        f"records: {summary.get('records_file')}",
    ]
    tables = [
        page.section(f"{mode}: per dataset", page.markdown_table(
            {**summary["by_dataset"][mode], "all": summary["modes"][mode]}, "dataset", COLUMNS))
        for mode in summary["modes"]
    ]
    return page.markdown_page(
        summary.get("title") or "Graph-ToolFormer evaluation", facts, *tables, page.image("scores", plot_name),
        page.errors_section(summary.get("errors") or []),
    )


def plot(records: page.Records, summary: dict[str, Any], path: Path) -> None:
    """API-Gen Acc and execution accuracy per dataset (first mode)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    mode = next(iter(summary["by_dataset"]), None)
    rows = summary["by_dataset"].get(mode, {}) if mode else {}
    names = list(rows)
    fig, ax = plt.subplots(figsize=(max(6.0, 0.7 * len(names) + 2), 4.0), dpi=110)
    for offset, key, label in ((-0.2, "api_gen_acc", "API-Gen Acc"), (0.2, "exec_acc", "Exec Acc")):
        # no execution accuracy (calls not run, or no gold result) is "n/a", never a 0% bar
        page.labelled_bars(ax, [i + offset for i in range(len(names))], [rows[n].get(key) for n in names], 0.4,
                           label=label)
    ax.set_xticks(range(len(names)), names, rotation=45, ha="right")
    ax.set_ylim(0, 130)  # room for the value labels above a 100% bar and the legend above them
    ax.set_yticks(range(0, 101, 20))
    ax.set_ylabel("%")
    ax.legend(fontsize="small", loc="upper center", ncols=2)
    ax.set_title(f"{summary.get('title') or 'Graph-ToolFormer'}: {mode}")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


TOOLFORMER_REPORT = page.ReportKind(summarize=summarize, render=render, plot=plot, plot_name="scores.png")
