"""Helpers shared by the GAR steps: custom stream events, JSON-ready values, JSON read out of replies."""

from __future__ import annotations

import ast
import json
import math
import re
from typing import Any

import numpy as np
from langgraph.config import get_stream_writer

# Arrays longer than this are left out of the state (the answer itself is kept whole).
MAX_DETAIL_ITEMS = 1000


def emit(event: str, text: str, **extra: Any) -> None:
    """Stream a custom event (``stream_mode="custom"``); a no-op outside a streamed run."""
    try:
        writer = get_stream_writer()
    except Exception:  # called outside a graph run (unit tests of helpers)
        return
    writer({"event": event, "text": text, **extra})


def jsonable(value: Any, limit: int | None = None) -> Any:
    """``value`` with numpy scalars/arrays turned into Python numbers and lists.

    Infinite floats become None (JSON has no infinity); integral floats become ints.
    With ``limit``, a sequence longer than it raises ``OverflowError`` (the caller drops it).
    """
    if isinstance(value, np.ndarray):
        if limit is not None and value.size > limit:
            raise OverflowError
        return jsonable(value.tolist(), limit)
    if isinstance(value, bool | np.bool_):
        return bool(value)
    if isinstance(value, int | np.integer):
        return int(value)
    if isinstance(value, float | np.floating):
        number = float(value)
        if math.isinf(number) or math.isnan(number):
            return None
        return int(number) if number.is_integer() else number
    if isinstance(value, dict):
        if limit is not None and len(value) > limit:
            raise OverflowError
        if _plain_number_map(value):  # e.g. a million shortest distances: already JSON-ready
            return value
        return {jsonable(k): jsonable(v, limit) for k, v in value.items()}
    if isinstance(value, list | tuple | set):
        if limit is not None and len(value) > limit:
            raise OverflowError
        return [jsonable(v, limit) for v in value]
    if value is None or isinstance(value, str):
        return value
    return str(value)


def _plain_number_map(value: dict) -> bool:
    """True for ``{int: int | finite float}`` dicts (checked with C-level loops: cheap at 10^6 entries)."""
    if not set(map(type, value)) <= {int}:
        return False
    kinds = set(map(type, value.values()))
    if not kinds <= {int, float}:
        return False
    return float not in kinds or all(map(math.isfinite, value.values()))


# Chunks whose braces nest deeper than this are not parsed (replies never nest so deep, and the
# parsers recurse on depth); a chunk inside this many chunks that failed to parse is not tried.
# Each character is then parsed at most MAX_FAILED_NESTING + 2 times: O(n) work for n characters.
MAX_JSON_DEPTH = 100
MAX_FAILED_NESTING = 8

_UNREADABLE = object()


def json_objects(text: str) -> list[Any]:
    """Every dict-valued ``{...}`` in ``text`` that reads as JSON or a Python literal, outermost first.

    Dicts nested in an object that parsed are collected from its parsed value (braces inside its
    strings are not read again); inside a ``{...}`` that did not parse, the inner ones are tried.
    """
    ends, depths = _brace_pairs(text)
    found: list[Any] = []
    enclosing: list[tuple[int, int]] = []  # (end, failed chunks around it and itself) of open chunks
    skip_to = -1  # the end of the last chunk that parsed, or of one too deep in failures to try
    for start in sorted(ends):
        if start < skip_to:
            continue
        while enclosing and enclosing[-1][0] < start:
            enclosing.pop()
        failed, end = enclosing[-1][1] if enclosing else 0, ends[start]
        if failed > MAX_FAILED_NESTING:
            skip_to = end
            continue
        too_deep = depths[start] > MAX_JSON_DEPTH
        value = _UNREADABLE if too_deep else _read(text[start : end + 1])
        if value is _UNREADABLE:
            # one left unread for its depth is no failure: its inner chunks may well read
            enclosing.append((end, failed if too_deep else failed + 1))
            continue
        found.extend(_dicts_in(value))
        skip_to = end
    return found


def _brace_pairs(text: str) -> tuple[dict[int, int], dict[int, int]]:
    """For every ``{`` that is closed: the index of its ``}`` and how deep braces nest within (1 = none).

    One pass with a stack; braces are counted everywhere (inside strings too), as a reader that
    counts depth from each ``{`` would. A ``}`` with no open ``{`` is ignored.
    """
    ends: dict[int, int] = {}
    depths: dict[int, int] = {}
    stack: list[list[int]] = []  # [start, deepest nesting among its closed children]
    for match in re.finditer(r"[{}]", text):
        if match.group() == "{":
            stack.append([match.start(), 0])
        elif stack:
            start, inner = stack.pop()
            ends[start], depths[start] = match.start(), inner + 1
            if stack:
                stack[-1][1] = max(stack[-1][1], inner + 1)
    return ends, depths


def _read(chunk: str) -> Any:
    """``chunk`` read as JSON, else as a Python literal; ``_UNREADABLE`` when neither works."""
    for reader in (json.loads, ast.literal_eval):
        try:
            return reader(chunk)
        except (ValueError, SyntaxError, TypeError, OverflowError, MemoryError, RecursionError):
            continue
    return _UNREADABLE


def _dicts_in(value: Any) -> list[dict]:
    """The dicts in a parsed value, outermost first and in reading order (iterative: no recursion limit)."""
    out: list[dict] = []
    todo = [value]
    while todo:
        item = todo.pop()
        if isinstance(item, dict):
            out.append(item)
            todo.extend(reversed(list(item.values())))
        elif isinstance(item, list | tuple):
            todo.extend(reversed(item))
    return out
