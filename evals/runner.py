"""Resumable, concurrent evaluation runner.

Every finished question becomes one JSON line in the run's records file,
appended and flushed the moment it finishes, keyed by ``(mode, qid)``. A rerun
with the same file skips the pairs that already have an ``ok`` record, so an
interrupted run (Ctrl-C, crash, unreachable endpoint) loses at most the
questions that were in flight and never repeats finished ones. Failed questions
are written as ``error`` records (with the message) and retried on the next run.
"""

from __future__ import annotations

import json
import threading
import time
import traceback
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from graphreason.evals.metrics import score_answer
from graphreason.tools.core.jsonl import read_jsonl
from graphreason.workflows.models.invoke import ModelUnavailableError

SolveFn = Callable[[Any], dict[str, Any]]
ScoreFn = Callable[[Any, dict[str, Any]], dict[str, float]]


def item_field(item: Any, name: str, default: Any = None) -> Any:
    """A field of a question item, whether it is a dataclass/object or a dict."""
    if isinstance(item, dict):
        return item.get(name, default)
    return getattr(item, name, default)


def gold_of(item: Any) -> tuple[str, list[str] | None]:
    """The gold answer text and, for list answers, its items."""
    items = item_field(item, "answers")
    answer = item_field(item, "answer")
    items = [str(x) for x in items] if items else None
    text = str(answer) if answer not in (None, "") else ", ".join(items or [])
    return text, items


def default_scores(item: Any, output: dict[str, Any]) -> dict[str, float]:
    """Rouge-L and exact match of the final and of the first-trial answer."""
    gold, items = gold_of(item)
    final = score_answer(str(output.get("answer") or ""), gold, items)
    first_answer = output.get("first_answer")
    first = score_answer(str(first_answer or ""), gold, items) if first_answer is not None else final
    return {**final, **{f"{key}_first": value for key, value in first.items()}}


# ------------------------------------------------------------------ records file


def read_records(path: Path) -> list[dict[str, Any]]:
    """Every parseable record in ``path`` in file order (unreadable lines are skipped)."""
    if not path.exists():
        return []
    records = []
    # a line torn by a crash is skipped: its question is simply done again
    for _, record in read_jsonl(path, skip_bad=True):
        if isinstance(record, dict) and "mode" in record and "qid" in record:
            records.append(record)
    return records


def latest_records(records: Iterable[dict[str, Any]]) -> dict[tuple[str, str], dict[str, Any]]:
    """One record per ``(mode, qid)``: the last ``ok`` one, else the last error."""
    best: dict[tuple[str, str], dict[str, Any]] = {}
    for record in records:
        key = (str(record["mode"]), str(record["qid"]))
        previous = best.get(key)
        if previous is None or record.get("status") == "ok" or previous.get("status") != "ok":
            best[key] = record
    return best


def load_records(path: Path) -> list[dict[str, Any]]:
    """The deduplicated records of a run file (see :func:`latest_records`)."""
    return list(latest_records(read_records(Path(path))).values())


def _repair_tail(path: Path) -> None:
    """Cut a partial last line (a crash mid-write) so new records start on a fresh line."""
    if not path.exists() or path.stat().st_size == 0:
        return
    with path.open("rb+") as handle:
        handle.seek(-1, 2)
        if handle.read(1) == b"\n":
            return
        handle.seek(0)
        data = handle.read()
        handle.seek(data.rfind(b"\n") + 1)
        handle.truncate()


class _RecordWriter:
    """Appends one JSON line per record under a lock, flushing each one."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        _repair_tail(path)
        self._handle = path.open("a", encoding="utf-8")
        self._lock = threading.Lock()

    def write(self, record: dict[str, Any]) -> None:
        line = json.dumps(record, ensure_ascii=False, default=str) + "\n"
        with self._lock:
            self._handle.write(line)
            self._handle.flush()

    def close(self) -> None:
        with self._lock:
            self._handle.close()


# ------------------------------------------------------------------ one question


def _base_record(item: Any, mode: str) -> dict[str, Any]:
    gold, items = gold_of(item)
    return {
        "mode": mode,
        "qid": str(item_field(item, "qid")),
        "question": item_field(item, "question"),
        "gold": gold,
        "gold_items": items,
        "level": item_field(item, "level"),
        "template": item_field(item, "template"),
        "graph": item_field(item, "graph"),
        # a question program's wording family ("terse", "quiz"): figures per family read it off the records
        **({"family": meta["family"]} if "family" in (meta := item_field(item, "meta") or {}) else {}),
    }


def _solve_one(
    item: Any, mode: str, solve_fn: SolveFn, score_fn: ScoreFn, settings: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Run and score one question. Model outages and Ctrl-C propagate; other errors become records."""
    record = _base_record(item, mode)
    if settings is not None:
        record["settings"] = settings
    start = time.perf_counter()
    try:
        output = solve_fn(item)
        scores = score_fn(item, output)
    except (ModelUnavailableError, KeyboardInterrupt):
        raise
    except Exception as exc:
        record.update(
            status="error",
            error=f"{type(exc).__name__}: {exc}",
            traceback=traceback.format_exc(limit=6),
            seconds=time.perf_counter() - start,
        )
    else:
        usage = dict(output.get("usage") or {})
        record.update(
            status="ok",
            prediction=str(output.get("answer") or ""),
            scores=scores,
            usage=usage,
            seconds=time.perf_counter() - start,
        )
        # each method's own explanation of the answer: Counselor's trials and reflections (and its first
        # answer and judge verdict), or the ``details`` another method's eval puts in its output
        for key in ("first_answer", "accepted"):
            if output.get(key) is not None:
                record[key] = output[key]
        if "trials" in output or "reflections" in output:
            record["trace"] = {"trials": output.get("trials", []), "reflections": output.get("reflections", [])}
        if output.get("details") is not None:
            record["details"] = output["details"]
    record["finished_at"] = datetime.now(UTC).isoformat(timespec="seconds")
    return record


