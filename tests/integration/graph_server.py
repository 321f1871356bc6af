"""A real ``graphreason serve`` (``langgraph dev``) for the integration tests: started, awaited, stopped."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from graphreason.cli.serve import free_port

REPO = Path(__file__).resolve().parents[2]
HOOKS = Path(__file__).resolve().parent / "runtime_hooks"  # the test-only start-up hook (sitecustomize.py)
# How often a test server's run queue looks for a new run. LangGraph's in-memory runtime waits 0.5 s
# between looks when it finds none, which made every run of a test wait about a second.
QUEUE_POLL_SECONDS = 0.05


def with_test_hooks(env: dict[str, str], **settings: str) -> dict[str, str]:
    """``env`` with the test-only start-up hook on the server's ``PYTHONPATH`` and its ``settings``.

    The hook changes only the runtime's timing (see ``runtime_hooks/sitecustomize.py``): the queue looks
    for runs every :data:`QUEUE_POLL_SECONDS`, and ``GRAPHREASON_TEST_CANCEL_LISTENER_SECONDS`` (when
    given) shortens its cancel listener. A benchmark that must measure an unchanged server leaves it out.
    """
    path = os.pathsep.join(p for p in (str(HOOKS), env.get("PYTHONPATH", os.environ.get("PYTHONPATH", ""))) if p)
    return {**env, "PYTHONPATH": path, "GRAPHREASON_TEST_QUEUE_POLL_SECONDS": str(QUEUE_POLL_SECONDS), **settings}


def served_config(tmp: Path, env_file: Path | None = None) -> Path:
    """The repo's langgraph.json written into ``tmp`` with absolute code paths (and ``env_file``, if given).

    ``langgraph dev`` keeps its threads, runs and store in ``.langgraph_api`` beside its config: served from
    ``tmp``, each test server starts empty instead of reading what earlier servers left in the repo.
    """
    config = json.loads((REPO / "langgraph.json").read_text())
    assert config["env"] == ".env", "langgraph.json must read the server's .env"
    config["env"] = str(env_file or REPO / config["env"])
    for entry in config["graphs"].values():
        entry["path"] = str(REPO / entry["path"])
    config["http"]["app"] = str(REPO / config["http"]["app"])  # the project's request guard
    config["auth"]["path"] = str(REPO / config["auth"]["path"])  # and its client auth
    path = tmp / "langgraph.json"
    path.write_text(json.dumps(config))
    return path


def _ok(base: str) -> bool:
    try:
        with urllib.request.urlopen(f"{base}/ok", timeout=2) as reply:
            return reply.status == 200
    except OSError:
        return False


@contextmanager
def graph_server(tmp: Path, env: dict[str, str], config: Path | None = None, *, test_hooks: bool = True) -> Iterator[dict]:
    """Serve ``config`` (default: the repo's, from ``tmp``: :func:`served_config`) on a free loopback port with ``env`` added.

    With ``test_hooks`` (the default) the server starts with :func:`with_test_hooks`; a benchmark of the
    runtime as shipped passes ``test_hooks=False``.

    Yields ``{"base", "tmp", "log", "process"}`` once ``/ok`` answers; fails the test with the log's tail
    when the server exits or is not ready within 120 s; stops exactly its process group afterwards.
    """
    port = free_port()
    log_path = tmp / "server.log"
    full_env = {
        **os.environ,
        "LANGGRAPH_CLI_NO_ANALYTICS": "1",
        "LANGSMITH_TRACING": "false",
        "GRAPHREASON_CACHE": str(tmp / "cache"),
        **env,
    }
    if test_hooks:
        full_env = with_test_hooks(full_env)
    cmd = [str(Path(sys.executable).parent / "graphreason"), "serve", "--no-reload", "--port", str(port),
           "--config", str(config or served_config(tmp))]  # fmt: skip
    with log_path.open("w") as log:
        process = subprocess.Popen(
            cmd, cwd=REPO, env=full_env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while not _ok(base):
            if process.poll() is not None:
                pytest.fail(f"langgraph dev exited with {process.returncode}:\n{log_path.read_text()[-3000:]}")
            if time.monotonic() > deadline:
                pytest.fail(f"langgraph dev not ready after 120 s:\n{log_path.read_text()[-3000:]}")
            time.sleep(0.5)
        yield {"base": base, "tmp": tmp, "log": log_path, "process": process}
    finally:
        if process.poll() is None:  # the server runs in its own session: stop exactly that process group
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=10)
