"""The shape of an Action: which functions nest in which, with every node named and every name left out.

``Count[Intersect[Neighbour[Retrieve[A], cites], Neighbour[12, cites]]]`` has the skeleton
``Count[Intersect[Neighbour[_], Neighbour[_]]]``: a function keeps only its node and list
arguments, and a node that is named (an id, or a ``Retrieve[...]`` of the question's words) is
``_``. Relations, features and values are not part of it. A skeleton is what the Counselor's
operation planner (:mod:`graphreason.workflows.counselor.operations`) predicts from a question,
and what the decoding constraint (:class:`~graphreason.tools.counselor.constraint.CounselorAction`)
then holds the Action to, so the model still chooses the subject, the relations and the features.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from graphreason.tools.core.registry import NODE, VALUES, Registry
from graphreason.tools.counselor.calls import parse_action
from graphreason.tools.counselor.calls.base import Call
from graphreason.tools.counselor.registry import GRAPH_FUNCTIONS

LEAF = "_"  # a named node: an id or a Retrieve[...] call
NAMED = "Retrieve"  # the function that names a node from text (a leaf, not part of the shape)
_NAME = re.compile(r"[A-Za-z]+")


@dataclass(frozen=True)
class Skeleton:
    """One function and, per node or list parameter in order, the skeleton that fills it (None: a named node)."""

    name: str
    children: tuple[Skeleton | None, ...] = ()

    def render(self) -> str:
        inner = ", ".join(LEAF if child is None else child.render() for child in self.children)
        return f"{self.name}[{inner}]"

    def names(self) -> list[str]:
        """The functions of the skeleton, outermost first."""
        found = [self.name]
        for child in self.children:
            if child is not None:
                found += child.names()
        return found


def structural(registry: Registry, name: str) -> list[int]:
    """The positions of ``name``'s node and list parameters (those a skeleton keeps)."""
    return [i for i, param in enumerate(registry.get(name).params) if param.kind in (NODE, VALUES)]  # get: names a bad one


def skeleton_of(action: str, registry: Registry = GRAPH_FUNCTIONS) -> Skeleton | None:
    """The skeleton of an Action of one call (None for Finish, several calls, a bare Retrieve, or no call)."""
    try:
        calls = parse_action(action)
    except Exception:  # noqa: BLE001 - an unreadable action has no shape
        return None
    if len(calls) != 1 or calls[0].name == NAMED:
        return None
    entry = registry.find(calls[0].name)
    return None if entry is None or entry.terminal else _shape(calls[0], registry)


def _shape(call: Call, registry: Registry) -> Skeleton:
    children: list[Skeleton | None] = []
    for index in structural(registry, call.name):
        arg = call.args[index] if index < len(call.args) else None
        children.append(_shape(arg, registry) if isinstance(arg, Call) and arg.name != NAMED else None)
    return Skeleton(call.name, tuple(children))


def parse_skeleton(text: str, registry: Registry = GRAPH_FUNCTIONS) -> Skeleton:
    """A skeleton from its rendering (``Feature[MaxDegree[Neighbour[_]]]``); ValueError names what is wrong."""
    skeleton, end = _read(text.strip(), 0, registry)
    if end != len(text.strip()):
        raise ValueError(f"text after the skeleton in {text!r}")
    return skeleton


def _read(text: str, pos: int, registry: Registry) -> tuple[Skeleton, int]:
    found = _NAME.match(text, pos)
    if not found or text[found.end() : found.end() + 1] != "[":
        raise ValueError(f"expected a function name and '[' at {pos} of {text!r}")
    name = found.group()
    if registry.find(name) is None or name == NAMED:
        raise ValueError(f"{name!r} is not a graph function a skeleton holds")
    params = registry.get(name).params
    kinds = [params[i].kind for i in structural(registry, name)]
    wanted = len(kinds)
    pos, children = found.end() + 1, []
    while text[pos : pos + 1] != "]":
        if len(children) == wanted:
            raise ValueError(f"{name} takes {wanted} node or list argument(s) in {text!r}")
        if children:
            if text[pos : pos + 2] != ", ":
                raise ValueError(f"expected ', ' at {pos} of {text!r}")
            pos += 2
        if text[pos : pos + 1] == LEAF:
            if kinds[len(children)] is VALUES:
                raise ValueError(f"{name} takes a list there, which only a call gives, in {text!r}")
            children.append(None)
            pos += 1
        else:
            child, pos = _read(text, pos, registry)
            children.append(child)
    if len(children) != wanted:
        raise ValueError(f"{name} takes {wanted} node or list argument(s) in {text!r}")
    return Skeleton(name, tuple(children)), pos + 1
