"""Is a half-written text still on its way to calls that parse? The test behind grammar-constrained decoding.

A decoder that may only emit tokens keeping :func:`viable` true, and may only
stop where :func:`complete` is true, writes texts whose every call bracket
parses (:func:`graphreason.tools.toolformer.calls.parse.parse_text` yields no
:class:`BadBracket`). Outside call brackets anything goes: prose, ``[TBR]``,
``[1]``.

How an open bracket is judged: the strict parser is asked whether some short
ending completes it. The ending closes an open string; adds a filler where one
is due (a value ``x`` after ``,``, ``:`` or ``#``; ``()`` after a bracket's
function name; ``:x`` after a half-written keyword; a keyword ``x:x`` where only
keywords may follow; a call ``x()`` after ``[`` or between a bracket's calls);
closes the open parentheses and braces in order; finishes a half-written arrow
(``-`` becomes ``->r``); and adds ``]``. These endings completed every prefix of
the 2,560 validation outputs (423,548 prefixes) and of seeded random calls in
messy spelling (tests/tools/toolformer/calls/test_prefix.py), so a prefix that
could still become a call is not refused; a refused prefix is one no ending can
save (``user#A and``, a ``]`` before the call's ``)``, a positional value after
a keyword). Each test parses the text again, so its cost grows with the length
of the sentence so far.

Two limits are not in the grammar; both end loops a small model falls into,
which would otherwise fill its whole token budget. A single value (a string's
content, or an unquoted run) longer than :data:`MAX_VALUE_CHARS` is refused:
the longest value in the 23,000 training outputs holds 156 characters (a
Freebase relation path). More than :data:`MAX_OPEN` parentheses and braces
open at once is refused: no call of the 25,116 prompts_train outputs nests
deeper than 3 (a validation reply repeated ``instance(GL("x"), `` until the
budget ran out).
"""

from __future__ import annotations

from graphreason.tools.toolformer.calls.ast import BadBracket, Bracket
from graphreason.tools.toolformer.calls.copied_ids import ids_copied
from graphreason.tools.toolformer.calls.errors import ToolformerSyntaxError
from graphreason.tools.toolformer.calls.parse import parse_bracket, parse_text_spans

MAX_VALUE_CHARS = 200
MAX_OPEN = 6  # twice the deepest nesting in the training outputs
_FILLERS = ("", "x", "()", ":x", "x:x", "x()")  # nothing; a value; arguments; a key's value; a keyword; a call
_ARROW_ENDINGS = ("", "r", ">r", "->r")
_CLOSERS = {"(": ")", "{": "}"}


def viable(text: str, *, single_line: bool = False, source: str | None = None) -> bool:
    """True when ``text`` can still be continued into a text whose call brackets all parse.

    ``single_line``: a newline inside an open call bracket is refused (the
    workflow keeps only the first line of a reply, so a call must not span two).
    ``source``: the input the reply annotates; node ids must be copied from it
    (:mod:`graphreason.tools.toolformer.calls.copied_ids`).
    """
    for start, end, segment in parse_text_spans(text):
        if isinstance(segment, Bracket):
            if source is not None and not ids_copied(text[start:end], source):
                return False
            continue
        if not isinstance(segment, BadBracket):
            continue
        if end < len(text) or segment.raw.endswith("]"):
            return False  # a closed bracket that does not parse
        if single_line and "\n" in segment.raw:
            return False
        if source is not None and not ids_copied(segment.raw, source, still_open=True):
            return False
        return completable(segment.raw)
    return True


def complete(text: str, *, source: str | None = None) -> bool:
    """True when every call bracket of ``text`` is closed and parses (the text may end here).

    ``source``: also every node id is copied from it, as in :func:`viable`.
    """
    for start, end, segment in parse_text_spans(text):
        if isinstance(segment, BadBracket):
            return False
        if source is not None and isinstance(segment, Bracket) and not ids_copied(text[start:end], source):
            return False
    return True


def count_calls(text: str) -> int:
    """How many call brackets of ``text`` are closed and parse."""
    return sum(isinstance(segment, Bracket) for _, _, segment in parse_text_spans(text))


def completable(opening: str) -> bool:
    """True when the unclosed bracket ``opening`` (from its ``[``) is a prefix of a bracket that parses."""
    stack: list[str] = []
    in_string = False
    run = 0  # characters of the value being written (a string's content, or since the last delimiter)
    for char in opening[1:]:
        run += 1
        if char == '"':
            in_string, run = not in_string, 0
        elif in_string:
            pass
        elif char in _CLOSERS:
            stack.append(_CLOSERS[char])
            run = 0
            if len(stack) > MAX_OPEN:
                return False
        elif char in ")}":
            if not stack or stack.pop() != char:
                return False  # a closer that matches nothing can never parse
            run = 0
        elif char == ",":
            run = 0
        if run > MAX_VALUE_CHARS:
            return False
    quote = '"' if in_string else ""
    closers = "".join(reversed(stack))
    for filler in _FILLERS:
        for ending in _ARROW_ENDINGS:
            try:
                parse_bracket(opening + quote + filler + closers + ending + "]")
            except ToolformerSyntaxError:
                continue
            return True
    return False
