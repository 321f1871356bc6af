"""The resumable runner: interruption, torn lines, retries, outages, concurrency."""

from __future__ import annotations

import json
import threading
import time
from collections import Counter
from pathlib import Path

import pytest

from graphreason.evals.runner import load_records, read_records, run_items
from graphreason.workflows.models.invoke import ModelUnavailableError


def make_items(n: int) -> list[dict]:
    return [
        {
            "qid": f"q{i}",
            "question": f"What is {i}?",
            "answer": str(i),
            "level": "easy" if i % 2 else "medium",
            "template": "t",
        }
        for i in range(n)
    ]


def echo(item: dict) -> dict:
    """A solve function that always answers correctly."""
    return {
        "answer": item["answer"],
        "first_answer": item["answer"],
        "accepted": True,
        "usage": {"llm_calls": 2, "input_tokens": 10, "output_tokens": 3},
        "trials": [],
        "reflections": [],
    }


def qids_in_file(path: Path, mode: str = "m") -> Counter:
    return Counter(r["qid"] for r in read_records(path) if r["mode"] == mode and r["status"] == "ok")


def test_records_are_written_and_scored(tmp_path: Path):
    out = tmp_path / "records.jsonl"
    records = run_items(make_items(3), echo, out, concurrency=1, mode="m", progress=False)
    assert [r["qid"] for r in records] == ["q0", "q1", "q2"]
    assert all(
        r["status"] == "ok" and r["scores"]["exact_match"] == 1.0 and r["scores"]["rouge_l"] == 1.0
        for r in records
    )
    assert records[0]["usage"]["llm_calls"] == 2 and records[0]["level"] == "medium"
    assert len(out.read_text().splitlines()) == 3


def test_a_question_programs_wording_family_is_kept_in_its_record(tmp_path: Path):
    items = make_items(2)
    items[0]["meta"] = {"family": "quiz", "shape": "count"}
    records = run_items(items, echo, tmp_path / "records.jsonl", concurrency=1, mode="m", progress=False)
    assert records[0]["family"] == "quiz" and "family" not in records[1]  # only an item that has one


def test_resume_after_keyboard_interrupt_finishes_the_rest_without_duplicates(tmp_path: Path):
    out = tmp_path / "records.jsonl"
    calls: list[str] = []

    def interrupt_after_three(item: dict) -> dict:
        if len(calls) == 3:
            raise KeyboardInterrupt
        calls.append(item["qid"])
        return echo(item)

    with pytest.raises(KeyboardInterrupt):
        run_items(make_items(8), interrupt_after_three, out, concurrency=1, mode="m", progress=False)
    assert sorted(qids_in_file(out)) == ["q0", "q1", "q2"]  # finished work is kept

    seen: list[str] = []

    def record_calls(item: dict) -> dict:
        seen.append(item["qid"])
        return echo(item)

    records = run_items(make_items(8), record_calls, out, concurrency=1, mode="m", progress=False)
    assert seen == [f"q{i}" for i in range(3, 8)]  # only the rest is re-done
    assert qids_in_file(out) == Counter({f"q{i}": 1 for i in range(8)})
    assert [r["qid"] for r in records] == [f"q{i}" for i in range(8)]


