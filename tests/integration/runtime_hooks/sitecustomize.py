"""Test-only start-up hook of a served process: LangGraph's in-memory runtime with shorter waits.

Put on a test server's ``PYTHONPATH`` (``tests.integration.graph_server.with_test_hooks``), it changes
two timings of ``langgraph_runtime_inmem/ops.py`` and nothing else:

* ``GRAPHREASON_TEST_QUEUE_POLL_SECONDS=S``: the run queue, when it finds no run, looks again after S
  seconds instead of 0.5 (``Runs.next``), so a test's run starts at once instead of a second later;
* ``GRAPHREASON_TEST_CANCEL_LISTENER_SECONDS=N``: the runtime listens for a run's cancel message for N
  seconds instead of 240 (``listen_for_cancellation``). A cancel of an older run then reaches the run
  only through the project's own watch (:func:`graphreason.workflows.kit.compile.cancel_requested`),
  so a run cancelled past N seconds stands for one cancelled past 240 s.

Each change is printed to the server's log. Nothing is imported until the runtime itself is.
"""

from __future__ import annotations

import asyncio
import importlib.abc
import importlib.machinery
import os
import sys

_TARGET = "langgraph_runtime_inmem.ops"


def _shorten(module: object, seconds: float) -> None:
    listen = module.listen_for_cancellation

    async def listen_then_give_up(queue, run_id, thread_id, done) -> None:  # noqa: ANN001 (the runtime's signature)
        try:
            await asyncio.wait_for(listen(queue, run_id, thread_id, done), timeout=seconds)
        except TimeoutError:
            pass  # as the runtime's own listener does after 240 s: no cancel message is heard any more

    module.listen_for_cancellation = listen_then_give_up
    print(f"test hook: the runtime's cancel listener gives up after {seconds:g} s", file=sys.stderr, flush=True)


def _poll_sooner(module: object, seconds: float) -> None:
    runs = module.Runs
    take = runs.next

    async def next_run(wait: bool, limit: int = 1):  # noqa: ANN202 (the runtime's signature)
        if wait:
            await asyncio.sleep(seconds)
        async for item in take(False, limit):
            yield item

    runs.next = staticmethod(next_run)
    print(f"test hook: the runtime's queue looks for new runs every {seconds:g} s", file=sys.stderr, flush=True)


class _Finder(importlib.abc.MetaPathFinder):
    def __init__(self, listener: float | None, poll: float | None) -> None:
        self.listener, self.poll = listener, poll

    def find_spec(self, name, path, target=None):  # noqa: ANN001, ANN201 (the import system's signature)
        if name != _TARGET:
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is None or spec.loader is None:
            return spec
        run_module, listener, poll = spec.loader.exec_module, self.listener, self.poll

        def exec_module(module: object) -> None:
            run_module(module)
            if listener is not None:
                _shorten(module, listener)
            if poll is not None:
                _poll_sooner(module, poll)

        spec.loader.exec_module = exec_module
        return spec


_listener = os.environ.get("GRAPHREASON_TEST_CANCEL_LISTENER_SECONDS")
_poll = os.environ.get("GRAPHREASON_TEST_QUEUE_POLL_SECONDS")
if _listener or _poll:
    sys.meta_path.insert(0, _Finder(float(_listener) if _listener else None, float(_poll) if _poll else None))
