"""The thread-count policy of the embedded model, as a pure function."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from graphreason.llm.engine.cpu_threads import MAX_AUTO_THREADS, ThreadSettingError, choose_threads
from tests.conftest import BackgroundChild, start_child

REPO = Path(__file__).resolve().parents[3]


def test_an_explicit_setting_wins() -> None:
    choice = choose_threads(cpu_count=2, load=9.0, setting="3", omp_setting="1")
    assert choice.threads == 3
    assert "GRAPHREASON_THREADS" in choice.reason


@pytest.mark.parametrize("bad", ["0", "-2", "two", "1.5"])
def test_a_bad_setting_is_a_clear_error(bad: str) -> None:
    with pytest.raises(ThreadSettingError, match="GRAPHREASON_THREADS must be a positive integer"):
        choose_threads(cpu_count=2, load=0.0, setting=bad)


def test_a_blank_setting_means_automatic() -> None:
    assert choose_threads(cpu_count=2, load=0.0, setting="  ").threads == 2


def test_a_user_omp_setting_is_respected() -> None:
    choice = choose_threads(cpu_count=8, load=0.0, omp_setting="1")
    assert choice.threads == 1 and "OMP_NUM_THREADS" in choice.reason


def test_idle_machine_uses_every_core_up_to_the_cap() -> None:
    assert choose_threads(cpu_count=2, load=0.1).threads == 2
    assert choose_threads(cpu_count=64, load=0.0).threads == MAX_AUTO_THREADS


@pytest.mark.parametrize(
    ("cpus", "load", "expected"),
    [(2, 1.0, 1), (2, 1.6, 1), (2, 6.0, 1), (4, 2.0, 2), (4, 0.4, 4), (16, 12.2, 4)],
)
def test_busy_cores_are_left_alone(cpus: int, load: float, expected: int) -> None:
    choice = choose_threads(cpu_count=cpus, load=load)
    assert choice.threads == expected
    assert f"{cpus} cores" in choice.reason


def test_unknown_load_and_odd_cpu_counts_still_give_at_least_one_thread() -> None:
    assert choose_threads(cpu_count=4, load=None).threads == 4
    assert choose_threads(cpu_count=0, load=3.0).threads == 1


# Each policy is applied once per process, so each check runs in a fresh interpreter; the two
# children import torch for seconds and share nothing, so they are started together.
ONCE_PER_PROCESS = (
    "import os, torch\n"
    "from graphreason.llm.engine.cpu_threads import apply_thread_choice\n"
    "first = apply_thread_choice()\n"
    "os.environ['GRAPHREASON_THREADS'] = '2'\n"
    "again = apply_thread_choice()\n"
    "print(first.threads, again.threads, torch.get_num_threads())\n"
)
BAD_SETTING = (  # and it stops before torch is imported
    "import sys\n"
    "from graphreason.llm.engine.cpu_threads import apply_thread_choice\n"
    "try:\n"
    "    apply_thread_choice()\n"
    "finally:\n"
    "    print('torch' in sys.modules)\n"
)


@pytest.fixture(scope="module")
def children(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, BackgroundChild]]:
    tmp = tmp_path_factory.mktemp("cpu_threads")
    started = {
        name: start_child(
            [sys.executable, "-c", code],
            tmp / name,
            env={**os.environ, "GRAPHREASON_THREADS": threads},
            cwd=REPO,
        )
        for name, code, threads in (("once", ONCE_PER_PROCESS, "1"), ("bad", BAD_SETTING, "lots"))
    }
    yield started
    for child in started.values():
        child.stop()


def test_the_choice_is_applied_to_torch_once_per_process(children) -> None:
    child = children["once"].result()
    assert child.returncode == 0, child.stderr
    assert child.stdout.split() == ["1", "1", "1"]


def test_a_bad_setting_stops_the_process_with_the_reason(children) -> None:
    child = children["bad"].result()
    assert child.returncode != 0
    assert "GRAPHREASON_THREADS must be a positive integer, got 'lots'" in child.stderr
    assert child.stdout.split() == ["False"]  # refused before torch was imported
