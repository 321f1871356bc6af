"""Cache folders are swapped in whole, also when another process builds the same entry at the same time."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import graphreason.llm.engine.weights as weights
from graphreason.llm.engine.weights import replace_folder


def _folder(path: Path, content: str) -> Path:
    path.mkdir(parents=True)
    (path / "file.txt").write_text(content)
    return path


def test_a_new_folder_replaces_the_old_one_and_leaves_nothing_aside(tmp_path: Path) -> None:
    target = _folder(tmp_path / "tokenizer", "old")
    replace_folder(_folder(tmp_path / "staging", "new"), target)
    assert (target / "file.txt").read_text() == "new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tokenizer"]


def test_when_another_process_lands_first_our_copy_is_dropped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "tokenizer"
    real_replace = os.replace

    def other_process_lands_between(src: str | Path, dst: str | Path) -> None:
        if Path(dst) == target and not target.exists():
            _folder(target, "theirs")  # the other builder's rename happens just before ours
        real_replace(src, dst)

    monkeypatch.setattr(weights.os, "replace", other_process_lands_between)
    replace_folder(_folder(tmp_path / "staging", "ours"), target)
    assert (target / "file.txt").read_text() == "theirs"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tokenizer"]


def test_other_failures_are_not_swallowed(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        replace_folder(tmp_path / "missing-staging", tmp_path / "tokenizer")
