"""Shared set-up of the integration tests: one model conversion per session, slow children run side by side.

Converting the embedded model's GGUF takes tens of seconds, and a CI run starts
with an empty cache. :func:`cache_sharing_the_model` gives a test a fresh cache
whose models folder is the session's, so every test that only *uses* the model
(or a merged adapter) pays for one conversion (or merge) at most, while indexes
and other caches stay private.

The two slowest child processes of the suite (``graphreason demo`` and a
conversion with scalar kernels) start with the session, beside the other tests;
see tests/slow_children.py. Their fixtures here only wait for them.
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import SlowChild, require_data
from tests.slow_children import DEMO_DATA


@pytest.fixture
def cache_sharing_the_model(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh ``GRAPHREASON_CACHE`` whose ``models/`` folder is the session's own.

    The embedded model is converted once per session, and each adapter merged once (a merge
    is a sibling folder of the model, ``models/<name>+<adapter>-<digest>``); builders that
    meet in it wait for each other (:func:`graphreason.llm.engine.weights.build_once`).
    """
    from graphreason.llm.engine.weights import model_cache_dir

    shared = model_cache_dir().resolve().parent  # the session's models/, before the cache moves
    shared.mkdir(parents=True, exist_ok=True)
    private = tmp_path / "cache"
    linked = private / shared.name
    linked.parent.mkdir(parents=True)
    linked.symlink_to(shared, target_is_directory=True)
    monkeypatch.setenv("GRAPHREASON_CACHE", str(private))
    return private


@pytest.fixture
def demo_run(_slow_children: Callable[[str], SlowChild]) -> subprocess.CompletedProcess[str]:
    """What ``graphreason demo`` printed, and its exit code."""
    require_data(DEMO_DATA)
    return _slow_children("demo_run").result()


@pytest.fixture
def scalar_conversion(_slow_children: Callable[[str], SlowChild]) -> SlowChild:
    """The child that converted the GGUF with scalar kernels and one thread; its cache is ``workdir/cache``."""
    return _slow_children("scalar_conversion")
