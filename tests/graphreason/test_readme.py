"""The README's GAR Python snippet runs as written, in a child process, with its context reused."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
MARKER = "<!-- tested by tests/graphreason/test_readme.py"


def readme_snippet() -> str:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    after = text[text.index(MARKER) :]
    match = re.search(r"```python\n(.*?)```", after, re.DOTALL)
    assert match, "the tested README snippet has no python block after its marker"
    return match.group(1)


def test_readme_gar_snippet_runs_twice_on_one_context(tmp_path):
    code = readme_snippet()
    assert code.count("solve(") >= 2 and "scripted:" in code  # the reuse this test guards
    check = code + (
        "\nassert out['structured']['value'] is True, out['structured']\n"
        "assert out['usage']['llm_calls'] == 1\n"
        "print('snippet ok')\n"
    )
    env = {**os.environ, "GRAPHREASON_CACHE": str(tmp_path / "cache"), "PYTHONPATH": str(REPO)}
    done = subprocess.run(
        [sys.executable, "-c", check], cwd=tmp_path, capture_output=True, text=True, env=env, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip().endswith("snippet ok")
