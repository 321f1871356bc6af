"""How many CPU threads the embedded model's torch kernels use.

Decoding one token of a 135M model is a chain of small matrix products. With as
many OpenMP threads as cores, every product waits for its slowest thread; when
other processes keep some cores busy, that thread is the one that lost its core,
and a call with 2 threads can be many times slower than with 1 on a busy 2-core
machine, while on idle cores 2 threads are faster. So the default takes
the cores that the recent load leaves free, and the choice can be pinned with
``GRAPHREASON_THREADS`` (``OMP_NUM_THREADS`` set by the user is respected too).
The choice is applied once per process, before the engine first runs.
"""

from __future__ import annotations

import logging
import os
import threading
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


def current_load() -> float | None:
    """One-minute load average, or ``None`` where the OS does not report one."""
    try:
        return os.getloadavg()[0]
    except (AttributeError, OSError):
        return None


_applied: ThreadChoice | None = None
_lock = threading.Lock()


def apply_thread_choice() -> ThreadChoice:
    """Choose and apply the torch thread count once per process; later calls return the first choice."""
    global _applied
    with _lock:
        if _applied is None:
            # chosen before torch is imported, so a bad setting stops the process at once
            choice = choose_threads(
                usable_cpus(), current_load(), THREADS.raw(), os.environ.get("OMP_NUM_THREADS")
            )
            import torch

            torch.set_num_threads(choice.threads)
            log.info("embedded model uses %d torch thread(s) (%s)", choice.threads, choice.reason)
            _applied = choice
        return _applied
