"""Applying an entry to evaluated arguments: arity, mapping over lists, rendering.

This is the one dispatch path of every registry: the bracket executor, the
LangChain tools and :meth:`graphreason.tools.counselor.functions.GraphFunctions.call` all end in
:func:`apply`. What differs between functions is declared on the entry
(``run``, ``observe``, ``observe_many``, ``maps``), so nothing here names a
function.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from graphreason.tools.core.errors import GraphError
from graphreason.tools.core.registry.entry import NODE, VALUES, Applied, Entry, MapMode, Param
from graphreason.tools.core.registry.registry import FunctionCallError


@dataclass(frozen=True)
class FunctionResult:
    """Outcome of one (possibly mapped) function application."""

    name: str
    value: Any
    observation: str
    ok: bool = True
    mapped: bool = False
    error: str | None = None


class GraphContext(Protocol):
    """What :func:`apply` needs from the object the entries run against."""

    def render_list(self, items: Sequence[Any], noun: str = "nodes") -> str: ...

    def arity_hint(self, entry: Entry, args: Sequence[Any]) -> str: ...


def apply(entry: Entry, ctx: GraphContext, args: Sequence[Any]) -> FunctionResult:
    """Apply ``entry`` to ``args`` against ``ctx``; raises :class:`~graphreason.tools.core.errors.GraphError` on bad input.

    Arguments after the first are passed as text, except a list an inner call returned for a
    parameter of node or value kind (``Intersect[Neighbour[1, cites], Neighbour[2, cites]]``).
    A list (or tuple) as first argument is mapped over as the entry's ``maps`` says.
    """
    if entry.run is None or entry.observe is None:
        raise FunctionCallError(  # a terminal entry: the executor reads it, nothing applies it
            f"{entry.name} is not applied like a graph function; write it alone in its Action: {entry.listing}."
        )
    if not (entry.required <= len(args) <= len(entry.params)):
        count = str(entry.required) if entry.required == len(entry.params) else f"{entry.required}-{len(entry.params)}"
        message = f"{entry.name} takes {count} argument(s), {entry.syntax}, but got {len(args)}."
        raise FunctionCallError(message + ctx.arity_hint(entry, args))
    if not args:
        return _result(entry, ctx, entry.run(ctx))
    subject, rest = args[0], [_passed(entry, param, a) for param, a in zip(entry.params[1:], args[1:], strict=False)]
    if isinstance(subject, (list, tuple)) and entry.maps is not MapMode.NONE:
        return _mapped(entry, ctx, list(subject), rest)
    return _result(entry, ctx, entry.run(ctx, subject, *rest))


def _passed(entry: Entry, param: Param, arg: Any) -> Any:
    """A later argument as the implementation receives it: text, except a list for an entry that takes
    whole lists (``maps`` NONE) where the parameter is of node or value kind."""
    if isinstance(arg, str):
        return arg
    if isinstance(arg, (list, tuple)) and entry.maps is MapMode.NONE and param.kind in (NODE, VALUES):
        return arg
    return str(arg)


def _result(entry: Entry, ctx: GraphContext, applied: Applied) -> FunctionResult:
    assert entry.observe is not None  # checked by apply
    return FunctionResult(entry.name, applied.value, entry.observe(ctx, applied))


def _mapped(entry: Entry, ctx: GraphContext, subjects: list[Any], rest: list[str]) -> FunctionResult:
    """One observation for the whole list; items that fail are reported after it."""
    assert entry.run is not None and entry.observe is not None  # checked by apply
    applied_items: list[Applied] = []
    values: list[Any] = []
    labels: list[str] = []  # the name resolved for the key argument (the last success wins)
    shown: list[str] = []
    failures: list[tuple[str, str]] = []
    for subject in subjects:
        try:
            applied = entry.run(ctx, subject, *rest)
        except GraphError as err:
            failures.append((str(subject), str(err)))
            values.append(None)
            shown.append(str(subject))
            continue
        applied_items.append(applied)
        values.append(applied.value)
        shown.append(applied.subject)
        if applied.label is not None:
            labels.append(applied.label)
    if subjects and len(failures) == len(subjects):
        raise FunctionCallError(f"No value for any of {ctx.render_list(shown)}: {failures[0][1]}")
    label = labels[-1] if labels else (rest[0] if rest else "")
    value: Any = values
    if entry.maps is MapMode.UNION:  # "all nodes two hops away" reads as one de-duplicated list
        union: dict[Any, None] = {}
        for item in values:
            union.update(dict.fromkeys(item or ()))
        value = list(union)
    if entry.observe_many is not None:
        text = entry.observe_many(ctx, label, ctx.render_list(shown), value)
    else:
        text = " ".join(entry.observe(ctx, applied) for applied in applied_items)
    if failures:
        text += f" No value for {ctx.render_list([s for s, _ in failures])}: {failures[0][1]}"
    return FunctionResult(entry.name, value, text, mapped=True)
