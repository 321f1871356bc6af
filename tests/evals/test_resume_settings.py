"""Records carry the settings that made them: a rerun with other settings or other questions is refused.

One case per eval (counselor, gar, toolformer, graphagent) through the CLI, as a
user reruns a command: the first run writes records, the second changes one
setting and must stop with exit 2, a message naming the setting and both values,
and no new record; rerunning the first command resumes (nothing runs again).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from graphreason.cli.main import main
from graphreason.evals.datasets.items import QAItem, save_items
from graphreason.evals.driver import EvalConfigError
from graphreason.evals.gar.evaluate import run_gar_eval
from tests.evals.gar.test_evaluate import garbage_master
from tests.evals.toolformer.test_evaluate import PROMPTS
from tests.graphreason.conftest import write_script
from tests.graphreason.test_cli_graphagent import SCRIPT as GRAPHAGENT_SCRIPT
from tests.workflows.graphagent.fixtures import install

FINISH = "Thought: I know it.\nAction: Finish[Vision]"


def _records(out: Path) -> list[dict]:
    return [json.loads(line) for line in (out / "records.jsonl").read_text().splitlines()]


def _counselor(tmp_path: Path) -> tuple[list[str], list[str], str]:
    graph = Path(__file__).resolve().parents[1] / "fixtures" / "mini_academic.json"
    items = [QAItem(qid=f"q{i}", question=f"What is the label of paper {i}?", answer="Vision", level="easy",
                    template="label", graph=str(graph)) for i in range(2)]
    path = save_items(items, tmp_path / "questions.jsonl")
    model = write_script(tmp_path, [FINISH] * 40)
    argv = ["eval", "counselor", "--path", str(path), "--modes", "base",
            "--model", model, "--embedding", "hash", "--max-steps", "3", "--max-reflections", "0"]
    return argv, ["--temperature", "0.1"], "temperature 0.7 there, 0.1 now"


def _gar(tmp_path: Path) -> tuple[list[str], list[str], str]:
    model = write_script(tmp_path, ["Sure! I love graphs. 42?"])
    argv = ["eval", "gar", "--dataset", "generated", "--limit", "3", "--model", model, "--embedding", "hash"]
    return argv, ["--max-tokens", "99"], "max_tokens 200 there, 99 now"


def _toolformer(tmp_path: Path) -> tuple[list[str], list[str], str]:
    folder = tmp_path / "gpr"
    folder.mkdir()
    (folder / "prompts_test").write_text(PROMPTS)
    argv = ["eval", "toolformer", "--path", str(folder), "--model", "gold", "--embedding", "hash"]
    return argv, ["--no-execute"], "execute_calls True there, False now"


def _graphagent(tmp_path: Path) -> tuple[list[str], list[str], str]:
    install()
    model = write_script(tmp_path, GRAPHAGENT_SCRIPT)
    argv = ["eval", "graphagent", "--dataset", "tiny", "--variants", "faithful", "--embedding", "hash",
            "--model", model, "--no-long-term"]
    return argv, ["--max-steps", "4"], "max_steps"


CASES = {"counselor": _counselor, "gar": _gar, "toolformer": _toolformer, "graphagent": _graphagent}


@pytest.mark.parametrize("method", sorted(CASES))
def test_a_rerun_with_other_settings_is_refused_and_the_same_one_resumes(method, tmp_path, capsys) -> None:
    argv, change, named = CASES[method](tmp_path)
    out = tmp_path / "run"
    first = [*argv, "--out", str(out), "--no-progress"]
    assert main(first) == 0, capsys.readouterr().err
    records = _records(out)
    assert records and all(r["settings"] == records[0]["settings"] for r in records)
    capsys.readouterr()

    assert main([*first, *change]) == 2
    err = capsys.readouterr().err
    assert "already holds records" in err and "made with other settings" in err and named in err, err
    assert "--out" in err  # the way out is named
    assert _records(out) == records  # nothing was run or written

    assert main(first) == 0  # the same settings resume: every record is reused
    assert _records(out) == records
    summary = json.loads((out / "summary.json").read_text())
    assert summary["records_file"] == str(out / "records.jsonl")


def test_another_question_set_under_the_same_ids_is_refused(tmp_path) -> None:
    """GAR's generated questions are numbered per task: another question seed asks other questions under the
    same ids, with the same answer settings."""
    options = {"sizes": (5,), "limit": 3, "out_dir": tmp_path / "run", "embedding_model": "hash", "progress": False}
    run_gar_eval("generated", master_model=garbage_master, seed=0, **options)
    with pytest.raises(EvalConfigError, match="for another question set: question '.*/0' there is"):
        run_gar_eval("generated", master_model=garbage_master, seed=1, **options)


def test_records_of_an_older_version_are_not_resumed_silently(tmp_path, capsys) -> None:
    argv, _, _ = _toolformer(tmp_path)
    out = tmp_path / "run"
    assert main([*argv, "--out", str(out), "--no-progress"]) == 0
    legacy = [{k: v for k, v in r.items() if k != "settings"} for r in _records(out)]
    (out / "records.jsonl").write_text("".join(json.dumps(r) + "\n" for r in legacy))
    capsys.readouterr()
    assert main([*argv, "--out", str(out), "--no-progress"]) == 2
    assert "do not say which settings made them" in capsys.readouterr().err


def test_a_report_of_fewer_modes_says_which_modes_it_leaves_out(tmp_path, capsys) -> None:
    argv, _, _ = _counselor(tmp_path)
    out = tmp_path / "run"
    at = argv.index("base")
    both = [*argv[:at], "base", "graph_cot", *argv[at + 1:]]
    assert main([*both, "--out", str(out), "--no-progress"]) == 0
    assert main([*argv, "--out", str(out), "--no-progress"]) == 0  # the same settings, one mode: resumed
    report = (out / "report.md").read_text()
    assert "The run folder also holds records of `graph_cot`, not summarised here." in report
    assert json.loads((out / "summary.json").read_text())["other_modes_in_folder"] == ["graph_cot"]
