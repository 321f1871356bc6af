"""The one report module: tables, pages and the report files of every eval method.

Shared by every method (:mod:`graphreason.evals.driver` writes a run's files through it):
:func:`cell` formats every table value the same way, :func:`markdown_table`
renders summary rows, :func:`markdown_page` lays out a report page and
:func:`write_report_files` writes ``summary.json``, the plot and ``report.md``
for a method's :class:`ReportKind` (its summarizer, page and plot).

Graph Counselor's report is the second part of this module (:func:`summarize`,
:func:`write_report`); GAR's summarizer, page and plots are in
:mod:`graphreason.evals.gar.report`. Counselor scores are percentages (as in the papers):
``rouge_l`` is the recall variant the Graph Counselor paper reports,
``rouge_l_f1`` its F1, ``exact_match`` the normalised EM and ``judge`` the
LLM-judge share (only when a metric judge ran). Cost columns are means per
question over successful records.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, NamedTuple

Records = Sequence[dict[str, Any]]
Column = tuple[str, str]  # (row key, header)


class ReportPaths(NamedTuple):
    """Where :func:`write_report_files` put its files (also unpacks as ``report, summary, plot``)."""

    report: Path
    summary: Path
    plot: Path


@dataclass(frozen=True)
class ReportKind:
    """A method's report: what :func:`write_report_files` needs beyond the records."""

    summarize: Callable[[Records, dict[str, Any]], dict[str, Any]]  # (records, meta) -> summary
    render: Callable[[dict[str, Any], str], str]  # (summary, plot file name) -> Markdown page
    plot: Callable[[Records, dict[str, Any], Path], Any]  # (records, summary, PNG path)
    plot_name: str


def mean(values: Sequence[float]) -> float | None:
    """The mean, or ``None`` for no values."""
    return sum(values) / len(values) if values else None


# ------------------------------------------------------------------ tables


def cell(value: Any) -> str:
    """A table value, formatted the same for every method.

    ``-`` for a missing value, integers as they are, floats to about three
    significant digits: ``75.0`` (10 and above, and zero), ``4.50`` (from 1),
    ``0.833`` (below 1, e.g. a share).
    """
    if value is None:
        return "-"
    if isinstance(value, float):
        if value == 0 or abs(value) >= 10:
            return f"{value:.1f}"
        return f"{value:.2f}" if abs(value) >= 1 else f"{value:.3f}"
    return str(value)


def markdown_table(
    rows: Mapping[Any, Mapping[str, Any]],
    first_header: str | Sequence[str],
    columns: Sequence[Column] | None = None,
) -> str:
    """A Markdown table of summary rows keyed by their label, one column per ``(key, header)``.

    A label may be a tuple, one cell per header in ``first_header`` (e.g.
    task and run). ``columns`` defaults to Graph Counselor's; a column that no
    row has a value for is left out.
    """
    labels = [first_header] if isinstance(first_header, str) else list(first_header)
    columns = COLUMNS if columns is None else columns
    shown = [(k, h) for k, h in columns if any(row.get(k) is not None for row in rows.values())]
    lines = [
        "| " + " | ".join([*labels, *(h for _, h in shown)]) + " |",
        "|" + "---|" * (len(labels) + len(shown)),
    ]
    for label, row in rows.items():
        names = [label] if isinstance(label, str) else [str(x) for x in label]
        lines.append("| " + " | ".join([*names, *(cell(row.get(k)) for k, _ in shown)]) + " |")
    return "\n".join(lines)


# ------------------------------------------------------------------ pages


def section(heading: str, body: str) -> str:
    """A ``##`` section of a page."""
    return f"## {heading}\n\n{body}"


def image(alt: str, name: str) -> str:
    """A Markdown image (a plot written beside the page)."""
    return f"![{alt}]({name})"


def errors_section(errors: Sequence[Mapping[str, Any]], limit: int = 50) -> str:
    """The failed questions (``mode`` / ``qid``: error), or nothing when none failed."""
    if not errors:
        return ""
    lines = [
        "- " + " / ".join(f"`{e[k]}`" for k in ("mode", "qid") if k in e) + f": {e.get('error', '')}"
        for e in errors[:limit]
    ]
    return section(
        "Errors", f"{len(errors)} question(s) failed (a rerun retries them):\n\n" + "\n".join(lines)
    )


