"""The child side of the sandbox: run one designed vertex algorithm and print one JSON line.

This file is executed as a script (``python -I -S runner.py``) in a fresh
process, so it imports only the standard library. It reads a JSON request from
stdin, limits its own CPU time, address space, open files and file size, then
executes the (already validated) source with a tiny ``__builtins__`` and runs
the bulk-synchronous loop:

* ``init(node, neighbors, params) -> state`` for every node;
* each round every node's ``send(node, state, neighbors)`` returns messages,
  as a list of ``(target, message)`` pairs or a ``{target: message}`` dict,
  addressed to neighbours (or to itself);
* ``update(node, state, messages) -> new_state`` for every node (``messages``
  is a list, possibly empty, in sender order);
* the run stops when no state changed, when the optional
  ``terminate(round, changed_count)`` says so, or at ``max_rounds``;
* ``result(states, params) -> answer``.

Send and Update receive copies, so only Update's return value changes a state.
"""

from __future__ import annotations

import builtins
import copy
import json
import numbers
import os
import resource
import sys
from typing import Any

SOURCE_NAME = "<designed>"
MAX_OUTPUT_BYTES = 5_000_000
MAX_INT_BITS = 13_000  # ~3,900 digits: under Python's 4,300-digit int <-> str limit at both ends of the pipe
MAX_DEPTH = 64

SAFE_BUILTINS = (
    "abs", "all", "any", "bool", "dict", "divmod", "enumerate", "float", "frozenset", "int",
    "isinstance", "len", "list", "max", "min", "pow", "range", "reversed", "round", "set",
    "sorted", "str", "sum", "tuple", "zip", "True", "False", "None",
    "Exception", "ValueError", "KeyError", "IndexError", "TypeError", "ZeroDivisionError",
    "ArithmeticError", "LookupError", "RuntimeError", "StopIteration",
)  # fmt: skip


# --------------------------------------------------------------------------- value codec
def encode(value: Any, depth: int = 0) -> Any:
    """A JSON-safe form of builtin data that keeps dict keys' types and sets (see :func:`decode`)."""
    if depth > MAX_DEPTH:
        raise ValueError(f"the value is nested more than {MAX_DEPTH} levels deep")
    if value is None or isinstance(value, bool | str):
        return value
    if isinstance(value, numbers.Integral):
        if int(value).bit_length() > MAX_INT_BITS:  # checked before JSON turns it into digits
            raise ValueError(f"an integer of more than {MAX_INT_BITS} bits cannot pass the sandbox boundary")
        return int(value)
    if isinstance(value, numbers.Real):
        return float(value)
    if isinstance(value, dict):
        return {"$dict": [[encode(k, depth + 1), encode(v, depth + 1)] for k, v in value.items()]}
    if isinstance(value, set | frozenset):
        return {"$set": [encode(v, depth + 1) for v in value]}
    if isinstance(value, list | tuple):
        return [encode(v, depth + 1) for v in value]
    raise TypeError(f"cannot pass a value of type {type(value).__name__} in or out of the sandbox")


def _hashable(value: Any) -> Any:
    """A decoded dict key or set member made hashable again: lists -> tuples, sets -> frozensets.

    A frozenset travels as a ``$set`` and decodes as a set, so ``{frozenset({1, 2})}`` needs this.
    Members of a decoded set are already hashable; anything else unhashable raises ``TypeError``.
    """
    if isinstance(value, list):
        return tuple(_hashable(v) for v in value)
    if isinstance(value, set):
        return frozenset(value)
    return value


def decode(value: Any) -> Any:
    """Inverse of :func:`encode` (tuples come back as lists and frozensets as sets, except as dict
    keys / set members, where they are tuples and frozensets). Malformed input raises
    ``TypeError`` / ``ValueError`` (the parent turns that into a failed run)."""
    if isinstance(value, list):
        return [decode(v) for v in value]
    if isinstance(value, dict):
        if "$dict" in value:
            return {_hashable(decode(k)): decode(v) for k, v in value["$dict"]}
        if "$set" in value:
            return {_hashable(decode(v)) for v in value["$set"]}
    return value


# --------------------------------------------------------------------------- the BSP loop
class DesignError(Exception):
    """The designed code broke the protocol (bad message, unknown target ...)."""


def _messages(out: Any, node: Any, neighbours: set[Any]) -> list[tuple[Any, Any]]:
    if out is None:
        return []
    if isinstance(out, dict):
        pairs = list(out.items())
    elif isinstance(out, list | tuple):
        pairs = []
        for item in out:
            if not isinstance(item, list | tuple) or len(item) != 2:
                raise DesignError(
                    f"send() of node {node!r} returned {item!r}; each message must be (target, message)"
                )
            pairs.append((item[0], item[1]))
    else:
        raise DesignError(
            f"send() of node {node!r} returned a {type(out).__name__}; "
            "return a list of (target, message) pairs or a {target: message} dict"
        )
    for target, _ in pairs:
        if target != node and target not in neighbours:
            raise DesignError(
                f"send() of node {node!r} addressed {target!r}, which is not one of its neighbours"
            )
    return pairs


