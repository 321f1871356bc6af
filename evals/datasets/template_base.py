"""Shared pieces of the question templates: drafts, templates, subject filters.

Gold answers are computed from plain dicts parsed straight from the raw data
files, never through :class:`tools.store.GraphStore` or the graph functions an
agent uses, so a loader or function bug cannot make a wrong gold look right.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

# Subjects are named in questions and in ``Retrieve[...]``: characters that the
# bracket call language treats as syntax (or that break quoting) are avoided.
_UNSAFE = re.compile(r'[\[\],"]')
# Call parsers strip quote characters around an argument, so a subject may not start or end with one.
_QUOTES = "'`‘’“”"


@dataclass(frozen=True)
class Draft:
    """One instantiated question before it becomes a :class:`QAItem`.

    ``gold`` is a string, or a list of strings for list answers.
    """

    question: str
    gold: str | list[str]
    action: str
    subject: str
    subject_id: str
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Template:
    """A question pattern over one kind of subject node.

    ``make(raw, subject_id)`` returns a :class:`Draft` or ``None`` when that
    subject does not suit the template (empty, too many, tied answers, ...).
    """

    name: str
    level: str
    rule: str
    subject_kind: str
    make: Callable[[Any, str], Draft | None]
    description: str = ""


def normalise(text: str | None) -> str:
    """Whitespace runs collapsed to one space; ``nan``/None -> ``""``."""
    clean = " ".join((text or "").split())
    return "" if clean.lower() == "nan" else clean


def safe_names(names: dict[str, str], min_words: int = 3, max_chars: int = 120) -> list[str]:
    """Ids whose name is usable as a question subject, sorted.

    The name must be unique in the graph (case-insensitively, so an exact-title
    Retrieve is unambiguous), have ``min_words`` words, at most ``max_chars``
    characters, none of ``[ ] , "`` and no quote character at either end.
    """
    counts = Counter(n.casefold() for n in names.values())
    return sorted(
        nid
        for nid, name in names.items()
        if name
        and counts[name.casefold()] == 1
        and len(name.split()) >= min_words
        and len(name) <= max_chars
        and not _UNSAFE.search(name)
        and name[0] not in _QUOTES
        and name[-1] not in _QUOTES
    )


def within(values: Iterable[Any], low: int, high: int) -> bool:
    """``low <= len(values) <= high``."""
    return low <= len(list(values)) <= high
