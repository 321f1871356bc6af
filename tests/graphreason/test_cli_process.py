"""The ``graphreason`` command as a real child process: --version, light imports, closed pipes, serve.

Every check needs a fresh interpreter, and each child spends seconds importing.
The children are independent, so the ``children`` fixture starts them all at
once (they overlap on a multi-core machine) and each test reads its own result.
The light-import checks share one child: it runs the command lines one after
the other and lists the heavy modules after each; imports only accumulate, so a
heavy module first seen after a command line was imported by that command line.
"""

from __future__ import annotations

import json
import os
import socket
import sys
from collections.abc import Iterator
from importlib.metadata import version
from pathlib import Path

import pytest

from tests.conftest import BackgroundChild, start_child

pytestmark = pytest.mark.heavy  # among the slowest files: scheduled first (tests/conftest.py)

REPO = Path(__file__).resolve().parents[2]
GRAPHREASON = str(Path(sys.executable).parent / "graphreason")
QUESTION = (
    "Determine whether two nodes are connected in an undirected graph. Q: The nodes are numbered from 0 "
    "to 3, and the edges are: (0,1) (2,3). Is there a path between node 0 and node 3?"
)
HEAVY = ("torch", "sentence_transformers", "transformers")
LIGHT_ARGV = {
    "version": ["--version"],
    "help": ["--help"],
    "run-gar-hash": ["run", "gar", "--embedding", "hash", "--question", QUESTION],
}
LIGHT_MARK = "heavy modules after"
CHILD_LIMIT_S = 300  # a safety net for a hung child only; children started together share the cores


def _env(tmp_path: Path) -> dict[str, str]:
    env = {**os.environ, "GRAPHREASON_CACHE": str(tmp_path / "cache")}
    env.pop("GRAPHREASON_DEBUG", None)
    return env


def _master(tmp_path: Path) -> str:
    script = tmp_path / "master.json"
    script.write_text(json.dumps(['{"algorithm": "connectivity"}']))
    return f"scripted:{script}"


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _light_probe(master: str) -> str:
    """Runs every LIGHT_ARGV command line in turn; after each, one line: mark, name, exit code, heavy modules."""
    runs = {
        name: [*argv, "--model", master] if argv[0] == "run" else argv for name, argv in LIGHT_ARGV.items()
    }
    return (
        "import json, sys\n"
        "from graphreason.cli.main import main\n"
        f"for name, argv in {runs!r}.items():\n"
        "    code = main(argv)\n"
        f"    heavy = sorted(m for m in {HEAVY!r} if m in sys.modules)\n"
        f"    print({LIGHT_MARK!r}, json.dumps([name, code, heavy]), flush=True)\n"
    )


def _dotenv_world(tmp_path: Path) -> dict:
    """A ./.env naming one closed port, and the environment of a user who exported no endpoint."""
    port = _closed_port()  # nothing listens: the probe fails fast and names the endpoint it used
    (tmp_path / ".env").write_text(
        f"OPENAI_BASE_URL=http://127.0.0.1:{port}/v1\nOPENAI_API_KEY=sk-from-dotenv\nGRAPHREASON_MAX_RETRIES=0\n"
    )
    env = _env(tmp_path)
    for name in ("OPENAI_BASE_URL", "OPENAI_API_KEY", "GRAPHREASON_MAX_RETRIES"):
        env.pop(name, None)
    return {"port": port, "other": _closed_port(), "env": env}  # other: the port a user exports instead


