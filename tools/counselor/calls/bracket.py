"""The bracket form: ``Feature[Neighbour[Retrieve[graph agents], cites], title]``.

:class:`BracketParser` reads one line into calls, consulting a registry for
what it cannot know from the text: which names are functions (and their
canonical spelling) and which take their bracket content verbatim. Lenient
because small models write calls loosely:

* ``Feature(12, title)`` works like ``Feature[12, title]``, but parentheses
  start a call only after a known name with no gap (prose is full of them);
* several calls are separated by ``,`` ``;`` ``and`` or ``then`` at depth 0;
* a verbatim entry (Retrieve, Finish) takes its whole content, commas
  included, except that a non-terminal one may wrap one nested call;
* a missing final bracket (cut by a stop sequence) is forgiven.

Every scan is linear in the text's length: brackets are matched by jumping
from bracket to bracket, and the parser recurses once per nesting level (the
caller bounds nesting first).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from graphreason.tools.core.registry import Registry
from graphreason.tools.counselor.calls.base import Call
from graphreason.tools.counselor.functions import strip_quotes

# The look-behind keeps a long word from being retried at each of its letters (quadratic).
_CALL_START = re.compile(r"(?<![A-Za-z0-9_])([A-Za-z_][A-Za-z0-9_]*)(\s*)([\[(])")
_SEPARATOR = re.compile(r"(?:[\s,;&*`]|\b(?:and|then)\b)*", re.IGNORECASE)
_OPEN, _CLOSE = "[(", "])"
_BRACKET = re.compile(r"[\[\]()]")
_BRACKET_OR_COMMA = re.compile(r"[\[\](),]")


def _opens(text: str, at: int, first: int) -> bool:
    """Whether the bracket at ``at`` opens a level: a ``[`` always, a ``(`` where it opens a call (``Degree(``: a name
    touches it) or is the call's own (``first``); a ``(`` in a name ("L p (R d ...") is text."""
    return text[at] == "[" or at == first or (at > 0 and (text[at - 1].isalnum() or text[at - 1] == "_"))


def _levels(text: str, start: int, pattern: re.Pattern[str], first: int = -1) -> Iterator[tuple[re.Match[str], int]]:
    """Each match of ``pattern`` from ``start`` with the bracket depth after it: a ``]`` closes only a ``[`` and a ``)``
    only a ``(`` that opened a level (:func:`_opens`); other brackets are text."""
    stack: list[str] = []
    for match in pattern.finditer(text, start):
        char = match.group()
        if char in _OPEN and _opens(text, match.start(), first):
            stack.append(char)
        elif char in _CLOSE and stack and stack[-1] == _OPEN[_CLOSE.index(char)]:
            stack.pop()
        yield match, len(stack)


def match_close(text: str, open_at: int) -> int:
    """Index of the bracket closing the one at ``open_at``; -1 if it never closes."""
    for match, depth in _levels(text, open_at, _BRACKET, first=open_at):  # jumps from bracket to bracket
        if depth == 0 and match.group() in _CLOSE:
            return match.start()
    return -1


def split_top(text: str) -> list[str]:
    """Split at commas that are not inside brackets."""
    parts, start = [], 0
    for match, depth in _levels(text, 0, _BRACKET_OR_COMMA):
        if match.group() == "," and depth == 0:
            parts.append(text[start : match.start()])
            start = match.end()
    parts.append(text[start:])
    return parts


def unquote_answer(text: str) -> str:
    """A terminal entry's answer verbatim, minus one pair of matching surrounding quotes."""
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"`":
        return text[1:-1].strip()
    return text


class BracketParser:
    """Bracket calls over the names of one registry."""

    def __init__(self, registry: Registry) -> None:
        self.registry = registry

    def _accepts(self, match: re.Match[str], known_only: bool, brackets: str) -> bool:
        """Whether a ``Name[`` / ``Name(`` match counts as a call start."""
        name, space, opener = match.groups()
        known = self.registry.canonical(name) is not None
        if opener == "(":  # parentheses are common in prose: only known names, no gap
            return "(" in brackets and known and not space
        return "[" in brackets and (known or not known_only)

    def _parse_call(self, text: str, start: int) -> tuple[Call, int]:
        """Parse the call starting at ``start``; return it and the index after it."""
        match = _CALL_START.match(text, start)
        assert match is not None  # callers only start at a matched position
        raw_name, open_at = match.group(1), match.end() - 1
        close = match_close(text, open_at)
        closed = close >= 0
        if not closed:  # a missing final bracket (e.g. cut by a stop sequence) is forgiven
            close = len(text)
        content = text[open_at + 1 : close]
        if not closed:
            content = content.rstrip(" .`*")
        entry = self.registry.find(raw_name)
        name = entry.name if entry is not None else raw_name
        if entry is not None and entry.verbatim:
            inner = content.strip()
            nested = None if entry.terminal else self.whole_call(inner, known_only=True)
            if nested is not None:
                args: tuple[Call | str, ...] = (nested,)
            else:
                value = unquote_answer(inner) if entry.terminal else strip_quotes(inner)
                args = (value,) if value else ()
        elif content.strip():
            args = tuple(self.parse_arg(piece) for piece in split_top(content))
        else:
            args = ()
        return Call(name, args), min(close + 1, len(text))

    def whole_call(self, text: str, known_only: bool) -> Call | None:
        """``text`` parsed as one call if a call spans all of it, else None."""
        match = _CALL_START.match(text)
        if not match or not self._accepts(match, known_only, "[("):
            return None
        close = match_close(text, match.end() - 1)
        if close not in (-1, len(text) - 1):
            return None
        return self._parse_call(text, 0)[0]

    def parse_arg(self, piece: str) -> Call | str:
        """One argument: a nested call if one spans it, else the text unquoted."""
        text = piece.strip()
        return self.whole_call(text, known_only=False) or strip_quotes(text)

    def parse_line(self, line: str, brackets: str, known_only: bool) -> list[Call]:
        """Calls found in one line (first acceptable call start, then its siblings)."""
        for match in _CALL_START.finditer(line):
            if match.start() > 0 and (line[match.start() - 1].isalnum() or line[match.start() - 1] == "_"):
                continue
            if not self._accepts(match, known_only, brackets):
                continue
            calls, pos = [], match.start()
            while True:
                call, pos = self._parse_call(line, pos)
                calls.append(call)
                nxt = _SEPARATOR.match(line, pos).end()
                follow = _CALL_START.match(line, nxt)
                if not follow or not self._accepts(follow, False, brackets):
                    return calls
                pos = nxt
        return []

    def parse_lines(self, lines: list[str]) -> list[Call]:
        """The calls of the first line holding one: ``Name[`` of known names, then ``Name(``, then any ``Name[``."""
        for brackets, known_only in (("[", True), ("(", True), ("[", False)):
            for line in lines:
                found = self.parse_line(line, brackets, known_only)
                if found:
                    return found
        return []
