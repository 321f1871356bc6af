"""Write call-language trees back as canonical text.

The canonical style is the one the prompt files use:
``[GR(GL("cora"), "graph_bert:topic", paper#1)-->r]``: ``", "`` between
arguments, keywords as ``key:value``, sets ``{"a", "b"}``, tuples ``("a", "b")``,
``-->`` with no spaces, node references as ``kind#id`` (``"kind#id"`` when the
tree says quoted), ``True`` / ``False``. Numbers keep their written text.

Printing is the inverse of parsing: ``parse_*(print_*(tree)) == tree`` for every
tree the printer accepts. A tree with no such text (a string holding ``"`` or a
bracket, a name that would read back as a number, an empty call list ...)
raises :class:`ToolformerPrintError` instead of printing something that parses
differently.
"""

from __future__ import annotations

import re

from graphreason.tools.toolformer.calls.ast import (
    BadBracket,
    Bool,
    Bracket,
    Call,
    Document,
    Expr,
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
from graphreason.tools.toolformer.calls.errors import ToolformerPrintError
from graphreason.tools.toolformer.calls.parse import (
    BARE,
    CALL_START,
    IDENT,
    NUMBER,
    PLACEHOLDER,
    TARGET,
    classify_bare,
    quoted_value,
)

_KIND = re.compile(r"(?:[A-Za-z_][A-Za-z0-9_\-]*)?")


def print_call(call: Call) -> str:
    """``func(arg, ..., key:value, ...)``."""
    if not isinstance(call, Call):
        raise ToolformerPrintError(f"expected a Call, got {type(call).__name__}")
    _check(IDENT.fullmatch(call.func), f"function name {call.func!r} is not letters, digits, '_' or '-'")
    parts = [print_expr(a) for a in call.args]
    for kw in call.keywords:
        _check(IDENT.fullmatch(kw.key), f"keyword {kw.key!r} is not letters, digits, '_' or '-'")
        parts.append(f"{kw.key}:{print_expr(kw.value)}")
    return f"{call.func}({', '.join(parts)})"


def print_bracket(bracket: Bracket) -> str:
    """``[call, call-->target]``."""
    _check(isinstance(bracket, Bracket), f"expected a Bracket, got {type(bracket).__name__}")
    _check(bool(bracket.calls), "a bracket needs at least one call")
    calls = ", ".join(print_call(c) for c in bracket.calls)
    if bracket.target is None:
        return f"[{calls}]"
    _check(TARGET.fullmatch(bracket.target), f"target {bracket.target!r} is not letters, digits or '_'")
    return f"[{calls}-->{bracket.target}]"


def print_document(document: Document) -> str:
    """The whole text: plain pieces as they are, calls in canonical form."""
    _check(isinstance(document, Document), f"expected a Document, got {type(document).__name__}")
    return "".join(print_segment(s) for s in document.segments)


def print_segment(segment: Segment) -> str:
    if isinstance(segment, Text):
        # plain text that would read back as a call or a placeholder is not plain text
        _check(
            not CALL_START.search(segment.value) and PLACEHOLDER not in segment.value,
            f"text {segment.value[:40]!r} holds a call or [TBR]; make it a Bracket or Placeholder",
        )
        return segment.value
    if isinstance(segment, Bracket):
        return print_bracket(segment)
    if isinstance(segment, Placeholder):
        _check(segment.label == "TBR", f"placeholder label {segment.label!r}: only [TBR] is written")
        return PLACEHOLDER
    if isinstance(segment, BadBracket):
        return segment.raw  # written as it came, so the problem stays visible
    raise ToolformerPrintError(
        f"expected Text, Bracket, Placeholder or BadBracket, got {type(segment).__name__}"
    )


def print_expr(value: Expr) -> str:
    if isinstance(value, Call):
        return print_call(value)
    if isinstance(value, Str):
        return _quoted(value.value, value)
    if isinstance(value, NodeRef):
        _check(_KIND.fullmatch(value.kind), f"node kind {value.kind!r} is not letters, digits, '_' or '-'")
        text = f"{value.kind}#{value.id}"
        if value.quoted:
            return _quoted(text, value)
        _check(classify_bare(text) == value, f"node reference {text!r} would not read back as itself")
        return text
    if isinstance(value, Number):
        _check(NUMBER.fullmatch(value.text), f"number text {value.text!r} is not a number")
        return value.text
    if isinstance(value, Bool):
        return "True" if value.value else "False"
    if isinstance(value, Name):
        ok = BARE.fullmatch(value.value) and classify_bare(value.value) == value
        _check(ok, f"name {value.value!r} would not read back as a name (quote it as a Str instead)")
        return value.value
    if isinstance(value, SetOf):
        return "{" + ", ".join(print_expr(v) for v in value.items) + "}"
    if isinstance(value, TupleOf):
        return "(" + ", ".join(print_expr(v) for v in value.items) + ")"
    raise ToolformerPrintError(f"expected a call-language value, got {type(value).__name__}")


def _quoted(content: str, value: Str | NodeRef) -> str:
    _check(
        not any(c in content for c in '"[]'), f"{content[:40]!r} holds '\"', '[' or ']', which strings cannot"
    )
    _check(quoted_value(content) == value, f'"{content[:40]}" would read back as a different value')
    return f'"{content}"'


def _check(condition: object, message: str) -> None:
    if not condition:
        raise ToolformerPrintError(f"cannot print this call tree: {message}")
