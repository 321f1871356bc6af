"""Report tables, summary.json and the PNG plot from hand-made records."""

from __future__ import annotations

import json
from pathlib import Path

from graphreason.evals.report import aggregate, markdown_table, summarize, write_report


def record(mode: str, qid: str, level: str, em: float, rl: float, calls: int = 4, status: str = "ok") -> dict:
    rec = {"mode": mode, "qid": qid, "level": level, "template": f"{level}_tpl", "status": status}
    if status == "ok":
        rec.update(
            scores={
                "rouge_l": rl,
                "rouge_l_f1": rl / 2,
                "exact_match": em,
                "rouge_l_first": rl,
                "exact_match_first": em,
            },
            usage={"llm_calls": calls, "input_tokens": 100 * calls, "output_tokens": 10 * calls},
            seconds=2.0,
            accepted=em == 1.0,
        )
    else:
        rec["error"] = "RuntimeError: boom"
    return rec


RECORDS = [
    record("counselor", "q1", "easy", 1.0, 1.0, calls=6),
    record("counselor", "q2", "medium", 0.0, 0.5, calls=10),
    record("counselor", "q3", "medium", 0.0, 0.0, status="error"),
    record("base", "q1", "easy", 0.0, 0.25, calls=1),
    record("base", "q2", "medium", 0.0, 0.0, calls=1),
]


def test_aggregate_means_in_percent_and_counts():
    row = aggregate(RECORDS[:3])
    assert (row["n"], row["ok"], row["errors"]) == (3, 2, 1)
    assert row["exact_match"] == 50.0 and row["rouge_l"] == 75.0 and row["rouge_l_f1"] == 37.5
    assert row["llm_calls"] == 8.0 and row["input_tokens"] == 800.0 and row["output_tokens"] == 80.0
    assert row["seconds_mean"] == 2.0 and row["seconds_total"] == 4.0
    assert row["judge"] is None and row["judge_n"] == 0
    assert row["accepted_rate"] == 50.0


def test_summary_groups_by_mode_level_and_template():
    summary = summarize(RECORDS, {"dataset": "unit"})
    assert list(summary["modes"]) == ["base", "counselor"]  # paper order, not record order
    assert summary["dataset"] == "unit"
    assert summary["by_level"]["counselor"]["medium"]["n"] == 2
    assert summary["by_level"]["counselor"]["easy"]["exact_match"] == 100.0
    assert summary["by_template"]["base"]["easy_tpl"]["rouge_l"] == 25.0
    assert summary["errors"] == [{"mode": "counselor", "qid": "q3", "error": "RuntimeError: boom"}]


def test_markdown_table_hides_empty_columns():
    table = markdown_table(summarize(RECORDS)["modes"], "mode")
    header = table.splitlines()[0]
    assert "Rouge-L" in header and "EM" in header and "Judge" not in header
    assert "| counselor | 3 | 1 | 75.0 |" in table


def test_write_report_writes_markdown_png_and_summary(tmp_path: Path):
    judged = [dict(r, scores={**r["scores"], "judge": 1.0}) if r["status"] == "ok" else r for r in RECORDS]
    paths = write_report(judged, tmp_path / "out", {"title": "Unit report", "dataset": "unit"})
    summary = json.loads(paths.summary.read_text())
    assert set(summary) >= {"modes", "by_level", "by_template", "errors", "generated_at", "dataset", "title"}
    for key in (
        "n",
        "ok",
        "errors",
        "rouge_l",
        "rouge_l_f1",
        "exact_match",
        "judge",
        "llm_calls",
        "input_tokens",
        "output_tokens",
        "seconds_mean",
        "seconds_total",
    ):
        assert key in summary["modes"]["counselor"], key
    assert summary["modes"]["base"]["judge"] == 100.0 and summary["modes"]["base"]["judge_n"] == 2
    assert paths.plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and paths.plot.stat().st_size > 5_000
    report = paths.report.read_text()
    assert report.startswith("# Unit report")
    assert "## Per mode and level" in report and "counselor / medium" in report
    assert "![scores per mode and level](scores.png)" in report
    assert "`counselor` / `q3`: RuntimeError: boom" in report


def test_empty_records_still_give_a_summary(tmp_path: Path):
    paths = write_report([], tmp_path)
    assert json.loads(paths.summary.read_text())["modes"] == {}
    assert paths.plot.exists()


def test_all_errors_give_no_scores():
    row = aggregate([record("m", "q", "easy", 0, 0, status="error")])
    assert row["rouge_l"] is None and row["errors"] == 1 and row["seconds_total"] == 0
