"""Test-only start-up hook of a served process: LangGraph's run-cancel listener gives up early.

The in-memory runtime of ``langgraph dev`` listens for a run's cancel message for 240 s and
then stops listening (``listen_for_cancellation`` in ``langgraph_runtime_inmem/ops.py``): a
cancel of an older run reaches the run only through the project's own watch
(:func:`graphreason.workflows.kit.compile.cancel_requested`). A test puts this folder on the
server's ``PYTHONPATH`` with ``GRAPHREASON_TEST_CANCEL_LISTENER_SECONDS=N`` so that the
listener gives up after N seconds instead, and a run cancelled past N seconds stands for one
cancelled past 240 s. Nothing is imported until the runtime itself is.
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


class _Finder(importlib.abc.MetaPathFinder):
    def __init__(self, seconds: float) -> None:
        self.seconds = seconds

    def find_spec(self, name, path, target=None):  # noqa: ANN001, ANN201 (the import system's signature)
        if name != _TARGET:
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is None or spec.loader is None:
            return spec
        run_module, seconds = spec.loader.exec_module, self.seconds

        def exec_module(module: object) -> None:
            run_module(module)
            _shorten(module, seconds)

        spec.loader.exec_module = exec_module
        return spec


_seconds = os.environ.get("GRAPHREASON_TEST_CANCEL_LISTENER_SECONDS")
if _seconds:
    sys.meta_path.insert(0, _Finder(float(_seconds)))
