"""Summary, Markdown report and plot of a GAR eval run (either execution mode).

``summary.json`` holds, overall and per task: structural accuracy, label
agreement, LLM calls and tokens per question (split master / node agents),
seconds per question, graph sizes, and in agents mode the share of questions
the node agents ran and their agreement with compiled mode. ``report.md``
shows it as a table; ``accuracy_time.png`` plots accuracy, time and LLM calls
against graph size (nodes, doubling bins). :func:`compare_gar_runs` puts
several run folders (e.g. compiled and agents mode on the same items) side by
side in ``modes.md`` and ``modes.png``. Tables, the page layout and the
report files go through the shared code of :mod:`graphreason.evals.report`.
"""

from __future__ import annotations

import json
import statistics
from collections import defaultdict
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from graphreason.evals.gar.graphinstruct import GRAPHINSTRUCT_TASKS
from graphreason.evals.report import (
    Records,
    ReportKind,
    ReportPaths,
    errors_section,
    image,
    markdown_page,
    markdown_table,
    mean,
    section,
    write_report_files,
)
from graphreason.evals.runner import load_records

FIRST_BIN = 5  # size bins start at 5 nodes and double: 5-9, 10-19, 20-39, ...
RECORD_KEY = "gar"  # the runner's record key of compiled mode; other modes append "-<mode>"


def execute_note(output: dict[str, Any]) -> dict[str, Any]:
    """A GAR run's execute-step trace note (engine, rounds and, in agents mode, the comparison); {} when none."""
    for note in output.get("trace") or []:
        if isinstance(note, dict) and note.get("step") == "execute" and "engine" in note:
            return note
    return {}


def record_mode(mode: str) -> str:
    """The runner's record key of a GAR eval mode (so one records file never mixes modes)."""
    return RECORD_KEY if mode == "compiled" else f"{RECORD_KEY}-{mode}"


def _median(values: Sequence[float]) -> float | None:
    return statistics.median(values) if values else None


def _usagemean(usage: Sequence[dict[str, Any]], key: str) -> float | None:
    """Mean of a usage counter over the questions that report it (older records may not)."""
    return mean([float(u[key]) for u in usage if key in u])


def _row(records: Sequence[dict[str, Any]]) -> dict[str, Any]:
    ok = [r for r in records if r.get("status") == "ok"]
    scores = [r.get("scores") or {} for r in ok]
    usage = [r.get("usage") or {} for r in ok]
    nodes = [s["n_nodes"] for s in scores if "n_nodes" in s]
    row: dict[str, Any] = {
        "n": len(records),
        "ok": len(ok),
        "errors": len(records) - len(ok),
        # errors count as wrong: a failed question is not an answered one
        "accuracy": sum(s.get("correct", 0.0) for s in scores) / len(records) if records else None,
        "label_agreement": mean([s["label_match"] for s in scores if "label_match" in s]),
        "algorithm_accuracy": mean([s["algorithm_right"] for s in scores if "algorithm_right" in s]),
        "fallback_rate": mean([s["fallback"] for s in scores if "fallback" in s]),
        "llm_calls_per_q": mean([float(u.get("llm_calls", 0)) for u in usage]),
        "tokens_per_q": mean([float(u.get("tokens", 0)) for u in usage]),
        "master_calls_per_q": _usagemean(usage, "master_calls"),
        "master_tokens_per_q": _usagemean(usage, "master_tokens"),
        "agent_calls_per_q": _usagemean(usage, "agent_calls"),
        "agent_tokens_per_q": _usagemean(usage, "agent_tokens"),
        "seconds_per_q": mean([float(r.get("seconds", 0.0)) for r in ok]),
        # the median ignores the one slow question that loads the models
        "median_seconds_per_q": _median([float(r.get("seconds", 0.0)) for r in ok]),
        "mean_nodes": mean(nodes),
        "min_nodes": int(min(nodes)) if nodes else None,
        "max_nodes": int(max(nodes)) if nodes else None,
        "mean_edges": mean([s["n_edges"] for s in scores if "n_edges" in s]),
        # agents mode: how many questions the node agents ran, and how well they matched compiled mode
        "agent_share": mean([s["agent_engine"] for s in scores if "agent_engine" in s]),
        # engine=spark: how many questions Spark ran (the rest are not vertex programs and ran on one machine)
        "spark_share": mean([s["spark_engine"] for s in scores if "spark_engine" in s]),
        "agents_answered": mean([s["agents_answered"] for s in scores if "agents_answered" in s]),
        "agreement": mean([s["agree"] for s in scores if "agree" in s]),
        "agent_complete": mean([s["agent_complete"] for s in scores if "agent_complete" in s]),
        "agent_rounds_per_q": mean([s["agent_rounds"] for s in scores if "agent_rounds" in s]),
        "bad_replies_per_q": _usagemean(usage, "agent_bad_replies"),
    }
    paths = [s["path_valid"] for s in scores if "path_valid" in s]
    if paths:
        row["path_validity"] = mean(paths)
    return row


