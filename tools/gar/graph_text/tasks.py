"""Which graph task a question asks for, from its wording (keyword rules).

Canonical names follow GraphInstruct's nine tasks (``triangle`` is its
"triplet" file: maximum weight sum of three connected nodes), plus NLGraph's
``matching`` and ``gnn``, and the node-level questions of GraphQA and the GAR
case study. :func:`canonical_task` maps the names datasets use to these.
"""

from __future__ import annotations

import re

from graphreason.tools.gar.graph_text.budget import check_reading

TASKS: dict[str, str] = {
    "cycle": "does the graph contain a cycle (yes/no)",
    "connectivity": "is there a path between two nodes (yes/no)",
    "bipartite": "is the graph bipartite (yes/no)",
    "topology": "a topological order of a directed acyclic graph (list)",
    "shortest": "weight of the shortest path between two nodes (number; path optional)",
    "triangle": "maximum weight sum of three mutually connected nodes (number)",
    "flow": "maximum flow from a source to a sink (number)",
    "hamilton": "is there a path visiting every node exactly once (yes/no)",
    "substructure": "does graph G contain the subgraph G' (yes/no)",
    "matching": "maximum bipartite matching of applicants to jobs (number)",
    "gnn": "node embeddings after sum-aggregation graph convolution layers (vectors)",
    "pagerank": "most important nodes by PageRank (ranking)",
    "degree": "degree of a node (number)",
    "neighbors": "neighbours of a node (list)",
    "edge_existence": "is there an edge between two nodes (yes/no)",
    "node_count": "number of nodes (number)",
    "edge_count": "number of edges (number)",
    "triangle_count": "number of triangles (number)",
    "components": "number of connected components (number)",
}

_ALIASES = {
    "triplet": "triangle",
    "max_triangle_sum": "triangle",
    "maximum_triangle_sum": "triangle",
    "shortest_path": "shortest",
    "hamiltonian": "hamilton",
    "hamiltonian_path": "hamilton",
    "hamilton_path": "hamilton",
    "subgraph": "substructure",
    "subgraph_matching": "substructure",
    "cycle_check": "cycle",
    "reachability": "connectivity",
    "connect": "connectivity",
    "maximum_flow": "flow",
    "max_flow": "flow",
    "topological_sort": "topology",
    "topological_sorting": "topology",
    "bipartite_matching": "matching",
    "node_degree": "degree",
    "connected_nodes": "neighbors",
    "neighbours": "neighbors",
    "neighbor": "neighbors",
    "page_rank": "pagerank",
    "triangle_counting": "triangle_count",
    "connected_components": "components",
}

_SENTENCE_END = re.compile(r"[.?]")


class _Then:
    """``first``, then ``later`` before the sentence ends (the next '.' or '?'), found in linear time.

    The regex ``first[^.?]*later`` backtracks over the rest of the sentence from every
    ``first``: a question repeating ``first`` N times in one sentence cost N squared.
    Here each sentence is read once: if any ``first`` of a
    sentence is followed by ``later``, its first ``first`` is.
    """

    def __init__(self, first: str, later: str) -> None:
        self.first, self.later = re.compile(first), re.compile(later)

    def search(self, text: str) -> bool:
        pos = 0
        while (found := self.first.search(text, pos)) is not None:
            stop = _SENTENCE_END.search(text, found.end())
            end = stop.start() if stop else len(text)
            if self.later.search(text, found.end(), end):
                return True
            if stop is None:
                return False
            pos = stop.end()
        return False


class _AnyOf:
    """A rule: a plain regex, or any of a regex and :class:`_Then` pairs (lower-case; searched in lower-cased text)."""

    def __init__(self, pattern: str, *pairs: _Then) -> None:
        self.pattern, self.pairs = re.compile(pattern), pairs

    def search(self, text: str) -> bool:
        return bool(self.pattern.search(text)) or any(pair.search(text) for pair in self.pairs)


