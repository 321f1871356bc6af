"""Problem text with a record of which characters have been read.

Each extractor claims the spans it understood. What is left ("free text") is
where the question's parameters are searched and where leftover graph-looking
fragments are reported as unparsed, so a fragment is never read twice.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator

from graphreason.tools.gar.graph_text.budget import CHECK_EVERY, check_reading

# unicode arrows and dashes -> ASCII, so one regex covers every spelling
_ARROWS = re.compile(r"\s*(?:→|⟶|➝|➔|⇒|-{1,2}>|=>)\s*")
_DASHES = re.compile(r"[–—]")
_SENTENCE_END = re.compile(r"[.?!](?=\s|$)|\n")
_CONDITIONAL = re.compile(r"\b(?:whether|if)\b", re.I)


def normalise(text: str) -> str:
    """Unify arrow and dash spellings (``0→1``, ``0 --> 1`` -> ``0->1``) and non-breaking spaces."""
    text = text.replace("\u00a0", " ").replace("\r\n", "\n")
    text = re.sub(r"<\s*-{1,2}\s*>|↔", "<->", text)
    # a match may not start inside a whitespace run: otherwise the leading \s* is retried
    # from every space of a long run, quadratic in its length
    text = re.sub(r"(?<![<\s])" + _ARROWS.pattern, "->", text)
    return _DASHES.sub("-", text)


class Doc:
    """A text plus the spans claimed so far."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._taken = bytearray(len(text))
        self._free_cache: str | None = text
        # sentence ends, precomputed so locating a sentence is a bisection (texts can hold 10^5 edge lines)
        self._ends = [m.end() for m in _SENTENCE_END.finditer(text)]
        self._sentences: dict[int, tuple[bool, int | None]] = {}

    def free(self, start: int, end: int) -> bool:
        """True when no character in ``[start, end)`` has been claimed."""
        return self._taken.find(1, start, end) < 0

    def take(self, start: int, end: int) -> None:
        self._taken[start:end] = b"\x01" * (end - start)
        self._free_cache = None

    def finditer(self, pattern: re.Pattern[str]) -> Iterator[re.Match[str]]:
        """Matches lying entirely in unclaimed text.

        The search runs over :meth:`free_text` (same offsets, claimed characters
        blanked), so claimed edge lists cost the regex engine almost nothing.
        """
        for count, m in enumerate(pattern.finditer(self.free_text()), 1):
            if count % CHECK_EVERY == 0:
                check_reading()
            if self.free(m.start(), m.end()):
                yield m

    def free_text(self) -> str:
        """The text with claimed characters replaced by ``|`` (same length and offsets; newlines kept)."""
        if self._free_cache is None:
            pieces, last = [], 0
            for run in re.finditer(rb"\x01+", self._taken):
                start, end = run.span()
                claimed = self.text[start:end]
                blank = re.sub(r"[^\n]", "|", claimed) if "\n" in claimed else "|" * len(claimed)
                pieces += [self.text[last:start], blank]
                last = end
            pieces.append(self.text[last:])
            self._free_cache = "".join(pieces)
        return self._free_cache

    def sentence_bounds(self, pos: int) -> tuple[int, int]:
        """``[start, end)`` of the sentence holding ``pos`` (end includes its closing mark)."""
        i = bisect.bisect_right(self._ends, pos)
        start = self._ends[i - 1] if i else 0
        end = self._ends[i] if i < len(self._ends) else len(self.text)
        return start, end

    def in_question(self, pos: int) -> bool:
        """True when ``pos`` lies in a question: a sentence ending in ``?`` or after a whether/if word.

        Each sentence is looked at once (cached by its start): a long sentence with
        thousands of edges would otherwise be re-sliced and re-searched per edge.
        """
        start, end = self.sentence_bounds(pos)
        asks, conditional_end = self._sentence_facts(start, end)
        return asks or (conditional_end is not None and conditional_end <= pos)

    def _sentence_facts(self, start: int, end: int) -> tuple[bool, int | None]:
        """(ends with ``?``, end offset of its first whether/if word or None) for one sentence."""
        facts = self._sentences.get(start)
        if facts is None:
            sentence = self.text[start:end]
            first = _CONDITIONAL.search(sentence)
            facts = (sentence.rstrip().endswith("?"), None if first is None else start + first.end())
            self._sentences[start] = facts
        return facts
