"""Shared set-up of the CLI tests: an isolated cache, tracebacks off, scripted-model files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _cache(tmp_path, monkeypatch):
    monkeypatch.setenv("GRAPHREASON_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("GRAPHREASON_DEBUG", raising=False)


def write_script(tmp_path: Path, replies: list[str], name: str = "script.json") -> str:
    """A ``scripted:FILE`` model spec whose file holds ``replies``."""
    path = tmp_path / name
    path.write_text(json.dumps(replies))
    return f"scripted:{path}"