# ordered: the first rule that matches wins, so more specific wordings come first
_RULES: list[tuple[str, _AnyOf]] = [
    (task, pattern if isinstance(pattern, _AnyOf) else _AnyOf(pattern))
    for task, pattern in [
        (
            "substructure",
            _AnyOf(r"\bsubstructure\b|\bisomorphic\b", _Then(r"\bsub-?graph\b", r"\b(?:present|contain|match|occur)")),
        ),
        (
            "hamilton",
            r"\bhamilton|\bvisits?\s+(?:every|each|all(?:\s+the)?)\s+(?:node|vertex|nodes|vertices)\s+exactly\s+once",
        ),
        (
            "triangle_count",
            r"\bhow\s+many\s+triangles|\bnumber\s+of\s+triangles|\bcount\s+(?:the\s+)?triangles",
        ),
        (
            "triangle",
            _AnyOf(
                r"\bthree\s+interconnected|\bweights?\s+of\s+(?:the\s+)?three\s+nodes|\btriplet",
                _Then(r"\btriangle\b", r"\b(?:weight|sum)"),
                _Then(r"\b(?:weight|sum)\b", r"\btriangle"),
            ),
        ),
        (
            "flow",
            r"\bmax(?:imum)?[\s-]*flow|\bcapacity\s+of\s+the\s+flow|\bflow\s+from\s+(?:node|vertex|the\s+source)",
        ),
        ("matching", r"\bapplicants?\b|\b(?:maximum|bipartite)\s+matching|\bassignment\s+of\s+jobs"),
        ("gnn", r"\bgraph\s+convolution|\bembeddings?\s+of\s+each\s+node|\bmessage[\s-]passing\s+layer"),
        (
            "pagerank",
            r"\bpage\s*rank|\bmost\s+important\b|\bimportance\s+of\s+(?:the\s+)?(?:pages|nodes)|\brank\s+the\s+(?:web\s+)?(?:pages|nodes)",
        ),
        ("topology", r"\btopolog|\bshould\s+be\s+visited\s+before|\bcan\s+all\s+the\s+nodes\s+be\s+visited"),
        ("bipartite", r"\bbipartite|\b2-colou?rable|\btwo\s+colou?rs\b"),
        (
            "shortest",
            r"\bshortest\s+(?:path|distance|route)|\bminimum\s+(?:distance|cost|weight)\b|\blength\s+of\s+the\s+shortest"
            r"|\bdistance\s+(?:between|from)\s+(?:node|vertex)",
        ),
        ("components", r"\bconnected\s+components|\bhow\s+many\s+components|\bnumber\s+of\s+components"),
        ("cycle", r"\bcycles?\b|\bcyclic\b"),
        (
            "degree",
            r"\b(?:in-?|out-?)?degree\s+of\b|\bhow\s+many\s+(?:neighbou?rs|edges)\s+does\s+(?:node|vertex)",
        ),
        (
            "neighbors",
            r"\bneighbou?rs\s+of\b|\bnodes\s+(?:that\s+are\s+)?(?:directly\s+)?(?:connected|adjacent)\s+to\b"
            r"|\bnot\s+connected\s+to\b|\b(?:successors|predecessors)\s+of\b",
        ),
        (
            "connectivity",
            r"\bis\s+there\s+a\s+path\b|\bpath\s+(?:between|from)\b|\breachab|\bcan\s+(?:node\s+)?\w+\s+reach\b"
            r"|\bare\s+(?:nodes?\s+)?\w+\s+and\s+(?:node\s+)?\w+\s+connected\b|\btwo\s+nodes\s+are\s+connected",
        ),
        (
            "edge_existence",
            r"\bis\s+there\s+an\s+edge\b|\bis\s+(?:node\s+)?\w+\s+(?:directly\s+)?connected\s+to\s+(?:node\s+)?\w+",
        ),
        # "how many nodes are in the graph", not "how many nodes have two links" (a count with a condition)
        ("node_count", r"\b(?:how\s+many|number\s+of)\s+(?:nodes|vertices)\b(?!\s+(?:have|has|with|that|which|whose|of\s+degree))"),
        ("edge_count", r"\b(?:how\s+many|number\s+of)\s+edges\b(?!\s+(?:have|has|with|that|which|whose))"),
    ]
]


def canonical_task(name: str) -> str | None:
    """The canonical task for a dataset's task name (``triplet`` -> ``triangle``), or None."""
    key = re.sub(r"[\s-]+", "_", str(name).strip().lower())
    if key in TASKS:
        return key
    return _ALIASES.get(key)


def _question_parts(text: str) -> list[str]:
    """Where to look, most specific first: the last real sentence, the text after the last 'Q:', everything."""
    sentences = [s.strip() for s in re.findall(r"[^.?!\n]+[.?!]?", text) if len(s.split()) >= 3]
    parts = [sentences[-1]] if sentences else []
    if "Q:" in text:
        parts.append(text.rsplit("Q:", 1)[1].strip())
    parts.append(text.strip())
    return parts


def detect_task(text: str) -> str | None:
    """The task a graph question asks for (a key of :data:`TASKS`), or None when no rule fits."""
    if not isinstance(text, str) or not text.strip():
        return None
    for part in dict.fromkeys(_question_parts(text)):  # a one-sentence text is its own last sentence
        folded = part.lower()  # once per part, not a case-blind search per rule
        for task, pattern in _RULES:
            check_reading()
            if pattern.search(folded):
                return task
    return None
