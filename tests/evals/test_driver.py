"""The shared eval driver and report code: sampling, run folders, resume, errors, one cell format."""

from __future__ import annotations

import json
from collections.abc import Collection
from pathlib import Path
from typing import Any

import pytest

from graphreason.evals.counselor.evaluate import take_balanced
from graphreason.evals.driver import (
    EvalConfigError,
    EvalResult,
    check_run_options,
    default_out_dir,
    model_name,
    run_eval,
    take_round_robin,
)
from graphreason.evals.gar.evaluate import (
    GAREvalConfigError,
    GAREvalResult,
    gar_table,
    modes_table,
    take_per_task,
)
from graphreason.evals.report import (
    ReportKind,
    ReportPaths,
    cell,
    errors_section,
    markdown_page,
    markdown_table,
    write_report_files,
)


def _group_of(item: dict[str, Any]) -> str:
    return item["group"]


# ------------------------------------------------------------------ sampling


def test_round_robin_over_groups_covers_every_group_first():
    items = [{"qid": f"{g}{i}", "group": g} for g in "abc" for i in range(3 if g != "b" else 1)]
    picked = [it["qid"] for it in take_round_robin(items, 5, key=_group_of)]
    assert picked == ["a0", "b0", "c0", "a1", "c1"]  # b runs out, the others go on in file order
    assert take_round_robin(items, None, key=_group_of) == items
    assert take_round_robin(items, 99, key=_group_of) == items


def test_without_groups_a_seeded_sample_is_kept_in_file_order():
    items = [{"qid": str(i), "group": "one"} for i in range(60)]
    plain = [it["qid"] for it in take_round_robin(items, 8, seed=3)]
    assert plain == [it["qid"] for it in take_round_robin(items, 8, seed=3)]  # the same on every run
    assert plain == sorted(plain, key=int) and plain != [str(i) for i in range(8)]
    assert plain != [it["qid"] for it in take_round_robin(items, 8, seed=4)]
    # a key that puts every item in one group samples the same way
    assert [it["qid"] for it in take_round_robin(items, 8, key=_group_of, seed=3)] == plain


def test_the_method_samplers_are_the_round_robin():
    class Task:
        def __init__(self, qid: str, task: str) -> None:
            self.qid, self.task = qid, task

    tasks = [Task(f"{t}{i}", t) for t in ("cycle", "flow") for i in range(3)]
    assert [t.qid for t in take_per_task(tasks, 3)] == ["cycle0", "flow0", "cycle1"]
    one_task = [Task(str(i), "cycle") for i in range(20)]
    assert take_per_task(one_task, 4, seed=1) == take_round_robin(one_task, 4, seed=1)
    qa = [{"qid": f"{t}{i}", "level": "easy", "template": t} for t in "xy" for i in range(2)]
    assert [it["qid"] for it in take_balanced(qa, 3)] == ["x0", "y0", "x1"]


def test_limits_and_concurrency_below_one_are_config_errors():
    with pytest.raises(EvalConfigError, match="--limit must be at least 1, got 0"):
        take_round_robin([{"qid": "1"}], 0)
    with pytest.raises(EvalConfigError, match="--concurrency must be at least 1"):
        check_run_options(None, 0)
    check_run_options(None, 1)  # no limit is fine


# ------------------------------------------------------------------ one error, one result


def test_gar_names_are_the_shared_error_and_result():
    assert GAREvalConfigError is EvalConfigError and issubclass(EvalConfigError, ValueError)
    with pytest.raises(GAREvalConfigError):
        take_round_robin([{"qid": "1"}], -1)
    assert GAREvalResult is EvalResult
    paths = ReportPaths(Path("r.md"), Path("s.json"), Path("p.png"))
    result = EvalResult(records=[], summary={}, records_path=Path("x.jsonl"), paths=paths)
    assert (result.report_path, result.summary_path, result.plot_path) == tuple(paths)
    assert result.paths.report == result.report_path


# ------------------------------------------------------------------ naming


