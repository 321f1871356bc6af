"""How many CPU threads the embedded model's torch kernels use.

Decoding one token of a 135M model is a chain of small matrix products. With as
many OpenMP threads as cores, every product waits for its slowest thread; when
other processes keep some cores busy, that thread is the one that lost its core,
and a call measured 61.6 s with 2 threads against 7.1 s with 1 on a busy 2-core
machine. On idle cores 2 threads are ~1.4x faster than 1. So the default takes
the cores that the recent load leaves free, and the choice can be pinned with
``GRAPHREASON_THREADS`` (``OMP_NUM_THREADS`` set by the user is respected too).
The choice is applied once per process, before the engine first runs.
"""

from __future__ import annotations

import logging
import math
import os
import threading
import time
from dataclasses import dataclass

from graphreason.settings import THREADS, SettingError

log = logging.getLogger(__name__)

THREADS_ENV = THREADS.name  # declared in graphreason.settings
MAX_AUTO_THREADS = 8  # past this a 135M model gains nothing and only adds synchronisation


class ThreadSettingError(SettingError):
    """``GRAPHREASON_THREADS`` is not a positive integer."""


@dataclass(frozen=True)
class ThreadChoice:
    """The thread count and why it was chosen (shown in logs and response metadata)."""

    threads: int
    reason: str


def choose_threads(
    cpu_count: int, load: float | None, setting: str | None = None, omp_setting: str | None = None
) -> ThreadChoice:
    """Pick a thread count from an explicit setting, else from the free cores.

    ``cpu_count`` is the number of cores this process may use, ``load`` the
    one-minute load average (``None`` where the OS has none), ``setting`` the value
    of ``GRAPHREASON_THREADS`` and ``omp_setting`` that of ``OMP_NUM_THREADS``.
    """
    cpu_count = max(1, cpu_count)
    try:
        threads = THREADS.value(setting) if setting is not None else None
    except SettingError as exc:
        raise ThreadSettingError(str(exc)) from None
    if threads is not None:
        return ThreadChoice(threads, f"{THREADS_ENV}={threads}")
    if omp_setting is not None and omp_setting.strip().isdigit() and int(omp_setting) >= 1:
        return ThreadChoice(int(omp_setting), f"OMP_NUM_THREADS={int(omp_setting)}")
    cap = min(cpu_count, MAX_AUTO_THREADS)
    if load is None:
        return ThreadChoice(cap, f"{cpu_count} cores, load unknown")
    # A core counts as free when less than half of it is in use on average.
    free = int(cpu_count - load + 0.5)
    threads = max(1, min(cap, free))
    return ThreadChoice(threads, f"{cpu_count} cores, load {load:.2f}")


def usable_cpus() -> int:
    """Cores this process may run on (the affinity mask where the OS has one)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def own_share_of_load(cpu_seconds: float) -> float:
    """About how much of the one-minute load average is this process's own, after ``cpu_seconds`` of its work.

    The load average decays with a one-minute time constant, so a process that has
    kept one core busy for ``t`` seconds adds about ``1 - exp(-t / 60)`` to it.
    """
    return 1.0 - math.exp(-max(0.0, cpu_seconds) / 60.0)


def current_load() -> float | None:
    """Cores other processes keep busy: the one-minute load average less this process's own share.

    ``None`` where the OS does not report a load average. Without the
    subtraction, a fresh process's own start-up (imports, reading the graph) counted
    as another's load: the demo then ran its embedded model on 1 thread of an idle
    2-core machine.
    """
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):
        return None
    return max(0.0, load - own_share_of_load(time.process_time()))


_applied: ThreadChoice | None = None
_lock = threading.Lock()


def apply_thread_choice() -> ThreadChoice:
    """Choose and apply the torch thread count once per process; later calls return the first choice."""
    global _applied
    with _lock:
        if _applied is None:
            import torch

            choice = choose_threads(
                usable_cpus(), current_load(), THREADS.raw(), os.environ.get("OMP_NUM_THREADS")
            )
            torch.set_num_threads(choice.threads)
            log.info("embedded model uses %d torch thread(s) (%s)", choice.threads, choice.reason)
            _applied = choice
        return _applied
