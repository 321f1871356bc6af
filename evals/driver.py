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

Run folders are ``./runs/<method>-<part>-...`` (:func:`default_out_dir`): the
same command gives the same folder, so a rerun resumes it. Every record
carries the settings that produced its answer (:func:`answer_settings`: the
run's context and the summary's head, less what only picks the sample); a rerun
whose settings or questions differ from the folder's records is refused before
any question runs (:func:`check_resume`), naming the difference, so a report
never summarises records made with other settings than it shows.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import random
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from graphreason.evals.report import ReportKind, ReportPaths, write_report_files
from graphreason.evals.runner import ScoreFn, SolveFn, item_field, read_records, run_items


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
    """``./runs/<method>-<part>-...`` under the current directory: one stable folder per command, so a
    rerun from the same place resumes it (never inside an installed package or the checkout's code).

    Empty parts are left out; characters other than letters, digits and
    ``-_.`` become ``-``.
    """
    name = "-".join(str(part) for part in (method, *parts) if part)
    return Path.cwd() / "runs" / "".join(c if c.isalnum() or c in "-_." else "-" for c in name)


def model_name(model: Any) -> str:
    """A model for a report: its spec string, a factory's name, or a model object's class name (tests)."""
    return model if isinstance(model, str) else getattr(model, "__name__", type(model).__name__)


# ------------------------------------------------------------------ settings on records

# summary-head keys that choose the sample or describe the run, not how a question is answered
SAMPLE_KEYS = frozenset({
    "title", "limit", "concurrency", "question_seed", "records_file", "n_questions", "max_nodes", "tasks",
    "variants", "variant_settings", "references", "seed",
})


def _plain(value: Any) -> Any:
    """``value`` as JSON reads it back: model objects by name, tuples as lists, keys as strings."""
    return json.loads(json.dumps(value, default=model_name, sort_keys=True))


def context_settings(context: Any) -> dict[str, Any]:
    """Every field of a run context, models by name (:func:`model_name`)."""
    return _plain({f.name: getattr(context, f.name) for f in dataclasses.fields(context)})


def answer_settings(meta: Mapping[str, Any], context: Any = None) -> dict[str, Any]:
    """What a record's answer depends on: ``meta`` without :data:`SAMPLE_KEYS` (also inside its
    ``settings``), plus every field of ``context``."""
    kept = {k: v for k, v in meta.items() if k not in SAMPLE_KEYS}
    if isinstance(kept.get("settings"), Mapping):
        kept["settings"] = {k: v for k, v in kept["settings"].items() if k not in SAMPLE_KEYS}
    if context is not None:
        kept["context"] = context_settings(context)
    return _plain(kept)


def _differences(before: Any, now: Any, prefix: str = "") -> list[str]:
    if isinstance(before, dict) and isinstance(now, dict):
        found = []
        for key in sorted(set(before) | set(now), key=str):
            found += _differences(before.get(key), now.get(key), f"{prefix}{key}.")
        return found
    return [] if before == now else [f"{prefix[:-1] or 'settings'} {before!r} there, {now!r} now"]


def _named_once(changed: list[str]) -> list[str]:
    """Drop ``context.X ...`` where the summary head (or its ``settings``) already names ``X`` with the same values."""
    head = [c for c in changed if not c.startswith("context.")]

    def repeated(change: str) -> bool:
        text = change.removeprefix("context.")
        return any(other == text or other.endswith("." + text) for other in head)

    return [c for c in changed if not (c.startswith("context.") and repeated(c))]


def check_resume(
    records_path: Path, settings: Mapping[str, Mapping[str, Any]], items: Sequence[Any]
) -> list[str]:
    """Refuse to resume ``records_path`` with other settings or other questions than its records hold.

    ``settings`` maps each mode of this run to its :func:`answer_settings`.
    Records of other modes are left alone (the report covers this run's modes);
    returns those modes, sorted.
    """
    questions = {str(item_field(item, "qid")): item_field(item, "question") for item in items}
    others: set[str] = set()
    for record in read_records(records_path):
        mode = str(record["mode"])
        if mode not in settings:
            others.add(mode)
            continue
        where = f"{records_path.parent} already holds records of mode {mode!r}"
        fix = "; rerun with the same settings, pass --out with another folder for this run, or delete that folder"
        if "settings" not in record:
            raise EvalConfigError(f"{where} that do not say which settings made them (an older version){fix}")
        changed = _named_once(_differences(record["settings"], _plain(settings[mode])))
        if changed:
            raise EvalConfigError(f"{where} made with other settings: {'; '.join(changed[:8])}{fix}")
        qid = str(record["qid"])
        asked = questions.get(qid)
        if asked is not None and record.get("question") is not None and record["question"] != asked:
            raise EvalConfigError(
                f"{where} for another question set: question {qid!r} there is {str(record['question'])[:120]!r}, "
                f"now {str(asked)[:120]!r}{fix}"
            )
    return sorted(others)


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
    settings: Mapping[str, Mapping[str, Any]] | None = None,
) -> EvalResult:
    """Answer ``items`` in every mode, then write the run's report.

    ``solvers`` maps each mode's record key to the function answering one
    item in it; ``score_fn`` scores an answer (default: Rouge-L and EM).
    ``settings`` maps each mode to what its answers depend on (default:
    :func:`answer_settings` of ``meta`` for every mode); each record carries
    its mode's, and pairs with an ``ok`` record in ``<out_dir>/records.jsonl``
    are not run again, after :func:`check_resume` has made sure those records
    were made with the same settings. The summary covers exactly this run's
    (mode, question) pairs and starts with ``meta``, plus the records file and
    the question count. ``empty_note`` says why the question set may be empty.
    """
    if not items:
        raise EvalConfigError(f"the question set is empty{empty_note}")
    _at_least_one("--concurrency", concurrency)
    out = Path(out_dir)
    records_path = out / "records.jsonl"
    if settings is None:
        settings = dict.fromkeys(solvers, answer_settings(meta))
    settings = {mode: _plain(settings[mode]) for mode in solvers}
    others = check_resume(records_path, settings, items)
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
            settings=settings[mode],
        )
    ]
    meta = {**meta, "records_file": str(records_path), "n_questions": len(items)}
    if others:  # records of modes this run did not ask for: the report says they are left out
        meta["other_modes_in_folder"] = others
    paths = write_report_files(records, out, meta, report)
    summary = json.loads(paths.summary.read_text(encoding="utf-8"))
    return EvalResult(records=records, summary=summary, records_path=records_path, paths=paths)
