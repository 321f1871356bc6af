"""The parsed form of a graph problem, and the consistency checks on its edges.

A :class:`ParsedProblem` is what every graph encoding (text or structured)
turns into: dense integer node ids ``0..n_nodes-1``, an edge list, optional
node weights and names, and the question's parameters. Internal ids are always
dense; when the text used other labels (names, letters, 1-based numbers) they
are kept in ``node_names`` and :meth:`ParsedProblem.label` gives them back.
"""

from __future__ import annotations

import math
import numbers
import re
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import islice
from typing import Any

import numpy as np

from graphreason.settings import MAX_NODES_ENV, max_nodes
from graphreason.tools.core.errors import GraphError
from graphreason.tools.core.node_ids import find_id
from graphreason.tools.core.policy import context_is_untrusted, server_limit

Weighted = tuple[int, int, float | None]


class GraphTextError(GraphError, ValueError):
    """The graph text (or structured graph) is empty, unreadable, contradictory or over the node limit."""


class GraphTextUnreadable(GraphTextError):
    """No edges could be read at all: the wording is outside the parser's encodings (not a contradiction).

    Only this kind of failure is worth a second reader (an LLM); contradictions
    in a text that was read stay errors.
    """


def preview(items: Sequence[Any], limit: int = 8) -> str:
    shown = ", ".join(str(x) for x in items[:limit])
    return shown + (f", ... ({len(items)} in all)" if len(items) > limit else "")


# ---------------------------------------------------------------------- reading untrusted values
# Every number that comes from a text, a JSON dict or a model's reply goes through one of
# these, so a bad value is a GraphTextError naming it, never an OverflowError/ValueError/
# TypeError from deep inside, and no count can reach an allocation unchecked.

_MAX_DIGITS = 18  # int64 holds every 18-digit number; far more than any node limit