def summarize_gar(records: Sequence[dict[str, Any]], meta: dict[str, Any]) -> dict[str, Any]:
    """Per-task and overall rows (see :func:`_row`), errors, disagreements and summed question time."""
    by_task: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for record in records:
        by_task[str(record.get("template"))].append(record)
    order = [t for t in GRAPHINSTRUCT_TASKS if t in by_task] + sorted(set(by_task) - set(GRAPHINSTRUCT_TASKS))
    errors = [{"qid": r["qid"], "error": r.get("error")} for r in records if r.get("status") != "ok"]
    disagree = [
        str(r["qid"])
        for r in records
        if r.get("status") == "ok" and (r.get("scores") or {}).get("agree") == 0.0
    ]
    return {
        **meta,
        "overall": _row(records),
        "tasks": {task: _row(by_task[task]) for task in order},
        "wall_seconds": sum(float(r.get("seconds", 0.0)) for r in records),
        "errors": errors,
        "disagreements": disagree,
    }


# ------------------------------------------------------------------ tables
_COMMON = (
    ("n", "n"),
    ("accuracy", "accuracy"),
    ("label_agreement", "label agreement"),
    ("path_validity", "path validity"),
    ("algorithm_accuracy", "right algorithm"),
    ("fallback_rate", "fallback"),
    ("llm_calls_per_q", "LLM calls/q"),
    ("tokens_per_q", "tokens/q"),
    ("seconds_per_q", "s/q"),
    ("mean_nodes", "mean nodes"),
    ("errors", "errors"),
)
_AGENTS = (
    ("n", "n"),
    ("accuracy", "accuracy"),
    ("agent_share", "run by agents"),
    ("agents_answered", "agents answered"),
    ("agreement", "agrees with compiled"),
    ("agent_complete", "finished"),
    ("master_calls_per_q", "master calls/q"),
    ("master_tokens_per_q", "master tokens/q"),
    ("agent_calls_per_q", "agent calls/q"),
    ("agent_tokens_per_q", "agent tokens/q"),
    ("agent_rounds_per_q", "rounds/q"),
    ("bad_replies_per_q", "bad replies/q"),
    ("seconds_per_q", "s/q"),
    ("min_nodes", "min nodes"),
    ("max_nodes", "max nodes"),
    ("errors", "errors"),
)


def gar_table(summary: dict[str, Any]) -> str:
    """Markdown table: one row per task plus the overall row (agent columns in agents mode, a Spark column
    when the run asked for the Spark engine)."""
    columns = _AGENTS if summary.get("mode") == "agents" else _COMMON
    if summary.get("engine") == "spark" and summary.get("mode") != "agents":
        columns = (*columns[:-1], ("spark_share", "run on Spark"), columns[-1])
    return markdown_table({**summary["tasks"], "**all**": summary["overall"]}, "task", columns)


_MODES_COLUMNS = (
    ("n", "n"),
    ("accuracy", "accuracy"),
    ("agreement", "agrees with compiled"),
    ("same_as_first", "same answer as first run"),
    ("llm_calls_per_q", "LLM calls/q"),
    ("tokens_per_q", "tokens/q"),
    ("seconds_per_q", "s/q"),
    ("median_seconds_per_q", "median s/q"),
    ("mean_nodes", "mean nodes"),
)


def modes_table(summaries: Mapping[str, dict[str, Any]]) -> str:
    """Several runs side by side (label -> summary): one row per task and run, then the overall rows."""
    tasks: list[str] = []
    for summary in summaries.values():
        tasks += [t for t in summary["tasks"] if t not in tasks]
    rows: dict[tuple[str, str], dict[str, Any]] = {}
    for task in [*tasks, "**all**"]:
        for label, summary in summaries.items():
            row = summary["overall"] if task == "**all**" else summary["tasks"].get(task)
            if row is not None:
                rows[(task, label)] = row
    return markdown_table(rows, ("task", "run"), _MODES_COLUMNS)


