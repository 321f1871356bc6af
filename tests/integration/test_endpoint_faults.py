"""The CLI against a real local fake OpenAI-compatible endpoint that fails in every usual way.

Each fault must end in one line on stderr naming the endpoint and the cause,
exit code 3 (2 is bad input), no traceback, and a bounded number of attempts:
``--max-retries`` retries, counted on the server rather than timed. Two faults
run the real ``graphreason`` command in a child process; the rest call
``main()`` in-process, which runs the same code without paying the imports again.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from graphreason.cli.main import ENDPOINT_FAILED, main
from graphreason.evals.datasets.items import QAItem, save_items
from tests.fake_openai_endpoint import FakeEndpoint, closed_port

pytestmark = [pytest.mark.integration, pytest.mark.heavy]

REPO = Path(__file__).resolve().parents[2]
FIXTURE = REPO / "tests" / "fixtures" / "mini_academic.json"
CHILD_LIMIT_S = 300  # a safety net for a hung child only; the assertions count requests


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRAPHREASON_CACHE", str(tmp_path / "cache"))
    for name in ("GRAPHREASON_DEBUG", "OPENAI_API_KEY", "OPENAI_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    for name in ("GRAPHREASON_TIMEOUT", "GRAPHREASON_MAX_RETRIES"):
        monkeypatch.delenv(name, raising=False)


def _run_args(url: str, *extra: str, mode: str = "base") -> list[str]:
    """``run counselor`` (base mode: no graph to load) against ``url``, 1 s timeout, 1 retry."""
    return [
        "run", "counselor", "--mode", mode, "--question", "Who wrote the paper?",
        "--model", "openai:fake", "--base-url", url, "--timeout", "1", "--max-retries", "1", *extra,
    ]  # fmt: skip


def _one_clear_line(err: str, url: str) -> str:
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert "Traceback" not in err
    assert lines[0].startswith(f"graphreason: model unavailable: model endpoint {url} failed: ")
    return lines[0]


def _child(args: list[str]) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "graphreason.cli", *args]
    return subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=CHILD_LIMIT_S)


def test_child_process_http_500_is_one_line_and_exit_3_after_the_retries() -> None:
    with FakeEndpoint(chat="500") as server:
        done = _child(_run_args(server.url))
    assert done.returncode == ENDPOINT_FAILED, done.stderr
    line = _one_clear_line(done.stderr, server.url)
    assert "HTTP 500" in line and "after 1 retry" in line
    assert server.chat_requests == 2  # --max-retries 1: the first attempt and one retry
    assert server.requests["/v1/models"] == 1  # the reachability probe


def test_child_process_refused_connection_fails_before_any_heavy_work() -> None:
    url = f"http://127.0.0.1:{closed_port()}/v1"
    # full counselor mode on a graph: the probe must fail before the graph and its index load
    done = _child(_run_args(url, "--graph", str(FIXTURE), "--embedding", "minilm", mode="counselor"))
    assert done.returncode == ENDPOINT_FAILED, done.stderr
    assert "connection failed" in _one_clear_line(done.stderr, url)
    assert done.stdout == ""  # nothing started: no "Question:" header, no index progress


@pytest.mark.parametrize(
    ("fault", "cause", "attempts"),
    [
        ("hang", "no reply within 1 s (timed out) after 1 retry", 2),
        ("429", "HTTP 429 Too Many Requests", 2),
        ("badjson", "invalid response body", 1),
        ("401", "HTTP 401 Unauthorized", 1),
        ("404", "HTTP 404 Not Found", 1),
    ],
)
def test_every_fault_is_one_line_naming_the_endpoint(capsys, fault: str, cause: str, attempts: int) -> None:
    with FakeEndpoint(chat=fault) as server:
        code = main(_run_args(server.url))
    assert code == ENDPOINT_FAILED
    assert cause in _one_clear_line(capsys.readouterr().err, server.url)
    assert server.chat_requests == attempts


def test_a_probe_that_times_out_stops_the_run_before_any_chat(capsys) -> None:
    with FakeEndpoint(models="hang") as server:
        code = main(_run_args(server.url))
    assert code == ENDPOINT_FAILED
    assert "timed out" in _one_clear_line(capsys.readouterr().err, server.url)
    assert server.chat_requests == 0


def test_a_working_endpoint_answers(capsys) -> None:
    with FakeEndpoint(reply="Answer: 42") as server:
        code = main(_run_args(server.url))
    assert code == 0
    assert "Answer:" in capsys.readouterr().out
    assert server.chat_requests >= 1


def test_an_eval_keeps_finished_records_when_the_endpoint_breaks(tmp_path: Path, capsys) -> None:
    items = [
        QAItem(qid=q, question=f"{q}?", answer="42", level="easy", template="t", graph=str(FIXTURE))
        for q in ("a", "b", "c")
    ]
    questions = save_items(items, tmp_path / "q.jsonl")
    out = tmp_path / "run"
    with FakeEndpoint(chat="500", ok_first=1) as server:  # one good answer, then HTTP 500
        code = main(
            ["eval", "counselor", "--path", str(questions), "--modes", "base", "--out", str(out),
             "--no-progress", "--model", "openai:fake", "--base-url", server.url,
             "--timeout", "1", "--max-retries", "0"]
        )  # fmt: skip
    err = capsys.readouterr().err
    assert code == ENDPOINT_FAILED and "Traceback" not in err
    assert f"model endpoint {server.url} failed: HTTP 500" in err and "Rerun the same command" in err
    records = [json.loads(line) for line in (out / "records.jsonl").read_text().splitlines()]
    assert [(r["qid"], r["status"]) for r in records] == [("a", "ok")]
    assert server.chat_requests == 2  # no retries, and nothing asked after the failure


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--model", "gpt4"], "--model 'gpt4': unknown model backend"),
        (["--judge-model", "openai:"], "--judge-model 'openai:'"),
    ],
)
def test_bad_model_specs_are_bad_input_before_any_work(capsys, options: list[str], message: str) -> None:
    code = main(["run", "counselor", "--mode", "base", "--question", "q", *options])
    assert code == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


@pytest.mark.parametrize("option", [["--timeout", "0"], ["--timeout", "inf"], ["--max-retries", "-1"]])
def test_bad_limits_are_usage_errors(capsys, option: list[str]) -> None:
    assert main(["run", "gar", "--question", "q", *option]) == 2
    assert "Traceback" not in capsys.readouterr().err


def test_gar_reports_a_failing_master_the_same_way(capsys) -> None:
    question = (
        "The nodes are numbered from 0 to 3, and the edges are: (0,1) (1,2). "
        "Is there a path between node 0 and node 2?"
    )
    with FakeEndpoint(chat="500") as server:
        code = main(
            ["run", "gar", "--question", question, "--embedding", "hash", "--model", "openai:fake",
             "--base-url", server.url, "--timeout", "1", "--max-retries", "1"]
        )  # fmt: skip
    assert code == ENDPOINT_FAILED
    assert "HTTP 500" in _one_clear_line(capsys.readouterr().err, server.url)
    assert server.chat_requests == 2