def shown(value: Any, limit: int = 60) -> str:
    """``repr(value)`` cut to ``limit`` characters (an error message must not echo a megabyte)."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


# The most nodes a server client's graph may have (the owner may change it: GRAPHREASON_SERVER_LIMITS=max_nodes=N).
# A short question "numbered from 0 to 4999999" would otherwise build five-million-node arrays and a
# huge answer, while a 2,000,000-character question (the longest a client may send) holds about 150,000 edges.
SERVER_MAX_NODES = 200_000


def node_limit() -> tuple[int, str]:
    """The node limit in force and how to raise it: ``GRAPHREASON_MAX_NODES``, and for a server client also
    the server maximum (``max_nodes`` in ``GRAPHREASON_SERVER_LIMITS``), whichever is lower."""
    limit, hint = max_nodes(), f"set {MAX_NODES_ENV} to raise it"
    if context_is_untrusted():
        most = server_limit("max_nodes", SERVER_MAX_NODES)
        if most is not None and most < limit:
            limit = int(most)
            hint = "the most a server client may ask for; its owner may change it with GRAPHREASON_SERVER_LIMITS=max_nodes=N"
    return limit, hint


def check_node_count(n: int, source: str) -> int:
    """``n`` unchanged, or a :class:`GraphTextError` when it is over the node limit (:func:`node_limit`).

    Called *before* anything of size ``n`` is allocated: a few bytes of input
    ("numbered from 0 to 9999999999") must not be able to ask for gigabytes.
    """
    limit, hint = node_limit()
    if n > limit:
        raise GraphTextError(f"{source} says {n} nodes; the limit is {limit} ({hint})")
    return n


def read_int(digits: str, what: str) -> int:
    """The non-negative number written as ``digits`` (decimal digits of any script).

    ``str.isdigit`` also accepts superscripts such as ``"²"``, which ``int``
    rejects, and ``int`` refuses numbers past 4,300 digits; both become a
    :class:`GraphTextError` naming ``what``, as does a number too long for int64.
    """
    if not digits.isdecimal():
        raise GraphTextError(f"{what}: {shown(digits)} is not a whole number")
    if len(digits.lstrip("0")) > _MAX_DIGITS:
        raise GraphTextError(f"{what}: {shown(digits, 30)} is too large (more than {_MAX_DIGITS} digits)")
    return int(digits)


def read_count(value: Any, what: str) -> int:
    """A node count or id from structured input, or a :class:`GraphTextError` naming ``what``.

    A non-negative integer; an integral float (``4.0``) or a decimal string (``"4"``) is accepted.
    """
    if isinstance(value, str):
        return read_int(value.strip(), what)
    if isinstance(value, numbers.Integral) and not isinstance(value, bool | np.bool_):
        number = int(value)
    elif isinstance(value, float | np.floating) and math.isfinite(value) and float(value).is_integer():
        number = int(value)
    else:
        raise GraphTextError(f"{what} must be a non-negative integer, got {shown(value)}")
    if number < 0:
        raise GraphTextError(f"{what} must be a non-negative integer, got {number}")
    if number >= 10**_MAX_DIGITS:
        raise GraphTextError(f"{what}: {shown(number, 30)} is too large")
    return number


def read_weight(value: Any, what: str) -> float:
    """A finite float from a weight given as a number or a numeric string, or a :class:`GraphTextError`.

    Infinite and NaN weights are refused: an infinite weight silently turns a
    shortest path or a flow into nonsense, and NaN is the internal "no weight".
    """
    if isinstance(value, bool | np.bool_) or not isinstance(value, str | numbers.Real):
        raise GraphTextError(f"{what} must be a number, got {shown(value)}")
    try:
        number = float(value.strip() if isinstance(value, str) else value)
    except ValueError:
        raise GraphTextError(f"{what} must be a number, got {shown(value)}") from None
    except OverflowError:  # an int past float's range
        raise GraphTextError(f"{what} is {shown(value, 30)}, too large to be a weight") from None
    if not math.isfinite(number):
        raise GraphTextError(f"{what} is {shown(value)}; weights must be finite numbers")
    return number


_TRUE_WORDS = {"true", "yes", "1", "directed"}
_FALSE_WORDS = {"false", "no", "0", "undirected"}


def read_directed(value: Any, what: str) -> bool:
    """Whether a graph is directed, from a bool, 0/1 or a word (true/false, yes/no, directed/undirected).

    ``bool("false")`` is True; reading the word is the whole point.
    """
    if isinstance(value, bool | np.bool_):
        return bool(value)
    if isinstance(value, numbers.Integral) and int(value) in (0, 1):
        return bool(value)
    if isinstance(value, str):
        word = value.strip().lower()
        if word in _TRUE_WORDS or word in _FALSE_WORDS:
            return word in _TRUE_WORDS
    raise GraphTextError(
        f"{what}: 'directed' must be true or false (or yes/no, 1/0, directed/undirected), got {shown(value)}"
    )


class RangeNames(Mapping[int, str]):
    """Names that are numbers in ranges, made on demand: ``"1"`` .. ``"1000000"``, or ``"applicant 0"`` .. ``"job 9"``.

    ``segments`` are ``(prefix, first number, count)``; ids run through them in
    order. A text saying "numbered from 1 to 1000000" (or "5000 applicants")
    would otherwise cost a million name strings, and a regex alternating all of
    them, before a single edge is read.
    """

    def __init__(self, segments: Sequence[tuple[str, int, int]]) -> None:
        self.segments = [(prefix, first, count) for prefix, first, count in segments if count > 0]
        self.n = sum(count for _, _, count in self.segments)

    def __getitem__(self, node: Any) -> str:
        if isinstance(node, numbers.Integral) and not isinstance(node, bool) and 0 <= node < self.n:
            rest = int(node)
            for prefix, first, count in self.segments:
                if rest < count:
                    return f"{prefix}{first + rest}"
                rest -= count
        raise KeyError(node)

    def __len__(self) -> int:
        return self.n

    def __iter__(self) -> Iterator[int]:
        return iter(range(self.n))

    def id_of(self, name: str) -> int | None:
        """The id of the node called ``name`` (case-insensitive prefix, the number as written), or None."""
        text = name.strip().casefold()
        base = 0
        for prefix, first, count in self.segments:
            digits = text[len(prefix) :]
            if text.startswith(prefix) and _CANONICAL.fullmatch(digits) and 0 <= int(digits) - first < count:
                return base + int(digits) - first
            base += count
        return None

    def pattern(self) -> str:
        """Regex for one name of these ranges (numbers are always accepted: the caller resolves them)."""
        prefixed = sorted(
            {re.escape(prefix) for prefix, _, _ in self.segments if prefix}, key=len, reverse=True
        )
        if not prefixed:
            return r"\d+"
        return rf"(?:(?:{'|'.join(prefixed)})\d+(?![\w'-])|\d+)"

    def __repr__(self) -> str:
        shown_segments = ", ".join(f"{p}{f}..{p}{f + c - 1}" for p, f, c in self.segments)
        return f"RangeNames({shown_segments})"


_CANONICAL = re.compile(r"0|[1-9][0-9]{0,17}")  # a number as written, without leading zeros


class EdgeArray(Sequence[Weighted]):
    """A read-only edge list backed by numpy arrays.

    Structured graphs can have millions of edges; a Python list of tuples would
    cost ~150 bytes per edge, so they keep arrays and expose the same sequence
    interface (iteration, ``len``, indexing, equality with a list of tuples).
    """

    def __init__(self, src: np.ndarray, dst: np.ndarray, weight: np.ndarray | None) -> None:
        self.src = np.asarray(src, dtype=np.int64)
        self.dst = np.asarray(dst, dtype=np.int64)
        self.weight = None if weight is None else np.asarray(weight, dtype=np.float64)

    def __len__(self) -> int:
        return int(self.src.shape[0])

    def __getitem__(self, index):  # type: ignore[override]
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        w = None if self.weight is None else float(self.weight[index])
        return (int(self.src[index]), int(self.dst[index]), w)

    def __iter__(self) -> Iterator[Weighted]:
        weights = [None] * len(self) if self.weight is None else self.weight.tolist()
        return iter(zip(self.src.tolist(), self.dst.tolist(), weights, strict=True))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or len(other) != len(self):
            return False
        return all(tuple(a) == tuple(b) for a, b in zip(self, other, strict=True))

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"EdgeArray({len(self)} edges, weighted={self.weight is not None})"


def edge_arrays(edges: Sequence[Weighted]) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """``(src, dst, weight or None)`` arrays of an edge list or :class:`EdgeArray`."""
    if isinstance(edges, EdgeArray):
        return edges.src, edges.dst, edges.weight
    m = len(edges)
    src = np.fromiter((e[0] for e in edges), dtype=np.int64, count=m)
    dst = np.fromiter((e[1] for e in edges), dtype=np.int64, count=m)
    if m and all(e[2] is not None for e in edges):
        return src, dst, np.fromiter((e[2] for e in edges), dtype=np.float64, count=m)
    return src, dst, None


@dataclass
class ParsedProblem:
    """A graph problem in a form algorithms can run on.

    ``edges`` holds ``(u, v, weight)`` with ``weight=None`` on unweighted graphs;
    an undirected edge is listed once. Text problems give a list; large
    structured graphs give an :class:`EdgeArray` (same interface, numpy-backed).
    ``params`` holds the question's parameters (``source``, ``target``,
    ``start``, ``node``, ``k``), already mapped to internal ids, plus
    ``weight_kind`` (``"capacity"`` or ``"weight"``) on weighted graphs and, for
    subgraph questions, ``pattern`` (the smaller graph, itself a ParsedProblem).
    """

    n_nodes: int
    directed: bool
    weighted: bool
    edges: Sequence[Weighted]
    node_weights: dict[int, float] = field(default_factory=dict)
    node_names: Mapping[int, str] | None = None
    params: dict[str, Any] = field(default_factory=dict)
    stated_n_nodes: int | None = None
    warnings: list[str] = field(default_factory=list)
    unparsed: list[str] = field(default_factory=list)

    # ------------------------------------------------------------------ ids and names
    def label(self, node: int) -> str:
        """The node's name in the source text (its id as text when it had no name)."""
        if self.node_names and node in self.node_names:
            return self.node_names[node]
        return str(node)

    def node_id(self, label: Any) -> int:
        """Internal id of a node given by its label (name or number) in the source text.

        A label a model wrote is read leniently (``"node 3"``, ``" '3' "``, ``3.0``;
        see :func:`graphreason.tools.core.node_ids.id_readings`); the label as written is tried first.
        """
        found = find_id(label, self._id_of_label)
        if found is not None:
            return found
        text = str(label).strip()
        if self.node_names:
            first = list(islice(self.node_names.values(), 8))  # not every name of a big graph
            more = f", ... ({len(self.node_names)} in all)" if len(self.node_names) > len(first) else ""
            raise GraphTextError(f"no node is called {shown(text)}; names: {', '.join(first)}{more}")
        raise GraphTextError(f"node {shown(text)} is not in the graph (ids are 0..{self.n_nodes - 1})")

    def _id_of_label(self, text: str) -> int | None:
        """The internal id of the node whose label is exactly ``text``, or None."""
        if self.node_names:
            if isinstance(self.node_names, RangeNames):
                return self.node_names.id_of(text)
            return next((nid for nid, name in self.node_names.items() if name == text), None)
        if text.isdecimal() and len(text) <= _MAX_DIGITS and int(text) < self.n_nodes:
            return int(text)
        return None

    def require_params(self, *keys: str) -> tuple[Any, ...]:
        """The named parameters, or a :class:`GraphTextError` saying which the question did not give."""
        missing = [k for k in keys if self.params.get(k) is None]
        if missing:
            given = ", ".join(f"{k}={v}" for k, v in self.params.items() if k != "pattern") or "none"
            raise GraphTextError(
                f"the question does not name the {' and '.join(missing)} node"
                f"{'s' if len(missing) > 1 else ''} (parameters found: {given})"
            )
        return tuple(self.params[k] for k in keys)

    # ------------------------------------------------------------------ export
    def edge_arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
        """``(src, dst, weight or None)`` numpy arrays, one entry per listed edge."""
        return edge_arrays(self.edges)

    def to_csr(self):  # -> scipy.sparse.csr_matrix (import kept local: scipy.sparse is slow to import)
        """Adjacency matrix (``n_nodes`` x ``n_nodes``) with edge weights (1.0 when unweighted).

        Undirected edges appear in both directions. Zero weights are kept as
        explicit entries so a zero-weight edge still counts as an edge.
        """
        from scipy.sparse import coo_matrix

        src, dst, w = self.edge_arrays()
        data = np.ones(src.shape[0]) if w is None else w
        if not self.directed:
            loops = src == dst
            src, dst, data = (
                np.concatenate([src, dst[~loops]]),
                np.concatenate([dst, src[~loops]]),
                np.concatenate([data, data[~loops]]),
            )
        n = self.n_nodes
        return coo_matrix((data, (src, dst)), shape=(n, n)).tocsr()

    def to_networkx(self):  # -> nx.Graph | nx.DiGraph
        """The graph as networkx (weights as ``weight``), for checks and small brute force.

        See :func:`graphreason.tools.gar.conversions.problem_to_networkx`.
        """
        from graphreason.tools.gar.conversions import problem_to_networkx

        return problem_to_networkx(self)

    def describe(self) -> str:
        """One line for logs and prompts: kind, size, weights and parameters."""
        kind = ("directed" if self.directed else "undirected") + (" weighted" if self.weighted else "")
        text = f"{kind} graph with {self.n_nodes} nodes and {len(self.edges)} edges"
        if self.node_weights:
            text += f", {len(self.node_weights)} node weights"
        shown = {k: v for k, v in self.params.items() if k != "pattern"}
        if shown:
            text += "; " + ", ".join(f"{k}={v}" for k, v in shown.items())
        if "pattern" in self.params:
            text += f"; pattern: {self.params['pattern'].describe()}"
        return text

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (edges as lists; a nested pattern as its own dict)."""
        params = {k: (v.to_dict() if isinstance(v, ParsedProblem) else v) for k, v in self.params.items()}
        return {
            "n_nodes": self.n_nodes,
            "directed": self.directed,
            "weighted": self.weighted,
            "edges": [list(e) for e in self.edges],
            "node_weights": {str(k): v for k, v in self.node_weights.items()},
            "node_names": {str(k): v for k, v in self.node_names.items()} if self.node_names else None,
            "params": params,
            "stated_n_nodes": self.stated_n_nodes,
            "warnings": list(self.warnings),
            "unparsed": list(self.unparsed),
        }


# ---------------------------------------------------------------------- checks
def check_edges(
    src: np.ndarray,
    dst: np.ndarray,
    weight: np.ndarray | None,
    n_nodes: int,
    directed: bool,
    range_hint: str = "",
    quiet_reverse_duplicates: bool = False,
    label_offset: int = 0,
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None, list[str]]:
    """Validate an edge list and merge repeated mentions of the same edge.

    Raises :class:`GraphTextError` for ids outside ``0..n_nodes-1`` (naming
    them) and for an edge given twice with different weights (naming it).
    Returns the deduplicated arrays (first mention order) and warnings about
    repeated edges, self-loops and negative weights. ``weight`` may hold NaN
    for "no weight"; a mix of weighted and unweighted edges is an error.
    ``quiet_reverse_duplicates``: an undirected adjacency list names every edge
    from both ends, so those repeats are expected and not reported.
    ``label_offset`` is added to ids in messages (texts numbering nodes from 1).
    """
    warnings: list[str] = []
    bad = np.unique(np.concatenate([src[(src < 0) | (src >= n_nodes)], dst[(dst < 0) | (dst >= n_nodes)]]))
    if bad.size:
        hint = range_hint or f"the graph has nodes 0..{n_nodes - 1}"
        raise GraphTextError(f"node ids out of range: {preview((bad + label_offset).tolist())} ({hint})")
    if weight is not None:
        _check_finite(src, dst, weight, label_offset)
        missing = np.isnan(weight)
        if missing.any() and not missing.all():
            where = [(int(a), int(b)) for a, b in zip(src[missing], dst[missing], strict=True)]
            raise GraphTextError(
                f"{int(missing.sum())} of {missing.size} edges have no weight while the others do; "
                f"unweighted: {preview(where)}"
            )
        if missing.all():
            weight = None
    if src.size == 0:
        return src, dst, weight, warnings
    lo, hi = (src, dst) if directed else (np.minimum(src, dst), np.maximum(src, dst))
    key = lo * np.int64(n_nodes) + hi
    plain = np.sort(key)  # an unstable sort is ~10x faster: when no key repeats, nothing needs merging
    if not (plain[1:] == plain[:-1]).any():
        return src, dst, weight, warnings + _loop_and_sign_warnings(src, dst, weight)
    order = np.argsort(key, kind="stable")
    sorted_key = key[order]
    starts = np.flatnonzero(np.r_[True, sorted_key[1:] != sorted_key[:-1]])
    sizes = np.diff(np.r_[starts, sorted_key.size])
    if weight is not None and (sizes > 1).any():
        sw = weight[order]
        wmax, wmin = np.maximum.reduceat(sw, starts), np.minimum.reduceat(sw, starts)
        clash = np.flatnonzero(wmax != wmin)
        if clash.size:
            first = order[starts[clash[0]]]
            group = order[starts[clash[0]] : starts[clash[0]] + sizes[clash[0]]]
            values = sorted({float(weight[i]) for i in group})
            pair = f"({int(src[first])}, {int(dst[first])})"
            raise GraphTextError(
                f"edge {pair} is given {int(sizes[clash[0]])} times with different weights: "
                f"{preview([_num(v) for v in values])}"
                + (f"; {clash.size} such edges in all" if clash.size > 1 else "")
            )
    keep = np.sort(order[starts])
    repeats = int((sizes - 1).sum())
    if repeats and not (
        quiet_reverse_duplicates and not directed and _only_reverse_pairs(src, dst, order, starts, sizes)
    ):
        dup_pairs = [
            (int(src[order[s]]), int(dst[order[s]])) for s, z in zip(starts, sizes, strict=True) if z > 1
        ]
        warnings.append(f"{repeats} repeated edge mentions merged: {preview(dup_pairs)}")
    src, dst = src[keep], dst[keep]
    weight = None if weight is None else weight[keep]
    return src, dst, weight, warnings + _loop_and_sign_warnings(src, dst, weight)


def _check_finite(src: np.ndarray, dst: np.ndarray, weight: np.ndarray, label_offset: int) -> None:
    """Infinite weights are refused, naming the edge (``1e999`` in a text overflows to inf)."""
    infinite = np.flatnonzero(np.isinf(weight))
    if infinite.size:
        i = int(infinite[0])
        pair = f"({int(src[i]) + label_offset}, {int(dst[i]) + label_offset})"
        more = f"; {infinite.size} such edges in all" if infinite.size > 1 else ""
        raise GraphTextError(
            f"edge {pair} has weight {float(weight[i])}; weights must be finite numbers{more}"
        )


# The most the weights of one graph (edges and nodes together) may add up to in absolute value:
# a quarter of float's range. Every sum the library forms is at most twice that total (a path,
# a triangle, a flow; an undirected edge is two arcs of max flow's residual network), and what
# is left covers rounding, so no sum can overflow to infinity, which shortest path would read
# as "no path" and max flow would report as its value.
MAX_WEIGHT_SUM = sys.float_info.max / 4


def check_weight_sum(
    src: np.ndarray,
    dst: np.ndarray,
    weight: np.ndarray | None,
    node_weights: Mapping[int, float],
    label: Callable[[int], str],
) -> None:
    """Refuse a graph whose weights add up to more than :data:`MAX_WEIGHT_SUM` in absolute value.

    The :class:`GraphTextError` names the largest weight, by its edge (or node) as
    ``label`` writes the nodes; the weights are already known to be finite.
    """
    edges = np.abs(weight) if weight is not None and weight.size else np.zeros(0)
    nodes = [abs(w) for w in node_weights.values()]
    with np.errstate(over="ignore"):
        total = float(edges.sum()) + sum(nodes)
    if total <= MAX_WEIGHT_SUM:
        return
    top_node = max(node_weights, key=lambda k: abs(node_weights[k]), default=None)
    if weight is not None and edges.size and (top_node is None or edges.max() >= abs(node_weights[top_node])):
        i = int(np.argmax(edges))
        where, value = f"edge ({label(int(src[i]))}, {label(int(dst[i]))})", float(weight[i])
    else:
        assert top_node is not None  # the total is over the limit, so some weight is not zero
        where, value = f"node {label(top_node)}", float(node_weights[top_node])
    added = "more than the largest float" if math.isinf(total) else f"{total:.3g}"
    raise GraphTextError(
        f"{where}: weight {value!r} is too large: the graph's weights add up to {added} in absolute value, "
        f"so sums of them (a path's length, a flow) could overflow; they may add up to at most "
        f"{MAX_WEIGHT_SUM:.3g} (a quarter of the largest float)"
    )


def _loop_and_sign_warnings(src: np.ndarray, dst: np.ndarray, weight: np.ndarray | None) -> list[str]:
    warnings = []
    loops = np.unique(src[src == dst])
    if loops.size:
        warnings.append(f"self-loops on nodes {preview(loops.tolist())}")
    if weight is not None and (weight < 0).any():
        neg = np.flatnonzero(weight < 0)
        shown = [f"({int(src[i])}, {int(dst[i])}, {_num(float(weight[i]))})" for i in neg]
        warnings.append(f"{neg.size} negative edge weights: {preview(shown)}")
    return warnings


def _only_reverse_pairs(src, dst, order, starts, sizes) -> bool:
    """True when every repeated edge is named exactly twice, once from each end."""
    for s, z in zip(starts, sizes, strict=True):
        if z == 1:
            continue
        a, b = order[s], order[s + 1]
        if z != 2 or src[a] != dst[b] or dst[a] != src[b] or src[a] == dst[a]:
            return False
    return True


def _num(value: float) -> int | float:
    """An integral float as int (for messages and answers), other values unchanged."""
    return int(value) if float(value).is_integer() else value
