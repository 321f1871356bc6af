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


HOLD_THE_LOCK = """
import sys, time
from pathlib import Path
from graphreason.llm.engine.weights import build_lock
with build_lock(Path(sys.argv[1])):
    print("holding", flush=True)
    time.sleep(float(sys.argv[2]))
"""


def test_a_second_builder_waits_for_the_first_and_is_told(tmp_path: Path) -> None:
    import subprocess
    import sys
    import time

    target = tmp_path / "models" / "entry"
    child = subprocess.Popen([sys.executable, "-c", HOLD_THE_LOCK, str(target), "1.5"], stdout=subprocess.PIPE,
                             text=True)
    try:
        assert child.stdout is not None and child.stdout.readline().strip() == "holding"
        waits: list[float] = []
        start = time.monotonic()
        with weights.build_lock(target, on_wait=lambda: waits.append(time.monotonic())):
            got = time.monotonic() - start  # the holder keeps it 1.5 s after saying so
    finally:
        child.kill()
        child.wait()
    assert len(waits) == 1 and got > 1.0
    with weights.build_lock(target, on_wait=lambda: waits.append(0.0)):  # free now: no wait, no call
        pass
    assert len(waits) == 1


def test_a_conversion_that_lands_while_waiting_is_not_redone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import graphreason.llm.engine.local_smollm as local_smollm

    answers = iter([False, True])  # stale before the lock, current once it is held
    monkeypatch.setenv("GRAPHREASON_CACHE", str(tmp_path))
    monkeypatch.setattr(local_smollm, "cache_is_current", lambda folder, gguf: next(answers))
    monkeypatch.setattr(local_smollm, "_convert", lambda *args: pytest.fail("converted twice"))
    folder, converted = local_smollm.ensure_converted()
    assert folder == tmp_path / "models" / "smollm2-135m" and converted is False
