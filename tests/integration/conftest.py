"""Shared set-up of the integration tests: one model conversion per session, slow children run side by side.

Converting the embedded model's GGUF takes tens of seconds, and a CI run starts
with an empty cache. :func:`cache_sharing_the_model` gives a test a fresh cache
whose model folder is the session's, so every test that only *uses* the model
pays for one conversion at most, while indexes and other caches stay private.

The two slowest child processes of the suite, ``graphreason demo`` and a
conversion with scalar kernels and one thread (see test_local_model.py), each
keep about one core busy for half a minute and share nothing. They are started
together as soon as the first of them is needed, so on a 2-core machine they
overlap instead of running one after the other; a child whose test is not
selected is not started.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.conftest import BackgroundChild, require_data, start_child
from tools.config import data_root

REPO = Path(__file__).resolve().parents[2]
CHILD_LIMIT_S = 900  # a safety net for a hung child only
DEMO_DATA = "cora-citeseer-text"  # the graph the demo's Counselor part reads


@pytest.fixture
def cache_sharing_the_model(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh ``GRAPHREASON_CACHE`` whose embedded-model folder is the session's own (converted once)."""
    from llm.engine.weights import model_cache_dir

    shared = model_cache_dir().resolve()  # the session's folder, before the cache moves
    private = tmp_path / "cache"
    linked = private / shared.relative_to(shared.parents[1])  # models/<name>
    linked.parent.mkdir(parents=True)
    linked.symlink_to(shared, target_is_directory=True)
    monkeypatch.setenv("GRAPHREASON_CACHE", str(private))
    return private


def _demo(workdir: Path) -> BackgroundChild:
    """``graphreason demo`` as a user runs it (tracebacks off, the session's cache)."""
    env = dict(os.environ)
    env.pop("GRAPHREASON_DEBUG", None)
    argv = [str(Path(sys.executable).parent / "graphreason"), "demo"]
    return start_child(argv, workdir, env=env, cwd=REPO, limit_s=CHILD_LIMIT_S)


def _scalar_conversion(workdir: Path) -> BackgroundChild:
    """A conversion into the empty cache ``workdir/cache`` with scalar kernels (not AVX2) and one thread."""
    env = dict(os.environ, GRAPHREASON_CACHE=str(workdir / "cache"), GRAPHREASON_THREADS="1")
    env["ATEN_CPU_CAPABILITY"] = "default"
    code = "from llm.engine.local_smollm import load_engine; load_engine(64, 'fp32')"
    return start_child([sys.executable, "-c", code], workdir, env=env, cwd=REPO, limit_s=CHILD_LIMIT_S)


# fixture name -> how to start its child, and whether it can run here
SLOW_CHILDREN: dict[str, tuple[Callable[[Path], BackgroundChild], Callable[[], bool]]] = {
    "demo_run": (_demo, lambda: (data_root() / DEMO_DATA).exists()),
    "scalar_conversion": (_scalar_conversion, lambda: True),
}


@pytest.fixture(scope="session")
def _slow_children(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Callable[[str], BackgroundChild]]:
    """``child(name)``: the running (or finished) child of one fixture of SLOW_CHILDREN."""
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


@pytest.fixture
def demo_run(_slow_children: Callable[[str], BackgroundChild]) -> subprocess.CompletedProcess[str]:
    """What ``graphreason demo`` printed, and its exit code."""
    require_data(DEMO_DATA)
    return _slow_children("demo_run").result()


@pytest.fixture
def scalar_conversion(_slow_children: Callable[[str], BackgroundChild]) -> BackgroundChild:
    """The child that converted the GGUF with scalar kernels and one thread; its cache is ``workdir/cache``."""
    return _slow_children("scalar_conversion")
