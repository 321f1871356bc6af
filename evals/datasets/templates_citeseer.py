"""CiteSeer question templates, with golds computed from the raw CiteSeer files.

CiteSeer is the unseen graph: its questions evaluate a model, they are never
training data. Its files do not say which paper of a link cites the other, so
every template here is direction-free: it asks about the papers *linked* to a
paper (one relation, ``linked``), never about "cites" or "cited by". The kinds
mirror Cora's templates (lookup, linked titles, link count, two hops, an area
count, the most linked neighbour, a neighbourhood vote, a comparison with the
paper itself).

Raw parsing here is deliberately separate from
:mod:`graphreason.tools.core.loaders.citeseer`: ``data.csv`` (ids 0..3185 and
the class code), ``label_info.csv`` (code -> readable name), ``node_info.csv``
(``paper_id`` = the id + 1) and ``citeseer.cites`` are read with the standard
library into plain dicts.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

from graphreason.evals.datasets import template_base as tpl
from graphreason.settings import dataset_dir

MAX_TITLE = 100
LINK = "linked"


@dataclass
class RawCiteSeer:
    """CiteSeer as plain dicts keyed by the ``data.csv`` id (strings); one hop ``linked``, features ``title``/``label``.

    The same view serves any undirected paper graph whose one relation is named ``link``
    and whose class feature is named ``label_key`` (the tuned reasoner's teacher asks
    these questions on undirected copies of Cora).
    """

    titles: dict[str, str]
    labels: dict[str, str]
    linked: dict[str, set[str]]
    link: str = LINK
    label_key: str = "label"

    def subjects(self, kind: str) -> list[str]:
        return tpl.safe_names(self.titles, max_chars=MAX_TITLE)

    def subject(self, kind: str, pid: str) -> tpl.Subject:
        return tpl.Subject.titled(self.titles[pid], pid)

    def neighbours(self, pid: str, hop: str) -> set[str]:
        if hop != self.link:
            raise KeyError(f"this graph has one relation, {self.link!r}; got {hop!r}")
        return self.linked[pid]

    def feature(self, pid: str, name: str) -> str:
        return {"title": self.titles, self.label_key: self.labels}[name][pid]


def read_raw_citeseer(root: str | Path | None = None) -> RawCiteSeer:
    """Parse the raw CiteSeer files (``root`` = the ``citeseer`` folder; default: shared data)."""
    folder = Path(root) if root is not None else dataset_dir("cora-citeseer-text") / "citeseer"
    with (folder / "label_info.csv").open(encoding="utf-8", newline="") as fh:
        names = {row[0]: row[1].strip() for row in list(csv.reader(fh))[1:] if len(row) >= 2}
    labels: dict[str, str] = {}
    with (folder / "data.csv").open(encoding="utf-8", newline="") as fh:
        for row in csv.DictReader(fh):
            code = row["label"].strip()
            labels[row["paper_id"].strip()] = names.get(code, code)
    titles = {pid: "" for pid in labels}
    with (folder / "node_info.csv").open(encoding="utf-8", newline="") as fh:
        for row in csv.DictReader(fh):
            pid = str(int(row["paper_id"]) - 1)
            if pid in titles:
                titles[pid] = tpl.normalise(row["title"])
    linked: dict[str, set[str]] = {pid: set() for pid in labels}
    for line in tpl.read_lines(folder / "citeseer.cites"):
        a, b = line.split()
        linked[a].add(b)
        linked[b].add(a)
    return RawCiteSeer(titles, labels, linked)


def two_hop_papers(raw: RawCiteSeer, pid: str) -> tpl.Draft | None:
    link = raw.link
    around = raw.linked[pid]
    if not tpl.within(around, 1, tpl.MAX_OBSERVED):
        return None
    titles = tpl.title_answer(raw, set().union(*(raw.linked[n] for n in around)) - {pid})
    if titles is None:
        return None
    return raw.subject("paper", pid).draft(
        "Which papers, other than {s} itself, are linked to the papers that are linked to {s}?",
        titles,
        f"Feature[Neighbour[Neighbour[{{ref}}, {link}], {link}], title]",
    )


def linked_area_count(raw: RawCiteSeer, pid: str) -> tpl.Draft | None:
    around = raw.linked[pid]
    if not tpl.within(around, 3, tpl.MAX_OBSERVED):  # with 1-2 links the answer is nearly always 1
        return None
    return raw.subject("paper", pid).draft(
        "How many distinct research areas do the papers linked to {s} cover?",
        str(len({raw.labels[n] for n in around})),
        f"Count[Feature[Neighbour[{{ref}}, {raw.link}], {raw.label_key}]]",
    )


def two_hop_count(raw: RawCiteSeer, pid: str) -> tpl.Draft | None:
    around = raw.linked[pid]
    if not tpl.within(around, 1, tpl.MAX_OBSERVED):
        return None
    second = set().union(*(raw.linked[n] for n in around))  # holds the paper itself: it is linked to each
    if not tpl.within(second, 2, tpl.MAX_OBSERVED):
        return None
    return raw.subject("paper", pid).draft(
        "How many distinct papers are linked to at least one of the papers linked to {s}, counting that paper itself?",
        str(len(second)),
        f"Count[Neighbour[Neighbour[{{ref}}, {raw.link}], {raw.link}]]",
    )


def linked_other_area_count(raw: RawCiteSeer, pid: str) -> tpl.Draft | None:
    around = raw.linked[pid]
    if not tpl.within(around, 2, tpl.MAX_OBSERVED):
        return None
    own = raw.labels[pid]
    differing = sum(1 for n in around if raw.labels[n] != own)
    if not differing:  # links mostly stay within an area; "0" would be a free guess
        return None
    return raw.subject("paper", pid).draft(
        "How many of the papers linked to {s} are in a different research area from that paper?",
        str(differing),
        f"Differing[{{ref}}, {raw.link}, {raw.label_key}]",
    )


PAPER = tpl.Kinds("paper")


def linked_templates(link: str = LINK, label_key: str = "label") -> tuple[tpl.Template, ...]:
    """The direction-free templates over an undirected paper graph: one relation ``link``, class feature ``label_key``."""
    return (
        PAPER.lookup("paper_label", "What is the research area of the paper titled {s}?", label_key),
        PAPER.neighbour_titles(
            "linked_papers", "Which papers are linked to the paper titled {s} by a citation?", link
        ),
        PAPER.degree("link_count", "How many papers are linked to the paper titled {s} by a citation?", link),
        PAPER.own("two_hop_papers", "medium", "list_without_target", two_hop_papers, "two hops"),
        PAPER.own("linked_area_count", "medium", "count", linked_area_count, "hop + aggregate"),
        PAPER.top_neighbour(
            "most_linked_neighbour",
            "Which of the papers linked to {s} has the most citation links itself?",
            hop=link,
            count_hop=link,
        ),
        PAPER.own("two_hop_count", "medium", "count", two_hop_count, "two hops + count"),
        PAPER.neighbourhood_vote(
            "linked_majority_area",
            "Among the papers linked to {s}, which research area is the most common?",
            link,
            label_key,
            (3, tpl.MAX_OBSERVED),
            counts_key="area_counts",
        ),
        PAPER.own(
            "linked_other_area_count", "hard", "count_differing", linked_other_area_count, "compare to self"
        ),
    )


CITESEER_TEMPLATES: tuple[tpl.Template, ...] = linked_templates()
