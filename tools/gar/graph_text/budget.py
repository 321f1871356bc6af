"""A time budget for reading one question: the parser stops at its next check once it is spent.

Reading is linear in the text, but a 2,000,000-character question still takes seconds,
and a server's one worker reads it while other clients wait. :func:`reading_time` sets
a deadline for the reading done inside it (a context variable, so each run has its own);
the readers call :func:`check_reading` between their passes and every
:data:`CHECK_EVERY` matches of a pass, which raises :class:`ReadingTooLong` once the
deadline is past, or :class:`~graphreason.runtime.cancel.RunCancelled` once the run was
cancelled. Outside :func:`reading_time` only the cancel is checked.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from graphreason.runtime.cancel import check_cancelled
from graphreason.tools.gar.graph_text.problem import GraphTextError

# How many matches of one pass go by between two looks at the clock
CHECK_EVERY = 2048


class ReadingTooLong(GraphTextError):
    """Reading the question took longer than the run's ``parse_seconds``."""


_DEADLINE: ContextVar[tuple[float, float] | None] = ContextVar("graphreason_reading_deadline", default=None)


@contextmanager
def reading_time(seconds: float | None) -> Iterator[None]:
    """Give the reading done inside at most ``seconds`` of wall-clock time (None: no limit)."""
    if seconds is not None and not seconds > 0:
        raise ValueError("parse_seconds must be positive (or unset)")
    mark = _DEADLINE.set(None if seconds is None else (time.monotonic() + seconds, seconds))
    try:
        yield
    finally:
        _DEADLINE.reset(mark)


def check_reading() -> None:
    """Raise once the reading's deadline is past (:class:`ReadingTooLong`) or its run was cancelled."""
    check_cancelled()
    deadline = _DEADLINE.get()
    if deadline is not None and time.monotonic() > deadline[0]:
        raise ReadingTooLong(
            f"reading this question took more than its {deadline[1]:g} s (parse_seconds): send a shorter "
            "question, or the graph as a structured graph or an edge file"
        )
