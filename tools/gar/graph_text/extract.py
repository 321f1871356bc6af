"""Extractors: one per way the literature writes edges and node weights.

Each extractor claims the spans it read in the :class:`~graphreason.tools.gar.graph_text.scan.Doc`
and returns :class:`Mention` records with resolved node ids. A fragment whose
labels cannot be resolved is returned as unparsed rather than guessed.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass

from graphreason.tools.gar.graph_text.budget import check_reading
from graphreason.tools.gar.graph_text.nodes import NodeSpace
from graphreason.tools.gar.graph_text.problem import GraphTextError, shown
from graphreason.tools.gar.graph_text.scan import Doc

NUM = r"-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?"
# a weight as written: a number, or a spelling of a value that is not one (nan, inf, infinity, ∞).
# Those are read, not skipped as unreadable text, so that they are refused naming their edge.
WEIGHT = rf"(?:{NUM}|[-+]?(?:(?i:nan|inf(?:inity)?)(?!\w)|∞))"
LABEL = r"(?:\d+|[A-Za-z][\w'-]*)"
WEIGHT_WORD = r"(?:weight|capacity|cost|length|distance)"
# "with weight 3", "with a capacity of 3", "(weight: 3)", "(3)", ": 3"
WEIGHT_CLAUSE = (
    rf"(?:\s*,?\s*with\s+(?:a\s+|the\s+)?{WEIGHT_WORD}\s+(?:of\s+)?(?P<w1>{WEIGHT})"
    rf"|\s*\(\s*(?:(?:{WEIGHT_WORD}|w|c)\s*[:=]?\s*)?(?P<w2>{WEIGHT})\s*\)"
    rf"|\s*:\s*(?P<w3>{WEIGHT})(?!\.?\d))"
)
# a weight in parentheses after an adjacency list's item: "node 3 (weight 5)", "3 (w=5)", "3 (5)"
ITEM_WEIGHT = rf"\(\s*(?:{WEIGHT_WORD}|w)?\s*[:=]?\s*({WEIGHT})\s*\)"


def _body(brackets: str, limit: int) -> str:
    """The body of a tuple or bracket: at most ``limit`` characters, a run of digits counting as one.

    The run is matched possessively, so it is never re-split; a 400-digit weight is read (and
    refused) instead of making the body too long to match and being dropped without a word.
    """
    return rf"((?:[^{brackets}\d]|\d++){{1,{limit}}})"


_TUPLE = re.compile(rf"\({_body('()', 120)}\)")
_TUPLE_EDGE = re.compile(rf"({LABEL})\s*(->|<->|,)\s*({LABEL})(?:\s*,\s*({WEIGHT}))?")
_TUPLE_TRIPLE = re.compile(rf"({LABEL})\s*,\s*([A-Za-z][\w -]*?)\s*,\s*({LABEL})")
_NUMBER = re.compile(NUM)
_DIGIT = re.compile(r"\d")
_LINK = re.compile(r",|->")
_ARROW_SPLIT = re.compile(r"\s*(->|<->)\s*")
_BRACKET = re.compile(r"\[" + _body(r"\[\]", 80) + r"\]")

LIST_SEP = r"\s*(?:,\s*(?:and\s+)?|and\s+|&\s*)"


@dataclass
class Mention:
    """One edge as written: ids, weight (None when unweighted) and how it was written."""

    u: int
    v: int
    weight: float | None
    kind: str  # tuple | bracket | arrow | between | from | adjacency | named | visit | matching
    directed_hint: bool | None  # True: the wording itself is directed; False: symmetric; None: silent


@dataclass
class Found:
    """Everything the extractors read from one section of text."""

    mentions: list[Mention]
    node_weights: dict[int, float]
    node_features: dict[int, list[float]]
    unparsed: list[str]


def _read_number(text: str, where: str, what: str = "weight") -> float:
    """The number written as ``text``, or a :class:`GraphTextError` naming ``where`` when it is not finite.

    ``nan``/``inf`` spelled out, and numbers past float's range (``1e999``, 400 nines), would
    otherwise turn a shortest path or a flow into nonsense, or be skipped as unreadable text.
    """
    spelled = text.strip().replace("∞", "inf")
    try:
        value = float(spelled)
    except ValueError:
        raise GraphTextError(f"{where}: {what} {shown(text)} is not a number") from None
    if not math.isfinite(value):
        overflow = " (too large for a float)" if any(ch.isdigit() for ch in spelled) else ""
        raise GraphTextError(f"{where}: {what} {shown(text)} is not a finite number{overflow}")
    if value == 0.0 and any(ch in "123456789" for ch in re.split("[eE]", spelled, maxsplit=1)[0]):
        raise GraphTextError(f"{where}: {what} {shown(text)} is too small for a float (it would read as 0)")
    return value


def _edge(u: str, v: str) -> str:
    """An edge as the text names it, for messages."""
    return f"edge ({u.strip()}, {v.strip()})"


def _weight(m: re.Match[str], where: str) -> float | None:
    for key in ("w1", "w2", "w3"):
        value = m.groupdict().get(key)
        if value is not None:
            return _read_number(value, where)
    return None


def _split_list(text: str) -> list[str]:
    return [p for p in re.split(LIST_SEP, text.strip().rstrip(".;")) if p]


def _adjacency_item(text: str, label: str) -> tuple[str | None, str | None]:
    """``node 3 (weight 5)`` -> the node's label and its weight as written (None where missing)."""
    node = re.match(rf"(?:node\s+)?({label})", text, re.I)
    weight = re.search(ITEM_WEIGHT, text, re.I)
    return (node.group(1) if node else None), (weight.group(1) if weight else None)


