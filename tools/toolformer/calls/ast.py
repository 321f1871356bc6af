"""The tree of Graph-ToolFormer's call language.

A text with calls in it is a :class:`Document`: plain :class:`Text` pieces,
:class:`Bracket` calls (``[GR(GL("cora"), "graph_bert:topic", paper#1)-->r]``)
and :class:`Placeholder` marks (``[TBR]``), plus :class:`BadBracket` for a
call-like bracket that did not parse. A bracket holds one or more
:class:`Call` (``[f1(a), f2(b)]`` runs both) and an optional target after the
arrow: ``r`` substitutes the result into the text, any other name binds it as
a variable that later calls may use (``--> G_l``), and no arrow only records
the result in working memory.

Argument values are :data:`Expr`: a nested :class:`Call`, a quoted
:class:`Str`, a :class:`Number`, a :class:`Bool`, a :class:`NodeRef`
(``paper#106590``, ``"node#5"``, ``node #4``, ``entity#/m/0gs9p``), a bare
:class:`Name` (a bound variable such as ``G_l``), a :class:`SetOf`
(``{"diamond_graph"}``) or a :class:`TupleOf` (``("Carbon", "Oxygen")``, the
links that graph-loading prompts list inside sets). Keyword arguments
(``file-path:"./graphs/x"``, ``is-directed:False``) are :class:`Keyword` pairs
kept in written order.

Trees are frozen dataclasses, so ``==`` compares them and they can be hashed.
Spelling that does not change meaning (spaces, ``->`` for ``-->``, the space in
``node #4``) is not kept; whether a node reference was quoted is kept so the
printer can write the text back as it was meant (``parse(print(t)) == t``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union


@dataclass(frozen=True)
class Str:
    """A quoted string: ``"cora"``, ``"toolx:order"``."""

    value: str


@dataclass(frozen=True)
class Number:
    """An unquoted number; ``text`` is its written form (``10``, ``0.5``, ``-3``)."""

    text: str

    @property
    def value(self) -> int | float:
        try:
            return int(self.text)
        except ValueError:
            return float(self.text)


@dataclass(frozen=True)
class Bool:
    """``True`` / ``False`` (any case)."""

    value: bool


@dataclass(frozen=True)
class NodeRef:
    """A typed node reference ``kind#id``: ``paper#106590`` is ``NodeRef("paper", "106590")``.

    ``kind`` may be empty (``#12``); ``quoted`` records ``"node#5"``.
    """

    kind: str
    id: str
    quoted: bool = False


@dataclass(frozen=True)
class Name:
    """A bare word: a bound variable (``G_l``) or an unquoted value the callee interprets."""

    value: str


@dataclass(frozen=True)
class SetOf:
    """``{a, b}``: a set of values, in written order."""

    items: tuple[Expr, ...]


@dataclass(frozen=True)
class TupleOf:
    """``(a, b)``: an ordered group of values, e.g. a link ``("Carbon", "Oxygen")``."""

    items: tuple[Expr, ...]


@dataclass(frozen=True)
class Keyword:
    """``key:value`` inside a call; ``key`` is kept as written (``file-path``)."""

    key: str
    value: Expr


@dataclass(frozen=True)
class Call:
    """``func(args..., key:value...)``; ``func`` as written (``GR``, ``GL``, ``gl``)."""

    func: str
    args: tuple[Expr, ...] = ()
    keywords: tuple[Keyword, ...] = ()


Expr = Union[Call, Str, Number, Bool, NodeRef, Name, SetOf, TupleOf]  # noqa: UP007 - a runtime alias


@dataclass(frozen=True)
class Bracket:
    """``[call, call... --> target]``; ``target`` is ``"r"``, a variable name, or None."""

    calls: tuple[Call, ...]
    target: str | None = None

    @property
    def substitutes(self) -> bool:
        """True when the result replaces the bracket in the text (``-->r``)."""
        return self.target is not None and self.target.lower() == "r"


@dataclass(frozen=True)
class Placeholder:
    """``[TBR]``: where a reasoning result belongs, before a model fills it with a call."""

    label: str = "TBR"


@dataclass(frozen=True)
class Text:
    """Plain text between calls, kept byte for byte."""

    value: str


@dataclass(frozen=True)
class BadBracket:
    """A bracket that starts like a call (``[name(``) but does not parse, kept as written.

    ``message`` says what was expected and ``position`` is where, counted in
    ``raw``. Only the lenient document parser makes these, so one broken call
    does not hide the rest of a text.
    """

    raw: str
    message: str
    position: int = 0


Segment = Union[Text, Bracket, Placeholder, BadBracket]  # noqa: UP007


@dataclass(frozen=True)
class Document:
    """A whole text: its segments in order. ``calls`` lists the brackets only."""

    segments: tuple[Segment, ...]

    @property
    def brackets(self) -> tuple[Bracket, ...]:
        return tuple(s for s in self.segments if isinstance(s, Bracket))

    @property
    def problems(self) -> tuple[BadBracket, ...]:
        """The call-like brackets that did not parse (empty for a clean text)."""
        return tuple(s for s in self.segments if isinstance(s, BadBracket))
