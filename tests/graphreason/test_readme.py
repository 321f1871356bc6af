"""The README's GAR Python snippet runs as written, in a child process, with its context reused; the serving
page's table of server maxima says what each context declares."""

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


def _number(text: str) -> float:
    text = text.replace(",", "")
    if text == "2^32 - 1":
        return 2**32 - 1
    if "^" in text:
        base, power = text.split("^")
        return float(base) ** int(power)
    return float(text)


def test_the_serving_pages_server_maxima_are_the_declared_ones() -> None:
    """The serving page's table of what a server client may set says what each context declares."""
    from graphreason.workflows.methods import METHODS
    from graphreason.workflows.run_context import RunContext, server_maxima

    text = (REPO / "docs" / "serving.md").read_text(encoding="utf-8")
    section = text[text.index("## Serving safely") :]
    head = section[section.index("shared by all") : section.index("| method |")]
    shared = {name: value.removesuffix(" s") for name, value in re.findall(r"`(\w+)` ([^;)]+)", head)}
    declared_shared = server_maxima(RunContext)
    assert set(shared) == set(declared_shared), shared
    for name, value in shared.items():
        assert _number(value.strip()) == declared_shared[name], name
    rows = {"Graph Counselor": "counselor", "GAR": "gar", "Graph-ToolFormer": "toolformer", "GraphAgent": "graphagent"}
    for label, method in rows.items():
        row = next(line for line in section.splitlines() if line.strip().startswith(f"| {label} |"))
        declared = server_maxima(next(m for m in METHODS if m.name == method).context)
        own = {k: v for k, v in declared.items() if k not in declared_shared or declared_shared[k] != v}
        listed: dict[str, float] = {}
        for names, value in re.findall(r"((?:`[\w*]+`(?: / )?)+) ([\d,^]+)", row):
            for name in re.findall(r"`([\w*]+)`", names):
                listed[name] = _number(value)
        for name, most in own.items():
            key = name if name in listed else "*_max_tokens" if name.endswith("max_tokens") else name
            assert key in listed, f"docs/serving.md leaves out {method}.{name} (server max {most:g})"
            assert listed[key] == most, f"docs/serving.md says {method}.{name} <= {listed[key]:g}; declared {most:g}"
