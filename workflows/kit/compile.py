"""Compiling a method's StateGraph the same way everywhere, with nodes a server can stop."""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import functools
import inspect
import time
import typing
import uuid
from collections.abc import Callable
from typing import Any

from langgraph.graph import StateGraph

from graphreason.runtime.cancel import CancelToken, RunCancelled, bind_token
from graphreason.settings import cache_dir
from graphreason.tools.core.policy import scrub_paths, serving_process

# After a cancel, how long a node's thread gets to reach its next check before the run is let go
STOP_GRACE_SECONDS = 3.0
# How often a served node looks for a cancel of its run itself (the runtime's own listener gives up at 240 s)
CANCEL_POLL_SECONDS = 0.5


class RunCutOff(RuntimeError):
    """A served run comes back after the server restarted (or its worker failed) mid-run; it is not repeated."""


def add_nodes(
    builder: StateGraph, *roles: Callable[..., Any], check: Callable[[Any], None] | None = None
) -> None:
    """Add each role function as a node named after the function (``plan`` -> node "plan").

    One name per paper role, so the graph's nodes, the trace and the code read the same.
    Each node is :func:`stoppable`: called directly by ``invoke``/``stream``, and in a
    worker thread with a cancel token by the async API a LangGraph server uses.
    ``check`` (the method's input bound, e.g. :func:`graphreason.workflows.inputs.bounded_state`)
    reads the state each node receives before the node runs, whatever route wrote that state.
    """
    for role in roles:
        node = role if check is None else _checked(role, check)
        builder.add_node(role.__name__, stoppable(node), input_schema=_input_schema(role))


def _checked(role: Callable[..., Any], check: Callable[[Any], None]) -> Callable[..., Any]:
    """``role`` after ``check`` has read the state it receives."""

    @functools.wraps(role)
    def run(*args: Any, **kwargs: Any) -> Any:
        check(args[0] if args else kwargs.get("state"))
        return role(*args, **kwargs)

    return run


def _input_schema(role: Callable[..., Any]) -> type | None:
    """The node input type LangGraph would infer from ``role``'s first parameter (None: the state's)."""
    try:
        hints = typing.get_type_hints(role)
        first = next(iter(inspect.signature(role).parameters))
    except (NameError, TypeError, StopIteration):
        return None
    hint = hints.get(first)
    try:
        return hint if isinstance(hint, type) and typing.get_type_hints(hint) else None
    except TypeError:
        return None


def stoppable(role: Callable[..., Any]) -> Any:
    """``role`` as a node whose async form runs it in a thread that a cancelled run stops.

    LangGraph runs a plain function's node in a thread it cannot stop: a
    cancelled run's search or generation would go on. Here the async form
    gives the thread a :class:`~graphreason.runtime.cancel.CancelToken`; when the
    run's task is cancelled (client cancel, server shutdown) the token is set,
    child processes are killed, the long loops stop at their next check, and
    the node waits up to :data:`STOP_GRACE_SECONDS` for the thread to end.
    In a server process, a run that comes back after a restart is refused
    (:class:`RunCutOff`, see :func:`_first_time`) instead of silently repeated.
    """
    from langgraph._internal._runnable import RunnableCallable  # what add_node makes of a function

    @functools.wraps(role)
    async def in_thread(*args: Any, **kwargs: Any) -> Any:
        run_id = _served_run_id()
        token = CancelToken()
        context = contextvars.copy_context()
        context.run(bind_token, token)
        loop = asyncio.get_running_loop()
        work = loop.run_in_executor(None, functools.partial(context.run, _first_time, run_id, role, args, kwargs))
        thread_id = _served_thread_id() if run_id else None
        try:
            while True:  # asyncio.wait never cancels ``work``: the thread stops only through its token
                finished, _ = await asyncio.wait([work], timeout=CANCEL_POLL_SECONDS)
                if finished:
                    return work.result()
                kind = cancel_requested(run_id, thread_id) if run_id else None
                if kind:
                    # LangGraph's in-memory runtime stops listening for cancels after 240 s: watch ourselves
                    token.cancel()
                    await asyncio.wait([work], timeout=STOP_GRACE_SECONDS)
                    if work.done() and not work.cancelled():
                        work.exception()  # read (RunCancelled, as a rule), so asyncio does not log it as lost
                    raise _client_stop(kind, work.done())
        except asyncio.CancelledError:
            token.cancel()
            await asyncio.wait([work], timeout=STOP_GRACE_SECONDS)
            if work.done() and not work.cancelled():
                work.exception()  # read (RunCancelled, as a rule), so asyncio does not log it as lost
            raise

    return RunnableCallable(role, in_thread, name=role.__name__, trace=False)


# One id per server process: a run whose marker holds another process's id was cut off by a restart.
_PROCESS_ID = uuid.uuid4().hex
_MARKER_DAYS = 7  # markers of runs older than this are removed when a process writes its first one
_swept = False


