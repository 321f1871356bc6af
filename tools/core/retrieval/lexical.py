"""Lexical node search: an exact-name map and BM25 over the words of each node's text.

Both build from the texts alone, with no model, in seconds for millions of short
names (see ``benchmarks/bench_retrieve.py``), so a graph can be searched by name
before any dense embedding exists.

* :func:`normalise` is the comparison form of a name: Unicode NFKC, case-folded,
  every run of punctuation, underscores and whitespace turned into one space.
  ``"Deep  Learning: A Survey."`` and ``"deep learning a survey"`` are the same name.
  Where several nodes share one normalised name, the one spelled with the query's
  punctuation comes first (:func:`spelling`): ``electro-pop`` finds the tag
  ``electro-pop`` before the tag ``electro pop``.
* :class:`LexicalIndex` holds the normalised name of every node (for exact
  lookups) and a term-by-node matrix of BM25 weights (Okapi BM25, ``k1=1.2``,
  ``b=0.75``, the non-negative idf ``log(1 + (N - df + 0.5) / (df + 0.5))``).

Ties rank by the order the nodes were added, as in the dense index.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

_WORD = re.compile(r"[^\W_]+")
K1 = 1.2
B = 0.75


def normalise(text: str) -> str:
    """The comparison form of a name: NFKC, case-folded, punctuation and whitespace runs as one space."""
    return " ".join(_WORD.findall(unicodedata.normalize("NFKC", str(text)).casefold()))


def spelling(text: str) -> str:
    """A name as written, up to case and spacing: NFKC, case-folded, whitespace runs as one space, punctuation kept."""
    return " ".join(unicodedata.normalize("NFKC", str(text)).casefold().split())


def word_stems(text: str) -> set[str]:
    """The text's words of three letters or more, cut to five (``citing``, ``cites`` -> ``citin``, ``cites``;
    ``listeners`` -> ``liste``): a crude stem that names and questions are matched on. ``_`` separates words."""
    return {stem for _, stem in stem_positions(text)}


def stem_positions(text: str) -> list[tuple[int, str]]:
    """``(where in text.lower(), stem)`` of each word :func:`word_stems` reads, in order."""
    return [(m.start(), m.group()[:5]) for m in re.finditer(r"[a-z0-9]+", text.lower()) if m.end() - m.start() > 2]


@dataclass(frozen=True)
class LexicalHit:
    """One lexical match: the node's insertion position, its BM25 score, and whether its name is the query."""

    position: int
    score: float
    exact: bool


