"""Shared test helpers."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

from graphreason.settings import data_root

# One OpenMP thread per process. The suite runs pytest-xdist workers and their child processes on a
# 2-core machine; torch's default of one thread per core put 4+ threads on 2 cores, and the idle ones spun
# (measured on a quiet machine, empty cache: pytest 393 s and 666 s of user CPU by default, 367 s and 620 s
# with one thread). Set before torch is imported; children inherit it. An explicit setting wins.
os.environ.setdefault("OMP_NUM_THREADS", "1")

# The same for the JVMs the Spark tests start (a local[1] driver; a standalone master, two workers and their
# executors): the quick JIT tier only and one GC thread. Those JVMs live for seconds on small graphs, where
# the optimising compiler and parallel GC threads burn CPU the other worker needs (measured alone: the
# cluster test 46 s and 84% of both cores by default, 28 s and 64% this way). Users' Spark runs keep the
# JVM's defaults. An explicit setting wins.
os.environ.setdefault("JAVA_TOOL_OPTIONS", "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC")


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


def read_output(workdir: Path, stream: str) -> str:
    """What a child wrote to ``stream`` ("stdout" or "stderr"): the file in ``workdir``, or "" before it exists."""
    path = workdir / f"{stream}.txt"
    return path.read_text(errors="replace") if path.exists() else ""


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
        return read_output(self.workdir, stream)


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


# Runs ARGV (after the returncode file) and writes its exit code there when it ends, atomically:
# a worker that did not start the child learns from that file that it has finished.
_RECORD_EXIT = (
    "import os, subprocess, sys\n"
    "code = subprocess.call(sys.argv[2:])\n"
    "with open(sys.argv[1] + '.part', 'w') as out:\n"
    "    out.write(str(code))\n"
    "os.replace(sys.argv[1] + '.part', sys.argv[1])\n"
)


@dataclass
class SlowChild:
    """One of the session's slow children (tests/slow_children.py), readable from any pytest-xdist worker.

    The worker that claimed it started it (``process`` is set there); every worker
    reads its output and exit code from ``workdir``.
    """

    argv: list[str]
    workdir: Path
    limit_s: float
    process: subprocess.Popen[bytes] | None = None

    @property
    def _exit_file(self) -> Path:
        return self.workdir / "returncode.txt"

    def done(self) -> bool:
        return self._exit_file.exists()

    def result(self) -> subprocess.CompletedProcess[str]:
        """Wait for the child (at most ``limit_s``, a safety net for a hung child) and return its output."""
        deadline = time.monotonic() + self.limit_s
        while not self.done():
            if time.monotonic() > deadline:
                self.stop()
                raise TimeoutError(f"{self.argv[:3]} did not finish within {self.limit_s:g} s")
            time.sleep(0.2)
        code = int(self._exit_file.read_text())
        return subprocess.CompletedProcess(self.argv, code, self._read("stdout"), self._read("stderr"))

    def stop(self) -> None:
        """Kill the child and what it started, if this worker started it and it still runs."""
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()

    def _read(self, stream: str) -> str:
        return read_output(self.workdir, stream)


def start_slow_child(
    argv: Sequence[str],
    workdir: Path,
    *,
    env: Mapping[str, str] | None = None,
    cwd: Path | None = None,
    limit_s: float = 300,
) -> SlowChild:
    """Start ``argv`` in a session of its own; output and exit code go to files in ``workdir``."""
    workdir.mkdir(parents=True, exist_ok=True)
    wrapped = [sys.executable, "-c", _RECORD_EXIT, str(workdir / "returncode.txt"), *argv]
    with (workdir / "stderr.txt").open("wb") as err, (workdir / "stdout.txt").open("wb") as out:
        process = subprocess.Popen(wrapped, cwd=cwd, env=env, stdout=out, stderr=err, start_new_session=True)
    return SlowChild(list(argv), workdir, limit_s, process)


@pytest.fixture(scope="session", autouse=True)
def _slow_children(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Callable[[str], SlowChild]]:
    """``child(name)``: the running (or finished) child of one fixture of tests.slow_children.SLOW_CHILDREN.

    Autouse, so the selected children start before the first test (see that module).
    Under pytest-xdist (``make test`` runs three workers) the workers share one copy of
    each child: the first worker to claim it starts it (the first worker claims every
    selected one at its start), the others wait on its files.
    """
    from tests.slow_children import SLOW_CHILDREN

    worker = os.environ.get("PYTEST_XDIST_WORKER")
    base = tmp_path_factory.getbasetemp()
    root = (base.parent if worker else base) / "slow-children"  # the parent is shared by the workers
    root.mkdir(exist_ok=True)
    children: dict[str, SlowChild] = {}

    def child(name: str) -> SlowChild:
        if name not in children:
            workdir = root / name
            try:
                os.close(os.open(root / f"{name}.claim", os.O_CREAT | os.O_EXCL | os.O_WRONLY))
            except FileExistsError:  # another worker started it
                children[name] = SlowChild([name], workdir, SLOW_CHILDREN_LIMIT_S)
            else:
                children[name] = SLOW_CHILDREN[name][0](workdir)
        return children[name]

    if worker in (None, "gw0"):
        selected = {name for item in request.session.items for name in getattr(item, "fixturenames", ())}
        for name, (_, can_run) in SLOW_CHILDREN.items():
            if name in selected and can_run():
                child(name)
    try:
        yield child
    finally:
        for running in children.values():
            if worker and running.process is not None:  # another worker may still wait on it
                try:
                    running.result()
                except TimeoutError:
                    pass
            running.stop()


SLOW_CHILDREN_LIMIT_S = 900  # how long a worker waits on a child another worker started


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Files marked ``heavy`` first (``heavy(first=True)`` before the other heavy ones), so the workers of ``make
    test`` end together; then the rest. ``make test`` passes ``--no-loadscope-reorder``: pytest-xdist would otherwise
    hand out the files with the most tests first, whatever this order.

    Tests that wait on a slow child (tests/slow_children.py) run last, when their child has long finished.
    """
    from tests.slow_children import SLOW_CHILDREN

    rank: dict[object, int] = {}  # 0: the slowest heavy files (heavy(first=True)), 1: the other heavy files
    for item in items:
        if marker := item.get_closest_marker("heavy"):
            rank[item.path] = min(rank.get(item.path, 1), 0 if marker.kwargs.get("first") else 1)
    waiting = {id(item) for item in items if SLOW_CHILDREN.keys() & set(getattr(item, "fixturenames", ()))}
    items[:] = sorted(items, key=lambda item: (id(item) in waiting, rank.get(item.path, 2)))
