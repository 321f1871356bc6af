"""A cancelled served run stops its work: the node's thread, the exact search, the sandbox's child.

LangGraph servers run nodes through the async API and cancel a run's task;
these tests do the same (``ainvoke`` in a task, then ``cancel``) and check
that the work behind it ends within a few seconds instead of running on.
"""

from __future__ import annotations

import asyncio
import os
import threading
import time
from typing import TypedDict

import pytest
from langgraph.graph import END, START, StateGraph

from graphreason.llm.cancel import RunCancelled, cancel_scope, check_cancelled
from graphreason.tools.gar.sandbox.run import run_designed
from graphreason.workflows.gar.context import GARContext
from graphreason.workflows.gar.graph import graph as gar_graph
from graphreason.workflows.kit.compile import RunCutOff, add_nodes, compile_workflow
from graphreason.workflows.models.scripted import ScriptedChatModel
from tests.tools.gar.sandbox.test_sandbox import PATH, designed


class Loop(TypedDict, total=False):
    rounds: int


def _loop_graph(stopped: threading.Event, seconds: float = 60.0):
    def spin(state: Loop) -> dict:
        rounds, end = 0, time.monotonic() + seconds
        try:
            while time.monotonic() < end:
                check_cancelled()
                rounds += 1
        finally:
            stopped.set()
        return {"rounds": rounds}

    builder = StateGraph(Loop)
    add_nodes(builder, spin)
    builder.add_edge(START, "spin")
    builder.add_edge("spin", END)
    return compile_workflow(builder, name="spin", recursion_limit=5)


async def _cancel_after(coro, seconds: float) -> float:
    """Start ``coro`` as a task, cancel it after ``seconds``; returns how long the cancel took."""
    task = asyncio.create_task(coro)
    await asyncio.sleep(seconds)
    assert not task.done(), task
    began = time.monotonic()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    return time.monotonic() - began


def test_a_cancelled_async_run_stops_the_node_thread() -> None:
    stopped = threading.Event()
    graph = _loop_graph(stopped)
    took = asyncio.run(_cancel_after(graph.ainvoke({}), 0.5))
    assert stopped.wait(5), "the node's thread went on after the run was cancelled"
    assert took < 5


def test_the_sync_api_runs_the_same_node_to_the_end() -> None:
    stopped = threading.Event()
    out = _loop_graph(stopped, seconds=0.2).invoke({})
    assert out["rounds"] > 0 and stopped.is_set()


def test_a_cancelled_gar_search_stops_using_the_cpu() -> None:
    a, b = 12, 15  # K(12,15): no Hamiltonian path, and the exact search takes minutes to prove it
    edges = " ".join(f"({i},{a + j})" for i in range(a) for j in range(b))
    question = (
        "Determine whether or not there is a Hamiltonian path in an undirected graph. Q: The nodes are "
        f"numbered from 0 to {a + b - 1}, and the edges are: {edges}. Is there a Hamiltonian path in this graph?"
    )
    context = GARContext(
        master_model=ScriptedChatModel(script=["no idea"]), embedding_model="hash", llm_parse=False,
        search_seconds=1e6, search_max_steps=10**15,
    )  # fmt: skip

    async def run_and_cancel() -> tuple[float, float]:
        took = await _cancel_after(gar_graph.ainvoke({"question": question}, context=context), 4.0)
        before = time.process_time()
        await asyncio.sleep(2.0)
        return took, time.process_time() - before

    took, cpu_after = asyncio.run(run_and_cancel())
    assert took < 5
    assert cpu_after < 0.8, f"{cpu_after:.2f} CPU-seconds used in the 2 s after the cancel"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_a_cancelled_run_kills_the_sandbox_child(monkeypatch: pytest.MonkeyPatch) -> None:
    import subprocess

    started: list[subprocess.Popen] = []
    real_popen = subprocess.Popen

    def recording_popen(*args, **kwargs):
        proc = real_popen(*args, **kwargs)
        started.append(proc)
        return proc

    monkeypatch.setattr(subprocess, "Popen", recording_popen)
    outcome: list[object] = []

    with cancel_scope() as token:
        def work() -> None:
            try:
                outcome.append(run_designed(designed("    while True:\n        pass"), PATH, {}, cpu_seconds=30))
            except RunCancelled as exc:
                outcome.append(exc)

        import contextvars

        thread = threading.Thread(target=contextvars.copy_context().run, args=(work,))
        thread.start()
        deadline = time.monotonic() + 20
        while not started and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.5)
        token.cancel()
        thread.join(5)
    assert not thread.is_alive()
    assert outcome and isinstance(outcome[0], RunCancelled), outcome
    assert started and not _alive(started[0].pid)


def test_a_served_run_that_comes_back_after_a_restart_is_not_repeated(
    monkeypatch: pytest.MonkeyPatch, tmp_path
) -> None:
    stopped = threading.Event()
    graph = _loop_graph(stopped, seconds=0.1)
    monkeypatch.setenv("GRAPHREASON_SERVER", "1")
    monkeypatch.setenv("GRAPHREASON_TRUST_CLIENTS", "1")
    monkeypatch.setenv("GRAPHREASON_CACHE", str(tmp_path))
    config = {"metadata": {"run_id": "run-1"}}
    assert asyncio.run(graph.ainvoke({}, config))["rounds"] > 0  # this process began it
    assert asyncio.run(graph.ainvoke({}, config))["rounds"] > 0  # and may go on with it (a retry here)
    (tmp_path / "served-runs" / "run-1").write_text("an-earlier-server-process")
    stopped.clear()
    with pytest.raises(RunCutOff, match="start a new run"):
        asyncio.run(graph.ainvoke({}, config))
    assert not stopped.is_set()  # refused before any work
    assert asyncio.run(graph.ainvoke({}, {"metadata": {"run_id": "run-2"}}))["rounds"] > 0
