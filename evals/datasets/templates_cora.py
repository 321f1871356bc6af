"""Cora question templates, with golds computed from the raw Cora files.

Raw parsing here is deliberately separate from :mod:`tools.loaders.cora`: it
reads ``node_info.csv``, ``cora_text_graph_complete.jsonl`` and ``cora.cites``
with the standard library into plain dicts. ``cora.cites`` lines are
``<cited> <citing>`` (LINQS README: "paper2 -> paper1").
"""

from __future__ import annotations

import csv
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from evals.datasets.answer_rules import sorted_items, unique_mode
from evals.datasets.template_base import Draft, Template, normalise, safe_names
from tools.config import dataset_dir
from tools.jsonl import read_jsonl

MAX_LIST = 15  # list answers the model must reproduce
MAX_OBSERVED = 40  # nodes an action may return on the way (keeps observations short)
MAX_TITLE = 100  # longer "titles" are mostly citation strings scraped with the title


@dataclass
class RawCora:
    """Cora as plain dicts keyed by LINQS paper id (strings)."""

    titles: dict[str, str]
    labels: dict[str, str]
    cites: dict[str, set[str]]  # citing -> cited
    cited_by: dict[str, set[str]]  # cited -> citing

    def subjects(self, kind: str) -> list[str]:
        return safe_names(self.titles, max_chars=MAX_TITLE)

    def named(self, ids: set[str]) -> list[str] | None:
        """Titles of ``ids``, or ``None`` if any is empty (such an answer could not be quoted)."""
        titles = [self.titles[i] for i in ids]
        return None if not all(titles) else titles


def read_raw_cora(root: str | Path | None = None) -> RawCora:
    """Parse the raw Cora files (``root`` = the ``cora`` folder; default: shared data)."""
    folder = Path(root) if root is not None else dataset_dir("cora-citeseer-text") / "cora"
    titles: dict[str, str] = {}
    with (folder / "node_info.csv").open(encoding="utf-8", newline="") as fh:
        for row in csv.reader(fh):
            if row and row[0] != "paper_id":
                titles[row[0].strip()] = normalise(row[1])
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


def _q(title: str) -> str:
    return f'"{title}"'


def paper_label(raw: RawCora, pid: str) -> Draft | None:
    title = raw.titles[pid]
    return Draft(
        f"What is the research area of the paper titled {_q(title)}?",
        raw.labels[pid],
        f"Feature[Retrieve[{title}], label]",
        title,
        pid,
    )


def _title_list(raw: RawCora, pid: str, relation: str, question: str) -> Draft | None:
    ids = (raw.cites if relation == "cites" else raw.cited_by)[pid]
    titles = raw.named(ids)
    if not titles or len(set(titles)) > MAX_LIST:
        return None
    title = raw.titles[pid]
    return Draft(
        question.format(title=_q(title)),
        sorted_items(titles),
        f"Feature[Neighbour[Retrieve[{title}], {relation}], title]",
        title,
        pid,
    )


def paper_references(raw: RawCora, pid: str) -> Draft | None:
    return _title_list(raw, pid, "cites", "Which papers does the paper titled {title} cite?")


def paper_citers(raw: RawCora, pid: str) -> Draft | None:
    return _title_list(raw, pid, "cited_by", "Which papers cite the paper titled {title}?")


def _count(raw: RawCora, pid: str, relation: str, question: str) -> Draft | None:
    ids = (raw.cites if relation == "cites" else raw.cited_by)[pid]
    if not ids:
        return None
    title = raw.titles[pid]
    return Draft(
        question.format(title=_q(title)), str(len(ids)), f"Degree[Retrieve[{title}], {relation}]", title, pid
    )


def citation_count(raw: RawCora, pid: str) -> Draft | None:
    return _count(raw, pid, "cited_by", "How many papers cite the paper titled {title}?")


def reference_count(raw: RawCora, pid: str) -> Draft | None:
    return _count(raw, pid, "cites", "How many papers does the paper titled {title} cite?")


def cocited_papers(raw: RawCora, pid: str) -> Draft | None:
    citers = raw.cited_by[pid]
    if not citers or len(citers) > MAX_OBSERVED:
        return None
    others = set().union(*(raw.cites[c] for c in citers)) - {pid}
    titles = raw.named(others)
    if not titles or len(set(titles)) > MAX_LIST:
        return None
    title = raw.titles[pid]
    return Draft(
        f"Which papers, other than {_q(title)} itself, are cited by the papers that cite {_q(title)}?",
        sorted_items(titles),
        f"Feature[Neighbour[Neighbour[Retrieve[{title}], cited_by], cites], title]",
        title,
        pid,
    )


