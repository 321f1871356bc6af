"""Graph-problem text -> :class:`ParsedProblem`, deterministically.

Understands the encodings of the graph-reasoning literature:

* GraphInstruct (GraphWiz): ``The nodes are numbered from 0 to N, and the edges
  are: (0, 1) (1->2) (0,2,5) (0->3,7)``; node weights ``[i, w]``; a second graph
  ``G'`` with letter nodes for substructure questions;
* NLGraph: ``an edge between node 0 and node 1 with weight 2``, ``an edge from
  node 0 to node 1 with capacity 3``, ``node 0 should be visited before node 1``,
  ``Applicant 0 is interested in job 1``, ``node 0: [1, 1]`` embeddings;
* adjacency phrasing: ``node 3 is connected to nodes 1, 4, 7``, ``3: 1, 4, 7``;
* arrows ``0->1``, ``0 -> 1 -> 2``, ``0→1``;
* GraphQA named entities: ``G describes a friendship graph among James, Robert,
  and John. ... James and Robert are friends.``

Notation sentences (``(i,j) means that ...``) are recognised and skipped.
Whatever looks like graph data but could not be read is returned in
``unparsed`` (with a warning); contradictions raise :class:`GraphTextError`.

The text is untrusted: it raises nothing but :class:`GraphTextError`, every
stated node count or largest id is held to the node limit
(:func:`graphreason.settings.max_nodes`) before anything of that size exists, and
weights must be finite (``nan``, ``inf`` and ``1e999`` are errors naming their edge, in
every syntax) and add up to at most
:data:`~graphreason.tools.gar.graph_text.problem.MAX_WEIGHT_SUM` in absolute value, so
no path length or flow can overflow.
"""

from __future__ import annotations

import math
import re

import numpy as np

from graphreason.tools.gar.graph_text.budget import check_reading
from graphreason.tools.gar.graph_text.extract import Extractor, Mention, leftovers
from graphreason.tools.gar.graph_text.nodes import NodeSpace
from graphreason.tools.gar.graph_text.params import extract_params
from graphreason.tools.gar.graph_text.problem import (
    GraphTextError,
    GraphTextUnreadable,
    ParsedProblem,
    check_edges,
    check_node_count,
    check_weight_sum,
    preview,
    read_int,
)
from graphreason.tools.gar.graph_text.scan import Doc, normalise

ENCODINGS_HELP = (
    "understood encodings: (i,j) / (i,j,w) / (i->j) / (i->j,w) tuples, 'an edge between node i and node j "
    "with weight w', 'an edge from node i to node j', 'node i is connected to nodes j, k', arrows 'i -> j', "
    "'X and Y are friends' with a node list"
)

_NOTATION = re.compile(r"(?:^|(?<=[.?!\n]))[^.?!\n]*\bmeans?\b[^.?!\n]*[.?!]?", re.I)
_PATTERN_START = re.compile(
    r"(?:\bThe\s+)?\bnodes\s+of\s+(?:the\s+)?subgraph\b|\bsubgraph\s+G'\s+(?:has|with)\s+\d+\s+nodes", re.I
)
_NUMBERED = re.compile(
    r"\b(?:numbered|labell?ed|indexed|named|ids?)\s+(?:from\s+)?(\w+)\s*(?:to|through|-|\.\.)\s*(\w+)"
    r"|\bnodes\s+(?:from\s+)?(\d+)\s*(?:to|through|-|\.\.)\s*(\d+)",
    re.I,
)
_AMONG = re.compile(
    r"\bamong\s+(?:the\s+)?(?:nodes|vertices|people|authors|pages)?\s*(?P<list>[^.\n]+?)\s*(?:\.(?=\s|$)|\n|$)",
    re.I,
)
_COUNT = re.compile(
    r"\b(?:has|have|with|of|contains?|containing|are|is)\s+(\d+)\s+(?:nodes|vertices)\b", re.I
)
_MATCHING = re.compile(
    r"\b(\d+)\s+(?:job\s+)?applicants?\s+numbered\s+from\s+(\d+)\s+to\s+(\d+),?\s+and\s+(\d+)\s+jobs?\s+numbered\s+from\s+(\d+)\s+to\s+(\d+)",
    re.I,
)
_NO_EDGES = re.compile(
    r"\bedges\s+(?:are|is)\s*:?\s*(?:\.|none\b|nothing\b|$)|\bno\s+edges\b|\b(?:has|are|with)\s+0\s+edges\b",
    re.I,
)
# a run of whitespace this long is squeezed to one character before anything else reads the text:
# patterns that start with \s* (the arrow normaliser among them) cost the square of a run's length
_LONG_SPACE = re.compile(r"\s{33,}")
_NODE_WEIGHT_CONTEXT = re.compile(
    r"\bweights?\s+of\s+(?:the\s+)?nodes\b|\bnode\s+weights?\b|\bmeans\s+that\s+node\s+\w+\s+has\s+(?:the\s+)?weight",
    re.I,
)


