"""Compare calls as parsed trees, for the paper's API-Gen Acc metric.

The paper scores a generated statement by whether its API calls exactly match
the annotated ones, surrounding text excluded. Exact text match would punish
spellings the prompt files themselves mix, so calls are compared after
:func:`normalize`:

* function names, keyword keys and ``"domain:function"`` strings are lower
  case with ``-`` read as ``_`` (``GL``/``gl``, ``graph-bert:topic`` /
  ``graph_bert:topic``, ``file-path`` / ``file_path``);
* node references lose their quotes and their kind is lower case
  (``"node#5"`` == ``node#5``, ``Paper#1`` == ``paper#1``); ids keep their case;
* a set of one item is that item (``GL("gpr", {"diamond_graph"})`` ==
  ``GL("gpr", "diamond_graph")``), and ``{Paper#1}`` == ``paper#1``;
* integers compare by their digits (``007`` == ``7``), other numbers by float
  value (``1e1`` == ``10.0``, but ``10`` is not ``10.0``);
* an ``R`` target is ``r``; a bracket of several calls without a target is the
  same as one bracket per call (``[f1(a), f2(b)]`` == ``[f1(a)], [f2(b)]``, as
  the paper states);
* whitespace never matters because it is not in the tree.
"""

from __future__ import annotations

import dataclasses
import re

from graphreason.tools.toolformer.calls.ast import (
    Bracket,
    Call,
    Document,
    Expr,
    Keyword,
    NodeRef,
    Number,
    SetOf,
    Str,
    TupleOf,
)
from graphreason.tools.toolformer.calls.parse import parse_text

_INTEGER = re.compile(r"-?\d+")
_DOMAIN_FUNCTION = re.compile(r"\s*[A-Za-z][A-Za-z0-9_\-]*\s*:\s*[A-Za-z][A-Za-z0-9_\-]*\s*")


def fold(name: str) -> str:
    """Lower case, ``-`` read as ``_``, spaces dropped: ``Graph-Bert : Topic`` -> ``graph_bert:topic``."""
    return "".join(name.split()).lower().replace("-", "_")


def normalize(value: Expr) -> Expr:
    """The normal form of one value (see the module notes)."""
    if isinstance(value, Call):
        return normalize_call(value)
    if isinstance(value, Str):
        return Str(fold(value.value)) if _DOMAIN_FUNCTION.fullmatch(value.value) else value
    if isinstance(value, NodeRef):
        return NodeRef(value.kind.lower(), value.id)
    if isinstance(value, Number):
        return Number(_number_text(value))
    if isinstance(value, SetOf):
        items = tuple(normalize(v) for v in value.items)
        return items[0] if len(items) == 1 else SetOf(items)
    if isinstance(value, TupleOf):
        return TupleOf(tuple(normalize(v) for v in value.items))
    return value  # Bool, Name


def normalize_call(call: Call) -> Call:
    return Call(
        fold(call.func),
        tuple(normalize(a) for a in call.args),
        tuple(Keyword(fold(k.key), normalize(k.value)) for k in call.keywords),
    )


def normalize_bracket(bracket: Bracket) -> Bracket:
    target = "r" if bracket.substitutes else bracket.target
    return dataclasses.replace(bracket, calls=tuple(normalize_call(c) for c in bracket.calls), target=target)


def calls_of(document: Document | str) -> list[Bracket]:
    """The brackets of a text in normal form; untargeted multi-call brackets split one call each."""
    if isinstance(document, str):
        document = parse_text(document)
    out: list[Bracket] = []
    for bracket in document.brackets:
        normal = normalize_bracket(bracket)
        if normal.target is None and len(normal.calls) > 1:
            out.extend(Bracket((c,)) for c in normal.calls)
        else:
            out.append(normal)
    return out


def same_calls(a: Document | str, b: Document | str) -> bool:
    """True when both texts hold the same calls in the same order, after normalizing.

    A call-like bracket that does not parse (a :class:`BadBracket`) is never a
    match: an exact-match metric must not score a broken call as correct just
    because it vanished from the comparison.
    """
    docs = [parse_text(x) if isinstance(x, str) else x for x in (a, b)]
    if any(d.problems for d in docs):
        return False
    return calls_of(docs[0]) == calls_of(docs[1])


def _number_text(number: Number) -> str:
    text = number.text.strip()
    if _INTEGER.fullmatch(text):
        # canonical digits by hand: int() refuses texts over 4,300 digits
        digits = text.lstrip("-").lstrip("0") or "0"
        return digits if digits == "0" or not text.startswith("-") else "-" + digits
    try:
        return repr(float(text))  # 1e1 and 10.0 -> "10.0"
    except ValueError:  # not a number at all (a hand-made tree): compare as written
        return number.text