@pytest.fixture(scope="module")
def children(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict]:
    """Every child of this module, started together; values the tests need beside them."""
    tmp = tmp_path_factory.mktemp("cli_process")
    master = _master(tmp)
    started: dict[str, BackgroundChild] = {}

    def start(name: str, argv: list[str], **options) -> None:
        options.setdefault("env", _env(tmp / name))  # a cache of its own: the children run at the same time
        started[name] = start_child(argv, tmp / name, limit_s=CHILD_LIMIT_S, **options)

    start("version", [GRAPHREASON, "--version"])
    start("light", [sys.executable, "-c", _light_probe(master)])

    # the read end is closed before the child writes anything: every write meets a broken pipe
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        gar_json = [GRAPHREASON, "run", "gar", "--json", "--embedding", "hash", "--model", master]
        start("reader_gone", [*gar_json, "--question", QUESTION], stdout=write_end)
    finally:
        os.close(write_end)
    command = (
        f"{GRAPHREASON} run gar --json --embedding hash --model {master} --question '{QUESTION}' | head -c 1"
    )
    start("head", ["bash", "-c", command])

    busy = socket.socket()  # a port in use until every child has finished
    busy.bind(("127.0.0.1", 0))
    busy.listen()
    busy_port = busy.getsockname()[1]
    start("serve_public", [GRAPHREASON, "serve", "--host", "0.0.0.0", "--port", str(busy_port)])
    missing = tmp / "nowhere" / "langgraph.json"
    start("serve_missing", [GRAPHREASON, "serve", "--config", str(missing)])

    dotenv_dir = tmp / "dotenv"  # the working directory of both runs, holding ./.env
    dotenv_dir.mkdir()
    dotenv = _dotenv_world(dotenv_dir)
    run_openai = [GRAPHREASON, "run", "gar", "--embedding", "hash", "--model", "openai:m"]
    run_openai += ["--question", QUESTION]
    start("dotenv", run_openai, env=dotenv["env"], cwd=dotenv_dir)
    exported = {**dotenv["env"], "OPENAI_BASE_URL": f"http://127.0.0.1:{dotenv['other']}/v1"}
    exported["GRAPHREASON_CACHE"] = str(tmp / "dotenv_exported" / "cache")
    start("dotenv_exported", run_openai, env=exported, cwd=dotenv_dir)
    try:
        yield {**started, "busy_port": busy_port, "missing": missing, "dotenv_ports": dotenv}
    finally:
        for child in started.values():
            child.stop()
        busy.close()


def test_version_comes_from_the_package_metadata(children):
    done = children["version"].result()
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"graphreason {version('graphreason')}"


@pytest.mark.parametrize("name", list(LIGHT_ARGV))
def test_light_paths_do_not_import_torch_or_sentence_transformers(children, name):
    done = children["light"].result()
    assert done.returncode == 0, done.stderr
    reports = [
        json.loads(line.removeprefix(LIGHT_MARK))
        for line in done.stdout.splitlines()
        if line.startswith(LIGHT_MARK)
    ]
    assert [report[0] for report in reports] == list(LIGHT_ARGV)  # every command line ran, in order
    _, code, heavy = reports[list(LIGHT_ARGV).index(name)]
    assert code == 0, done.stderr
    assert heavy == []


def test_a_reader_that_went_away_ends_the_run_quietly(children):
    done = children["reader_gone"].result()
    assert "Traceback" not in done.stderr and "BrokenPipe" not in done.stderr, done.stderr
    assert "error" not in done.stderr.lower(), done.stderr
    assert done.returncode == 141  # as if ended by SIGPIPE, like other command-line tools


def test_piping_json_into_head_prints_no_traceback(children):
    done = children["head"].result()
    assert done.stdout == "{"
    assert "Traceback" not in done.stderr and "BrokenPipe" not in done.stderr, done.stderr


def test_serve_warns_about_a_public_host_and_still_checks_the_port(children):
    done, port = children["serve_public"].result(), children["busy_port"]
    assert done.returncode == 2
    assert "reachable from other machines" in done.stderr
    assert f"port {port}" in done.stderr and "Traceback" not in done.stderr


def test_serve_reports_a_missing_config(children):
    done = children["serve_missing"].result()
    assert done.returncode == 2
    assert str(children["missing"]) in done.stderr and "not found" in done.stderr


def test_cli_reads_dotenv_in_the_working_directory_and_the_environment_wins(children):
    """The endpoint comes from ./.env (as the server's does); an exported variable overrides the file."""
    port, other = children["dotenv_ports"]["port"], children["dotenv_ports"]["other"]
    done = children["dotenv"].result()
    assert done.returncode == 3, done.stderr
    assert f"127.0.0.1:{port}" in done.stderr

    done = children["dotenv_exported"].result()
    assert done.returncode == 3, done.stderr
    assert f"127.0.0.1:{other}" in done.stderr and f":{port}" not in done.stderr