def parse_graph_problem(text: str) -> ParsedProblem:
    """Parse a graph problem written in text into a :class:`ParsedProblem`.

    Raises :class:`GraphTextError` when the text is empty, has no readable
    edges (and does not say the graph has none), names node ids outside the
    stated range, repeats an edge with a different weight, or states two
    different node counts.
    """
    if not isinstance(text, str):
        raise GraphTextError(
            f"parse_graph_problem expects the problem text, got {type(text).__name__}; "
            "use load_structured_graph for graph objects and files"
        )
    if not text.strip():
        raise GraphTextError("the graph text is empty")
    norm, warnings = _last_problem(normalise(_squeeze_spaces(text)))
    words = _direction_words(norm)
    capacity = bool(re.search(r"capacit|max(?:imum)?[\s-]*flow", norm, re.I))
    split = _PATTERN_START.search(norm)
    main_text, pattern_text = (norm[: split.start()], norm[split.start() :]) if split else (norm, "")
    problem = _parse_section(main_text, words, capacity, "graph")
    problem.warnings[:0] = warnings
    if pattern_text:
        pattern = _parse_section(pattern_text, words, capacity, "subgraph")
        problem.params["pattern"] = pattern
        problem.warnings += [f"subgraph: {w}" for w in pattern.warnings]
        problem.unparsed += pattern.unparsed
    return problem


def _squeeze_spaces(text: str) -> str:
    """Long whitespace runs -> one newline (when the run held one: it ends a sentence) or one space."""
    return _LONG_SPACE.sub(lambda m: "\n" if "\n" in m.group(0) else " ", text)


def _last_problem(text: str) -> tuple[str, list[str]]:
    """Few-shot prompts hold several ``Q: ... A: ...`` problems: keep the preamble and the last question.

    A worked answer after the last question's ``A:`` is dropped too: its reasoning
    quotes edges and paths that are not part of the graph.
    """
    blocks = re.split(r"(?=\bQ:)", text)
    if len(blocks) < 2:
        return text, []
    last = re.split(r"\n\s*A:", blocks[-1], maxsplit=1)[0]
    if len(blocks) == 2:
        return blocks[0] + last, []
    note = f"the text holds {len(blocks) - 1} 'Q:' problems (few-shot examples?); only the last one was read"
    return blocks[0] + last, [note]


def _direction_words(text: str) -> tuple[int, int]:
    """How often the text says 'directed' and 'undirected'."""
    return len(re.findall(r"\bdirected\b", text, re.I)), len(re.findall(r"\bundirected\b", text, re.I))


