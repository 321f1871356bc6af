"""``graphreason run/eval counselor`` on hostile replies and a user's own files (issue 7 §4, §7).

A nested Action that used to crash ``run counselor`` runs in a real child
process; the option checks call ``main()`` in-process (same code, no second
import bill). Exit code 2 with one ``graphreason: error:`` line is bad input.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from graphreason.cli.main import main
from graphreason.tools.core.loaders.grbench import LENIENT_ENV

pytestmark = pytest.mark.integration

REPO = Path(__file__).resolve().parents[2]
FIXTURE = REPO / "tests" / "fixtures" / "mini_academic.json"
CHILD_LIMIT_S = 300  # a safety net for a hung child only


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRAPHREASON_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv(LENIENT_ENV, "0")  # restored after the test even if --lenient-graph sets it
    monkeypatch.delenv("GRAPHREASON_DEBUG", raising=False)


def _script(tmp_path: Path, replies: list[str]) -> str:
    path = tmp_path / "script.json"
    path.write_text(json.dumps(replies))
    return f"scripted:{path}"


def test_a_deeply_nested_action_is_an_observation_not_a_traceback(tmp_path: Path) -> None:
    model = _script(tmp_path, ["Thought 1: nest", "Action 1: " + "x[" * 300 + "1" + "]" * 300])
    args = ["run", "counselor", "--graph", str(FIXTURE), "--question", "Label of p1?", "--mode", "graph_cot"]
    args += ["--model", model, "--embedding", "hash", "--max-steps", "1", "--json"]
    child = subprocess.run(
        [sys.executable, "-m", "graphreason.cli", *args],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=CHILD_LIMIT_S,
    )
    assert child.returncode == 0, child.stderr
    assert "Traceback" not in child.stderr
    step = json.loads(child.stdout)["trials"][0]["steps"][0]
    assert step["ok"] is False and "levels deep" in step["observation"]


def _dangling_graph(tmp_path: Path) -> Path:
    data = json.loads(FIXTURE.read_text())
    data["paper_nodes"]["p1"]["neighbors"]["cites"].append("ghost")
    path = tmp_path / "user_graph" / "graph.json"
    path.parent.mkdir()
    path.write_text(json.dumps(data))
    return path


def test_the_advice_for_dangling_ids_names_an_option_that_works(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    graph = _dangling_graph(tmp_path)
    base = ["run", "counselor", "--graph", str(graph), "--question", "Label of p1?", "--mode", "graph_cot"]
    base += ["--embedding", "hash", "--max-steps", "1"]
    assert main([*base, "--model", _script(tmp_path, ["Thought 1: x", "Action 1: Finish[Vision]"])]) == 2
    err = capsys.readouterr().err
    assert "ghost" in err and "--lenient-graph" in err and "Traceback" not in err
    model = _script(tmp_path, ["Thought 1: x", "Action 1: Feature[p1, label]"])
    with pytest.warns(UserWarning, match="kept as untyped nodes"):
        assert main([*base, "--lenient-graph", "--model", model]) == 0
    assert "Machine_Learning" in capsys.readouterr().out


def test_eval_on_a_question_file_without_graph_asks_for_graph(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    questions = tmp_path / "questions.jsonl"
    questions.write_text(json.dumps({"qid": "0", "question": "Label of p1?", "answer": "ML"}) + "\n")
    args = ["eval", "counselor", "--path", str(questions), "--modes", "base", "--out", str(tmp_path / "run")]
    assert main([*args, "--model", _script(tmp_path, ["ML"]), "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert "--graph" in err and "Traceback" not in err and not (tmp_path / "run").exists()