def markdown_page(title: str, facts: Iterable[str], *blocks: str | None) -> str:
    """A report page: the title, the facts as a list, then each non-empty block, a blank line apart."""
    parts = [f"# {title}", "", *(f"- {fact}" for fact in facts)]
    for block in blocks:
        if block:
            parts += ["", block]
    return "\n".join(parts) + "\n"


# ------------------------------------------------------------------ files


def write_summary(summary: dict[str, Any], path: Path) -> Path:
    """``summary.json``: the summary as indented UTF-8 JSON (values JSON lacks written as text)."""
    path.write_text(json.dumps(summary, indent=2, ensure_ascii=False, default=str) + "\n", encoding="utf-8")
    return path


def write_report_files(
    records: Records, out_dir: str | Path, meta: dict[str, Any] | None, kind: ReportKind
) -> ReportPaths:
    """Summarize ``records`` the method's way, then write ``summary.json``, its plot and ``report.md``."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    summary = kind.summarize(records, meta or {})
    paths = ReportPaths(report=out / "report.md", summary=out / "summary.json", plot=out / kind.plot_name)
    write_summary(summary, paths.summary)
    kind.plot(records, summary, paths.plot)
    page = kind.render(summary, paths.plot.name)
    others = (meta or {}).get("other_modes_in_folder")
    if others:  # the folder holds more than this report summarises: say so
        page = page.rstrip("\n") + (
            f"\n\nThis report covers this run's modes only. The run folder also holds records of "
            f"{', '.join(f'`{m}`' for m in others)}, not summarised here.\n"
        )
    paths.report.write_text(page, encoding="utf-8")
    return paths


# ================================================================== Graph Counselor's report

SCORE_KEYS = ("rouge_l", "rouge_l_f1", "exact_match", "judge", "rouge_l_first", "exact_match_first")
MODE_ORDER = ("base", "graph_cot", "no_reflection", "counselor")
LEVEL_ORDER = ("easy", "medium", "hard")
COLUMNS: tuple[Column, ...] = (
    ("n", "n"),
    ("errors", "err"),
    ("rouge_l", "Rouge-L"),
    ("rouge_l_f1", "RL-F1"),
    ("exact_match", "EM"),
    ("judge", "Judge"),
    ("exact_match_first", "EM 1st"),
    ("finals_refused", "Finish refused"),
    ("finals_mapped", "Finish mapped"),
    ("overturns_refused", "kept over reflection"),
    ("llm_calls", "LLM calls"),
    ("input_tokens", "tok in"),
    ("output_tokens", "tok out"),
    ("seconds_mean", "s/q"),
)


def aggregate(records: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """Counts, mean scores (in %) and mean costs of a group of records."""
    records = list(records)
    ok = [r for r in records if r.get("status") == "ok"]
    row: dict[str, Any] = {"n": len(records), "ok": len(ok), "errors": len(records) - len(ok)}
    for key in SCORE_KEYS:
        values = [float(r["scores"][key]) for r in ok if (r.get("scores") or {}).get(key) is not None]
        average = mean(values)
        row[key] = None if average is None else round(100.0 * average, 2)
        if key == "judge":
            row["judge_n"] = len(values)
    usage = [r.get("usage") or {} for r in ok]
    for key in ("llm_calls", "input_tokens", "output_tokens"):
        average = mean([float(u.get(key, 0) or 0) for u in usage])
        row[key] = None if average is None else round(average, 2)
    seconds = [float(r.get("seconds") or 0.0) for r in ok]
    row["seconds_mean"] = None if not seconds else round(sum(seconds) / len(seconds), 3)
    row["seconds_total"] = round(sum(seconds), 3)
    accepted = [bool(r.get("accepted")) for r in ok if r.get("accepted") is not None]
    row["accepted_rate"] = None if not accepted else round(100.0 * sum(accepted) / len(accepted), 2)
    checks = [action for r in ok for action in final_checks(r)]
    row["finals_refused"] = checks.count("refused")
    row["finals_mapped"] = checks.count("mapped")
    row["overturns_refused"] = sum(
        1 for r in ok for trial in _trials(r) if trial.get("kept_earlier")
    )  # a later trial's ungrounded answer did not replace a grounded one
    return row


def _trials(record: dict[str, Any]) -> list[dict[str, Any]]:
    trace = record.get("trace")
    trials = trace.get("trials") if isinstance(trace, dict) else None
    return [t for t in trials or [] if isinstance(t, dict)]


def final_checks(record: dict[str, Any]) -> list[str]:
    """What answer hygiene did to each Finish of a record: ``refused`` or ``mapped`` (kept ones are not listed)."""
    return [
        str(step["final_check"].get("action"))
        for trial in _trials(record)
        for step in trial.get("steps") or [] if isinstance(step, dict) and isinstance(step.get("final_check"), dict)
    ]


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


# ------------------------------------------------------------------ Counselor's page

_EXPLAIN = (
    "Scores in %: Rouge-L is LCS recall against the reference (the paper's RL), RL-F1 its F1, "
    "EM normalised exact match (lists as sets), Judge the LLM-judge share, EM 1st the first trial's EM. "
    "Costs are means per answered question."
)


def _nested_table(nested: dict[str, dict[str, dict[str, Any]]], header: str) -> str:
    flat = {f"{mode} / {key}": row for mode, rows in nested.items() for key, row in rows.items()}
    return markdown_table(flat, f"mode / {header}")


def render_markdown(summary: dict[str, Any], plot_name: str | None = None) -> str:
    """The Markdown report for a summary produced by :func:`summarize`."""
    facts = []
    for key in ("dataset", "path", "graph", "models", "settings", "records_file"):
        value = summary.get(key)
        if isinstance(value, dict):
            value = ", ".join(f"{k}={v}" for k, v in value.items() if v is not None)
        if value:
            facts.append(f"**{key}**: {value}")
    facts.append(f"**generated**: {summary['generated_at']}")
    return markdown_page(
        summary.get("title") or "Evaluation report",
        facts,
        _EXPLAIN,
        section("Per mode", markdown_table(summary["modes"], "mode")),
        section("Per mode and level", _nested_table(summary["by_level"], "level")),
        section("Per mode and template", _nested_table(summary["by_template"], "template")),
        section("Plot", image("scores per mode and level", plot_name)) if plot_name else None,
        errors_section(summary["errors"]),
    )


# ------------------------------------------------------------------ Counselor's plot


def labelled_bars(
    ax: Any, xs: Sequence[float], values: Sequence[float | None], width: float, digits: int = 0, **style: Any
) -> None:
    """Bars with their value written above each one, so that 0 and a missing value never look alike.

    A ``None`` value (not applicable, not measured) draws no bar and writes
    "n/a" on the axis instead; a 0 draws an empty bar labelled "0".
    """
    heights = [0.0 if v is None else float(v) for v in values]
    bars = ax.bar(list(xs), heights, width, **style)
    ax.bar_label(bars, labels=["n/a" if v is None else f"{v:.{digits}f}" for v in values], fontsize=7,
                 padding=2, rotation=90 if width < 0.3 else 0)


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
                values.append(row.get(metric))
            xs = [j + (i - (len(modes) - 1) / 2) * width for j in range(len(levels))]
            labelled_bars(ax, xs, values, width, label=mode)
        ax.set_xticks(range(len(levels)), levels)
        ax.set_ylabel("%")
        ax.set_ylim(0, 130)  # room for the value labels above a 100% bar and the legend above them
        ax.set_yticks(range(0, 101, 20))
        ax.set_title(_METRIC_NAMES.get(metric, metric))
        ax.grid(axis="y", alpha=0.3)
        if modes:
            ax.legend(fontsize="small", loc="upper center", ncols=len(modes))
    fig.suptitle(f"{summary.get('title') or 'Evaluation'}: score per mode and level")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)
    plt.close(fig)
    return path


def _plot(records: Records, summary: dict[str, Any], path: Path) -> None:
    plot_scores(summary, path)


COUNSELOR_REPORT = ReportKind(summarize=summarize, render=render_markdown, plot=_plot, plot_name="scores.png")


def write_report(records: Records, out_dir: Path, meta: dict[str, Any] | None = None) -> ReportPaths:
    """Write Graph Counselor's ``summary.json``, ``scores.png`` and ``report.md`` into ``out_dir``."""
    return write_report_files(records, out_dir, meta, COUNSELOR_REPORT)