def _served_run_id() -> str | None:
    """The id of the served run this node belongs to (``None`` outside a server)."""
    if not serving_process():
        return None
    from langgraph.config import get_config

    try:
        run_id = (get_config().get("metadata") or {}).get("run_id")
    except RuntimeError:  # no runnable context
        return None
    return str(run_id) if run_id else None


def _served_thread_id() -> str | None:
    """The thread id of the served run this node belongs to, if it has one."""
    from langgraph.config import get_config

    try:
        config = get_config()
    except RuntimeError:
        return None
    found = (config.get("configurable") or {}).get("thread_id") or (config.get("metadata") or {}).get("thread_id")
    return str(found) if found else None


def _client_stop(kind: str | bool, stopped: bool) -> Exception:
    """What a node raises when it saw its run's cancel itself: the runtime's own interrupt or rollback, so the run
    reads ``interrupted`` (or is rolled back) as after a cancel the runtime relayed, not ``error``."""
    try:
        from langgraph_api.errors import UserInterrupt, UserRollback
    except ImportError:  # not served by a LangGraph server: only the project's own exception exists
        UserInterrupt = UserRollback = None  # noqa: N806
    why = "the run was cancelled" + ("" if stopped else "; its work did not stop within the grace time")
    if kind == "rollback" and UserRollback is not None:
        return UserRollback(why)
    return UserInterrupt(why) if UserInterrupt is not None else RunCancelled(why)


def cancel_requested(run_id: str, thread_id: str | None) -> str | None:
    """``"interrupt"`` or ``"rollback"`` when the server was asked to cancel run ``run_id`` that way, else None.

    Read from the in-memory runtime of ``langgraph dev`` (its stream manager keeps the last
    control message of each run); elsewhere the runtime's own cancellation is all there is.
    """
    try:
        from langgraph_runtime_inmem.inmem_stream import get_stream_manager
    except ImportError:
        return False
    manager = get_stream_manager()
    for thread in dict.fromkeys((thread_id, None)):
        try:
            message = manager.get_control_key(run_id, thread)
        except (ValueError, TypeError, AttributeError):  # an id of another form, or another runtime version
            continue
        if message is not None and getattr(message, "data", None) in (b"interrupt", b"rollback"):
            return message.data.decode()
    return None


def _first_time(run_id: str | None, role: Callable[..., Any], args: tuple, kwargs: dict) -> Any:
    """Run ``role`` unless its served run was begun by an earlier server process (runs in the node's thread).

    A LangGraph server re-queues a run that was in flight when it stopped, and
    the next process runs it again from its last checkpoint: a search or a
    model call the client may have given up on would start over, unasked. Each
    node of a served run leaves a marker (the run id, under the cache) holding
    this process's id; a node that finds another process's marker refuses
    with :class:`RunCutOff`, so a restarted run ends at once with that message.
    An error a served node raises names no server folder (:func:`scrub_paths`).
    """
    if not run_id:
        return role(*args, **kwargs)
    _mark(run_id)
    try:
        return role(*args, **kwargs)
    except Exception as exc:  # the client reads the message: it must not learn the server's folders
        _scrub(exc)
        raise


def _scrub(exc: BaseException) -> None:
    """Replace server folders in ``exc``'s message (and an OSError's file names) with placeholders."""
    exc.args = tuple(scrub_paths(arg) if isinstance(arg, str) else arg for arg in exc.args)
    if isinstance(exc, OSError):
        for name in ("filename", "filename2"):
            value = getattr(exc, name, None)
            if isinstance(value, str):
                setattr(exc, name, scrub_paths(value))


def _mark(run_id: str) -> None:
    global _swept
    folder = cache_dir("served-runs")
    marker = folder / "".join(ch for ch in run_id if ch.isalnum() or ch == "-")
    try:
        owner = marker.read_text().strip()
    except FileNotFoundError:
        owner = None
    if owner is not None and owner != _PROCESS_ID:
        raise RunCutOff(
            "this run was in flight when the server stopped, and a restarted server does not repeat it "
            "by itself: start a new run to ask again"
        )
    if owner is None:
        marker.write_text(_PROCESS_ID)
    if not _swept:
        _swept = True
        old = time.time() - _MARKER_DAYS * 86400
        for path in folder.iterdir():
            with contextlib.suppress(OSError):
                if path.stat().st_mtime < old:
                    path.unlink()


def compile_workflow(
    builder: StateGraph, *, name: str, recursion_limit: int, checkpointer: Any = None
) -> Any:
    """``builder`` compiled under ``name`` with ``recursion_limit`` as the default run config.

    Each method bounds its loops itself (steps, trials, rounds); the limit is
    only set high enough that LangGraph's default of 25 super-steps never cuts
    a legitimate run short. ``checkpointer`` (e.g. SqliteSaver) makes runs
    resumable; ``langgraph.json`` exports graphs compiled without one.
    """
    return builder.compile(checkpointer=checkpointer, name=name).with_config(recursion_limit=recursion_limit)
