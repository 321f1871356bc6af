"""Cora question templates, with golds computed from the raw Cora files.

Raw parsing here is deliberately separate from :mod:`graphreason.tools.core.loaders.cora`: it
reads ``node_info.csv``, ``cora_text_graph_complete.jsonl`` and ``cora.cites``
with the standard library into plain dicts. ``cora.cites`` lines are
``<cited> <citing>`` (LINQS README: "paper2 -> paper1").
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

from graphreason.evals.datasets import template_base as tpl
from graphreason.settings import dataset_dir
from graphreason.tools.core.jsonl import read_jsonl

MAX_TITLE = 100  # longer "titles" are mostly citation strings scraped with the title


@dataclass
class RawCora:
    """Cora as plain dicts keyed by LINQS paper id (strings); hops ``cites``/``cited_by``, features ``title``/``label``."""

    titles: dict[str, str]
    labels: dict[str, str]
    cites: dict[str, set[str]]  # citing -> cited
    cited_by: dict[str, set[str]]  # cited -> citing

    def subjects(self, kind: str) -> list[str]:
        return tpl.safe_names(self.titles, max_chars=MAX_TITLE)

    def subject(self, kind: str, pid: str) -> tpl.Subject:
        return tpl.Subject.titled(self.titles[pid], pid)

    def neighbours(self, pid: str, hop: str) -> set[str]:
        return {"cites": self.cites, "cited_by": self.cited_by}[hop][pid]

    def feature(self, pid: str, name: str) -> str:
        return {"title": self.titles, "label": self.labels}[name][pid]


def read_raw_cora(root: str | Path | None = None) -> RawCora:
    """Parse the raw Cora files (``root`` = the ``cora`` folder; default: shared data)."""
    folder = Path(root) if root is not None else dataset_dir("cora-citeseer-text") / "cora"
    titles: dict[str, str] = {}
    with (folder / "node_info.csv").open(encoding="utf-8", newline="") as fh:
        for row in csv.reader(fh):
            if row and row[0] != "paper_id":
                titles[row[0].strip()] = tpl.normalise(row[1])
    labels: dict[str, str] = {}
    for _, record in read_jsonl(folder / "cora_text_graph_complete.jsonl"):
        labels[str(record["paper_id"])] = record["label"].replace("_", " ")
    cites: dict[str, set[str]] = {pid: set() for pid in titles}
    cited_by: dict[str, set[str]] = {pid: set() for pid in titles}
    with (folder / "cora.cites").open(encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                cited, citing = line.split()
                cites[citing].add(cited)
                cited_by[cited].add(citing)
    return RawCora(titles, labels, cites, cited_by)


def cocited_papers(raw: RawCora, pid: str) -> tpl.Draft | None:
    citers = raw.cited_by[pid]
    if not tpl.within(citers, 1, tpl.MAX_OBSERVED):
        return None
    titles = tpl.title_answer(raw, set().union(*(raw.cites[c] for c in citers)) - {pid})
    if titles is None:
        return None
    return raw.subject("paper", pid).draft(
        "Which papers, other than {s} itself, are cited by the papers that cite {s}?",
        titles,
        "Feature[Neighbour[Neighbour[{ref}, cited_by], cites], title]",
    )


def reference_area_count(raw: RawCora, pid: str) -> tpl.Draft | None:
    refs = raw.cites[pid]
    if not tpl.within(refs, 3, tpl.MAX_OBSERVED):  # with 1-2 references the answer is nearly always 1
        return None
    return raw.subject("paper", pid).draft(
        "How many distinct research areas do the papers cited by {s} cover?",
        str(len({raw.labels[r] for r in refs})),
        "Count[Feature[Neighbour[{ref}, cites], label]]",
    )


def second_hop_reference_count(raw: RawCora, pid: str) -> tpl.Draft | None:
    refs = raw.cites[pid]
    if not tpl.within(refs, 1, tpl.MAX_OBSERVED):
        return None
    second = set().union(*(raw.cites[r] for r in refs))
    if not tpl.within(second, 1, tpl.MAX_OBSERVED):
        return None
    return raw.subject("paper", pid).draft(
        "How many distinct papers are cited by the papers that {s} cites?",
        str(len(second)),
        "Count[Neighbour[Neighbour[{ref}, cites], cites]]",
    )


def citing_other_area_count(raw: RawCora, pid: str) -> tpl.Draft | None:
    citers = raw.cited_by[pid]
    if not tpl.within(citers, 2, tpl.MAX_OBSERVED):
        return None
    own = raw.labels[pid]
    differing = sum(1 for c in citers if raw.labels[c] != own)
    if not differing:  # citations mostly stay within an area; "0" would be a free guess
        return None
    return raw.subject("paper", pid).draft(
        "How many of the papers that cite {s} are in a different research area from that paper?",
        str(differing),
        "Differing[{ref}, cited_by, label]",  # the aggregate compares each citer with the paper
    )


PAPER = tpl.Kinds("paper")

CORA_TEMPLATES: tuple[tpl.Template, ...] = (
    PAPER.lookup("paper_label", "What is the research area of the paper titled {s}?", "label"),
    PAPER.neighbour_titles("paper_references", "Which papers does the paper titled {s} cite?", "cites"),
    PAPER.neighbour_titles(
        "paper_citers", "Which papers cite the paper titled {s}?", "cited_by", "one-hop neighbours (reverse)"
    ),
    PAPER.degree("citation_count", "How many papers cite the paper titled {s}?", "cited_by"),
    PAPER.degree("reference_count", "How many papers does the paper titled {s} cite?", "cites"),
    PAPER.own("cocited_papers", "medium", "list_without_target", cocited_papers, "two hops"),
    PAPER.own("reference_area_count", "medium", "count", reference_area_count, "hop + aggregate"),
    PAPER.top_neighbour(
        "most_cited_reference",
        "Which of the papers cited by {s} has itself been cited the most times?",
        hop="cites",  # the candidates: the papers it cites
        count_hop="cited_by",  # ranked by how often each is cited
    ),
    PAPER.own(
        "second_hop_reference_count", "medium", "count", second_hop_reference_count, "two hops + count"
    ),
    PAPER.neighbourhood_vote(
        "citing_majority_area",
        "Among the papers that cite {s}, which research area is the most common?",
        "cited_by",
        "label",
        (3, tpl.MAX_OBSERVED),
        counts_key="area_counts",
    ),
    PAPER.own(
        "citing_other_area_count", "hard", "count_differing", citing_other_area_count, "compare to self"
    ),
)
