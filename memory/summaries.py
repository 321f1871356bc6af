"""Short-term memory: summaries of recent observations under a word budget.

GraphAgent keeps an LLM summary of each observation instead of the raw text;
the buffer drops the oldest summaries once the total exceeds the budget
(4,000 words in the paper), or keeps only the newest one in ``replace`` mode.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal


@dataclass
class SummaryBuffer:
    max_words: int = 4000
    policy: Literal["append", "replace"] = "append"
    items: list[str] = field(default_factory=list)

    def add(self, summary: str) -> None:
        """Store one summary, then trim the oldest ones to the word budget."""
        summary = summary.strip()
        if not summary:
            return
        if self.policy == "replace":
            self.items = [summary]
        else:
            self.items.append(summary)
        while len(self.items) > 1 and self.word_count() > self.max_words:
            self.items.pop(0)

    def word_count(self) -> int:
        return sum(len(s.split()) for s in self.items)

    def render(self) -> str:
        return "\n".join(f"- {s}" for s in self.items)


def bounded_summaries(left: list[str] | None, right: list[str] | dict | None) -> list[str]:
    """State reducer of a short-term memory: summaries appended, the oldest dropped past the word budget.

    ``right`` is a list of new summaries (budget: 4,000 words, the paper's) or
    ``{"add": [...], "max_words": N}`` to carry a run's own budget, or
    ``{"reset": [...]}`` to start over (a new run on the same thread). The newest
    summary is always kept, cut to the budget when it alone exceeds it.
    """
    if isinstance(right, dict):
        if "reset" in right:
            left, adds, budget = [], list(right["reset"]), int(right.get("max_words", 4000))
        else:
            adds, budget = list(right.get("add", [])), int(right.get("max_words", 4000))
    else:
        adds, budget = list(right or []), 4000
    buffer = SummaryBuffer(max_words=budget, items=list(left or []))
    for summary in adds:
        buffer.add(summary)
    if buffer.items and buffer.word_count() > budget:  # one summary longer than the whole budget
        buffer.items[-1] = " ".join(buffer.items[-1].split()[:budget])
    return buffer.items
