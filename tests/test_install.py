"""Each command installs what it needs: `make demo` the runtime, `make test` dev and Spark; a missing extra says so."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from tests.import_tree import REPO

MAKEFILE = (REPO / "Makefile").read_text()


def _rule(target: str) -> tuple[str, str]:
    """(prerequisites, recipe) of one Makefile rule."""
    match = re.search(rf"^{re.escape(target)}:([^\n]*)\n((?:\t[^\n]*\n)*)", MAKEFILE, re.MULTILINE)
    assert match, f"no rule for {target}"
    return match.group(1).strip(), match.group(2)


def test_make_demo_installs_the_runtime_only() -> None:
    prerequisites, _ = _rule("demo")
    assert prerequisites == ".venv"
    assert _rule(".venv")[0] == "$(STAMP)"
    _, runtime = _rule("$(STAMP)")
    installs = re.findall(r"\$\(UV\)[^\n]*", runtime)
    assert any(line.rstrip().endswith("-e .") for line in installs), installs
    assert not re.search(r"\[[a-z,]*(dev|spark)", runtime)  # no extra in the runtime install


def test_make_test_and_the_other_developer_commands_add_dev_and_spark() -> None:
    _, dev = _rule("$(DEV_STAMP)")
    assert '-e ".[dev,spark,serve]"' in dev and _rule("$(DEV_STAMP)")[0] == "$(STAMP)"
    # each fresh install builds pyspark's sdist into a new uv cache revision: the old ones are pruned after it
    assert dev.index("uv cache prune") > dev.index('-e ".[dev,spark,serve]"')
    for target in ("test", "lint", "bench", "train-generator", "train-agent", "train-reasoner"):
        assert _rule(target)[0] == "$(DEV_STAMP)", target


def test_the_spark_engine_without_pyspark_says_how_to_add_it_in_one_line(tmp_path: Path) -> None:
    blocker = tmp_path / "pyspark"
    blocker.mkdir()
    (blocker / "__init__.py").write_text('raise ImportError("pyspark is not installed here")\n')
    env = {**os.environ, "PYTHONPATH": f"{tmp_path}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    done = subprocess.run(
        [sys.executable, "-m", "graphreason.cli", "run", "gar", "--engine", "spark", "--question",
         "Is there a path between node 0 and node 3? The edges are: (0,1) (1,2) (2,3)."],
        env=env, capture_output=True, text=True, timeout=300, check=False,
    )
    assert done.returncode == 2, done.stderr[-2000:]
    errors = [line for line in done.stderr.splitlines() if "error" in line.lower()]
    assert len(errors) == 1 and "Traceback" not in done.stderr, done.stderr[-2000:]
    assert "pip install -e '.[spark]'" in errors[0] and "--engine compiled" in errors[0]
