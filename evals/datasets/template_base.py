"""Shared pieces of the question templates: drafts, subjects, templates, subject filters.

A template's ``make(raw, subject_id)`` returns a :class:`Draft` or ``None``.
What every graph's templates share lives here: :class:`Subject` (how a
question names its node and how the reference action reaches it) builds the
drafts, and the question kinds both graphs ask - lookup, neighbour
titles, degree, top neighbour, neighbourhood vote - are template factories
(:class:`Kinds`, bound to one kind of subject node) over :class:`RawGraph`,
the few reads they need from a graph's raw-file view. A graph module declares
those templates in its table and writes only its own kinds as functions.

Gold answers are computed from plain dicts parsed straight from the raw data
files, never through :class:`graphreason.tools.core.store.GraphStore` or the graph functions an
agent uses, so a loader or function bug cannot make a wrong gold look right.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Collection, Hashable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, TypeVar

from graphreason.evals.datasets.answer_rules import sorted_items, unique_mode

K = TypeVar("K", bound=Hashable)

# Subjects are named in questions and in ``Retrieve[...]``: characters that the
# bracket call language treats as syntax (or that break quoting) are avoided.
_UNSAFE = re.compile(r'[\[\],"]')
# Call parsers strip quote characters around an argument, so a subject may not start or end with one.
_QUOTES = "'`‘’“”"

MAX_LIST = 15  # list answers the model must reproduce
MAX_OBSERVED = 40  # nodes an action may return on the way (keeps observations short)


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
class Subject:
    """The node a question is about.

    ``name`` and ``node_id`` become the draft's ``subject`` / ``subject_id``;
    ``quoted`` is how the question's text names the node and ``ref`` how the
    reference action reaches it (an exact-title ``Retrieve`` or the id itself).
    """

    name: str
    node_id: str
    quoted: str
    ref: str

    @classmethod
    def titled(cls, title: str, node_id: str) -> Subject:
        """A node named by its (unique) title: quoted in the question, found with ``Retrieve``."""
        return cls(title, node_id, f'"{title}"', f"Retrieve[{title}]")

    @classmethod
    def by_id(cls, node_id: str) -> Subject:
        """A node named by its id, in the question and in the action."""
        return cls(node_id, node_id, node_id, node_id)

    def draft(self, question: str, gold: str | list[str], action: str, **extra: Any) -> Draft:
        """A draft about this subject: ``{s}`` in ``question`` and ``{ref}`` in ``action`` name it."""
        return Draft(
            question.format(s=self.quoted), gold, action.format(ref=self.ref), self.name, self.node_id, extra
        )


Make = Callable[[Any, str], Draft | None]  # make(raw, subject_id)


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
    make: Make
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


def balanced_parentheses(text: str) -> bool:
    """Whether every ``(`` in ``text`` closes in order: the call parser groups by parentheses,
    so ``Retrieve[...]`` cannot carry a name that leaves one open (``Methods (Some additions``)."""
    depth = 0
    for char in text:
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth < 0:
            return False
    return depth == 0


def within(values: Iterable[Any], low: int, high: int) -> bool:
    """``low <= len(values) <= high``."""
    return low <= len(list(values)) <= high


def unique_argmax(counts: dict[K, int]) -> tuple[K, int] | None:
    """The key with the largest count and that count, or ``None`` when the top is tied (or empty)."""
    if not counts:
        return None
    top = max(counts.values())
    leaders = [key for key, count in counts.items() if count == top]
    return (leaders[0], top) if len(leaders) == 1 else None


class RawGraph(Protocol):
    """What the shared question kinds read from a graph's raw-file view.

    Hop and feature names are the ones the reference action uses, so a kind
    writes the action from the same words it computes the gold with.
    """

    def subject(self, kind: str, sid: str) -> Subject: ...

    def neighbours(self, sid: str, hop: str) -> Collection[str]: ...

    def feature(self, nid: str, name: str) -> Any: ...


def title_answer(raw: RawGraph, ids: Iterable[str]) -> list[str] | None:
    """The titles of ``ids`` as a list answer; ``None`` unless there are 1 to MAX_LIST ids, all titled."""
    titles = [raw.feature(n, "title") for n in ids]
    if not within(titles, 1, MAX_LIST) or not all(titles):
        return None
    return sorted_items(titles)


@dataclass(frozen=True)
class Kinds:
    """The question kinds both graphs ask, about subjects of one kind (``paper``, ``movie``, ``user``).

    Each method returns a :class:`Template` (its level and answer rule follow
    from the kind); :meth:`own` wraps a graph's hand-written template function.
    """

    subject: str

    def own(self, name: str, level: str, rule: str, make: Make, description: str) -> Template:
        return Template(name, level, rule, self.subject, make, description)

    def lookup(self, name: str, question: str, feature: str, description: str = "feature lookup") -> Template:
        """Easy: one feature of the subject (subjects without a value are skipped)."""

        def make(raw: RawGraph, sid: str) -> Draft | None:
            value = raw.feature(sid, feature)
            if not value:
                return None
            return raw.subject(self.subject, sid).draft(question, value, f"Feature[{{ref}}, {feature}]")

        return self.own(name, "easy", "value", make, description)

    def neighbour_titles(
        self, name: str, question: str, hop: str, description: str = "one-hop neighbours"
    ) -> Template:
        """Easy: the titles of the subject's ``hop`` neighbours (see :func:`title_answer`)."""

        def make(raw: RawGraph, sid: str) -> Draft | None:
            titles = title_answer(raw, raw.neighbours(sid, hop))
            if titles is None:
                return None
            action = f"Feature[Neighbour[{{ref}}, {hop}], title]"
            return raw.subject(self.subject, sid).draft(question, titles, action)

        return self.own(name, "easy", "list", make, description)

    def degree(self, name: str, question: str, hop: str) -> Template:
        """Easy: how many ``hop`` neighbours the subject has (subjects with none are skipped)."""

        def make(raw: RawGraph, sid: str) -> Draft | None:
            count = len(raw.neighbours(sid, hop))
            if not count:
                return None
            return raw.subject(self.subject, sid).draft(question, str(count), f"Degree[{{ref}}, {hop}]")

        return self.own(name, "easy", "value", make, "degree")

    def top_neighbour(
        self,
        name: str,
        question: str,
        hop: str,
        count_hop: str,
        size: tuple[int, int] = (2, MAX_OBSERVED),
        description: str = "hop + compare degrees",
    ) -> Template:
        """Medium: which ``hop`` neighbour has the most ``count_hop`` links; skipped on a tie.

        ``size`` bounds how many neighbours the action may compare; every one
        must have a title. The action picks the neighbour with ``MaxDegree``
        and reads its title (rule ``value``).
        """

        def make(raw: RawGraph, sid: str) -> Draft | None:
            around = raw.neighbours(sid, hop)
            if not within(around, *size) or not all(raw.feature(n, "title") for n in around):
                return None
            best = unique_argmax({n: len(raw.neighbours(n, count_hop)) for n in around})
            if best is None:
                return None
            inner = f"Neighbour[{{ref}}, {hop}]"
            return raw.subject(self.subject, sid).draft(
                question,
                raw.feature(best[0], "title"),
                f"Feature[MaxDegree[{inner}, {count_hop}], title]",
                winning_count=best[1],
            )

        return self.own(name, "medium", "value", make, description)

    def neighbourhood_vote(
        self,
        name: str,
        question: str,
        hop: str,
        feature: str,
        size: tuple[int, int],
        counts_key: str = "",
        description: str = "neighbourhood vote",
    ) -> Template:
        """Hard: the single most common ``feature`` value among the ``hop`` neighbours; skipped on a tie.

        A list-valued feature (genres) counts each of its values. ``counts_key``,
        when given, keeps the value counts in the item's meta.
        """

        def make(raw: RawGraph, sid: str) -> Draft | None:
            around = raw.neighbours(sid, hop)
            if not within(around, *size):
                return None
            values = [v for n in around for v in _as_list(raw.feature(n, feature))]
            mode = unique_mode(values)
            if mode is None:
                return None
            extra = {counts_key: dict(Counter(values))} if counts_key else {}
            action = f"Mode[Feature[Neighbour[{{ref}}, {hop}], {feature}]]"
            return raw.subject(self.subject, sid).draft(question, mode, action, **extra)

        return self.own(name, "hard", "most_common", make, description)


def _as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]


def read_lines(path: Path, encoding: str = "utf-8") -> list[str]:
    """The non-blank lines of a text file, line endings removed."""
    with path.open(encoding=encoding) as fh:
        return [line.rstrip("\r\n") for line in fh if line.strip()]
