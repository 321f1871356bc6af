""":func:`parse_action`: one Action's text (bracket or JSON form) to its top-level calls.

The text is first checked against the limits (length, bracket nesting), then
read as JSON if it holds a ``{``, else line by line as bracket calls:
``Action 3:`` prefixes, markdown, backticks, a trailing full stop and prose
around the call are ignored; of several lines the first one holding a call
wins, lines starting with ``Action`` tried first.
"""

from __future__ import annotations

import re

from graphreason.tools.core.registry import Registry
from graphreason.tools.counselor.calls.base import (
    MAX_ACTION_CHARS,
    MAX_NESTING,
    ActionParseError,
    Call,
    nesting_depth,
)
from graphreason.tools.counselor.calls.bracket import BracketParser
from graphreason.tools.counselor.calls.json_calls import JsonCallParser
from graphreason.tools.counselor.registry import GRAPH_FUNCTIONS

_ACTION_LINE = re.compile(r"[*`\s]*action\b", re.IGNORECASE)


def parse_action(text: str, registry: Registry | None = None) -> list[Call]:
    """Parse one Action into its top-level calls, naming functions as ``registry`` does.

    ``registry`` defaults to Graph Counselor's. Raises :class:`ActionParseError`,
    whose message explains the valid syntax, and nothing else: limits are
    checked first and any unforeseen failure of the lenient readers is
    reported the same way.
    """
    if not isinstance(text, str) or not text.strip():
        raise ActionParseError("The Action is empty.")
    if len(text) > MAX_ACTION_CHARS:
        raise ActionParseError(
            f"The Action is {len(text)} characters long, more than the limit of {MAX_ACTION_CHARS}."
        )
    depth = nesting_depth(text)
    if depth > MAX_NESTING:
        raise ActionParseError(
            f"The Action nests brackets {depth} levels deep, more than the limit of {MAX_NESTING}."
        )
    try:
        return _parse_checked(text, GRAPH_FUNCTIONS if registry is None else registry)
    except ActionParseError:
        raise
    except (ValueError, TypeError, RecursionError, MemoryError) as exc:
        raise ActionParseError(f"The Action could not be read ({type(exc).__name__}).") from exc


def _parse_checked(text: str, registry: Registry) -> list[Call]:
    """:func:`parse_action` on text already within the size and nesting limits."""
    brackets = BracketParser(registry)
    json_error: ActionParseError | None = None
    if "{" in text:
        try:
            calls = JsonCallParser(registry, brackets).parse(text)
        except ActionParseError as err:  # maybe braces inside a bracket call; try that first
            calls, json_error = None, err
        if calls:
            return calls
    lines = [
        line.strip() for line in text.splitlines() if line.strip() and not line.strip().startswith("```")
    ]
    # Lines starting with "Action" first: a Thought line may mention a function in prose.
    lines.sort(key=lambda line: not _ACTION_LINE.match(line))
    found = brackets.parse_lines(lines)
    if found:
        return found
    if json_error is not None:
        raise json_error
    preview = text.strip().splitlines()[0][:120]
    raise ActionParseError(f"Could not find a function call in the Action {preview!r}.")