class Extractor:
    """Runs every extractor over one section, in an order that avoids double reads."""

    def __init__(self, doc: Doc, space: NodeSpace, node_weight_context: bool) -> None:
        self.doc, self.space = doc, space
        self.node_weight_context = node_weight_context
        self.found = Found([], {}, {}, [])

    def run(self) -> Found:
        for extractor in (
            self.node_features,
            self.node_weight_sentences,
            self.matching,
            self.edge_sentences,
            self.adjacency,
            self.named_pairs,
            self.tuples,
            self.brackets,
            self.arrows,
        ):
            check_reading()
            extractor()
        return self.found

    # ------------------------------------------------------------------ helpers
    def _node(self, label: str, create: bool = False) -> int | None:
        return self.space.resolve(label, create=create)

    def _labels(self) -> Callable[[str], int | None]:
        """:meth:`_node` without creating, remembered per label: an edge list names each node many times.

        For one extractor's loop only: creating nodes elsewhere may change what a label resolves to.
        """
        known: dict[str, int | None] = {}

        def node(label: str) -> int | None:
            if label not in known:
                known[label] = self.space.resolve(label)
            return known[label]

        return node

    def _add(self, u: int, v: int, w: float | None, kind: str, hint: bool | None) -> None:
        self.found.mentions.append(Mention(u, v, w, kind, hint))

    def _unparsed(self, m: re.Match[str]) -> None:
        self.found.unparsed.append(m.group(0).strip())
        self.doc.take(m.start(), m.end())

    # ------------------------------------------------------------------ node data
    def node_features(self) -> None:
        """``node 0: [1, 2]`` (NLGraph GNN embeddings)."""
        pat = re.compile(rf"\bnode\s+({LABEL})\s*:\s*\[\s*({WEIGHT}(?:\s*,\s*{WEIGHT})*)\s*\]", re.I)
        for m in self.doc.finditer(pat):
            node = self._node(m.group(1))
            if node is None:
                continue
            where = f"node {m.group(1)}"
            values = re.split(r"\s*,\s*", m.group(2).strip())
            self.found.node_features[node] = [_read_number(x, where, "feature value") for x in values]
            self.doc.take(m.start(), m.end())

    def node_weight_sentences(self) -> None:
        """``the weight of node 3 is 5``, ``node 3 has weight 5``.

        (``node 3 (weight 5)`` is left alone: in adjacency lists it is an edge weight.)
        """
        pats = [
            rf"\bweight\s+of\s+node\s+({LABEL})\s+is\s+({WEIGHT})",
            rf"\bnode\s+({LABEL})\s+(?:has\s+(?:a\s+|the\s+)?|is\s+given\s+(?:a\s+|the\s+)?)weight\s+(?:of\s+)?({WEIGHT})",
        ]
        for pat in pats:
            for m in self.doc.finditer(re.compile(pat, re.I)):
                node = self._node(m.group(1))
                if node is not None:
                    self.found.node_weights[node] = _read_number(m.group(2), f"node {m.group(1)}")
                    self.doc.take(m.start(), m.end())

    # ------------------------------------------------------------------ special layouts
    def matching(self) -> None:
        """NLGraph bipartite matching: ``Applicant 0 is interested in job 1, job 3.``"""
        if not self.space.label(0).startswith("applicant "):
            return
        pat = re.compile(
            rf"\bapplicant\s+(\d+)\s+is\s+interested\s+in\s+((?:jobs?\s+)?\d+(?:{LIST_SEP}(?:jobs?\s+)?\d+)*)",
            re.I,
        )
        for m in self.doc.finditer(pat):
            u = self._node(f"applicant {m.group(1)}")
            for item in _split_list(m.group(2)):
                v = self._node("job " + re.sub(r"^jobs?\s+", "", item, flags=re.I))
                if u is None or v is None:
                    self.space.unknown.append(m.group(0))
                    continue
                self._add(u, v, None, "matching", False)
            self.doc.take(m.start(), m.end())

    # ------------------------------------------------------------------ edges
    def edge_sentences(self) -> None:
        """NLGraph style: ``an edge between node 0 and node 1 with weight 2``, ``an edge from node 0 to node 1``."""
        pats = [
            (
                rf"\b(?:an?\s+|one\s+|the\s+)?(?:undirected\s+)?edge\s+between\s+node\s+({LABEL})\s+and\s+node\s+({LABEL})",
                "between",
                False,
            ),
            (
                rf"\b(?:an?\s+|one\s+|the\s+)?(?:directed\s+)?edge\s+from\s+node\s+({LABEL})\s+to\s+node\s+({LABEL})",
                "from",
                True,
            ),
            (
                rf"\bnode\s+({LABEL})\s+(?:should|must)\s+be\s+visited\s+before\s+node\s+({LABEL})",
                "visit",
                True,
            ),
        ]
        for pat, kind, hint in pats:
            for m in self.doc.finditer(re.compile(pat + f"(?:{WEIGHT_CLAUSE})?", re.I)):
                if self.doc.in_question(m.start()):
                    continue
                u, v = self._node(m.group(1)), self._node(m.group(2))
                if u is None or v is None:
                    self._unparsed(m)
                    continue
                self._add(u, v, _weight(m, _edge(m.group(1), m.group(2))), kind, hint)
                self.doc.take(m.start(), m.end())

    def adjacency(self) -> None:
        """``node 3 is connected to nodes 1, 4, 7``; ``the neighbors of node 3 are 1 and 4``; ``3: 1, 4, 7``."""
        lab = self.space.label_pattern()
        item = rf"(?:node\s+)?{lab}(?:\s*{ITEM_WEIGHT})?"
        items = rf"(?P<items>{item}(?:{LIST_SEP}{item})*)"
        lead = r"\s+(?:the\s+)?(?:following\s+)?(?:nodes?|vertices|vertex)?\s*:?\s*"
        pats = [
            (
                rf"\bnode\s+(?P<head>{lab})\s+is\s+(?:connected|adjacent|linked|joined)\s+(?:to|with){lead}{items}",
                None,
            ),
            (
                rf"\bnode\s+(?P<head>{lab})\s+has\s+(?:an?\s+)?(?:edges?|links?|arcs?)\s+(?:to|towards){lead}{items}",
                True,
            ),
            (rf"\bnode\s+(?P<head>{lab})\s+(?:points|links|leads)\s+to{lead}{items}", True),
            (rf"\bnode\s+(?P<head>{lab})\s+has\s+(?:the\s+)?neighbou?rs?\s*:?{lead}{items}", None),
            (rf"\b(?:the\s+)?neighbou?rs\s+of\s+node\s+(?P<head>{lab})\s+are\s*:?{lead}{items}", None),
            (
                rf"(?m)^[ \t]*(?:node\s+)?(?P<head>{lab})[ \t]*:[ \t]*(?P<items>{lab}(?:[ \t]*,[ \t]*{lab})*)[ \t]*\.?[ \t]*$",
                None,
            ),
        ]
        for pat, hint in pats:
            for m in self.doc.finditer(re.compile(pat + f"(?:{WEIGHT_CLAUSE})?", re.I)):
                if self.doc.in_question(m.start()):
                    continue
                head = self._node(m.group("head"))
                listed = [_adjacency_item(p, lab) for p in _split_list(m.group("items"))]
                found = [None if label is None else self._node(label) for label, _ in listed]
                targets = [t for t in found if t is not None]
                if head is None or len(targets) < len(found):
                    self._unparsed(m)
                    continue
                edges = [_edge(m.group("head"), label or "") for label, _ in listed]
                weights = [
                    None if w is None else _read_number(w, e) for (_, w), e in zip(listed, edges, strict=True)
                ]
                tail = _weight(m, edges[-1])
                if tail is not None and len(targets) == 1:
                    weights = [tail]
                elif tail is not None:  # "connected to nodes 1, 2 with weight 5": whose weight is it?
                    raise GraphTextError(
                        f"node {m.group('head').strip()}: one weight ({tail:g}) after {len(targets)} neighbours "
                        "is ambiguous; give each edge its own weight, e.g. 'node 0 is connected to node 1 "
                        "(weight 5), node 2 (weight 5)'"
                    )
                for t, w in zip(targets, weights, strict=True):
                    self._add(head, t, w, "adjacency", hint)
                self.doc.take(m.start(), m.end())

    def named_pairs(self) -> None:
        """GraphQA named encodings: ``James and Robert are friends.``, ``... wrote a paper together.``"""
        # any capitalised word or number is read as a name; one missing from a declared
        # node list is reported (NodeSpace.unknown) instead of silently dropped
        declared = self.space.declared
        generic = r"[A-Z][\w'-]*|\d+"
        name = f"(?:{self.space.label_pattern()}|{generic})" if declared else f"(?:{generic})"
        symmetric = (
            r"are\s+(?:friends|connected|neighbou?rs|linked|adjacent|colleagues|co-?authors)"
            r"|wrote\s+a\s+paper\s+together|(?:have\s+)?(?:worked|collaborated)\s+together"
        )
        pats = [
            (rf"(?<![\w'-])(?P<a>{name})\s+and\s+(?P<b>{name})\s+(?:{symmetric})\b", False),
            (
                rf"(?<![\w'-])(?P<a>{name})\s+is\s+(?:friends|connected|linked)\s+(?:with|to)\s+(?P<b>{name})\b",
                False,
            ),
            (rf"(?<![\w'-])(?P<a>{name})\s+follows\s+(?P<b>{name})\b", True),
        ]
        for pat, hint in pats:
            for m in self.doc.finditer(re.compile(pat)):
                if self.doc.in_question(m.start()) or m.group("a").lower() in {"node", "nodes"}:
                    continue
                u, v = self._node(m.group("a"), create=True), self._node(m.group("b"), create=True)
                if u is None or v is None:
                    self._unparsed(m)
                    continue
                self._add(u, v, None, "named", hint)
                self.doc.take(m.start(), m.end())

    def tuples(self) -> None:
        """``(i,j)``, ``(i,j,w)``, ``(i->j)``, ``(i->j,w)``, ``(i, relation, j)``."""
        node = self._labels()
        for m in self.doc.finditer(_TUPLE):
            body = m.group(1).strip()
            edge = _TUPLE_EDGE.fullmatch(body)
            triple = _TUPLE_TRIPLE.fullmatch(body) if body.count(",") == 2 else None
            if triple and not _NUMBER.fullmatch(triple.group(2)) and node(triple.group(3)) is not None:
                # GraphQA's (s, p, o): an edge of type p; the type is not kept
                u, v, arrow, weight = node(triple.group(1)), node(triple.group(3)), ",", None
            elif edge:
                u, v = node(edge.group(1)), node(edge.group(3))
                arrow = edge.group(2)
                written = edge.group(4)
                weight = None if written is None else _read_number(written, _edge(edge.group(1), edge.group(3)))
            else:
                if _DIGIT.search(body) and _LINK.search(body):
                    self._unparsed(m)
                continue
            if u is None or v is None:
                if _DIGIT.search(body) or self.space.named:
                    self._unparsed(m)
                continue
            self._add(u, v, weight, "tuple", True if arrow != "," else None)
            if arrow == "<->":
                self._add(v, u, weight, "tuple", True)
            self.doc.take(m.start(), m.end())

    def brackets(self) -> None:
        """``[i, w]`` node weights (when the text says nodes have weights); ``[u, v]`` / ``[u, v, w]`` edges."""
        for m in self.doc.finditer(_BRACKET):
            values = [p.strip() for p in m.group(1).split(",")]
            if not re.search(r"\d", m.group(1)):
                continue
            if self.node_weight_context and len(values) == 2 and re.fullmatch(WEIGHT, values[1]):
                node = self._node(values[0])
                if node is None:
                    self._unparsed(m)
                    continue
                self.found.node_weights[node] = _read_number(values[1], f"node {values[0]}")
            elif len(values) in (2, 3) and all(re.fullmatch(LABEL, x) for x in values[:2]):
                u, v = self._node(values[0]), self._node(values[1])
                if u is None or v is None or (len(values) == 3 and not re.fullmatch(WEIGHT, values[2])):
                    self._unparsed(m)
                    continue
                weight = _read_number(values[2], _edge(values[0], values[1])) if len(values) == 3 else None
                self._add(u, v, weight, "bracket", None)
            else:
                self._unparsed(m)
                continue
            self.doc.take(m.start(), m.end())

    def arrows(self) -> None:
        """``0->1``, ``0 -> 1 -> 2``, ``A -> B`` (after normalisation of ``→`` and ``-->``)."""
        lab = LABEL
        chain = re.compile(rf"(?<![\w'-])({lab}(?:\s*(?:->|<->)\s*{lab})+)(?:{WEIGHT_CLAUSE})?")
        node = self._labels()
        for m in self.doc.finditer(chain):
            parts = _ARROW_SPLIT.split(m.group(1))
            labels, ops = parts[0::2], parts[1::2]
            ids = [node(x) for x in labels]
            if any(i is None for i in ids):
                self._unparsed(m)
                continue
            weight = _weight(m, _edge(labels[-2], labels[-1]))
            for k, op in enumerate(ops):
                w = weight if k == len(ops) - 1 else None
                self._add(ids[k], ids[k + 1], w, "arrow", True)  # type: ignore[arg-type]
                if op == "<->":
                    self._add(ids[k + 1], ids[k], w, "arrow", True)  # type: ignore[arg-type]
            self.doc.take(m.start(), m.end())


# fragments that look like graph data; whatever of these is still unclaimed after
# every extractor ran is reported back as "unparsed"
LEFTOVER_PATTERNS = [
    re.compile(rf"\((?=[^()]*\d){_body('()', 160)}\)"),
    re.compile(r"\[(?=[^\[\]]*\d)" + _body(r"\[\]", 160) + r"\]"),
    re.compile(r"\b\w+\s*->\s*\w+"),
    re.compile(
        r"\b(?:an?\s+)?edges?\s+(?:between|from|connecting|linking|joining)\b[^.\n;]{0,80}\d[^.\n;]{0,40}",
        re.I,
    ),
    re.compile(r"\bnode\s+\w+\s+is\s+(?:connected|adjacent|linked)\b[^.\n;]{0,80}", re.I),
]


def leftovers(doc: Doc) -> list[str]:
    """Graph-looking fragments nobody claimed (question sentences excluded)."""
    found = []
    for pat in LEFTOVER_PATTERNS:
        for m in doc.finditer(pat):
            if doc.in_question(m.start()):
                continue
            found.append(m.group(0).strip())
            doc.take(m.start(), m.end())
    return found