def test_a_torn_last_line_is_dropped_and_its_question_redone(tmp_path: Path):
    out = tmp_path / "records.jsonl"
    run_items(make_items(2), echo, out, concurrency=1, mode="m", progress=False)
    good = out.read_text().splitlines()
    # simulate a crash in the middle of writing q1's record
    out.write_text(good[0] + "\n" + good[1][: len(good[1]) // 2])
    assert [r["qid"] for r in read_records(out)] == ["q0"]

    seen: list[str] = []
    run_items(
        make_items(3),
        lambda it: seen.append(it["qid"]) or echo(it),
        out,
        concurrency=1,
        mode="m",
        progress=False,
    )
    assert seen == ["q1", "q2"]
    lines = out.read_text().splitlines()
    assert all(json.loads(line) for line in lines)  # the torn fragment is gone, every line parses
    assert qids_in_file(out) == Counter({"q0": 1, "q1": 1, "q2": 1})


def test_errors_are_recorded_with_their_message_and_retried(tmp_path: Path):
    out = tmp_path / "records.jsonl"

    def flaky(item: dict) -> dict:
        if item["qid"] == "q1":
            raise RuntimeError("parser exploded")
        return echo(item)

    records = run_items(make_items(3), flaky, out, concurrency=2, mode="m", progress=False)
    by_qid = {r["qid"]: r for r in records}
    assert by_qid["q1"]["status"] == "error" and "RuntimeError: parser exploded" in by_qid["q1"]["error"]
    assert by_qid["q0"]["status"] == by_qid["q2"]["status"] == "ok"

    seen: list[str] = []
    records = run_items(
        make_items(3),
        lambda it: seen.append(it["qid"]) or echo(it),
        out,
        concurrency=2,
        mode="m",
        progress=False,
    )
    assert seen == ["q1"]
    assert all(r["status"] == "ok" for r in records)
    assert [r["status"] for r in load_records(out)] == [
        "ok",
        "ok",
        "ok",
    ]  # the old error record is superseded


def test_model_unavailable_stops_the_run_and_keeps_finished_records(tmp_path: Path):
    out = tmp_path / "records.jsonl"
    started: list[str] = []

    def outage_at_q2(item: dict) -> dict:
        started.append(item["qid"])
        if item["qid"] == "q2":
            raise ModelUnavailableError("model endpoint http://127.0.0.1:9/v1 unreachable after 3 attempts")
        return echo(item)

    with pytest.raises(ModelUnavailableError) as info:
        run_items(make_items(10), outage_at_q2, out, concurrency=1, mode="m", progress=False)
    message = str(info.value)
    assert "unreachable" in message and "2 finished record(s)" in message and str(out) in message
    assert started == ["q0", "q1", "q2"]  # nothing submitted after the outage
    assert sorted(qids_in_file(out)) == ["q0", "q1"]
    assert all(r["status"] == "ok" for r in read_records(out))  # the outage is not recorded as a result


def test_concurrent_workers_answer_each_question_once(tmp_path: Path):
    out = tmp_path / "records.jsonl"
    active = 0
    peak = 0
    lock = threading.Lock()
    calls: Counter = Counter()

    def slow(item: dict) -> dict:
        nonlocal active, peak
        with lock:
            active += 1
            peak = max(peak, active)
            calls[item["qid"]] += 1
        time.sleep(0.02)
        with lock:
            active -= 1
        return echo(item)

    records = run_items(make_items(24), slow, out, concurrency=4, mode="m", progress=False)
    assert calls == Counter({f"q{i}": 1 for i in range(24)})
    assert qids_in_file(out) == calls
    assert 1 < peak <= 4
    assert [r["qid"] for r in records] == [f"q{i}" for i in range(24)]


def test_modes_are_resumed_independently(tmp_path: Path):
    out = tmp_path / "records.jsonl"
    run_items(make_items(2), echo, out, mode="a", progress=False)
    seen: list[str] = []
    run_items(make_items(2), lambda it: seen.append(it["qid"]) or echo(it), out, mode="b", progress=False)
    assert seen == ["q0", "q1"]
    assert Counter(r["mode"] for r in read_records(out)) == Counter({"a": 2, "b": 2})


def test_bad_arguments_are_rejected(tmp_path: Path):
    with pytest.raises(ValueError, match="duplicate question id 'q0'"):
        run_items(make_items(2) + make_items(1), echo, tmp_path / "r.jsonl", progress=False)
    with pytest.raises(ValueError, match="concurrency"):
        run_items(make_items(1), echo, tmp_path / "r.jsonl", concurrency=0, progress=False)
