"""The question's parameters: source, target, start node, query node, k.

Searched in the free text (what is left once the graph data was read), so an
edge sentence such as "an edge from node 0 to node 5" is never taken for the
question's "from node 0 to node 7". When a key matches several times the last
match wins (the question usually comes last) and a warning says so.
"""

from __future__ import annotations

import re
from typing import Any

from graphreason.tools.gar.graph_text.extract import LABEL
from graphreason.tools.gar.graph_text.nodes import NodeSpace
from graphreason.tools.gar.graph_text.problem import read_int

_NODE = r"(?:the\s+)?(?:node|vertex|page|person|user)?\s*"
_NUMBER_WORDS = {w: i for i, w in enumerate("zero one two three four five six seven eight nine ten".split())}


def _pair_patterns(t: str) -> list[re.Pattern[str]]:
    """Patterns whose groups 1 and 2 are (source, target)."""
    return [
        re.compile(rf"\bfrom\s+{_NODE}({t})\s+to\s+{_NODE}({t})", re.I),
        re.compile(rf"\bbetween\s+{_NODE}({t})\s+and\s+{_NODE}({t})", re.I),
        re.compile(
            rf"\bis\s+{_NODE}({t})\s+(?:directly\s+)?(?:connected|linked|adjacent|reachable)\s+(?:to|from|with)\s+{_NODE}({t})",
            re.I,
        ),
        re.compile(
            rf"\bare\s+(?:the\s+)?(?:nodes?\s+)?({t})\s+and\s+{_NODE}({t})\s+(?:connected|linked|adjacent|neighbou?rs)",
            re.I,
        ),
        re.compile(rf"\bcan\s+{_NODE}({t})\s+reach\s+{_NODE}({t})", re.I),
    ]


def _single_patterns(t: str) -> list[tuple[str, re.Pattern[str]]]:
    return [
        (
            "source",
            re.compile(
                rf"\bsource(?:\s+node|\s+vertex)?\s*(?:is\s+|=\s*|:\s*)?(?:node\s+)?({t})(?![\w'-])", re.I
            ),
        ),
        (
            "target",
            re.compile(
                rf"\b(?:target|sink|destination)(?:\s+node|\s+vertex)?\s*(?:is\s+|=\s*|:\s*)?(?:node\s+)?({t})(?![\w'-])",
                re.I,
            ),
        ),
        ("start", re.compile(rf"\bstart(?:ing|s)?\s+(?:from|at|with)\s+{_NODE}({t})(?![\w'-])", re.I)),
        (
            "start",
            re.compile(rf"\bstart(?:ing)?\s+(?:node|vertex)\s*(?:is\s+|=\s*|:\s*)?({t})(?![\w'-])", re.I),
        ),
        ("source", re.compile(rf"\bfrom\s+(?:node|vertex|page)\s+({t})(?![\w'-])", re.I)),
        (
            "node",
            re.compile(
                r"\b(?:degree|in-?degree|out-?degree|neighbou?rs|neighbou?rhood|successors|predecessors"
                r"|page\s*rank(?:\s+(?:score|value))?|importance|label|class|embedding)"
                rf"\s+of\s+{_NODE}({t})(?![\w'-])",
                re.I,
            ),
        ),
        (
            "node",
            re.compile(
                rf"\b(?:nodes|neighbou?rs|vertices)\s+(?:that\s+are\s+)?(?:not\s+)?(?:connected|adjacent|linked)\s+(?:to|with)\s+{_NODE}({t})(?![\w'-])",
                re.I,
            ),
        ),
        ("node", re.compile(rf"\bnode\s+({t})'s\b", re.I)),
        ("node", re.compile(rf"\bdoes\s+{_NODE}({t})\s+(?:like|belong)", re.I)),
    ]


def extract_params(free_text: str, space: NodeSpace) -> tuple[dict[str, Any], list[str]]:
    """Parameters named in ``free_text`` (ids resolved through ``space``) and warnings."""
    token = f"(?:{space.label_pattern()}|{LABEL})"
    hits: dict[str, list[int]] = {}

    def note(key: str, label: str) -> bool:
        node = space.resolve(label)
        if node is None:
            return False
        hits.setdefault(key, []).append(node)
        return True

    for pat in _pair_patterns(token):
        for m in pat.finditer(free_text):
            if space.resolve(m.group(1)) is not None and space.resolve(m.group(2)) is not None:
                note("source", m.group(1))
                note("target", m.group(2))
    paired = set(hits)
    for key, pat in _single_patterns(token):
        if key in paired:
            continue
        for m in pat.finditer(free_text):
            note(key, m.group(1))

    params: dict[str, Any] = {}
    warnings: list[str] = []
    for key, values in hits.items():
        params[key] = values[-1]
        if len(set(values)) > 1:
            shown = ", ".join(space.label(v) for v in values)
            warnings.append(f"the question names several {key} nodes ({shown}); using the last one")
    k = _top_k(free_text)
    if k is not None:
        params["k"] = k
    return params, warnings


def _top_k(text: str) -> int | None:
    words = "|".join(_NUMBER_WORDS)
    m = re.search(rf"\btop[-\s]?(\d+|{words})\b", text, re.I) or re.search(
        # "the 5 most important", "which 2 pages are the most important"
        rf"\b(\d+|{words})\s+(?:[a-z]+\s+){{0,2}}?(?:(?:are|is)\s+)?(?:the\s+)?most\s+"
        r"(?:important|central|influential|relevant|popular|visited)",
        text,
        re.I,
    )
    if not m:
        return None
    value = m.group(1).lower()
    return read_int(value, "the question's top-k") if value.isdecimal() else _NUMBER_WORDS[value]
