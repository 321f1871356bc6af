"""``graphreason serve`` starts a real ``langgraph dev``, prints its URL and stops on SIGTERM."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from graphreason.cli.serve import free_port

pytestmark = [pytest.mark.integration, pytest.mark.heavy]

REPO = Path(__file__).resolve().parents[2]


def test_serve_prints_its_url_and_answers_there(tmp_path):
    port = free_port()
    log = tmp_path / "serve.log"
    env = {**os.environ, "GRAPHREASON_CACHE": str(tmp_path / "cache"), "LANGGRAPH_CLI_NO_ANALYTICS": "1"}
    command = [
        str(Path(sys.executable).parent / "graphreason"),
        "serve",
        "--port",
        str(port),
        "--no-reload",
        "--config",
        str(REPO / "langgraph.json"),
    ]
    with log.open("w") as sink:
        process = subprocess.Popen(
            command, cwd=tmp_path, env=env, stdout=sink, stderr=subprocess.STDOUT, start_new_session=True
        )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            assert process.poll() is None, log.read_text()[-3000:]
            try:
                with urllib.request.urlopen(f"{url}/ok", timeout=2) as response:
                    if response.status == 200:
                        break
            except OSError:
                pass
            assert time.monotonic() < deadline, f"not serving after 120 s:\n{log.read_text()[-3000:]}"
            time.sleep(0.5)
        assert f"at {url}" in log.read_text()
    finally:
        # SIGTERM to serve alone: it must stop its langgraph dev child itself
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        finally:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
    time.sleep(1)
    with pytest.raises(OSError):
        urllib.request.urlopen(f"{url}/ok", timeout=2)
