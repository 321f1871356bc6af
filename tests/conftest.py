"""Shared test helpers."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

from tools.config import data_root


def require_data(name: str) -> Path:
    """Path of a dataset under the data root.

    Missing data fails the test under CI (``CI=true``) and skips it elsewhere:
    CI must never go green by silently not testing the real data.
    """
    path = data_root() / name
    if not path.exists():
        message = f"dataset {name!r} not found under {data_root()} (set GRAPHREASON_DATA_ROOT)"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message)
        pytest.skip(message)
    return path


@dataclass
class BackgroundChild:
    """A child process started without waiting for it; its output goes to files, so no pipe can fill up.

    Independent children started together overlap on a multi-core machine instead
    of running one after the other (tests stay one process each: no pytest plugin).
    """

    process: subprocess.Popen[bytes]
    workdir: Path
    limit_s: float

    def result(self) -> subprocess.CompletedProcess[str]:
        """Wait for the child (at most ``limit_s``, a safety net for a hung child) and return its output."""
        try:
            self.process.wait(timeout=self.limit_s)
        except subprocess.TimeoutExpired:
            self.stop()
            raise
        return subprocess.CompletedProcess(
            self.process.args, self.process.returncode, self._read("stdout"), self._read("stderr")
        )

    def stop(self) -> None:
        """Kill the child if it still runs (a failed test or a stopped run left it behind)."""
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()

    def _read(self, stream: str) -> str:
        path = self.workdir / f"{stream}.txt"
        return path.read_text(errors="replace") if path.exists() else ""


def start_child(
    argv: Sequence[str],
    workdir: Path,
    *,
    env: Mapping[str, str] | None = None,
    cwd: Path | None = None,
    stdout: int | None = None,
    limit_s: float = 300,
) -> BackgroundChild:
    """Start ``argv``; stdout and stderr go to ``workdir`` (``stdout``: an open descriptor to use instead)."""
    workdir.mkdir(parents=True, exist_ok=True)
    with (workdir / "stderr.txt").open("wb") as err:
        if stdout is not None:
            process = subprocess.Popen(list(argv), cwd=cwd, env=env, stdout=stdout, stderr=err)
        else:
            with (workdir / "stdout.txt").open("wb") as out:
                process = subprocess.Popen(list(argv), cwd=cwd, env=env, stdout=out, stderr=err)
    return BackgroundChild(process, workdir, limit_s)


@pytest.fixture(scope="session", autouse=True)
def _slow_children(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Callable[[str], BackgroundChild]]:
    """``child(name)``: the running (or finished) child of one fixture of tests.slow_children.SLOW_CHILDREN.

    Autouse, so the selected children start before the first test (see that module).
    """
    from tests.slow_children import SLOW_CHILDREN

    children: dict[str, BackgroundChild] = {}

    def child(name: str) -> BackgroundChild:
        if name not in children:
            children[name] = SLOW_CHILDREN[name][0](tmp_path_factory.mktemp(name))
        return children[name]

    selected = {name for item in request.session.items for name in getattr(item, "fixturenames", ())}
    for name, (_, can_run) in SLOW_CHILDREN.items():
        if name in selected and can_run():
            child(name)
    try:
        yield child
    finally:
        for running in children.values():
            running.stop()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Tests that wait on a slow child (tests/slow_children.py) run last, when their child has long finished."""
    from tests.slow_children import SLOW_CHILDREN

    waiting = {id(item) for item in items if SLOW_CHILDREN.keys() & set(getattr(item, "fixturenames", ()))}
    if waiting:
        items[:] = [item for item in items if id(item) not in waiting] + [item for item in items if id(item) in waiting]
