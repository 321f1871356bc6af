"""Evaluate GraphAgent-Reasoner (compiled mode) on graph-reasoning question sets.

Answers are checked *by structure* against the graph parsed from the question
(:func:`tools.vertex.reference.check_answer`): any valid topological order,
any optimal path, yes/no in any spelling. Hamiltonian path is judged by
validating the returned path (GraphInstruct's hamilton labels are mostly
wrong), and agreement with the label is reported beside it for every task.

Records go to ``<out>/records.jsonl`` (resumable, see :mod:`evals.runner`);
``summary.json``, ``report.md`` and ``accuracy_time.png`` are written beside it.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from evals.datasets.graphinstruct import GRAPHINSTRUCT_TASKS, GraphTask, load_graph_tasks
from evals.runner import load_records, run_items
from tools.config import REPO_ROOT

DATASETS = ("graphinstruct", "generated")
MODE = "gar"
SolveFn = Callable[[str, Any], dict[str, Any]]


class GAREvalConfigError(ValueError):
    """The dataset, path or options of a GAR eval run do not fit together."""


@dataclass
class GAREvalResult:
    """What a GAR eval run produced."""

    records: list[dict[str, Any]]
    summary: dict[str, Any]
    records_path: Path
    report_path: Path
    summary_path: Path
    plot_path: Path


# ------------------------------------------------------------------ questions
def load_gar_items(
    dataset: str = "graphinstruct",
    path: str | Path | None = None,
    tasks: Sequence[str] | None = None,
    split: str = "dev",
    seed: int = 0,
    sizes: Sequence[int] | None = None,
) -> list[GraphTask]:
    """The questions of a run: a file/folder (``path``), the shared GraphInstruct split, or a generated set."""
    if dataset not in DATASETS:
        raise GAREvalConfigError(f"unknown dataset {dataset!r}; choose one of {', '.join(DATASETS)}")
    if tasks is not None:
        unknown = [t for t in tasks if t not in GRAPHINSTRUCT_TASKS]
        if unknown:
            raise GAREvalConfigError(f"unknown task(s) {unknown}; tasks: {', '.join(GRAPHINSTRUCT_TASKS)}")
    if path is not None:
        source = Path(path).expanduser()
        if not source.exists():
            raise GAREvalConfigError(f"question file or folder {source} does not exist")
        if source.is_dir() and dataset == "generated" and not list(source.glob(f"*_{split}.jsonl")):
            split = "generated"  # a folder written by save_gar_tasks
        return load_graph_tasks(source, split=split, tasks=tasks)
    if dataset == "graphinstruct":
        return load_graph_tasks(None, split=split, tasks=tasks)
    from evals.datasets.gar_generated import DEFAULT_SIZES, generate_gar_tasks

    return generate_gar_tasks(tasks=tasks, sizes=sizes or DEFAULT_SIZES, seed=seed)


def take_per_task(items: Sequence[GraphTask], limit: int | None) -> list[GraphTask]:
    """The first ``limit`` items taken round-robin over tasks (``--limit 45``: 5 per task)."""
    if limit is None or limit >= len(items):
        return list(items)
    if limit < 1:
        raise GAREvalConfigError(f"--limit must be at least 1, got {limit}")
    queues: dict[str, list[GraphTask]] = defaultdict(list)
    for item in items:
        queues[item.task].append(item)
    chosen: list[GraphTask] = []
    depth = 0
    while len(chosen) < limit:
        for queue in queues.values():
            if depth < len(queue) and len(chosen) < limit:
                chosen.append(queue[depth])
        depth += 1
    return chosen


def _as_record_item(item: GraphTask) -> dict[str, Any]:
    """The dict the runner stores: the task as template, the phrasing (if known) as level."""
    gold = item.gold
    text = ("Yes" if gold else "No") if isinstance(gold, bool) else json.dumps(gold)
    return {
        "qid": item.qid,
        "question": item.question,
        "answer": text,
        "template": item.task,
        "level": item.meta.get("phrasing") or item.meta.get("file"),
        "graph": None,
        "task_item": item,
    }


# ------------------------------------------------------------------ structural check
def structural_scores(item: GraphTask, structured: dict[str, Any]) -> dict[str, float]:
    """``correct`` (structural), ``label_match`` (value equals the gold label) and the graph size.

    The graph is parsed again from the question, independent of the run. For
    hamilton "yes" answers, ``path_valid`` says whether the returned path really
    visits every node once along edges; ``correct`` is that (or a verified "no").
    """
    from tools.vertex.reference import check_answer, normalize_task
    from workflows.gar.construct import build_problem
    from workflows.gar.execute import vertex_graph

    task = normalize_task(item.task)
    problem = build_problem(item.question)
    g = vertex_graph(problem, task)
    params = {k: v for k, v in problem.params.items() if k in ("source", "target")}
    if task == "substructure":
        params["pattern"] = problem.params["pattern"].to_networkx()
    if task == "bipartiteness":  # GraphInstruct writes arcs but means the undirected graph
        g = g.to_networkx().to_undirected()
    value = structured.get("value")
    scores: dict[str, float] = {"n_nodes": float(problem.n_nodes), "n_edges": float(len(problem.edges))}
    if structured.get("task") != task:
        scores.update(correct=0.0, label_match=0.0)  # the run answered another question
        return scores
    if task == "hamiltonian_path":
        path = structured.get("path")
        if value:  # a "yes" must come with a path that really is Hamiltonian
            correct = path is not None and check_answer(task, g, params, path)
            scores["path_valid"] = float(correct)
        else:
            correct = check_answer(task, g, params, value)
    else:
        correct = check_answer(task, g, params, value)
    scores["correct"] = float(bool(correct))
    gold = item.gold
    if isinstance(gold, bool) or isinstance(value, bool):
        scores["label_match"] = float(value is gold)
    elif isinstance(gold, int | float) and isinstance(value, int | float):
        scores["label_match"] = float(abs(float(value) - float(gold)) <= 1e-6 * max(1.0, abs(float(gold))))
    else:
        scores["label_match"] = float(value == gold)
    return scores


def _score(item: dict[str, Any], output: dict[str, Any]) -> dict[str, float]:
    """Structural scores plus whether the right algorithm ran and whether the fallback chose it."""
    from tools.vertex.reference import normalize_task

    structured = output.get("structured") or {}
    scores = structural_scores(item["task_item"], structured)
    scores["algorithm_right"] = float(structured.get("task") == normalize_task(item["task_item"].task))
    scores["fallback"] = float(bool(output.get("fallback_used")))
    return scores


# ------------------------------------------------------------------ summary, report, plot
def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _row(records: Sequence[dict[str, Any]]) -> dict[str, Any]:
    ok = [r for r in records if r.get("status") == "ok"]
    scores = [r.get("scores") or {} for r in ok]
    usage = [r.get("usage") or {} for r in ok]
    row: dict[str, Any] = {
        "n": len(records),
        "ok": len(ok),
        "errors": len(records) - len(ok),
        # errors count as wrong: a failed question is not an answered one
        "accuracy": sum(s.get("correct", 0.0) for s in scores) / len(records) if records else None,
        "label_agreement": _mean([s["label_match"] for s in scores if "label_match" in s]),
        "algorithm_accuracy": _mean([s["algorithm_right"] for s in scores if "algorithm_right" in s]),
        "fallback_rate": _mean([s["fallback"] for s in scores if "fallback" in s]),
        "llm_calls_per_q": _mean([float(u.get("llm_calls", 0)) for u in usage]),
        "tokens_per_q": _mean([float(u.get("tokens", 0)) for u in usage]),
        "seconds_per_q": _mean([float(r.get("seconds", 0.0)) for r in ok]),
        "mean_nodes": _mean([s.get("n_nodes", 0.0) for s in scores]),
    }
    paths = [s["path_valid"] for s in scores if "path_valid" in s]
    if paths:
        row["path_validity"] = _mean(paths)
    return row


def summarize_gar(records: Sequence[dict[str, Any]], meta: dict[str, Any]) -> dict[str, Any]:
    """Per-task and overall accuracy, label agreement, LLM calls / tokens / seconds per question."""
    by_task: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for record in records:
        by_task[str(record.get("template"))].append(record)
    order = [t for t in GRAPHINSTRUCT_TASKS if t in by_task] + sorted(set(by_task) - set(GRAPHINSTRUCT_TASKS))
    errors = [{"qid": r["qid"], "error": r.get("error")} for r in records if r.get("status") != "ok"]
    return {
        **meta,
        "overall": _row(records),
        "tasks": {task: _row(by_task[task]) for task in order},
        "wall_seconds": sum(float(r.get("seconds", 0.0)) for r in records),
        "errors": errors,
    }


_COLUMNS = (
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


def _cell(value: Any) -> str:
    if value is None:
        return "–"
    if isinstance(value, float):
        return f"{value:.3f}" if value < 10 else f"{value:.1f}"
    return str(value)


def gar_table(summary: dict[str, Any]) -> str:
    """Markdown table: one row per task plus the overall row."""
    rows = {**summary["tasks"], "**all**": summary["overall"]}
    lines = ["| task | " + " | ".join(h for _, h in _COLUMNS) + " |", "|" + "---|" * (len(_COLUMNS) + 1)]
    for task, row in rows.items():
        lines.append(f"| {task} | " + " | ".join(_cell(row.get(k)) for k, _ in _COLUMNS) + " |")
    return "\n".join(lines)


def _plot(records: Sequence[dict[str, Any]], path: Path) -> None:
    """Accuracy and mean time per question against graph size (nodes, log-spaced bins)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    bins: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for record in records:
        n = (record.get("scores") or {}).get("n_nodes")
        if record.get("status") == "ok" and n:
            edge = 5
            while edge * 2 <= n:
                edge *= 2
            bins[edge].append(record)
    xs = sorted(bins)
    accuracy = [_mean([r["scores"].get("correct", 0.0) for r in bins[x]]) for x in xs]
    seconds = [_mean([float(r.get("seconds", 0.0)) for r in bins[x]]) for x in xs]
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    left.plot(xs, accuracy, marker="o")
    left.set(xscale="log", ylim=(-0.05, 1.05), xlabel="graph size (nodes, bin start)", ylabel="accuracy")
    left.set_title("Structural accuracy vs graph size")
    right.plot(xs, seconds, marker="o", color="tab:orange")
    right.set(xscale="log", xlabel="graph size (nodes, bin start)", ylabel="seconds per question")
    right.set_title("Time vs graph size")
    for axis, values in ((left, accuracy), (right, seconds)):
        for x, y, group in zip(xs, values, (bins[x] for x in xs), strict=False):
            axis.annotate(f"n={len(group)}", (x, y), textcoords="offset points", xytext=(0, 6), fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def write_gar_report(
    records: Sequence[dict[str, Any]], out_dir: Path, meta: dict[str, Any]
) -> tuple[Path, Path, Path]:
    """Write ``summary.json``, ``report.md`` and ``accuracy_time.png``; return their paths."""
    out_dir.mkdir(parents=True, exist_ok=True)
    summary = summarize_gar(records, meta)
    summary_path = out_dir / "summary.json"
    summary_path.write_text(json.dumps(summary, indent=2, ensure_ascii=False, default=str), encoding="utf-8")
    plot_path = out_dir / "accuracy_time.png"
    _plot(records, plot_path)
    overall = summary["overall"]
    lines = [
        f"# {meta.get('title', 'GAR evaluation')}",
        "",
        f"- dataset: {meta.get('dataset')}" + (f" ({meta['path']})" if meta.get("path") else ""),
        f"- master model: {meta.get('master_model')}; embedding: {meta.get('embedding_model')}",
        f"- questions: {overall['n']} ({overall['errors']} errors); summed question time "
        f"{summary['wall_seconds']:.1f} s",
        "",
        "Accuracy is structural (checked against the parsed graph); errors count as wrong. "
        "Label agreement compares the value with the dataset's label (not meaningful for topology, "
        "where any valid order is right, nor for GraphInstruct's hamilton labels, which are mostly wrong). "
        "Path validity: share of returned Hamiltonian paths that visit every node once along edges. "
        "Right algorithm: the run used the task's algorithm; fallback: the master's reply was unusable "
        "and the detected task chose the algorithm.",
        "",
        gar_table(summary),
        "",
        f"![accuracy and time vs graph size]({plot_path.name})",
        "",
    ]
    if summary["errors"]:
        lines += ["## Errors", ""] + [f"- `{e['qid']}`: {e['error']}" for e in summary["errors"][:50]] + [""]
    report_path = out_dir / "report.md"
    report_path.write_text("\n".join(lines), encoding="utf-8")
    return report_path, summary_path, plot_path


# ------------------------------------------------------------------ running
def default_out_dir(dataset: str, path: str | Path | None) -> Path:
    """A stable run folder, so rerunning the same command resumes the same run."""
    suffix = f"-{Path(path).stem}" if path else ""
    return REPO_ROOT / "runs" / f"gar-{dataset}{suffix}"


def run_gar_eval(
    dataset: str = "graphinstruct",
    path: str | Path | None = None,
    tasks: Sequence[str] | None = None,
    limit: int | None = None,
    concurrency: int = 1,
    out_dir: str | Path | None = None,
    master_model: Any = "local",
    embedding_model: str = "minilm",
    base_url: str | None = None,
    max_tokens: int | None = None,
    split: str = "dev",
    seed: int = 0,
    sizes: Sequence[int] | None = None,
    progress: bool = True,
    solve: SolveFn | None = None,
) -> GAREvalResult:
    """Answer every question with GAR, check each answer by structure, write the report.

    ``master_model`` is a spec string (``local``, ``openai:MODEL``,
    ``scripted:FILE.json`` - re-read per question) or a zero-argument callable
    returning a chat model (one per question). ``max_tokens`` caps the master's
    reply (default: the context's). ``solve`` replaces
    :func:`workflows.gar.solve` (tests). Finished questions in an existing
    ``records.jsonl`` are not run again.
    """
    if concurrency < 1:
        raise GAREvalConfigError(f"--concurrency must be at least 1, got {concurrency}")
    items = take_per_task(load_gar_items(dataset, path, tasks, split, seed, sizes), limit)
    if not items:
        raise GAREvalConfigError("the question set is empty")
    out = Path(out_dir) if out_dir else default_out_dir(dataset, path)
    records_path = out / "records.jsonl"

    from workflows.gar.context import GARContext

    if solve is None:
        from workflows.gar import solve as gar_solve

        solve = gar_solve

    def solve_item(item: dict[str, Any]) -> dict[str, Any]:
        # A fresh context per question: scripted models are bound to one context each.
        model = master_model() if callable(master_model) else master_model
        extra = {} if max_tokens is None else {"max_tokens": max_tokens}
        context = GARContext(master_model=model, embedding_model=embedding_model, base_url=base_url, **extra)
        return solve(item["question"], context)

    rows = [_as_record_item(item) for item in items]
    run_items(
        rows, solve_item, records_path, concurrency=concurrency, mode=MODE, progress=progress, score_fn=_score
    )
    wanted = {item.qid for item in items}
    records = [r for r in load_records(records_path) if r["mode"] == MODE and str(r["qid"]) in wanted]
    meta = {
        "title": "GraphAgent-Reasoner (compiled) evaluation",
        "dataset": dataset,
        "path": str(path) if path else None,
        "split": split,
        "tasks": list(tasks) if tasks else None,
        "limit": limit,
        "concurrency": concurrency,
        "master_model": master_model if isinstance(master_model, str) else type(master_model).__name__,
        "embedding_model": embedding_model,
        "max_tokens": max_tokens,
        "records_file": str(records_path),
        "n_questions": len(items),
    }
    report_path, summary_path, plot_path = write_gar_report(records, out, meta)
    summary = json.loads(summary_path.read_text(encoding="utf-8"))
    return GAREvalResult(records, summary, records_path, report_path, summary_path, plot_path)