def run_bsp(
    namespace: dict[str, Any],
    adjacency: dict[Any, list[Any]],
    params: Any,
    max_rounds: int,
    where: dict[str, Any],
) -> dict[str, Any]:
    """Run the six parts over ``adjacency``; ``where`` is kept up to date for error messages."""
    init, send, update, result = (namespace[k] for k in ("init", "send", "update", "result"))
    terminate = namespace.get("terminate")
    nodes = list(adjacency)
    neighbour_sets = {v: set(adjacency[v]) for v in nodes}
    where.update(part="init", round=0)
    states = {}
    for v in nodes:
        where["node"] = v
        states[v] = init(v, list(adjacency[v]), copy.deepcopy(params))
    rounds, status = 0, "round_cap"
    while rounds < max_rounds:
        rounds += 1
        where.update(part="send", round=rounds)
        inbox: dict[Any, list[Any]] = {v: [] for v in nodes}
        for v in nodes:
            where["node"] = v
            out = send(v, copy.deepcopy(states[v]), list(adjacency[v]))
            for target, message in _messages(out, v, neighbour_sets[v]):
                inbox[target].append(message)
        where["part"] = "update"
        changed, new_states = 0, {}
        for v in nodes:
            where["node"] = v
            old = states[v]
            new_states[v] = update(v, *copy.deepcopy((old, inbox[v])))
            changed += new_states[v] != old
        states = new_states
        where.update(part="terminate", node=None)
        if changed == 0 or (terminate is not None and terminate(rounds, changed)):
            status = "ok"
            break
    where.update(part="result", node=None)
    answer = result(states, copy.deepcopy(params))
    return {"status": status, "answer": encode(answer), "rounds": rounds, "message": ""}


# --------------------------------------------------------------------------- process side
def limit_resources(cpu_seconds: int, memory_bytes: int) -> None:
    """Cap CPU time (SIGXCPU, then SIGKILL one second later), memory, core dumps, files and new fds."""
    resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds + 1))
    resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))
    resource.setrlimit(resource.RLIMIT_NOFILE, (3, 3))  # stdin/out/err stay; no new files or sockets


def _line_in_source(exc: BaseException) -> int | None:
    line, tb = None, exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == SOURCE_NAME:
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


def _describe(exc: BaseException, where: dict[str, Any]) -> str:
    place = f"{where.get('part', 'setup')}()"
    if where.get("round"):
        place += f" in round {where['round']}"
    if where.get("node") is not None:
        place += f" at node {where['node']!r}"
    line = _line_in_source(exc)
    at_line = f" (line {line})" if line else ""
    return f"{place}{at_line}: {type(exc).__name__}: {str(exc)[:300]}"


def _write(payload: bytes) -> None:
    view = memoryview(payload)
    while view:
        view = view[os.write(1, view) :]


def main() -> None:
    request = json.loads(sys.stdin.buffer.read())
    limit_resources(int(request["cpu_seconds"]), int(request["memory_mb"]) << 20)
    # prepared before running anything, so reporting works even when memory is exhausted
    out_of_memory = (json.dumps({"status": "memory", "message": "MEMORY_MESSAGE"}) + "\n").encode()
    where: dict[str, Any] = {"part": "setup"}
    try:
        adjacency = {
            _hashable(decode(v)): [_hashable(decode(u)) for u in nbrs] for v, nbrs in request["graph"]
        }
        params = decode(request["params"])
        namespace: dict[str, Any] = {"__builtins__": {k: getattr(builtins, k) for k in SAFE_BUILTINS}}
        where["part"] = "definitions"
        exec(compile(request["source"], SOURCE_NAME, "exec"), namespace)
        reply = run_bsp(namespace, adjacency, params, int(request["max_rounds"]), where)
        payload = (json.dumps(reply) + "\n").encode()
        if len(payload) > MAX_OUTPUT_BYTES:
            payload = (json.dumps({"status": "error", "message": "the answer is too large"}) + "\n").encode()
    except MemoryError:
        namespace = adjacency = params = None  # noqa: F841 - free what we can before reporting
        message = f"out of memory in {where.get('part')}() (limit {request['memory_mb']} MB)"
        payload = out_of_memory.replace(b"MEMORY_MESSAGE", message.encode())
    except DesignError as exc:
        payload = (json.dumps({"status": "error", "message": str(exc)}) + "\n").encode()
    except BaseException as exc:  # anything the designed code raised, RecursionError included
        payload = (json.dumps({"status": "error", "message": _describe(exc, where)}) + "\n").encode()
    _write(payload)


if __name__ == "__main__":
    main()
