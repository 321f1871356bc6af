"""Reading a node reference a model wrote: ``"31336"``, ``"paper#31336"``, ``"Node 31336"``, ``31336.0``.

Every method takes node ids from LLM output, which wraps them in quotes or
brackets, puts a word before them (``node 12``, ``paper#12``, ``id: 12``) or
a full stop after them. :func:`id_readings` lists what such a reference may
mean, most literal first; :func:`find_id` returns the first of those readings
that names a node of a given id set (or lookup function), so a real id that
happens to hold a prefix or a colon (``DOID:3310``) is always found as
written before anything is cut from it; :func:`bare_id` gives the most
stripped reading, for callers that keep the id before they can look it up.

Only the prefixes a caller accepts are cut (by default the generic words of
:data:`GENERIC_PREFIXES`; a graph's node types are usually added): ``DOID``
in ``DOID:3311`` is neither, so that reference is never read as ``3311``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Container, Hashable
from typing import Any, TypeVar

__all__ = ["ANY_PREFIX", "GENERIC_PREFIXES", "QUOTES", "bare_id", "find_id", "id_readings", "strip_quotes"]

T = TypeVar("T")

QUOTES = "'\"`‘’“”"
_BRACKETS = "[]()"
_TRAILING = ".,;:"
# words a model writes before an id whatever the graph ("node 12", "id: 12", "the node 3")
GENERIC_PREFIXES = frozenset(
    {"", "node", "id", "nodeid", "node_id", "node id", "vertex", "the node", "node number", "paper"}
)
ANY_PREFIX = None
"""Pass as ``prefixes`` to cut any leading word that a separator (``#``, ``:``, ``=``, a space) ends."""

# a separator between a prefix and an id ("node 12", "paper#12", "id: 12", "ID=12")
_SEPARATOR = re.compile(r"\s*[#:=]\s*|\s+")
_PREFIX_WORDS = re.compile(r"[A-Za-z_][\w\- ]*")
# a prefix glued to a number: "node12", "paper31336"
_GLUED = re.compile(r"^(?P<prefix>[A-Za-z_]+)(?P<id>\d+)$")
_MAX_PREFIXES = 3  # "node id: 12" needs two cut


def strip_quotes(text: Any) -> str:
    """``text`` without surrounding whitespace and quote or backtick characters."""
    return str(text).strip().strip(QUOTES).strip()


def _as_text(raw: Any) -> str:
    """The reference as text: a whole float as an int (``12.0`` -> ``"12"``), a list or tuple as its first item."""
    if isinstance(raw, list | tuple) and raw:
        raw = raw[0]
    if isinstance(raw, float) and raw.is_integer():
        raw = int(raw)
    return str(raw)


def _cut(candidate: str, prefixes: Container[str] | None) -> str | None:
    """``candidate`` without its shortest accepted prefix and separator, or None when it has none."""
    for sep in _SEPARATOR.finditer(candidate):
        prefix, rest = candidate[: sep.start()], candidate[sep.end() :]
        if not rest:
            break
        if prefix and not _PREFIX_WORDS.fullmatch(prefix):
            continue
        if prefixes is ANY_PREFIX or prefix.strip().lower() in prefixes:
            return strip_quotes(rest)
    glued = _GLUED.match(candidate) if prefixes is not ANY_PREFIX else None  # only named words glue
    if glued and glued.group("prefix").lower() in prefixes:  # type: ignore[operator]
        return glued.group("id")
    return None


def _untrimmed(raw: Any, prefixes: Container[str] | None) -> list[str]:
    """The readings before trailing punctuation is cut: as written, unquoted, unbracketed, prefixes cut."""
    text = _as_text(raw)
    readings = [text, strip_quotes(text)]
    candidate = readings[-1].strip(_BRACKETS).strip().strip(QUOTES).strip()
    readings.append(candidate)
    for _ in range(_MAX_PREFIXES):
        cut = _cut(candidate, prefixes)
        if not cut:
            break
        candidate = cut
        readings.append(candidate)
    return readings


def id_readings(raw: Any, prefixes: Container[str] | None = GENERIC_PREFIXES) -> list[str]:
    """What the reference ``raw`` may mean, most literal first, each once.

    In order: the text as written; without surrounding quotes; without
    surrounding brackets too; then, up to three times, without a leading
    prefix and its separator (``node 12``, ``paper#12``, ``#12``, ``id: 12``,
    or glued to a number: ``node12``), where the prefix (case-insensitive)
    must be one of ``prefixes``; finally each of those without a trailing
    ``.``, ``,``, ``;`` or ``:``. ``prefixes`` holds lower-case words (``""``
    accepts a bare separator: ``#12``); :data:`ANY_PREFIX` accepts any word
    that a separator ends (not a glued one).
    """
    readings = _untrimmed(raw, prefixes)
    readings += [strip_quotes(r.rstrip(_TRAILING)) for r in readings[1:]]
    return list(dict.fromkeys(r for r in readings if r))


def bare_id(raw: Any, prefixes: Container[str] | None = GENERIC_PREFIXES) -> str:
    """The most stripped reading of ``raw`` (``" 'paper#12.' "`` -> ``"12"``), for ids kept before a lookup."""
    last = _untrimmed(raw, prefixes)[-1]
    return strip_quotes(last.rstrip(_TRAILING)) or last


def find_id(
    raw: Any,
    known: Collection[Hashable] | Callable[[str], T | None],
    prefixes: Container[str] | None = GENERIC_PREFIXES,
    *,
    numbers: bool = False,
) -> Any:
    """The node of ``known`` that ``raw`` names, or None.

    ``known`` is a collection of ids (a set, a dict, a graph: anything with
    ``in``) or a function from a reading to its node (None for no node). With a
    collection, ``raw`` itself is tried first (an int id given as an int; bools
    never count as ids); with ``numbers``, a reading that is an integer is tried
    as an int too (graphs whose ids are ints). Readings: :func:`id_readings`.
    """
    lookup: Callable[[Any], Any]
    if callable(known) and not isinstance(known, Container):
        lookup = known
    else:

        def lookup(key: Any) -> Any:
            try:
                return key if key in known else None  # type: ignore[operator]
            except TypeError:  # an unhashable key
                return None

        if not isinstance(raw, bool) and lookup(raw) is not None:
            return raw
    for reading in id_readings(raw, prefixes):
        found = lookup(reading)
        if found is not None:
            return found
        if numbers:
            try:
                number = int(reading)
            except ValueError:
                continue
            found = lookup(number)
            if found is not None:
                return found
    return None
