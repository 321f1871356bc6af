"""The one lenient reader of JSON in model replies (and in anything else that may be loose or hostile).

Models wrap JSON in prose and fences, use Python literals (single quotes,
``True``/``None``) and sometimes emit thousands of braces. Every reader here
tries strict JSON first, then a Python literal, never raises on bad text and
does work linear in the text's length:

* :func:`json_objects` - every ``{...}`` in a text that reads as a dict, outermost first;
* :func:`first_value` - the first JSON object or list in a text;
* :func:`read_value` - one snippet read whole.
"""

from __future__ import annotations

import ast
import json
import re
from functools import partial
from typing import Any

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


UNREADABLE = _UNREADABLE  # what read_value returns for text that is neither JSON nor a literal
MAX_SNIPPET_CHARS = 200_000  # a longer snippet is runaway generation, not an answer


def read_value(snippet: str, *, ints_as_text: bool = False) -> Any:
    """``snippet`` read whole as JSON, else as a Python literal; :data:`UNREADABLE` when neither works.

    ``ints_as_text`` keeps JSON integers as strings (a 5,000-digit id must not
    hit Python's int-string limit). Deep nesting and huge snippets read as
    unreadable instead of raising.
    """
    if len(snippet) > MAX_SNIPPET_CHARS:
        return UNREADABLE
    if not ints_as_text:
        return _read(snippet)
    for reader in (partial(json.loads, parse_int=str), ast.literal_eval):
        try:
            return reader(snippet)
        except (ValueError, SyntaxError, TypeError, OverflowError, MemoryError, RecursionError):
            continue
    return UNREADABLE


def first_value(text: str) -> Any:
    """The first JSON (or Python-literal) object or list in ``text``.

    Strict JSON is decoded from the first ``{`` or ``[`` (trailing prose is
    ignored); failing that, the span up to the last matching closer is read as
    a Python literal. Raises ``ValueError`` saying why nothing could be read.
    """
    starts = [i for i in (text.find("{"), text.find("[")) if i >= 0]
    if not starts:
        raise ValueError("no JSON object or list in the text")
    begin = min(starts)
    try:
        return json.JSONDecoder().raw_decode(text[begin:])[0]
    except json.JSONDecodeError as exc:
        problem = f"not valid JSON ({exc.msg} at char {exc.pos})"
    except RecursionError:
        problem = "nested too deep"
    end = text.rfind("}" if text[begin] == "{" else "]")
    if end > begin:
        value = read_value(text[begin : end + 1])
        if value is not UNREADABLE:
            return value
    raise ValueError(problem)