class LexicalIndex:
    """Exact normalised-name lookup plus BM25 search over ``texts`` (row i is ``ids[i]`` of type ``node_types[i]``)."""

    def __init__(self, ids: Sequence[str], node_types: Sequence[str], texts: Sequence[str]) -> None:
        if not (len(ids) == len(node_types) == len(texts)):
            raise ValueError(
                f"need one type and one text per id: got {len(ids)} ids, {len(node_types)} types, {len(texts)} texts"
            )
        self.ids = [str(i) for i in ids]
        self.type_names = sorted(set(node_types))
        code = {t: c for c, t in enumerate(self.type_names)}
        self.type_codes = np.fromiter((code[t] for t in node_types), dtype=np.int32, count=len(ids))
        self.names = [normalise(t) for t in texts]
        self._exact: dict[str, int | list[int]] = {}
        for pos, name in enumerate(self.names):
            found = self._exact.get(name)
            if found is None:
                self._exact[name] = pos
            elif isinstance(found, int):
                self._exact[name] = [found, pos]
            else:
                found.append(pos)
        # the written form of each name that shares its normalised form with another, and its text as stored (case
        # aside): they order exact matches ("1st vine" before "1st  vine" for the query "1st vine")
        shared = [pos for group in self._exact.values() if isinstance(group, list) for pos in group]
        self._spelled: dict[int, str] = {pos: spelling(texts[pos]) for pos in shared}
        self._stored: dict[int, str] = {pos: str(texts[pos]).strip().casefold() for pos in shared}
        self._build_bm25()

    def _build_bm25(self) -> None:
        vocabulary: dict[str, int] = {}
        doc_of: list[int] = []
        term_of: list[int] = []
        lengths = np.zeros(len(self.names), dtype=np.float32)
        for pos, name in enumerate(self.names):
            words = name.split()
            lengths[pos] = len(words)
            for word in words:
                term = vocabulary.setdefault(word, len(vocabulary))
                doc_of.append(pos)
                term_of.append(term)
        self.vocabulary = vocabulary
        n_docs = len(self.names)
        docs = np.asarray(doc_of, dtype=np.int64)
        terms = np.asarray(term_of, dtype=np.int64)
        # one entry per (term, doc) with its count: sort by term then doc, then count runs
        key = terms * max(n_docs, 1) + docs
        unique_keys, tf = np.unique(key, return_counts=True)
        post_terms = unique_keys // max(n_docs, 1)
        post_docs = (unique_keys % max(n_docs, 1)).astype(np.int32)
        df = np.bincount(post_terms, minlength=len(vocabulary)).astype(np.float64)
        idf = np.log1p((n_docs - df + 0.5) / (df + 0.5))
        average = float(lengths.mean()) if n_docs else 1.0
        norm = K1 * (1 - B + B * lengths[post_docs] / max(average, 1e-9))
        weights = idf[post_terms] * tf * (K1 + 1) / (tf + norm)
        self._postings_start = np.zeros(len(vocabulary) + 1, dtype=np.int64)
        np.cumsum(np.bincount(post_terms, minlength=len(vocabulary)), out=self._postings_start[1:])
        self._post_docs = post_docs
        self._post_weights = weights.astype(np.float32)

    def __len__(self) -> int:
        return len(self.ids)

    # ----------------------------------------------------------- queries
    def exact(self, text: str, node_type: str | None = None) -> list[int]:
        """Positions of the nodes whose normalised text is the normalised ``text``: those spelled as ``text``
        (punctuation kept, case and spacing not) first, and of those the ones stored as ``text`` is written, spaces
        and all (case and its ends aside); each group in insertion order."""
        found = self._exact.get(normalise(text))
        if found is None:
            return []
        positions = [found] if isinstance(found, int) else list(found)
        if node_type is not None:
            code = self._type_code(node_type)
            positions = [p for p in positions if self.type_codes[p] == code]
        if len(positions) > 1:
            written, stripped = spelling(text), text.strip().casefold()
            positions.sort(key=lambda p: (self._spelled[p] != written, self._stored[p] != stripped))
        return positions

    def _type_code(self, node_type: str) -> int:
        if node_type not in self.type_names:
            raise ValueError(
                f"no nodes of type {node_type!r} in this index; node types: {', '.join(self.type_names) or '(none)'}"
            )
        return self.type_names.index(node_type)

    def scores(self, text: str) -> tuple[np.ndarray, np.ndarray]:
        """``(positions, bm25)`` of every node sharing a word with ``text`` (unsorted)."""
        terms = sorted({self.vocabulary[w] for w in normalise(text).split() if w in self.vocabulary})
        if not terms:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float32)
        totals = np.zeros(len(self.names), dtype=np.float32)
        for t in terms:  # a term's postings name each node once, so a plain scatter-add is exact
            start, end = int(self._postings_start[t]), int(self._postings_start[t + 1])
            totals[self._post_docs[start:end]] += self._post_weights[start:end]
        positions = np.flatnonzero(totals)
        totals = totals[positions]
        return positions.astype(np.int64), totals

    @staticmethod
    def _score_at(position: int, positions: np.ndarray, totals: np.ndarray) -> float:
        at = int(np.searchsorted(positions, position))
        return float(totals[at]) if at < len(positions) and positions[at] == position else 0.0

    def search(self, text: str, k: int = 10, node_type: str | None = None) -> list[LexicalHit]:
        """Exact-name matches first (spelled as the query first, then insertion order), then the rest by BM25
        score; at most ``k`` hits."""
        exact = self.exact(text, node_type)
        positions, totals = self.scores(text)
        if node_type is not None and len(positions):
            keep = self.type_codes[positions] == self._type_code(node_type)
            positions, totals = positions[keep], totals[keep]
        want = k + len(exact)
        if len(positions) > want:  # the best `want`, every node tied with the last kept for the tie-break
            cut = np.partition(-totals, want - 1)[want - 1]
            keep = -totals <= cut
            positions, totals = positions[keep], totals[keep]
        order = np.lexsort((positions, -totals))[:want]
        hits = [LexicalHit(p, self._score_at(p, positions, totals), True) for p in exact]
        seen = set(exact)
        for i in order:
            p = int(positions[i])
            if p not in seen:
                hits.append(LexicalHit(p, float(totals[i]), False))
        return hits[:k]
