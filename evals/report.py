"""Turn run records into tables, a Markdown report, a PNG plot and ``summary.json``.

Scores are percentages (as in the papers): ``rouge_l`` is the recall variant the
Graph Counselor paper reports, ``rouge_l_f1`` its F1, ``exact_match`` the
normalised EM and ``judge`` the LLM-judge share (only when a metric judge ran).
Cost columns are means per question over successful records.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

SCORE_KEYS = ("rouge_l", "rouge_l_f1", "exact_match", "judge", "rouge_l_first", "exact_match_first")
MODE_ORDER = ("base", "graph_cot", "no_reflection", "counselor")
LEVEL_ORDER = ("easy", "medium", "hard")


@dataclass(frozen=True)
class ReportPaths:
    """Where :func:`write_report` put its files."""

    report: Path
    summary: Path
    plot: Path


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def aggregate(records: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """Counts, mean scores (in %) and mean costs of a group of records."""
    records = list(records)
    ok = [r for r in records if r.get("status") == "ok"]
    row: dict[str, Any] = {"n": len(records), "ok": len(ok), "errors": len(records) - len(ok)}
    for key in SCORE_KEYS:
        values = [float(r["scores"][key]) for r in ok if (r.get("scores") or {}).get(key) is not None]
        mean = _mean(values)
        row[key] = None if mean is None else round(100.0 * mean, 2)
        if key == "judge":
            row["judge_n"] = len(values)
    usage = [r.get("usage") or {} for r in ok]
    for key in ("llm_calls", "input_tokens", "output_tokens"):
        mean = _mean([float(u.get(key, 0) or 0) for u in usage])
        row[key] = None if mean is None else round(mean, 2)
    seconds = [float(r.get("seconds") or 0.0) for r in ok]
    row["seconds_mean"] = None if not seconds else round(sum(seconds) / len(seconds), 3)
    row["seconds_total"] = round(sum(seconds), 3)
    accepted = [bool(r.get("accepted")) for r in ok if r.get("accepted") is not None]
    row["accepted_rate"] = None if not accepted else round(100.0 * sum(accepted) / len(accepted), 2)
    return row


def _ordered(keys: Iterable[str], order: Sequence[str]) -> list[str]:
    keys = set(keys)
    return [k for k in order if k in keys] + sorted(k for k in keys if k not in order)


def _group(records: Sequence[dict[str, Any]], field: str) -> dict[str, dict[str, list[dict[str, Any]]]]:
    groups: dict[str, dict[str, list[dict[str, Any]]]] = defaultdict(lambda: defaultdict(list))
    for r in records:
        groups[str(r["mode"])][str(r.get(field) or "-")].append(r)
    return groups


def summarize(records: Sequence[dict[str, Any]], meta: dict[str, Any] | None = None) -> dict[str, Any]:
    """The machine-readable summary: per mode, per mode x level and per mode x template."""
    by_mode: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in records:
        by_mode[str(r["mode"])].append(r)
    modes = _ordered(by_mode, MODE_ORDER)
    levels, templates = _group(records, "level"), _group(records, "template")
    return {
        "generated_at": datetime.now(UTC).isoformat(timespec="seconds"),
        **(meta or {}),
        "modes": {m: aggregate(by_mode[m]) for m in modes},
        "by_level": {
            m: {lv: aggregate(rs) for lv, rs in _sorted_items(levels[m], LEVEL_ORDER)} for m in modes
        },
        "by_template": {m: {t: aggregate(rs) for t, rs in _sorted_items(templates[m], ())} for m in modes},
        "errors": [
            {"mode": r["mode"], "qid": r["qid"], "error": r.get("error", "")}
            for r in records
            if r.get("status") != "ok"
        ],
    }


def _sorted_items(
    groups: dict[str, list[dict[str, Any]]], order: Sequence[str]
) -> list[tuple[str, list[dict[str, Any]]]]:
    return [(k, groups[k]) for k in _ordered(groups, order)]


# ------------------------------------------------------------------ Markdown

_COLUMNS = (
    ("n", "n"),
    ("errors", "err"),
    ("rouge_l", "Rouge-L"),
    ("rouge_l_f1", "RL-F1"),
    ("exact_match", "EM"),
    ("judge", "Judge"),
    ("exact_match_first", "EM 1st"),
    ("llm_calls", "LLM calls"),
    ("input_tokens", "tok in"),
    ("output_tokens", "tok out"),
    ("seconds_mean", "s/q"),
)


def _cell(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.1f}" if abs(value) >= 10 or value == 0 else f"{value:.2f}"
    return str(value)


def markdown_table(rows: dict[str, dict[str, Any]], first_header: str) -> str:
    """A Markdown table of aggregate rows keyed by their first-column label."""
    columns = [(k, h) for k, h in _COLUMNS if any(row.get(k) is not None for row in rows.values())]
    lines = [
        "| " + " | ".join([first_header] + [h for _, h in columns]) + " |",
        "|" + "---|" * (len(columns) + 1),
    ]
    for label, row in rows.items():
        lines.append("| " + " | ".join([label] + [_cell(row.get(k)) for k, _ in columns]) + " |")
    return "\n".join(lines)


def _nested_table(nested: dict[str, dict[str, dict[str, Any]]], header: str) -> str:
    flat = {f"{mode} / {key}": row for mode, rows in nested.items() for key, row in rows.items()}
    return markdown_table(flat, f"mode / {header}")


def render_markdown(summary: dict[str, Any], plot_name: str | None = None) -> str:
    """The Markdown report for a summary produced by :func:`summarize`."""
    title = summary.get("title") or "Evaluation report"
    parts = [f"# {title}", ""]
    for key in ("dataset", "path", "graph", "models", "settings", "records_file"):
        value = summary.get(key)
        if isinstance(value, dict):
            value = ", ".join(f"{k}={v}" for k, v in value.items() if v is not None)
        if value:
            parts.append(f"- **{key}**: {value}")
    parts += [
        f"- **generated**: {summary['generated_at']}",
        "",
        "Scores in %: Rouge-L is LCS recall against the reference (the paper's RL), RL-F1 its F1, "
        "EM normalised exact match (lists as sets), Judge the LLM-judge share, EM 1st the first trial's EM. "
        "Costs are means per answered question.",
        "",
        "## Per mode",
        "",
        markdown_table(summary["modes"], "mode"),
        "",
        "## Per mode and level",
        "",
        _nested_table(summary["by_level"], "level"),
        "",
        "## Per mode and template",
        "",
        _nested_table(summary["by_template"], "template"),
        "",
    ]
    if plot_name:
        parts += ["## Plot", "", f"![scores per mode and level]({plot_name})", ""]
    if summary["errors"]:
        parts += ["## Errors", "", f"{len(summary['errors'])} question(s) failed (a rerun retries them):", ""]
        parts += [f"- `{e['mode']}` / `{e['qid']}`: {e['error']}" for e in summary["errors"][:50]]
        parts.append("")
    return "\n".join(parts)


# ------------------------------------------------------------------ plot


_METRIC_NAMES = {
    "rouge_l": "Rouge-L recall",
    "exact_match": "Exact match",
    "judge": "LLM judge",
    "rouge_l_f1": "Rouge-L F1",
}


def plot_scores(
    summary: dict[str, Any], path: Path, metrics: Sequence[str] = ("rouge_l", "exact_match")
) -> Path:
    """Grouped bars, one panel per metric: score per mode, one group per level plus 'all'."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    modes = list(summary["modes"])
    levels = _ordered({lv for rows in summary["by_level"].values() for lv in rows}, LEVEL_ORDER) + ["all"]
    width = 0.8 / max(1, len(modes))
    panel_width = max(5.0, 1.3 * len(levels) + 1.5)
    fig, axes = plt.subplots(
        1, len(metrics), figsize=(panel_width * len(metrics), 4.0), dpi=110, squeeze=False
    )
    for ax, metric in zip(axes[0], metrics, strict=True):
        for i, mode in enumerate(modes):
            values = []
            for level in levels:
                row = summary["modes"][mode] if level == "all" else summary["by_level"][mode].get(level, {})
                values.append(row.get(metric) or 0.0)
            xs = [j + (i - (len(modes) - 1) / 2) * width for j in range(len(levels))]
            ax.bar(xs, values, width=width, label=mode)
        ax.set_xticks(range(len(levels)), levels)
        ax.set_ylabel("%")
        ax.set_ylim(0, 100)
        ax.set_title(_METRIC_NAMES.get(metric, metric))
        ax.grid(axis="y", alpha=0.3)
        if modes:
            ax.legend(fontsize="small")
    fig.suptitle(f"{summary.get('title') or 'Evaluation'}: score per mode and level")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)
    plt.close(fig)
    return path


def write_report(
    records: Sequence[dict[str, Any]], out_dir: Path, meta: dict[str, Any] | None = None
) -> ReportPaths:
    """Write ``summary.json``, ``scores.png`` and ``report.md`` into ``out_dir``."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    summary = summarize(records, meta)
    paths = ReportPaths(
        report=out_dir / "report.md", summary=out_dir / "summary.json", plot=out_dir / "scores.png"
    )
    paths.summary.write_text(json.dumps(summary, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    plot_scores(summary, paths.plot)
    paths.report.write_text(render_markdown(summary, paths.plot.name), encoding="utf-8")
    return paths
