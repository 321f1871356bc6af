"""Stopping a run's work when its client cancels it, or when the server shuts down.

A LangGraph server runs a graph's synchronous nodes in worker threads. When a
client cancels a run (or the server stops), the server cancels the run's
asyncio task, but a thread cannot be interrupted: an exact search, a designed
algorithm or a model's generation would go on using a core. So each node of a
served run gets a :class:`CancelToken` (see :mod:`graphreason.workflows.kit.compile`),
and the long loops of the project check it:

* :func:`check_cancelled` raises :class:`RunCancelled` once the token is set; the
  loops call it every few milliseconds of work (search steps, engine rounds,
  training epochs, generated tokens);
* :func:`watch_process` ties a child process group to the token, so cancelling
  kills it at once (the designed-algorithm sandbox runs in one).

The token travels in a context variable, which LangGraph copies into the
thread running the node; code that runs outside a served run has no token and
never stops. :func:`cancel_all` sets every live token (the server's shutdown
calls it so that it finishes within seconds).

This module sits just above the settings (:mod:`graphreason.runtime`) so that every layer
may check the token.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import threading
import weakref
from collections.abc import Iterator
from contextvars import ContextVar


class RunCancelled(Exception):
    """The run this work belongs to was cancelled (by its client, or by the server shutting down)."""


class CancelToken:
    """One run's stop flag, and the child process groups to kill when it is set."""

    def __init__(self) -> None:
        self._event = threading.Event()
        self._lock = threading.Lock()
        self._children: set[subprocess.Popen] = set()
        self.reason = ""

    @property
    def cancelled(self) -> bool:
        return self._event.is_set()

    def cancel(self, reason: str = "the run was cancelled") -> None:
        """Set the flag (work stops at its next check) and kill every watched child process group."""
        with self._lock:
            if not self._event.is_set():
                self.reason = reason
            self._event.set()
            children = list(self._children)
        for proc in children:
            kill_group(proc)

    def wait(self, seconds: float) -> bool:
        """Sleep up to ``seconds``, waking early when cancelled; returns whether it was cancelled."""
        return self._event.wait(seconds)

    def watch(self, proc: subprocess.Popen) -> None:
        with self._lock:
            self._children.add(proc)
            cancelled = self._event.is_set()
        if cancelled:
            kill_group(proc)

    def unwatch(self, proc: subprocess.Popen) -> None:
        with self._lock:
            self._children.discard(proc)


_TOKEN: ContextVar[CancelToken | None] = ContextVar("graphreason_cancel_token", default=None)
_LIVE: weakref.WeakSet[CancelToken] = weakref.WeakSet()
_LIVE_LOCK = threading.Lock()


def current_token() -> CancelToken | None:
    """The token of the run this code works for; ``None`` outside a served run."""
    return _TOKEN.get()


def bind_token(token: CancelToken) -> None:
    """Make ``token`` the current one in this context (call it inside a copied context)."""
    with _LIVE_LOCK:
        _LIVE.add(token)
    _TOKEN.set(token)


@contextlib.contextmanager
def cancel_scope(token: CancelToken | None = None) -> Iterator[CancelToken]:
    """Within the block, work checks ``token`` (a new one by default)."""
    token = token or CancelToken()
    with _LIVE_LOCK:
        _LIVE.add(token)
    reset = _TOKEN.set(token)
    try:
        yield token
    finally:
        _TOKEN.reset(reset)


def is_cancelled() -> bool:
    token = _TOKEN.get()
    return token is not None and token.cancelled


def check_cancelled() -> None:
    """Raise :class:`RunCancelled` when the current run was cancelled; otherwise return at once."""
    token = _TOKEN.get()
    if token is not None and token.cancelled:
        raise RunCancelled(token.reason or "the run was cancelled")


def cancel_all(reason: str = "the server is shutting down") -> int:
    """Cancel every live token (server shutdown); returns how many were still running."""
    with _LIVE_LOCK:
        tokens = [token for token in _LIVE if not token.cancelled]
    for token in tokens:
        token.cancel(reason)
    return len(tokens)


def kill_group(proc: subprocess.Popen) -> None:
    """SIGKILL ``proc``'s process group (it was started with ``start_new_session=True``), else ``proc``.

    The group is signalled even when its leader has exited, so nothing it started lives on.
    """
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:  # no such group: all gone already, or ``proc`` leads none
        if proc.poll() is None:
            proc.kill()
    except PermissionError:  # the id was reused by a process that is not ours
        pass


@contextlib.contextmanager
def watch_process(proc: subprocess.Popen) -> Iterator[None]:
    """Kill ``proc``'s group if the current run is cancelled while the block runs."""
    token = _TOKEN.get()
    if token is None:
        yield
        return
    token.watch(proc)
    try:
        yield
    finally:
        token.unwatch(proc)