# ------------------------------------------------------------------ the run


def _check_unique(items: Sequence[Any]) -> None:
    seen: set[str] = set()
    for item in items:
        qid = str(item_field(item, "qid"))
        if qid in seen:
            raise ValueError(f"duplicate question id {qid!r} in the item list; qids must be unique per run")
        seen.add(qid)


def run_items(
    items: Sequence[Any],
    solve_fn: SolveFn,
    out_path: Path,
    concurrency: int = 1,
    mode: str = "counselor",
    progress: bool = True,
    score_fn: ScoreFn | None = None,
    settings: dict[str, Any] | None = None,
) -> list[dict[str, Any]]:
    """Answer ``items`` with ``solve_fn`` in a thread pool, one JSONL record per question.

    ``settings`` (what the answers depend on) is stored in every record; the
    eval driver checks it before resuming a records file.

    Questions with an ``ok`` record for ``mode`` in ``out_path`` are skipped; error
    records are retried. Returns this mode's latest record per item, in item order.

    Ctrl-C (or a ``KeyboardInterrupt`` from ``solve_fn``) stops submitting, waits
    for the questions in flight (a second Ctrl-C stops waiting) and re-raises.
    ``ModelUnavailableError`` stops the run the same way and is re-raised with
    the number of records kept. Finished records are on disk either way.
    """
    if concurrency < 1:
        raise ValueError(f"concurrency must be at least 1, got {concurrency}")
    out_path = Path(out_path)
    _check_unique(items)
    score_fn = score_fn or default_scores
    done = {
        qid
        for (rec_mode, qid), rec in latest_records(read_records(out_path)).items()
        if rec_mode == mode and rec.get("status") == "ok"
    }
    todo = [item for item in items if str(item_field(item, "qid")) not in done]

    writer = _RecordWriter(out_path)
    bar = _progress_bar(len(items), len(items) - len(todo), mode, progress)
    counts = {"ok": 0, "error": 0}
    stop: BaseException | None = None
    pending: set[Future[dict[str, Any]]] = set()
    queue = iter(todo)
    pool = ThreadPoolExecutor(max_workers=concurrency, thread_name_prefix=f"eval-{mode}")
    try:
        while True:
            while stop is None and len(pending) < concurrency:
                item = next(queue, None)
                if item is None:
                    break
                pending.add(pool.submit(_solve_one, item, mode, solve_fn, score_fn, settings))
            if not pending:
                break
            try:
                finished, pending = wait(pending, timeout=0.5, return_when=FIRST_COMPLETED)
            except KeyboardInterrupt as exc:
                if stop is not None:  # second Ctrl-C: stop waiting for the questions in flight
                    pool.shutdown(wait=False, cancel_futures=True)
                    raise
                stop = exc
                _note(
                    bar,
                    f"interrupted: waiting for {len(pending)} question(s) in flight (Ctrl-C again to abandon them)",
                )
                continue
            for future in finished:
                try:
                    record = future.result()
                except (ModelUnavailableError, KeyboardInterrupt) as exc:
                    stop = stop or exc
                    continue
                writer.write(record)
                counts[record["status"]] += 1
                if bar is not None:
                    bar.update(1)
                    bar.set_postfix(ok=counts["ok"], errors=counts["error"])
    finally:
        pool.shutdown(wait=stop is None or isinstance(stop, ModelUnavailableError))
        writer.close()
        if bar is not None:
            bar.close()

    if isinstance(stop, ModelUnavailableError):
        kept = sum(1 for r in read_records(out_path) if r.get("status") == "ok")
        raise ModelUnavailableError(
            f"{stop}\nThe run stopped; {kept} finished record(s) are kept in {out_path}. "
            "Rerun the same command to continue where it left off."
        ) from stop
    if stop is not None:
        raise KeyboardInterrupt(f"run interrupted; finished records are kept in {out_path}") from stop

    latest = latest_records(read_records(out_path))
    return [
        latest[(mode, str(item_field(item, "qid")))]
        for item in items
        if (mode, str(item_field(item, "qid"))) in latest
    ]


def _progress_bar(total: int, initial: int, mode: str, enabled: bool) -> Any:
    if not enabled:
        return None
    from tqdm.auto import tqdm

    return tqdm(total=total, initial=initial, desc=f"{mode:>13}", unit="q", dynamic_ncols=True)


def _note(bar: Any, message: str) -> None:
    if bar is not None:
        bar.write(message)
    else:
        print(message, flush=True)