def _parse_section(text: str, words: tuple[int, int], capacity: bool, what: str) -> ParsedProblem:
    doc = Doc(text)
    for m in doc.finditer(_NOTATION):
        if not re.search(r"\d", m.group(0)):
            doc.take(m.start(), m.end())
    space = NodeSpace()
    params: dict = {}
    stated = _declare_nodes(doc, space, params)
    check_reading()
    found = Extractor(doc, space, bool(_NODE_WEIGHT_CONTEXT.search(text))).run()
    if space.unknown:
        raise GraphTextError(
            f"the {what} text uses names that are not in its node list: {preview(sorted(set(space.unknown)))}"
        )
    check_reading()
    unparsed = found.unparsed + leftovers(doc)
    check_reading()
    warnings: list[str] = []
    if unparsed:
        warnings.append(
            f"{len(unparsed)} fragments look like graph data but could not be read: {preview(unparsed, 4)}"
        )
    directed = _decide_direction(found.mentions, words, warnings)

    if space.names is not None:
        n_nodes = len(space.names)
        if space.dynamic:
            warnings.append(f"no node list given; {n_nodes} names numbered in order of first appearance")
    elif stated is not None:
        n_nodes = stated
    else:
        ids = [x for m in found.mentions for x in (m.u, m.v)] + list(found.node_weights)
        if not ids:
            raise _nothing_understood(text, unparsed, what)
        top = max(ids)
        n_nodes = check_node_count(top + 1, f"the {what} text (largest node id {top})")
        warnings.append(f"the node count is not stated; taken as the largest id + 1 = {n_nodes}")

    if not found.mentions and not (_NO_EDGES.search(text) and n_nodes):
        raise _nothing_understood(text, unparsed, what)
    if not found.mentions:
        warnings.append(f"the {what} has no edges")

    src = np.array([m.u for m in found.mentions], dtype=np.int64)
    dst = np.array([m.v for m in found.mentions], dtype=np.int64)
    has_w = any(m.weight is not None for m in found.mentions)
    weight = np.array([np.nan if m.weight is None else m.weight for m in found.mentions]) if has_w else None
    adjacency_only = bool(found.mentions) and all(m.kind == "adjacency" for m in found.mentions)
    src, dst, weight, edge_warnings = check_edges(
        src, dst, weight, n_nodes, directed, space.range_hint, adjacency_only, space.offset
    )
    warnings += edge_warnings
    _check_node_ids(list(found.node_weights) + list(found.node_features), n_nodes, space, "node weights")
    _check_node_values(found.node_weights, found.node_features, space)
    check_weight_sum(src, dst, weight, found.node_weights, space.label)

    check_reading()
    q_params, q_warnings = extract_params(doc.free_text(), space)
    _check_node_ids([v for k, v in q_params.items() if k != "k"], n_nodes, space, "the question")
    params.update(q_params)
    warnings += q_warnings
    if weight is not None:
        params["weight_kind"] = "capacity" if capacity else "weight"
    if found.node_features:
        params["node_features"] = dict(sorted(found.node_features.items()))

    weights_list = [None] * src.size if weight is None else weight.tolist()
    edges = list(zip(src.tolist(), dst.tolist(), weights_list, strict=True))
    return ParsedProblem(
        n_nodes=n_nodes,
        directed=directed,
        weighted=weight is not None,
        edges=edges,
        node_weights=dict(sorted(found.node_weights.items())),
        node_names=space.node_names(),
        params=params,
        stated_n_nodes=stated,
        warnings=warnings,
        unparsed=unparsed,
    )