def test_run_folders_and_model_names(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # run folders go under the current directory, never into the package
    assert default_out_dir("counselor", "file", None, "cora") == tmp_path / "runs" / "counselor-file-cora"
    assert default_out_dir("gar", "generated", "", "agents", "scripted-a b/c").name == (
        "gar-generated-agents-scripted-a-b-c"
    )
    assert model_name("openai:gpt") == "openai:gpt" and model_name(_group_of) == "_group_of"
    assert model_name(object()) == "object"


# ------------------------------------------------------------------ one cell format


def test_one_cell_format_for_every_method():
    assert [cell(v) for v in (None, 3, 0.0, 75.0, 100.0, 1234.56, 4.5, 0.8333)] == [
        "-",
        "3",
        "0.0",
        "75.0",
        "100.0",
        "1234.6",
        "4.50",
        "0.833",
    ]
    row = {"n": 6, "errors": 1, "accuracy": 0.8333, "seconds_per_q": 4.5, "rouge_l": 75.0}
    gar = gar_table({"tasks": {"cycle": row}, "overall": row})
    assert "| cycle | 6 | 0.833 | 4.50 | 1 |" in gar and "| **all** | 6 |" in gar
    assert "| counselor | 6 | 1 | 75.0 |" in markdown_table({"counselor": row}, "mode")
    side = modes_table({"run a": {"tasks": {"cycle": row}, "overall": row}})
    assert "| cycle | run a | 6 | 0.833 | 4.50 |" in side
    # a column no row has a value for is left out, the same in every table
    assert "agrees with compiled" not in side and "Judge" not in markdown_table({"m": row}, "mode")


def test_page_skeleton_and_errors_section():
    errors = [{"mode": "m", "qid": "q1", "error": "boom"}, {"qid": "q2", "error": "bad"}]
    page = markdown_page("Title", ["**dataset**: unit"], "intro", None, "", errors_section(errors))
    assert page.startswith("# Title\n\n- **dataset**: unit\n\nintro\n\n## Errors\n\n2 question(s) failed")
    assert "- `m` / `q1`: boom" in page and "- `q2`: bad" in page and page.endswith("bad\n")
    assert errors_section([]) == ""


# ------------------------------------------------------------------ the run


def _count_summary(records: Any, meta: dict[str, Any]) -> dict[str, Any]:
    modes: dict[str, int] = {}
    for record in records:
        modes[record["mode"]] = modes.get(record["mode"], 0) + 1
    return {**meta, "modes": modes, "ok": sum(r["status"] == "ok" for r in records)}


def _write_plot(records: Any, summary: dict[str, Any], path: Path) -> None:
    path.write_bytes(b"plot")


def _page(summary: dict[str, Any], plot_name: str) -> str:
    return markdown_page(summary.get("title", "-"), [f"questions: {summary.get('n_questions')}"], plot_name)


COUNTS = ReportKind(summarize=_count_summary, render=_page, plot=_write_plot, plot_name="counts.png")
ITEMS = [{"qid": f"q{i}", "question": f"Question {i}?", "answer": str(i)} for i in range(4)]


def _solvers(calls: list[tuple[str, str]], fail: Collection[str] = ()) -> dict[str, Any]:
    def solver(mode: str) -> Any:
        def solve(item: dict[str, Any]) -> dict[str, Any]:
            calls.append((mode, item["qid"]))
            if item["qid"] in fail:
                raise RuntimeError("flaky")
            return {"answer": item["answer"]}

        return solve

    return {mode: solver(mode) for mode in ("plain", "smart")}


def _run(
    out: Path, calls: list[tuple[str, str]], items: list[dict[str, Any]] = ITEMS, **kw: Any
) -> EvalResult:
    return run_eval(items, _solvers(calls, **kw), out, {"title": "Counts"}, COUNTS, progress=False)


def test_run_eval_runs_every_mode_writes_the_files_and_resumes(tmp_path: Path):
    calls: list[tuple[str, str]] = []
    result = _run(tmp_path / "run", calls, fail={"q3"})
    assert (
        len(calls) == 8 and result.summary["modes"] == {"plain": 4, "smart": 4} and result.summary["ok"] == 6
    )
    assert result.summary["n_questions"] == 4 and result.summary["records_file"] == str(result.records_path)
    assert result.paths == ReportPaths(
        tmp_path / "run" / "report.md", tmp_path / "run" / "summary.json", tmp_path / "run" / "counts.png"
    )
    assert json.loads(result.summary_path.read_text()) == result.summary
    assert result.report_path.read_text() == "# Counts\n\n- questions: 4\n\ncounts.png\n"
    assert result.plot_path.read_bytes() == b"plot"

    calls.clear()
    again = _run(tmp_path / "run", calls)  # only the failed pairs run again
    assert sorted(calls) == [("plain", "q3"), ("smart", "q3")] and again.summary["ok"] == 8
    calls.clear()
    subset = _run(tmp_path / "run", calls, items=ITEMS[:2])  # a smaller run reports only its own pairs
    assert calls == [] and subset.summary["modes"] == {"plain": 2, "smart": 2}
    assert len(subset.records_path.read_text().splitlines()) == 10  # 8 ok + 2 errors, nothing rewritten


def test_run_eval_rejects_an_empty_set_and_bad_concurrency(tmp_path: Path):
    with pytest.raises(EvalConfigError, match=r"the question set is empty \(why\)"):
        run_eval([], {}, tmp_path, {}, COUNTS, empty_note=" (why)")
    with pytest.raises(EvalConfigError, match="--concurrency"):
        run_eval(ITEMS, {}, tmp_path, {}, COUNTS, concurrency=0)
    assert not (tmp_path / "records.jsonl").exists()


def test_a_method_report_is_written_by_the_shared_skeleton(tmp_path: Path):
    paths = write_report_files([], tmp_path / "new", None, COUNTS)
    assert json.loads(paths.summary.read_text()) == {"modes": {}, "ok": 0}
    assert paths.summary.read_text().endswith("}\n") and paths.plot.name == "counts.png"
