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

from graphreason.runtime.cancel import RunCancelled, cancel_scope, check_cancelled
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


def test_a_cancel_the_runtime_no_longer_relays_still_stops_the_node(monkeypatch, tmp_path) -> None:
    """After 240 s LangGraph's in-memory runtime stops listening for cancels, so the run's task is never
    cancelled: the node watches for the cancel itself (here the task is left alone and the cancel is only
    recorded, as the runtime records it) and its work stops within the poll and grace times."""
    from langgraph_api.errors import UserInterrupt

    from graphreason.workflows.kit import compile as kit

    monkeypatch.setenv("GRAPHREASON_CACHE", str(tmp_path))
    asked = {"at": None}
    monkeypatch.setattr(kit, "_served_run_id", lambda: "run-after-240s")
    monkeypatch.setattr(kit, "_served_thread_id", lambda: None)
    monkeypatch.setattr(kit, "cancel_requested", lambda run, thread: asked["at"] is not None and run == "run-after-240s")
    stopped = threading.Event()
    graph = _loop_graph(stopped, seconds=60.0)

    async def scenario() -> float:
        task = asyncio.create_task(graph.ainvoke({"rounds": 0}))
        await asyncio.sleep(1.0)
        asked["at"] = time.monotonic()  # the client's cancel, recorded but never delivered to the task
        with pytest.raises(UserInterrupt, match="the run was cancelled"):  # the run reads interrupted, not error
            await task
        return time.monotonic() - asked["at"]

    took = asyncio.run(scenario())
    assert stopped.wait(5) and took < kit.CANCEL_POLL_SECONDS + kit.STOP_GRACE_SECONDS


def test_the_recorded_cancel_is_read_from_the_in_memory_runtime() -> None:
    from langgraph_runtime_inmem.inmem_stream import Message, get_stream_manager

    from graphreason.workflows.kit.compile import cancel_requested

    run, thread = "1f0a0b1c-0000-4000-8000-000000000001", "1f0a0b1c-0000-4000-8000-000000000002"
    assert not cancel_requested(run, thread)
    manager = get_stream_manager()
    asyncio.run(manager.put(run, thread, Message(topic=f"run:{run}:control".encode(), data=b"interrupt")))
    assert cancel_requested(run, thread) == "interrupt" and cancel_requested(run, None) is None
    asyncio.run(manager.put(run, None, Message(topic=f"run:{run}:control".encode(), data=b"done")))
    assert cancel_requested(run, thread) == "interrupt"  # the run's own thread still holds the interrupt
