"""The ``graphreason`` command as a real child process: --version, light imports, closed pipes, serve."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
GRAPHREASON = str(Path(sys.executable).parent / "graphreason")
QUESTION = (
    "Determine whether two nodes are connected in an undirected graph. Q: The nodes are numbered from 0 "
    "to 3, and the edges are: (0,1) (2,3). Is there a path between node 0 and node 3?"
)
HEAVY = ("torch", "sentence_transformers", "transformers")


def _env(tmp_path: Path) -> dict[str, str]:
    env = {**os.environ, "GRAPHREASON_CACHE": str(tmp_path / "cache")}
    env.pop("GRAPHREASON_DEBUG", None)
    return env


def _master(tmp_path: Path) -> str:
    script = tmp_path / "master.json"
    script.write_text(json.dumps(['{"algorithm": "connectivity"}']))
    return f"scripted:{script}"


def test_version_comes_from_the_package_metadata(tmp_path):
    done = subprocess.run(
        [GRAPHREASON, "--version"], capture_output=True, text=True, env=_env(tmp_path), timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"graphreason {version('graphreason')}"


@pytest.mark.parametrize(
    "argv",
    [["--version"], ["--help"], ["run", "gar", "--embedding", "hash", "--question", QUESTION]],
    ids=["version", "help", "run-gar-hash"],
)
def test_light_paths_do_not_import_torch_or_sentence_transformers(tmp_path, argv):
    if argv[0] == "run":
        argv = [*argv, "--model", _master(tmp_path)]
    probe = (
        "import sys\n"
        "from graphreason.cli import main\n"
        f"code = main({argv!r})\n"
        f"print(sorted(m for m in {HEAVY!r} if m in sys.modules))\n"
        "sys.exit(code)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, env=_env(tmp_path), timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "[]"


def test_a_reader_that_went_away_ends_the_run_quietly(tmp_path):
    # the read end is closed before the child writes anything: every write meets a broken pipe
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        done = subprocess.run(
            [GRAPHREASON, "run", "gar", "--json", "--embedding", "hash", "--model", _master(tmp_path)]
            + ["--question", QUESTION],
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            env=_env(tmp_path),
            timeout=300,
        )
    finally:
        os.close(write_end)
    assert "Traceback" not in done.stderr and "BrokenPipe" not in done.stderr, done.stderr
    assert "error" not in done.stderr.lower(), done.stderr
    assert done.returncode == 141  # as if ended by SIGPIPE, like other command-line tools


def test_piping_json_into_head_prints_no_traceback(tmp_path):
    command = (
        f"{GRAPHREASON} run gar --json --embedding hash --model {_master(tmp_path)} "
        f"--question '{QUESTION}' | head -c 1"
    )
    done = subprocess.run(
        ["bash", "-c", command], capture_output=True, text=True, env=_env(tmp_path), timeout=300
    )
    assert done.stdout == "{"
    assert "Traceback" not in done.stderr and "BrokenPipe" not in done.stderr, done.stderr


def test_serve_warns_about_a_public_host_and_still_checks_the_port(tmp_path):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        done = subprocess.run(
            [GRAPHREASON, "serve", "--host", "0.0.0.0", "--port", str(port)],
            capture_output=True,
            text=True,
            env=_env(tmp_path),
            timeout=60,
        )
    assert done.returncode == 2
    assert "reachable from other machines" in done.stderr
    assert f"port {port}" in done.stderr and "Traceback" not in done.stderr


def test_serve_reports_a_missing_config(tmp_path):
    missing = tmp_path / "nowhere" / "langgraph.json"
    done = subprocess.run(
        [GRAPHREASON, "serve", "--config", str(missing)],
        capture_output=True,
        text=True,
        env=_env(tmp_path),
        timeout=60,
    )
    assert done.returncode == 2
    assert str(missing) in done.stderr and "not found" in done.stderr


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_cli_reads_dotenv_in_the_working_directory_and_the_environment_wins(tmp_path):
    """The endpoint comes from ./.env (as the server's does); an exported variable overrides the file."""
    port = _closed_port()  # nothing listens: the probe fails fast and names the endpoint it used
    (tmp_path / ".env").write_text(
        f"OPENAI_BASE_URL=http://127.0.0.1:{port}/v1\nOPENAI_API_KEY=sk-from-dotenv\nGRAPHREASON_MAX_RETRIES=0\n"
    )
    env = _env(tmp_path)
    for name in ("OPENAI_BASE_URL", "OPENAI_API_KEY", "GRAPHREASON_MAX_RETRIES"):
        env.pop(name, None)
    argv = [GRAPHREASON, "run", "gar", "--embedding", "hash", "--model", "openai:m", "--question", QUESTION]
    done = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120)
    assert done.returncode == 3, done.stderr
    assert f"127.0.0.1:{port}" in done.stderr

    other = _closed_port()
    env["OPENAI_BASE_URL"] = f"http://127.0.0.1:{other}/v1"
    done = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120)
    assert done.returncode == 3, done.stderr
    assert f"127.0.0.1:{other}" in done.stderr and f":{port}" not in done.stderr