def reference_area_count(raw: RawCora, pid: str) -> Draft | None:
    refs = raw.cites[pid]
    if not 3 <= len(refs) <= MAX_OBSERVED:  # with 1-2 references the answer is nearly always 1
        return None
    title = raw.titles[pid]
    return Draft(
        f"How many distinct research areas do the papers cited by {_q(title)} cover?",
        str(len({raw.labels[r] for r in refs})),
        f"Feature[Neighbour[Retrieve[{title}], cites], label]",
        title,
        pid,
    )


def most_cited_reference(raw: RawCora, pid: str) -> Draft | None:
    refs = raw.cites[pid]
    if not 2 <= len(refs) <= MAX_OBSERVED or raw.named(refs) is None:
        return None
    counts = {r: len(raw.cited_by[r]) for r in refs}
    top = max(counts.values())
    leaders = [r for r, c in counts.items() if c == top]
    if len(leaders) != 1:
        return None
    title = raw.titles[pid]
    inner = f"Neighbour[Retrieve[{title}], cites]"
    return Draft(
        f"Which of the papers cited by {_q(title)} has itself been cited the most times?",
        raw.titles[leaders[0]],
        f"Feature[{inner}, title], Degree[{inner}, cited_by]",
        title,
        pid,
        {"winning_count": top},
    )


def second_hop_reference_count(raw: RawCora, pid: str) -> Draft | None:
    refs = raw.cites[pid]
    if not refs or len(refs) > MAX_OBSERVED:
        return None
    second = set().union(*(raw.cites[r] for r in refs))
    if not second or len(second) > MAX_OBSERVED:
        return None
    title = raw.titles[pid]
    return Draft(
        f"How many distinct papers are cited by the papers that {_q(title)} cites?",
        str(len(second)),
        f"Neighbour[Neighbour[Retrieve[{title}], cites], cites]",
        title,
        pid,
    )


def citing_majority_area(raw: RawCora, pid: str) -> Draft | None:
    citers = raw.cited_by[pid]
    if not 3 <= len(citers) <= MAX_OBSERVED:
        return None
    mode = unique_mode(raw.labels[c] for c in citers)
    if mode is None:
        return None
    title = raw.titles[pid]
    return Draft(
        f"Among the papers that cite {_q(title)}, which research area is the most common?",
        mode,
        f"Feature[Neighbour[Retrieve[{title}], cited_by], label]",
        title,
        pid,
        {"area_counts": dict(Counter(raw.labels[c] for c in citers))},
    )


def citing_other_area_count(raw: RawCora, pid: str) -> Draft | None:
    citers = raw.cited_by[pid]
    if not 2 <= len(citers) <= MAX_OBSERVED:
        return None
    own = raw.labels[pid]
    differing = sum(1 for c in citers if raw.labels[c] != own)
    if not differing:  # citations mostly stay within an area; "0" would be a free guess
        return None
    title = raw.titles[pid]
    return Draft(
        f"How many of the papers that cite {_q(title)} are in a different research area from that paper?",
        str(differing),
        f"Feature[Retrieve[{title}], label], Feature[Neighbour[Retrieve[{title}], cited_by], label]",
        title,
        pid,
    )


CORA_TEMPLATES: tuple[Template, ...] = (
    Template("paper_label", "easy", "value", "paper", paper_label, "feature lookup"),
    Template("paper_references", "easy", "list", "paper", paper_references, "one-hop neighbours"),
    Template("paper_citers", "easy", "list", "paper", paper_citers, "one-hop neighbours (reverse)"),
    Template("citation_count", "easy", "value", "paper", citation_count, "degree"),
    Template("reference_count", "easy", "value", "paper", reference_count, "degree"),
    Template("cocited_papers", "medium", "list_without_target", "paper", cocited_papers, "two hops"),
    Template(
        "reference_area_count", "medium", "count_distinct", "paper", reference_area_count, "hop + aggregate"
    ),
    Template(
        "most_cited_reference", "medium", "argmax", "paper", most_cited_reference, "hop + compare degrees"
    ),
    Template(
        "second_hop_reference_count",
        "medium",
        "count",
        "paper",
        second_hop_reference_count,
        "two hops + count",
    ),
    Template(
        "citing_majority_area", "hard", "most_common", "paper", citing_majority_area, "neighbourhood vote"
    ),
    Template(
        "citing_other_area_count",
        "hard",
        "count_differing",
        "paper",
        citing_other_area_count,
        "compare to self",
    ),
)
