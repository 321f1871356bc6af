"""The one eval driver every method plugs into.

A method's eval (``evals/<method>_eval.py``) loads its questions, picks the
run's sample (:func:`take_round_robin`), builds one solve function per mode,
its scoring function and the summary's head (title, dataset, models,
settings), then hands them to :func:`run_eval` with its report
(:class:`graphreason.evals.report.ReportKind`: summarizer, page, plot). The driver answers
every question resumably (:func:`graphreason.evals.runner.run_items`, one
``records.jsonl`` per run folder), keeps the records of this run's
(mode, question) pairs and writes ``summary.json``, the plot and
``report.md`` beside them (:func:`graphreason.evals.report.write_report_files`).

Run folders are ``runs/<method>-<part>-...`` (:func:`default_out_dir`): the
same command gives the same folder, so a rerun resumes it.
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from graphreason.evals.report import ReportKind, ReportPaths, write_report_files
from graphreason.evals.runner import ScoreFn, SolveFn, run_items
from graphreason.settings import REPO_ROOT


class EvalConfigError(ValueError):
    """The dataset, graph, path or options of an eval run do not fit together."""


@dataclass
class EvalResult:
    """What an eval run produced: this run's records, its summary and the files written."""

    records: list[dict[str, Any]]
    summary: dict[str, Any]
    records_path: Path
    paths: ReportPaths

    @property
    def report_path(self) -> Path:
        return self.paths.report

    @property
    def summary_path(self) -> Path:
        return self.paths.summary

    @property
    def plot_path(self) -> Path:
        return self.paths.plot


# ------------------------------------------------------------------ options and sample


def _at_least_one(option: str, value: int | None) -> None:
    if value is not None and value < 1:
        raise EvalConfigError(f"{option} must be at least 1, got {value}")


def check_run_options(limit: int | None, concurrency: int) -> None:
    """Reject a ``--limit`` or ``--concurrency`` below 1 before any question is loaded."""
    _at_least_one("--limit", limit)
    _at_least_one("--concurrency", concurrency)


_GAP = object()


def take_round_robin(
    items: Sequence[Any],
    limit: int | None,
    key: Callable[[Any], Hashable] | None = None,
    seed: int = 0,
) -> list[Any]:
    """``limit`` items spread over the question set, the same ones on every run.

    With ``key`` (item -> group, e.g. its task, or its level and template) the
    items are taken round-robin over the groups (in the order they first
    appear, each group in file order), so a small limit still covers every
    group. Without ``key``, or when every item falls in one group, a sample
    seeded by ``seed`` is taken and kept in file order: the first N lines of a
    file are often all of one kind.
    """
    _at_least_one("--limit", limit)
    if limit is None or limit >= len(items):
        return list(items)
    groups: dict[Hashable, list[Any]] = {}
    for item in items:
        groups.setdefault(key(item) if key else None, []).append(item)
    if len(groups) == 1:
        picked = sorted(random.Random(seed).sample(range(len(items)), limit))
        return [items[i] for i in picked]
    layers = itertools.zip_longest(*groups.values(), fillvalue=_GAP)
    return list(itertools.islice((x for layer in layers for x in layer if x is not _GAP), limit))


# ------------------------------------------------------------------ naming


def default_out_dir(method: str, *parts: str | None) -> Path:
    """``runs/<method>-<part>-...`` in the repository: one stable folder per command, so a rerun resumes it.

    Empty parts are left out; characters other than letters, digits and
    ``-_.`` become ``-``.
    """
    name = "-".join(str(part) for part in (method, *parts) if part)
    return REPO_ROOT / "runs" / "".join(c if c.isalnum() or c in "-_." else "-" for c in name)


def model_name(model: Any) -> str:
    """A model for a report: its spec string, a factory's name, or a model object's class name (tests)."""
    return model if isinstance(model, str) else getattr(model, "__name__", type(model).__name__)


# ------------------------------------------------------------------ the run


def run_eval(
    items: Sequence[Any],
    solvers: Mapping[str, SolveFn],
    out_dir: str | Path,
    meta: dict[str, Any],
    report: ReportKind,
    *,
    score_fn: ScoreFn | None = None,
    concurrency: int = 1,
    progress: bool = True,
    empty_note: str = "",
) -> EvalResult:
    """Answer ``items`` in every mode, then write the run's report.

    ``solvers`` maps each mode's record key to the function answering one
    item in it; ``score_fn`` scores an answer (default: Rouge-L and EM).
    Pairs with an ``ok`` record in ``<out_dir>/records.jsonl`` are not run
    again. The summary covers exactly this run's (mode, question) pairs and
    starts with ``meta``, plus the records file and the question count.
    ``empty_note`` says why the question set may be empty.
    """
    if not items:
        raise EvalConfigError(f"the question set is empty{empty_note}")
    _at_least_one("--concurrency", concurrency)
    out = Path(out_dir)
    records_path = out / "records.jsonl"
    records = [
        record
        for mode, solve in solvers.items()
        for record in run_items(
            items,
            solve,
            records_path,
            concurrency=concurrency,
            mode=mode,
            progress=progress,
            score_fn=score_fn,
        )
    ]
    meta = {**meta, "records_file": str(records_path), "n_questions": len(items)}
    paths = write_report_files(records, out, meta, report)
    summary = json.loads(paths.summary.read_text(encoding="utf-8"))
    return EvalResult(records=records, summary=summary, records_path=records_path, paths=paths)
