"""Parse Graph-ToolFormer's call language: texts, brackets and calls.

The grammar (whitespace, including newlines, may stand between any two
tokens; ``*`` repeats, ``?`` is optional)::

    bracket  = "[" call ("," call)* (arrow TARGET)? "]"
    arrow    = "-->" | "->"
    call     = FUNC "(" (args)? ")"
    args     = arg ("," arg)*             -- keywords after all positional args
    arg      = KEY ":" value | value
    value    = call | STRING | set | tuple | bare
    set      = "{" (value ("," value)*)? "}"
    tuple    = "(" (value ("," value)*)? ")"
    FUNC,KEY = [A-Za-z_][A-Za-z0-9_-]*
    TARGET   = [A-Za-z0-9_]+              -- "r" substitutes, anything else binds a variable
    STRING   = '"' chars other than '"', '[' and ']' '"'

A ``bare`` value is a run of characters other than ``, ( ) { } [ ] " :``,
read as, in this order: a number (``10``, ``-0.5``, ``1e-3``), ``True`` /
``False`` (any case), a node reference ``kind#id`` (``paper#106590``,
``node #4``, ``entity#/m/0gs9p``, ``#12``; the id has no spaces), or else a
:class:`Name` whose inner spaces collapse to one (``G_l``, ``New York City``:
graph-loading prompts write such phrases unquoted). A quoted string whose
whole content is a node reference (``"node#5"``) is a quoted :class:`NodeRef`.
Strings have no escapes and cannot hold brackets, so the first ``]`` after a
``[`` always closes it; that keeps the document scan a single linear pass.

:func:`parse_call` and :func:`parse_bracket` are strict and raise
:class:`ToolformerSyntaxError`. :func:`parse_text` never raises for a string: a
bracket that starts like a call (``[`` name ``(``) but does not parse becomes a
:class:`BadBracket` segment holding the raw text and the error, and the rest of
the text is still read. Other square brackets (``[1]``, ``[citation needed]``,
``[[2, 4], [2]]``) stay plain :class:`Text`. The parser is recursive descent
with one character of lookahead, so time is linear in the text; nesting deeper
than :data:`MAX_DEPTH` is a syntax error, never a RecursionError.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from graphreason.tools.toolformer.calls.ast import (
    BadBracket,
    Bool,
    Bracket,
    Call,
    Document,
    Expr,
    Keyword,
    Name,
    NodeRef,
    Number,
    Placeholder,
    Segment,
    SetOf,
    Str,
    Text,
    TupleOf,
)
from graphreason.tools.toolformer.calls.errors import ToolformerSyntaxError

MAX_DEPTH = 64
PLACEHOLDER = "[TBR]"

IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_\-]*")
TARGET = re.compile(r"[A-Za-z0-9_]+")
NUMBER = re.compile(r"-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?")
BOOL = re.compile(r"(?i:true|false)")
# kind#id; the id may not start with '#' so "##" or "C#" are not references
NODE_REF = re.compile(r"([A-Za-z_][A-Za-z0-9_\-]*)?\s*#\s*([^\s,(){}\[\]\":#][^\s,(){}\[\]\":]*)")
BARE = re.compile(r"[^,(){}\[\]\":]+")
_KEY = re.compile(r"([A-Za-z_][A-Za-z0-9_\-]*)\s*:")
_ARROW = re.compile(r"--?>")
_WS = re.compile(r"\s*")
# where a call bracket starts in running text: "[" name "(" (spaces only after "[")
CALL_START = re.compile(r"\[\s*[A-Za-z_][A-Za-z0-9_\-]*\(")


def parse_call(text: str) -> Call:
    """One call such as ``GR(GL("cora"), "graph_bert:topic", paper#1)``; spaces around it are allowed."""
    parser = _Parser(_require_str(text))
    i = parser.skip(0)
    if not IDENT.match(text, i):
        raise ToolformerSyntaxError(text, i, "a function name (letters, digits, '_' or '-') starting a call")
    call, i = parser.call(i)
    parser.expect_end(i)
    return call


def parse_bracket(text: str) -> Bracket:
    """One bracket such as ``[GR(G_l, "toolx:order") --> r]``; spaces around it are allowed."""
    parser = _Parser(_require_str(text))
    bracket, i = parser.bracket(parser.skip(0))
    parser.expect_end(i)
    return bracket


def parse_text(text: str) -> Document:
    """A whole text with its calls; never raises for a ``str`` (see :class:`BadBracket`)."""
    return Document(tuple(segment for _, _, segment in parse_text_spans(text)))


def parse_text_spans(text: str) -> list[tuple[int, int, Segment]]:
    """``(start, end, segment)`` for each segment of ``text``, so callers can point into the source."""
    return list(_scan(_require_str(text)))


def _scan(text: str) -> Iterator[tuple[int, int, Segment]]:
    pos = text_start = 0
    while (j := text.find("[", pos)) >= 0:
        if text.startswith(PLACEHOLDER, j):
            end = j + len(PLACEHOLDER)
            segment: Segment = Placeholder()
        elif CALL_START.match(text, j):
            close = text.find("]", j)
            end = len(text) if close < 0 else close + 1
            raw = text[j:end]
            try:
                segment = parse_bracket(raw)
            except ToolformerSyntaxError as error:
                segment = BadBracket(raw, str(error), error.position)
        else:
            pos = j + 1  # "[1]", "[[2, 4]]": plain text
            continue
        if text_start < j:
            yield text_start, j, Text(text[text_start:j])
        yield j, end, segment
        pos = text_start = end
    if text_start < len(text):
        yield text_start, len(text), Text(text[text_start:])


def _require_str(text: object) -> str:
    if not isinstance(text, str):
        raise ToolformerSyntaxError("", 0, "a str holding Graph-ToolFormer text", type(text).__name__)
    return text


def classify_bare(raw: str) -> Expr | None:
    """The value an unquoted run of text stands for, or None for a '#' that is not a node reference."""
    if NUMBER.fullmatch(raw):
        return Number(raw)
    if BOOL.fullmatch(raw):
        return Bool(raw.lower() == "true")
    ref = NODE_REF.fullmatch(raw)
    if ref:
        return NodeRef(ref.group(1) or "", ref.group(2))
    if "#" in raw:
        return None
    return Name(" ".join(raw.split()))


def quoted_value(content: str) -> Str | NodeRef:
    """What ``"content"`` stands for: a quoted node reference when it is one, else a string."""
    ref = NODE_REF.fullmatch(content)
    return NodeRef(ref.group(1) or "", ref.group(2), quoted=True) if ref else Str(content)


class _Parser:
    """Recursive descent over one string; every method takes and returns an offset."""

    def __init__(self, source: str) -> None:
        self.s = source
        self.n = len(source)
        self.depth = 0

    def fail(self, i: int, expected: str) -> ToolformerSyntaxError:
        return ToolformerSyntaxError(self.s, i, expected)

    def skip(self, i: int) -> int:
        return _WS.match(self.s, i).end()

    def at(self, i: int) -> str:
        return self.s[i] if i < self.n else ""

    def expect_end(self, i: int) -> None:
        i = self.skip(i)
        if i < self.n:
            raise self.fail(i, "the end of the text")

    def enter(self, i: int) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise self.fail(i, f"at most {MAX_DEPTH} nested calls, sets or tuples (this goes deeper)")

    def bracket(self, i: int) -> tuple[Bracket, int]:
        if self.at(i) != "[":
            raise self.fail(i, "'[' opening a call bracket")
        calls = []
        i = self.skip(i + 1)
        while True:
            if not IDENT.match(self.s, i):
                raise self.fail(i, "a function name (letters, digits, '_' or '-') starting a call")
            call, i = self.call(i)
            calls.append(call)
            i = self.skip(i)
            if self.at(i) != ",":
                break
            i = self.skip(i + 1)
        target = None
        arrow = _ARROW.match(self.s, i)
        if arrow:
            i = self.skip(arrow.end())
            name = TARGET.match(self.s, i)
            if not name:
                raise self.fail(
                    i, "a target after the arrow: 'r' to substitute the result, or a variable name"
                )
            target = name.group()
            i = self.skip(name.end())
        if self.at(i) != "]":
            expected = (
                "']' closing the bracket" if arrow else "',' and another call, '-->' and a target, or ']'"
            )
            raise self.fail(i, expected)
        return Bracket(tuple(calls), target), i + 1

    def call(self, i: int) -> tuple[Call, int]:
        """A call whose name starts at ``i``."""
        name = IDENT.match(self.s, i)
        func = name.group()
        i = self.skip(name.end())
        if self.at(i) != "(":
            raise self.fail(i, f"'(' after the function name {func!r}")
        self.enter(i)
        args: list[Expr] = []
        keywords: list[Keyword] = []
        i = self.skip(i + 1)
        if self.at(i) == ")":
            self.depth -= 1
            return Call(func, (), ()), i + 1
        while True:
            key = _KEY.match(self.s, i)
            if key:
                value, i = self.value(self.skip(key.end()))
                keywords.append(Keyword(key.group(1), value))
            elif keywords:
                raise self.fail(
                    i, "a keyword argument (key:value): positional arguments come before keywords"
                )
            else:
                value, i = self.value(i)
                args.append(value)
            i = self.skip(i)
            c = self.at(i)
            if c == ")":
                self.depth -= 1
                return Call(func, tuple(args), tuple(keywords)), i + 1
            if c != ",":
                raise self.fail(i, f"',' or ')' after an argument of {func}")
            i = self.skip(i + 1)

    def group(self, i: int, close: str, what: str) -> tuple[tuple[Expr, ...], int]:
        """Items of a set or tuple whose opening character is at ``i``."""
        self.enter(i)
        items: list[Expr] = []
        i = self.skip(i + 1)
        if self.at(i) != close:
            while True:
                item, i = self.value(i)
                items.append(item)
                i = self.skip(i)
                c = self.at(i)
                if c == close:
                    break
                if c != ",":
                    raise self.fail(i, f"',' or '{close}' in a {what}")
                i = self.skip(i + 1)
        self.depth -= 1
        return tuple(items), i + 1

    def value(self, i: int) -> tuple[Expr, int]:
        c = self.at(i)
        if c == '"':
            close = self.s.find('"', i + 1)
            if close < 0:
                raise self.fail(i, "a closing '\"' for the string that starts here")
            content = self.s[i + 1 : close]
            bad = min((k for k in (content.find("["), content.find("]")) if k >= 0), default=-1)
            if bad >= 0:
                raise self.fail(i + 1 + bad, "a string without '[' or ']' (they delimit calls)")
            return quoted_value(content), close + 1
        if c == "{":
            items, i = self.group(i, "}", "set")
            return SetOf(items), i
        if c == "(":
            items, i = self.group(i, ")", "tuple")
            return TupleOf(items), i
        bare = BARE.match(self.s, i)
        if not bare:
            raise self.fail(i, 'a value: a call, a "string", a number, kind#id, a name, {set} or (tuple)')
        end = bare.end()
        raw = bare.group().strip()
        if self.at(end) == "(":
            if IDENT.fullmatch(raw):
                return self.call(i)
            raise self.fail(end, "',' or a closing bracket after a value ('(' must follow a function name)")
        value = classify_bare(raw)
        if value is None:
            raise self.fail(
                i, "a node reference kind#id with a non-empty id (e.g. paper#12), or a name without '#'"
            )
        return value, end
