"""Starting ``python -m graphreason.llm.server`` (or a child running its ``main``) for integration tests."""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
_URL = re.compile(r"^serving on (http://\S+:(\d+)/v1)$", re.MULTILINE)


@contextlib.contextmanager
def model_server(cmd: list[str], log_path: Path, startup_seconds: float) -> Iterator[tuple[subprocess.Popen, str]]:
    """Run ``cmd`` (which prints ``serving on URL`` once it listens) until the block ends; yields (process, URL)."""
    with log_path.open("w") as log:
        process = subprocess.Popen(cmd, cwd=REPO, env=dict(os.environ), stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + startup_seconds
        while not (found := _URL.search(log_path.read_text())):
            if process.poll() is not None:
                pytest.fail(f"server exited with {process.returncode}:\n{log_path.read_text()}")
            if time.monotonic() > deadline:
                pytest.fail(f"server printed no URL after {startup_seconds}s:\n{log_path.read_text()}")
            time.sleep(0.1)
        yield process, found.group(1)
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=5)