# ------------------------------------------------------------------ plot
def size_bin(n: float) -> int:
    """The start of ``n``'s doubling bin (5, 10, 20, 40, ...)."""
    edge = FIRST_BIN
    while edge * 2 <= n:
        edge *= 2
    return edge


def _binned(records: Sequence[dict[str, Any]]) -> dict[int, list[dict[str, Any]]]:
    bins: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for record in records:
        n = (record.get("scores") or {}).get("n_nodes")
        if record.get("status") == "ok" and n:
            bins[size_bin(n)].append(record)
    return dict(sorted(bins.items()))


def _seconds_axis(axis: Any, seconds: Sequence[float]) -> None:
    """A time axis with several labelled ticks: linear for a narrow range, log (1-2-5 ticks, plain numbers)
    when the times span more than a factor of 20."""
    from matplotlib.ticker import FuncFormatter, LogLocator, NullLocator

    if seconds and max(seconds) > 20 * min(seconds):
        axis.set_yscale("log")
        axis.yaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
        axis.yaxis.set_minor_locator(NullLocator())
        axis.yaxis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:g}"))
    else:
        axis.set_ylim(bottom=0)
        axis.margins(y=0.15)


def plot_gar(records: Sequence[dict[str, Any]], path: Path, title: str = "") -> None:
    """Accuracy (and agreement with compiled mode), median seconds and LLM calls per question vs graph size."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import NullLocator

    bins = _binned(records)
    xs = list(bins)
    rows = [_row(bins[x]) for x in xs]
    fig, (acc, sec, calls) = plt.subplots(1, 3, figsize=(14, 4))
    acc.plot(xs, [r["accuracy"] for r in rows], marker="o", label="structural accuracy")
    if any(r["agreement"] is not None for r in rows):
        agree = [r["agreement"] for r in rows]
        acc.plot(xs, agree, marker="s", linestyle="--", label="agents agree with compiled")
    acc.set(ylim=(-0.05, 1.05), ylabel="share of questions", title="Accuracy vs graph size")
    acc.legend(fontsize=8, loc="lower left")
    seconds = [r["median_seconds_per_q"] for r in rows]
    sec.plot(xs, seconds, marker="o", color="tab:orange")
    sec.set(ylabel="median seconds per question", title="Time vs graph size")
    _seconds_axis(sec, [t for t in seconds if t])
    if any(r["agent_calls_per_q"] for r in rows):
        calls.plot(xs, [r["master_calls_per_q"] for r in rows], marker="o", label="master")
        calls.plot(xs, [r["agent_calls_per_q"] for r in rows], marker="s", label="node agents")
        calls.legend(fontsize=8)
    else:
        calls.plot(xs, [r["llm_calls_per_q"] for r in rows], marker="o", color="tab:green")
    calls.set(ylabel="LLM calls per question", title="LLM calls vs graph size")
    calls.set_ylim(bottom=0)
    calls.margins(y=0.15)
    for axis in (acc, sec, calls):
        axis.set(xscale="log", xlabel="graph size (nodes; doubling bins, bin start)")
        axis.xaxis.set_minor_locator(NullLocator())  # log-axis minor labels (6x10^0 ...) only clutter the bins
        if xs:
            axis.set_xticks(xs, [str(x) for x in xs], rotation=45 if len(xs) > 6 else 0, fontsize=8)
    for x, row in zip(xs, rows, strict=True):
        acc.annotate(
            f"n={row['n']}", (x, row["accuracy"]), textcoords="offset points", xytext=(0, 6), fontsize=7
        )
    if title:
        fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


# ------------------------------------------------------------------ report
_EXPLAIN = (
    "Accuracy is structural (checked against the parsed graph); errors count as wrong. "
    "Label agreement compares the value with the dataset's label (not meaningful for topology, "
    "where any valid order is right, nor for GraphInstruct's hamilton labels, which are mostly wrong). "
    "Path validity: share of returned Hamiltonian paths that visit every node once along edges. "
    "Right algorithm: the run used the task's algorithm; fallback: the master's reply was unusable "
    "and the detected task chose the algorithm."
)
_EXPLAIN_AGENTS = (
    "Agents mode: each node is an LLM agent (several per call), rounds fan out with Send. "
    "Run by agents: share of questions whose algorithm has an agent form (the rest ran compiled). "
    "Agents answered: share of questions where at least one agent round ran, no node agent call failed "
    "and the run was not cut short. Agrees with compiled: among those, the node agents' answer equals "
    "the compiled engine's on the same graph (the others are not compared). "
    "Finished: the run ended by the algorithm's own termination (not the call or round cap). "
    "Master / agent calls and tokens are counted per LLM call by the node that made it. "
    "Bad replies: node-agent replies that were not readable JSON. Accuracy is structural, errors count as wrong."
)


def _facts(summary: dict[str, Any]) -> list[str]:
    overall = summary["overall"]
    facts = [
        f"dataset: {summary.get('dataset')}" + (f" ({summary['path']})" if summary.get("path") else ""),
        f"mode: {summary.get('mode', 'compiled')}",
        f"master model: {summary.get('master_model')}; embedding: {summary.get('embedding_model')}",
    ]
    if summary.get("mode") == "agents":
        facts.append(
            f"node-agent model: {summary.get('agent_model')}; {summary.get('agent_batch_size')} node "
            f"agents per call; at most {summary.get('max_agent_calls')} agent calls per question"
        )
    if summary.get("engine") == "spark" and summary.get("mode") != "agents":
        facts.append(
            f"engine: spark (master {summary.get('spark_master')}); run on Spark: the share of questions whose "
            "algorithm ran there (the ones that are not vertex programs run on one machine)"
        )
    if summary.get("max_nodes"):
        facts.append(f"graphs of at most {summary['max_nodes']} nodes")
    facts.append(
        f"questions: {overall['n']} ({overall['errors']} errors); summed question time "
        f"{summary['wall_seconds']:.1f} s"
    )
    return facts


_PLOT_ALT = "accuracy, time and LLM calls vs graph size"


def render_gar(summary: dict[str, Any], plot_name: str) -> str:
    """The Markdown report of a summary produced by :func:`summarize_gar`."""
    disagreements = summary["disagreements"]
    return markdown_page(
        summary.get("title", "GAR evaluation"),
        _facts(summary),
        _EXPLAIN_AGENTS if summary.get("mode") == "agents" else _EXPLAIN,
        gar_table(summary),
        image(_PLOT_ALT, plot_name),
        section(
            "Agent answers that differ from compiled mode", ", ".join(f"`{q}`" for q in disagreements[:50])
        )
        if disagreements
        else None,
        errors_section(summary["errors"]),
    )


def _plot(records: Records, summary: dict[str, Any], path: Path) -> None:
    plot_gar(records, path, str(summary.get("title", "")))


GAR_REPORT = ReportKind(summarize=summarize_gar, render=render_gar, plot=_plot, plot_name="accuracy_time.png")


def write_gar_report(records: Records, out_dir: Path, meta: dict[str, Any]) -> ReportPaths:
    """Write ``summary.json``, ``report.md`` and ``accuracy_time.png``; return their paths."""
    return write_report_files(records, out_dir, meta, GAR_REPORT)


# ------------------------------------------------------------------ several runs
_SUMMARY_PARTS = ("overall", "tasks", "wall_seconds", "errors", "disagreements")


def _run_records(folder: Path, summary: dict[str, Any]) -> list[dict[str, Any]]:
    key = record_mode(str(summary.get("mode", "compiled")))
    return [r for r in load_records(folder / "records.jsonl") if r["mode"] == key]


def compare_gar_runs(runs: Mapping[str, str | Path], out_dir: str | Path) -> tuple[Path, Path]:
    """Side-by-side report of GAR run folders (label -> folder): ``modes.md`` and ``modes.png``.

    The table has one row per task and run (:func:`modes_table`); the plot
    shows each run's accuracy, seconds and LLM calls per question by graph size.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    if not runs:
        raise ValueError("compare_gar_runs needs at least one run folder")
    summaries, records = {}, {}
    for label, folder in runs.items():
        path = Path(folder) / "summary.json"
        if not path.is_file():
            raise FileNotFoundError(
                f"run folder {folder} has no summary.json (run `graphreason eval gar` first)"
            )
        saved = json.loads(path.read_text(encoding="utf-8"))
        records[label] = _run_records(Path(folder), saved)
        # the rows are recomputed from the records, so older summaries get the current columns
        meta = {k: v for k, v in saved.items() if k not in _SUMMARY_PARTS}
        summaries[label] = summarize_gar(records[label], meta)
    first = next(iter(records))
    for label in list(records)[1:]:
        add_same_answer(summaries[label], records[first], records[label])
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    fig, (acc, sec, calls) = plt.subplots(1, 3, figsize=(14, 4))
    ticks: set[int] = set()
    for label, group in records.items():
        bins = _binned(group)
        xs, rows = list(bins), [_row(b) for b in bins.values()]
        ticks.update(xs)
        acc.plot(xs, [r["accuracy"] for r in rows], marker="o", label=label)
        sec.plot(xs, [r["median_seconds_per_q"] for r in rows], marker="o", label=label)
        calls.plot(xs, [r["llm_calls_per_q"] for r in rows], marker="o", label=label)
    acc.set(ylim=(-0.05, 1.05), ylabel="structural accuracy", title="Accuracy vs graph size")
    sec.set(yscale="log", ylabel="median seconds per question", title="Time vs graph size")
    calls.set(yscale="log", ylabel="LLM calls per question", title="LLM calls vs graph size")
    for axis in (acc, sec, calls):
        axis.set(xscale="log", xlabel="graph size (nodes; doubling bins, bin start)")
        axis.minorticks_off()
        if ticks:
            axis.set_xticks(sorted(ticks), [str(x) for x in sorted(ticks)])
        axis.legend(fontsize=8)
    fig.tight_layout()
    plot_path = out / "modes.png"
    fig.savefig(plot_path, dpi=110)
    plt.close(fig)
    facts = []
    for label, summary in summaries.items():
        model = summary.get("master_model")
        if summary.get("mode") == "agents":
            model = f"{model}; node agents: {summary.get('agent_model')}"
        engine = ""
        if summary.get("engine") == "spark":
            engine = f", Spark engine on {summary.get('spark_master')}"
        facts.append(f"**{label}**: {summary.get('mode', 'compiled')} mode{engine}, model {model}, {runs[label]}")
    if len(records) > 1:
        facts.append(
            f"*same answer as first run*: of the questions both this run and **{first}** answered, the share "
            "whose structured answers agree: numbers within a relative 1e-9, and a path or an order, where "
            "ties allow several, the same or both scored correct"
        )
    table_path = out / "modes.md"
    page = markdown_page(
        "GAR runs side by side", facts, modes_table(summaries), image(_PLOT_ALT, plot_path.name)
    )
    table_path.write_text(page, encoding="utf-8")
    return table_path, plot_path