def _declare_nodes(doc: Doc, space: NodeSpace, params: dict) -> int | None:
    """Read what the text states about its nodes; returns the stated count (None if not stated)."""
    counts: list[tuple[int, str]] = []
    m = next(doc.finditer(_MATCHING), None)
    if m:
        a, a0, a1, j, j0, j1 = (read_int(x, "the applicant/job numbering") for x in m.groups())
        if a1 - a0 + 1 != a or j1 - j0 + 1 != j:
            raise GraphTextError(f"the applicant/job counts disagree with their numbering: {m.group(0)!r}")
        check_node_count(a + j, f"the text ({a} applicants and {j} jobs)")
        space.declare_matching((a0, a), (j0, j))
        params.update(n_applicants=a, n_jobs=j)
        doc.take(m.start(), m.end())
        return a + j
    ranges = list(doc.finditer(_NUMBERED))
    for m in ranges:
        first, last = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        if not space.declare_range(first, last):
            if first.isdecimal() or len(first) == 1:
                raise GraphTextError(f"could not understand the node numbering {m.group(0)!r}")
            continue
        counts.append((space.stated_n or 0, m.group(0)))
        doc.take(m.start(), m.end())
    for m in doc.finditer(_AMONG):
        labels = [x.strip() for x in re.split(r"\s*,\s*(?:and\s+)?|\s+and\s+", m.group("list")) if x.strip()]
        if len(labels) >= 2 and all(re.fullmatch(r"[\w'-]+(?: [\w'-]+)?", x) for x in labels):
            space.declare_list(labels)
            counts.append((len(labels), m.group(0).strip()))
            doc.take(m.start(), m.end())
            break
    for m in doc.finditer(_COUNT):
        count = read_int(m.group(1), "the node count")
        counts.append((check_node_count(count, f"the text ({m.group(0)!r})"), m.group(0)))
        doc.take(m.start(), m.end())
    distinct = {c for c, _ in counts}
    if len(distinct) > 1:
        raise GraphTextError(
            "the text states different node counts: " + "; ".join(f"{c} ({s!r})" for c, s in counts)
        )
    if counts and space.stated_n is None:
        space.stated_n = counts[0][0]
        space.range_hint = f"the text says there are {counts[0][0]} nodes, so ids run 0..{counts[0][0] - 1}"
    return space.stated_n


def _decide_direction(mentions: list[Mention], words: tuple[int, int], warnings: list[str]) -> bool:
    """Directed or not, from the words 'directed'/'undirected' and how the edges were written."""
    n_directed, n_undirected = words
    arrows = any(m.directed_hint is True for m in mentions)
    symmetric = any(m.directed_hint is False for m in mentions)
    if n_directed and not n_undirected:
        return True
    if n_undirected and not n_directed:
        if arrows:
            warnings.append("arrows read as undirected edges because the text says the graph is undirected")
        return False
    if n_directed and n_undirected:
        warnings.append(
            f"the text says both 'directed' and 'undirected'; read as {'directed' if arrows else 'undirected'} "
            "from how the edges are written"
        )
        return arrows
    if arrows and symmetric:
        warnings.append("the text mixes directed and symmetric edge wording; read as directed")
    if not arrows and not symmetric and mentions:
        warnings.append("the text does not say whether the graph is directed; read as undirected")
    return arrows


def _check_node_ids(ids: list[int], n_nodes: int, space: NodeSpace, where: str) -> None:
    bad = sorted({i + space.offset for i in ids if not 0 <= i < n_nodes})
    if bad:
        hint = space.range_hint or f"ids run 0..{n_nodes - 1}"
        raise GraphTextError(f"{where} names node ids out of range: {preview(bad)} ({hint})")


def _check_node_values(weights: dict[int, float], features: dict[int, list[float]], space: NodeSpace) -> None:
    """Node weights and features must be finite (``1e999`` in a text overflows to inf)."""
    for node, value in weights.items():
        if not math.isfinite(value):
            raise GraphTextError(
                f"node {space.label(node)} has weight {value}; weights must be finite numbers"
            )
    for node, values in features.items():
        if not all(math.isfinite(x) for x in values):
            raise GraphTextError(
                f"node {space.label(node)} has a non-finite feature value: {preview(values)}"
            )


def _nothing_understood(text: str, unparsed: list[str], what: str) -> GraphTextUnreadable:
    snippet = " ".join(text.split())[:160]
    detail = f" Unreadable fragments: {preview(unparsed, 5)}." if unparsed else ""
    return GraphTextUnreadable(
        f"no edges could be read from the {what} text {snippet!r}.{detail} {ENCODINGS_HELP}"
    )
