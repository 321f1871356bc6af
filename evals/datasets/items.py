"""One question-answer item and JSON Lines storage for lists of them."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from graphreason.tools.core.jsonl import read_jsonl, write_jsonl

LEVELS = ("easy", "medium", "hard")


@dataclass
class QAItem:
    """A question with its gold answer and where it comes from.

    ``answer`` is always a string (list golds joined with ``", "``, as GRBench
    writes them); ``answers`` keeps the items of a list-valued gold.
    ``reference_action`` is one Counselor bracket action that yields the facts
    needed and ``meta["reference_answer_rule"]`` says how to turn its result
    into the answer (see :mod:`graphreason.evals.datasets.generated`).
    """

    qid: str
    question: str
    answer: str
    answers: list[str] | None = None
    level: str | None = None
    template: str | None = None
    graph: str | None = None
    reference_action: str | None = None
    meta: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.level is not None and self.level not in LEVELS:
            raise ValueError(f"QAItem {self.qid}: level must be one of {LEVELS} or None, got {self.level!r}")
        if not isinstance(self.answer, str):
            raise TypeError(f"QAItem {self.qid}: answer must be a string, got {type(self.answer).__name__}")

    @property
    def reference_answer_rule(self) -> str | None:
        """How to turn the reference action's result into the answer (``None`` when unknown)."""
        return self.meta.get("reference_answer_rule")

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> QAItem:
        """Build from a dict; unknown keys go to ``meta`` so no information is lost."""
        known = {f.name for f in fields(cls)}
        kwargs = {k: v for k, v in data.items() if k in known}
        extra = {k: v for k, v in data.items() if k not in known}
        if extra:
            kwargs["meta"] = {**extra, **(kwargs.get("meta") or {})}
        missing = [k for k in ("qid", "question", "answer") if k not in kwargs]
        if missing:
            raise ValueError(f"QA item is missing {', '.join(missing)}: {str(data)[:200]}")
        kwargs["qid"] = str(kwargs["qid"])
        return cls(**kwargs)


def save_items(items: list[QAItem], path: str | Path) -> Path:
    """Write items as JSON Lines (one object per line, UTF-8)."""
    return write_jsonl(Path(path).expanduser(), (item.to_dict() for item in items))


def load_items(path: str | Path) -> list[QAItem]:
    """Read items written by :func:`save_items`; errors name the file and line."""
    source = Path(path).expanduser()
    if not source.is_file():
        raise FileNotFoundError(f"question file {source} not found")
    items = []
    for number, row in read_jsonl(source):
        try:
            items.append(QAItem.from_dict(row))
        except (ValueError, TypeError, AttributeError) as err:
            raise ValueError(f"{source} line {number}: {err}") from err
    return items