def _close(a: Any, b: Any) -> bool:
    """Equal, numbers within a relative 1e-9 (two engines sum in different orders)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return a == b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return a == b or abs(a - b) <= 1e-9 * max(abs(a), abs(b), 1e-300)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_close(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_close(a[k], b[k]) for k in a)
    return a == b


def same_answer(first: dict[str, Any], other: dict[str, Any]) -> bool:
    """Whether two records of one question give the same structured answer.

    Numbers agree within a relative 1e-9. A path or an order (shortest path, topological order), where
    ties allow several right answers, agrees when both are the same or both are scored correct (with the
    same weight); the path shown beside a number is left out for the same reason.
    """
    a = dict((first.get("details") or {}).get("structured") or {})
    b = dict((other.get("details") or {}).get("structured") or {})
    for part in (a, b):
        part.pop("labels", None)
        if part.get("kind") not in ("path", "order"):
            part.pop("path", None)
    if a.get("kind") in ("path", "order") and a.get("kind") == b.get("kind") and a.get("value") != b.get("value"):
        both_right = (first.get("scores") or {}).get("correct") == 1.0 == (other.get("scores") or {}).get("correct")
        a.pop("value"), b.pop("value"), a.pop("path", None), b.pop("path", None)
        return both_right and _close(a, b)
    return _close(a, b)


def add_same_answer(
    summary: dict[str, Any], first: Sequence[dict[str, Any]], other: Sequence[dict[str, Any]]
) -> None:
    """Set ``same_as_first`` on ``summary``'s rows: the share of questions answered in both runs whose
    structured answers agree (:func:`same_answer`), per task and overall; None where no question is shared."""
    theirs = {str(r["qid"]): r for r in first if r.get("status") == "ok"}
    by_task: dict[str, list[float]] = defaultdict(list)
    for record in other:
        qid = str(record["qid"])
        if record.get("status") == "ok" and qid in theirs:
            by_task[str(record.get("template"))].append(float(same_answer(theirs[qid], record)))
    for task, row in summary["tasks"].items():
        row["same_as_first"] = mean(by_task.get(task, []))
    summary["overall"]["same_as_first"] = mean([v for values in by_task.values() for v in values])
