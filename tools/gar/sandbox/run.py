"""Run a model-designed vertex algorithm in a separate, resource-limited process.

The source is first checked by :func:`graphreason.tools.gar.sandbox.validate.validate_source`;
then ``runner.py`` is started as a fresh interpreter (``python -I -S``: no
user site, no environment, no inherited file descriptors, own session) that
limits its own CPU time and memory, executes the code with a tiny
``__builtins__`` and runs the six parts over the graph. The parent enforces a
wall-clock timeout and kills the whole process group on expiry, so a designed
algorithm that loops, raises or eats memory is stopped and reported - the
caller never hangs.
"""

from __future__ import annotations

import json
import math
import signal
import subprocess
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from graphreason.runtime.cancel import check_cancelled, kill_group, watch_process
from graphreason.tools.gar.sandbox.runner import MAX_OUTPUT_BYTES, decode, encode
from graphreason.tools.gar.sandbox.validate import SandboxViolation, validate_source

RUNNER = Path(__file__).with_name("runner.py")
STATUSES = ("ok", "violation", "timeout", "memory", "error", "round_cap")


@dataclass(frozen=True)
class SandboxResult:
    """Outcome of one sandboxed run.

    ``status`` is ``ok`` (stopped by itself), ``round_cap`` (``max_rounds``
    reached; ``answer`` is from the last states), ``violation`` (refused by the
    static check, never run), ``timeout`` (CPU or wall-clock limit),
    ``memory`` (memory limit) or ``error`` (it raised or broke the protocol).
    ``message`` says what happened and where; ``seconds`` is wall time.
    """

    status: str
    answer: Any = None
    rounds: int = 0
    message: str = ""
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return self.status == "ok"


def adjacency_of(graph: Any) -> dict[Any, list[Any]]:
    """``{node: [neighbours]}`` from an adjacency mapping or a networkx graph (out-neighbours if directed)."""
    if hasattr(graph, "adj") and hasattr(graph, "nodes"):
        return {v: list(graph.adj[v]) for v in graph.nodes}
    if not isinstance(graph, Mapping):
        raise TypeError(f"graph must be an adjacency dict or a networkx graph, not {type(graph).__name__}")
    adjacency = {v: list(nbrs) for v, nbrs in graph.items()}
    for v, nbrs in adjacency.items():
        missing = [u for u in nbrs if u not in adjacency]
        if missing:
            raise ValueError(
                f"node {v!r} lists neighbour(s) {missing[:5]} that are not keys of the adjacency dict"
            )
    return adjacency


def _killed(code: int, cpu_seconds: int, memory_mb: int) -> SandboxResult | None:
    """Map a child's death by signal to a status (None if it exited normally)."""
    if code >= 0:
        return None
    sig = -code
    if sig == signal.SIGXCPU:
        return SandboxResult("timeout", message=f"stopped by the CPU-time limit ({cpu_seconds} s)")
    if sig == signal.SIGKILL:  # the hard CPU limit, or the kernel's out-of-memory killer
        return SandboxResult(
            "timeout", message=f"killed (CPU limit {cpu_seconds} s or memory {memory_mb} MB)"
        )
    return SandboxResult("error", message=f"the sandbox process died with signal {signal.Signals(sig).name}")


def run_designed(
    source: str,
    graph: Any,
    params: dict[str, Any] | None = None,
    *,
    max_rounds: int | None = None,
    cpu_seconds: float = 2.0,
    wall_seconds: float | None = None,
    memory_mb: int = 512,
) -> SandboxResult:
    """Validate ``source`` and run it over ``graph`` (adjacency dict or networkx graph) in the sandbox.

    ``max_rounds`` defaults to the number of nodes + 1; ``wall_seconds``
    defaults to ``3 * cpu_seconds + 4``: the CPU limit stops code that computes, the wall clock only code that
    waits, and on a loaded machine a child may wait for a core several times as long as it computes. Never
    raises for anything the designed code does - that is reported in the result.
    """
    start = time.perf_counter()
    try:
        validate_source(source)
    except SandboxViolation as exc:
        return SandboxResult("violation", message=str(exc), seconds=time.perf_counter() - start)
    adjacency = adjacency_of(graph)
    request = {
        "source": source,
        "graph": [[encode(v), [encode(u) for u in nbrs]] for v, nbrs in adjacency.items()],
        "params": encode(dict(params or {})),
        "max_rounds": len(adjacency) + 1 if max_rounds is None else int(max_rounds),
        "cpu_seconds": max(1, math.ceil(cpu_seconds)),
        "memory_mb": int(memory_mb),
    }
    if request["max_rounds"] < 0:
        raise ValueError(f"max_rounds must be >= 0, got {max_rounds}")
    wall = wall_seconds if wall_seconds is not None else 3.0 * request["cpu_seconds"] + 4.0
    result = _run_child(request, wall)
    return SandboxResult(
        result.status, result.answer, result.rounds, result.message, time.perf_counter() - start
    )


def _run_child(request: dict[str, Any], wall_seconds: float) -> SandboxResult:
    """Start the runner, feed it ``request`` and turn whatever happens into a result (no validation here)."""
    proc = subprocess.Popen(
        [sys.executable, "-I", "-S", str(RUNNER)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        close_fds=True,
        start_new_session=True,  # own process group: the kill below reaches anything it started
        cwd="/",
        env={},
    )
    try:
        with watch_process(proc):  # a cancelled run kills the child at once
            out, err = proc.communicate(json.dumps(request).encode(), timeout=wall_seconds)
    except subprocess.TimeoutExpired:
        kill_group(proc)
        proc.communicate()
        check_cancelled()
        return SandboxResult("timeout", message=f"stopped by the wall-clock limit ({wall_seconds:g} s)")
    check_cancelled()  # killed because the run was cancelled: not the designed code's fault
    killed = _killed(proc.returncode, request["cpu_seconds"], request["memory_mb"])
    if killed is not None:
        return killed
    return read_reply(out, err, proc.returncode)


def read_reply(out: bytes, err: bytes, returncode: int = 0) -> SandboxResult:
    """The child's last output line as a result; anything unreadable is an ``error`` result, never raised.

    The answer is untrusted data: too large, nested too deep, or holding values that do not
    decode (say, an unhashable set member) make the run fail, which the design loop reports
    back to the master like any other failure.
    """
    if len(out) > MAX_OUTPUT_BYTES + 1024:  # the child caps its own reply; more means it broke protocol
        return SandboxResult("error", message=f"the sandbox's reply is over {MAX_OUTPUT_BYTES} bytes")
    try:
        reply = json.loads(out.decode().strip().splitlines()[-1])
    except (IndexError, ValueError, UnicodeDecodeError, RecursionError, MemoryError):
        tail = err.decode(errors="replace").strip()[-500:]
        return SandboxResult("error", message=f"the sandbox gave no result (exit {returncode}): {tail}")
    if not isinstance(reply, dict):
        return SandboxResult("error", message="the sandbox's reply is not a JSON object")
    status = reply.get("status")
    if status not in STATUSES:
        return SandboxResult("error", message=f"the sandbox replied with an unknown status {status!r}")
    try:
        answer, rounds = decode(reply.get("answer")), int(reply.get("rounds", 0))
    except (TypeError, ValueError, OverflowError, RecursionError, MemoryError) as exc:
        return SandboxResult("error", message=f"the answer could not be read back from the sandbox: {exc}")
    return SandboxResult(status, answer, rounds, str(reply.get("message", "")))
