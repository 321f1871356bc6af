"""Graphs that arrive already structured: dicts, networkx graphs, arrays, files.

Large graphs (10^5-10^6 nodes) come this way, so edges stay in numpy arrays
(:class:`~graphreason.tools.gar.graph_text.problem.EdgeArray`) and go through the same
consistency checks as parsed text.
"""

from __future__ import annotations

import json
import math
import numbers
import re
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from graphreason.tools.gar.graph_text.problem import (
    EdgeArray,
    GraphTextError,
    ParsedProblem,
    check_edges,
    check_node_count,
    check_weight_sum,
    preview,
    read_count,
    read_directed,
    read_int,
    read_weight,
    shown,
)

EDGE_FILE_SUFFIXES = (".txt", ".edgelist", ".edges", ".tsv", ".csv")
_NAME_KEYS = ("name", "label", "title")
_FAST_LIST_EDGES = 10_000  # edge lists longer than this first try the array path


def load_structured_graph(obj: Any, *, directed: bool | None = None) -> ParsedProblem:
    """A :class:`ParsedProblem` from a structured graph.

    Accepts a dict (``{"nodes": [...], "edges": [[u, v, w], ...], "directed": bool}``,
    networkx node-link JSON, or :meth:`ParsedProblem.to_dict` output), a networkx
    graph, an ``(m, 2|3)`` numpy array, a square scipy sparse matrix, or a file
    path: ``.txt``/``.edgelist``/``.tsv``/``.csv`` lines ``u v [w]`` (an NLGraph
    ``n m`` first line is recognised) or ``.json``. ``directed`` overrides what
    the input says; inputs that do not say are read as undirected, with a warning.
    Non-integer or non-zero-based node labels become dense ids with names.

    The input is untrusted: anything malformed raises :class:`GraphTextError`
    (never TypeError/ValueError/OverflowError), node counts and the largest id
    are held to the node limit (:func:`graphreason.settings.max_nodes`) before anything
    of that size is allocated, and weights must be finite numbers that add up to at most
    :data:`~graphreason.tools.gar.graph_text.problem.MAX_WEIGHT_SUM` in absolute value.
    """
    if isinstance(obj, ParsedProblem):
        return obj
    if directed is not None:
        directed = read_directed(directed, "the directed= argument")
    if isinstance(obj, (str, Path)):
        return _from_file(Path(obj).expanduser(), directed)
    if isinstance(obj, np.ndarray):
        return _from_array(obj, directed, [])
    if hasattr(obj, "tocoo") and hasattr(obj, "shape"):
        return _from_sparse(obj, directed)
    if hasattr(obj, "is_directed") and hasattr(obj, "edges"):
        return _from_networkx(obj, directed)
    if isinstance(obj, Mapping):
        return _from_dict(obj, directed)
    raise GraphTextError(
        f"cannot read a graph from {type(obj).__name__}; give a dict with 'edges', a networkx graph, "
        "an (m, 2|3) numpy array, a scipy sparse matrix, or a path to a .txt/.csv/.json graph file"
    )


# ---------------------------------------------------------------------- assembly
def _build(
    src: np.ndarray,
    dst: np.ndarray,
    weight: np.ndarray | None,
    n_nodes: int,
    directed: bool,
    warnings: list[str],
    names: dict[int, str] | None = None,
    node_weights: dict[int, float] | None = None,
    params: dict[str, Any] | None = None,
    stated: int | None = None,
) -> ParsedProblem:
    check_node_count(n_nodes, "the structured graph")  # every source checked already; this is the backstop
    src, dst, weight, edge_warnings = check_edges(src, dst, weight, n_nodes, directed)
    if n_nodes == 0:
        raise GraphTextError("the structured graph has no nodes")
    _check_node_refs(n_nodes, names or {}, node_weights or {}, params or {})
    check_weight_sum(src, dst, weight, node_weights or {}, lambda node: (names or {}).get(node, str(node)))
    return ParsedProblem(
        n_nodes=n_nodes,
        directed=directed,
        weighted=weight is not None,
        edges=EdgeArray(src, dst, weight),
        node_weights=node_weights or {},
        node_names=names,
        params=params or {},
        stated_n_nodes=stated,
        warnings=warnings + edge_warnings,
    )


def _check_node_refs(
    n_nodes: int, names: Mapping[int, str], node_weights: Mapping[int, float], params: Mapping[str, Any]
) -> None:
    """Names, node weights and the node parameters must point at nodes of the graph.

    (With dense ids they are taken as given, so a stray id would only fail
    later, as an IndexError deep in an algorithm.)
    """
    bad = [k for k in [*names, *node_weights] if not 0 <= k < n_nodes]
    if bad:
        raise GraphTextError(f"node names / weights given for ids outside 0..{n_nodes - 1}: {preview(bad)}")
    wrong = {
        k: v for k, v in params.items() if k in _NODE_PARAMS and isinstance(v, int) and not 0 <= v < n_nodes
    }
    if wrong:
        shown_params = ", ".join(f"{k}={v}" for k, v in wrong.items())
        raise GraphTextError(f"the parameters name nodes outside 0..{n_nodes - 1}: {shown_params}")


def _direction(declared: Any, override: bool | None, warnings: list[str], what: str) -> bool:
    if override is not None:
        return override  # already read by load_structured_graph
    if declared is None:
        warnings.append(f"the {what} does not say whether the graph is directed; read as undirected")
        return False
    return read_directed(declared, f"the {what}")


class _Ids:
    """Labels -> dense ids; the identity when every label is an integer and a declared list is 0..n-1.

    ``count`` declares the ids ``0..count-1`` without listing them (a
    :meth:`ParsedProblem.to_dict` round trip): endpoints must then be integers.
    Labels must already be valid (see :func:`_label`).
    """

    def __init__(
        self, declared: Sequence[Any] | None, endpoints: Sequence[Any], count: int | None = None
    ) -> None:
        labels = list(declared) if declared is not None else []
        self.names: dict[int, str] | None = None
        self.index: dict[Any, int] | None = None
        dense = count is not None or (
            all(_is_int(x) for x in labels) and [int(x) for x in labels] == list(range(len(labels)))
        )
        if dense and all(_is_int(x) for x in endpoints):
            self.n = self._dense_count(labels, endpoints, count)
            return
        if count is not None:
            bad = next(x for x in endpoints if not _is_int(x))
            raise GraphTextError(
                f"with 'n_nodes' and no 'nodes' list, edge endpoints must be node ids 0..{count - 1}; got {shown(bad)}"
            )
        self.index = {}
        for label in labels:
            self.index.setdefault(_key(label), len(self.index))
        missing = []
        for label in endpoints:
            if _key(label) not in self.index:
                if declared is not None:
                    missing.append(str(label))
                self.index[_key(label)] = len(self.index)
        if missing:
            raise GraphTextError(f"edge endpoints not in the node list: {preview(sorted(set(missing)))}")
        self.names = {i: str(label) for label, i in self.index.items()}
        self.n = len(self.index)

    @staticmethod
    def _dense_count(labels: list[Any], endpoints: Sequence[Any], count: int | None) -> int:
        """The node count of dense integer ids, checked against the node limit before any array exists."""
        top = max((int(x) for x in endpoints), default=-1)
        if count is None and not labels:
            return check_node_count(top + 1, f"the edge list (largest node id {shown(top, 30)})")
        n = len(labels) if count is None else count
        if top >= _INT64_SAFE:  # would not fit the id arrays; smaller strays are named by check_edges
            raise GraphTextError(f"node ids out of range: {shown(top, 30)} (the graph has nodes 0..{n - 1})")
        return n

    def __call__(self, label: Any) -> int:
        if self.index is None:
            return self._dense_id(label)
        try:
            return self.index[_key(label)]
        except (KeyError, TypeError):  # TypeError: an unhashable label (a list, a dict) is no node either
            raise GraphTextError(f"unknown node {shown(label)}; nodes: {preview(list(self.index))}") from None

    def _dense_id(self, label: Any) -> int:
        if isinstance(label, str) and label.strip().isdecimal():
            return read_int(label.strip(), f"node {shown(label)}")
        if _is_int(label):
            return int(label)
        raise GraphTextError(
            f"unknown node {shown(label)}: this graph's nodes are the integers 0..{self.n - 1}"
        )


_INT64_SAFE = 2**62
_PLAIN = (str, int)  # exact types: a bool is an int subclass and is refused as a label
_EXACT_INT = 2**53  # ints up to here are exact as floats (and 10**400 would overflow float())
_NODE_PARAMS = ("source", "target", "start", "node")


def _is_int(x: Any) -> bool:
    return isinstance(x, (int, np.integer)) and not isinstance(x, bool) and int(x) >= 0


def _key(label: Any) -> Any:
    return int(label) if isinstance(label, np.integer) else label


def _label(value: Any, where: str) -> Any:
    """A node label from a dict or reply: a string, an integer, or another hashable value.

    None, booleans (``True == 1`` would merge two nodes), non-finite floats and
    unhashable values (lists, dicts) are refused, naming where they were found.
    """
    if type(value) in _PLAIN:
        return value
    if isinstance(value, np.integer):
        return int(value)
    bad = value is None or isinstance(value, bool | np.bool_)
    bad = bad or (isinstance(value, float) and not math.isfinite(value))
    if not bad:
        try:
            hash(value)
        except TypeError:
            bad = True
    if bad:
        raise GraphTextError(f"{where}: {shown(value)} is not a node label (use a string or an integer)")
    return value


def _name(value: Any, where: str) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, numbers.Number) and not isinstance(value, bool):
        return str(value)
    raise GraphTextError(f"{where} must be text, got {shown(value)}")


def _mapping(value: Any, what: str) -> dict[Any, Any]:
    """An optional dict field (``params``, ``node_names``, ``node_weights``): missing -> ``{}``."""
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise GraphTextError(f"{what} must be an object (a dict), got {type(value).__name__}")
    return dict(value)


def _listing(value: Any, what: str) -> Sequence[Any]:
    """The dict's ``edges`` or ``nodes``: a list (a string is not read letter by letter)."""
    if isinstance(value, np.ndarray) and value.ndim == 1:
        return value  # type: ignore[return-value]  # iterates as numpy scalars, which read like numbers
    if isinstance(value, str | bytes | Mapping) or not isinstance(value, Sequence):
        raise GraphTextError(f"{what} must be a list, got {type(value).__name__} {shown(value, 40)}")
    return value


def _length(items: Sequence[Any]) -> int:
    """``len(items)``; a ``range`` too long for ``len`` counts as endless."""
    try:
        return len(items)
    except OverflowError:
        return sys.maxsize


# ---------------------------------------------------------------------- sources
def _from_dict(data: Mapping[str, Any], directed: bool | None, nested: bool = False) -> ParsedProblem:
    warnings: list[str] = []
    edges = data.get("edges", data.get("links"))
    if edges is None:
        raise GraphTextError(
            f"a graph dict needs an 'edges' (or node-link 'links') list; keys given: {sorted(map(str, data))}"
        )
    is_directed = _direction(data.get("directed"), directed, warnings, "graph dict")
    nodes = data.get("nodes")
    if nodes is not None:
        nodes = _listing(nodes, "the graph dict's 'nodes'")
        check_node_count(_length(nodes), "the graph dict's 'nodes' list")  # before a label is read
    if isinstance(edges, np.ndarray):
        return _dense_extras(_from_array(edges, is_directed, warnings), data, nodes, nested)
    edges = _listing(edges, "the graph dict's 'edges'")
    if nodes is None and _length(edges) > _FAST_LIST_EDGES:
        fast = _fast_list(edges, is_directed, warnings)
        if fast is not None:
            return _dense_extras(fast, data, nodes, nested)
    node_labels, node_weights_raw, names_raw = _declared_nodes(nodes, data)
    us, vs, ws = _edge_columns(edges)
    if data.get("n_nodes") is not None and node_labels is None:
        # ParsedProblem.to_dict() round trip: ids are already dense, names are given separately
        count = check_node_count(read_count(data["n_nodes"], "'n_nodes'"), "the graph dict's 'n_nodes'")
        ids = _Ids(None, us + vs, count=count)
        names_raw = {
            read_count(k, "a 'node_names' key"): _name(v, f"the name of node {k}")
            for k, v in _mapping(data.get("node_names"), "'node_names'").items()
        }
        node_weights_raw = {read_count(k, "a 'node_weights' key"): w for k, w in node_weights_raw.items()}
    else:
        ids = _Ids(node_labels, us + vs)
    src = np.array([ids(u) for u in us], dtype=np.int64)
    dst = np.array([ids(v) for v in vs], dtype=np.int64)
    weight = np.array(ws, dtype=np.float64) if ws and not np.isnan(ws).all() else None
    names = ids.names
    if names_raw:
        names = {**(names or {}), **{ids(k): v for k, v in names_raw.items()}}
    params = _map_params(_mapping(data.get("params"), "'params'"), ids, nested)
    node_weights = {ids(k): w for k, w in node_weights_raw.items()}
    stated = data.get("stated_n_nodes")
    stated = None if stated is None else read_count(stated, "'stated_n_nodes'")
    return _build(src, dst, weight, ids.n, is_directed, warnings, names, node_weights, params, stated)


def _fast_list(edges: Sequence[Any], directed: bool, warnings: list[str]) -> ParsedProblem | None:
    """Big JSON edge lists (server / Studio input) with integer ids: one numpy conversion, not a loop.

    None when the list is not a plain numeric table (labels, mixed shapes, missing
    or odd weights): the general path then reads it edge by edge and names any problem.
    """
    try:
        array = np.asarray(edges, dtype=np.float64)  # None becomes NaN, refused below like any NaN
    except (ValueError, TypeError, OverflowError, RecursionError):
        return None
    try:
        return _from_array(array, directed, list(warnings))
    except GraphTextError:
        return None


def _declared_nodes(
    nodes: Sequence[Any] | None, data: Mapping[str, Any]
) -> tuple[list[Any] | None, dict[Any, float], dict[Any, str]]:
    """The dict's node list: labels in order, node weights and names (from ``{"id": ..}`` entries)."""
    node_weights = {
        _label(k, "a 'node_weights' key"): read_weight(v, f"the weight of node {shown(k)}")
        for k, v in _mapping(data.get("node_weights"), "'node_weights'").items()
    }
    names: dict[Any, str] = {}
    if nodes is None:
        return None, node_weights, names
    labels = []
    for item in nodes:
        if isinstance(item, Mapping):
            label = _label(item.get("id"), f"the node entry {shown(item)}")
            if "weight" in item:
                node_weights[label] = read_weight(item["weight"], f"the weight of node {shown(label)}")
            key = next((k for k in _NAME_KEYS if k in item), None)
            if key is not None:
                names[label] = _name(item[key], f"the {key} of node {shown(label)}")
        else:
            label = _label(item, "the 'nodes' list")
        labels.append(label)
    return labels, node_weights, names


def _edge_columns(edges: Sequence[Any]) -> tuple[list[Any], list[Any], list[float]]:
    """Sources, targets and weights (NaN: none given) of a JSON-like edge list, each value checked."""
    us, vs, ws = [], [], []
    for e in edges:
        row = type(e) in (list, tuple) or (
            isinstance(e, Sequence) and not isinstance(e, str | bytes | Mapping)
        )
        if row and len(e) in (2, 3):  # JSON's lists are tested first: the abstract checks cost per edge
            u, v, w = e[0], e[1], (e[2] if len(e) == 3 else None)
        elif isinstance(e, Mapping):
            u, v = e.get("source", e.get("u")), e.get("target", e.get("v"))
            w = e.get("weight", e.get("capacity", e.get("w")))
        else:
            raise GraphTextError(
                f"cannot read the edge {shown(e)}; use [u, v], [u, v, w] or {{'source', 'target', 'weight'}}"
            )
        if u is None or v is None:
            raise GraphTextError(f"edge {shown(e)} has no source/target")
        # plain str/int labels skip the check (and its message): big labelled lists come this way
        us.append(u if type(u) in _PLAIN else _label(u, f"edge {shown(e)}"))
        vs.append(v if type(v) in _PLAIN else _label(v, f"edge {shown(e)}"))
        if w is None:
            ws.append(np.nan)
        elif (type(w) is float and math.isfinite(w)) or (type(w) is int and abs(w) <= _EXACT_INT):
            ws.append(float(w))  # the common case, without a call
        else:
            ws.append(read_weight(w, f"the weight of edge {shown(e)}"))
    return us, vs, ws


def _dense_extras(
    problem: ParsedProblem, data: Mapping[str, Any], nodes: Sequence[Any] | None, nested: bool = False
) -> ParsedProblem:
    """What a dict with integer-id array edges adds: node count, params, node weights and names."""
    n_nodes = problem.n_nodes
    if data.get("n_nodes") is not None:
        stated = read_count(data["n_nodes"], "'n_nodes'")
        n_nodes = max(n_nodes, check_node_count(stated, "the graph dict's 'n_nodes'"))
    names = {
        read_count(k, "a 'node_names' key"): _name(v, f"the name of node {k}")
        for k, v in _mapping(data.get("node_names"), "'node_names'").items()
    }
    node_weights = {
        read_count(k, "a 'node_weights' key"): read_weight(v, f"the weight of node {k}")
        for k, v in _mapping(data.get("node_weights"), "'node_weights'").items()
    }
    for item in nodes or []:
        node = item.get("id") if isinstance(item, Mapping) else item
        if not _is_int(node):
            raise GraphTextError(f"with array edges, node ids must be integers; got {shown(node)}")
        n_nodes = max(n_nodes, int(node) + 1)
        if isinstance(item, Mapping):
            if "weight" in item:
                node_weights[int(node)] = read_weight(item["weight"], f"the weight of node {node}")
            key = next((k for k in _NAME_KEYS if k in item), None)
            if key is not None:
                names[int(node)] = _name(item[key], f"the {key} of node {node}")
    check_node_count(n_nodes, f"the graph dict (its largest node id is {n_nodes - 1})")
    params = _map_params(_mapping(data.get("params"), "'params'"), _Ids(None, [], count=n_nodes), nested)
    _check_node_refs(n_nodes, names, node_weights, params)
    problem.n_nodes = n_nodes
    problem.node_names = names or None
    problem.node_weights = node_weights
    problem.params = params  # ids are the labels
    return problem


def _map_params(params: dict[str, Any], ids: _Ids, nested: bool = False) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in params.items():
        if key == "pattern" and isinstance(value, Mapping):
            if nested:  # a pattern's own pattern means nothing, and unbounded nesting would recurse
                raise GraphTextError("a pattern's 'params' cannot hold another 'pattern'")
            out[key] = _from_dict(value, None, nested=True)
        elif key in _NODE_PARAMS and value is not None:
            out[key] = ids(value)
        else:
            out[key] = value
    return out


def _from_networkx(graph: Any, directed: bool | None) -> ParsedProblem:
    warnings: list[str] = []
    is_directed = bool(graph.is_directed()) if directed is None else directed
    labels = list(graph.nodes)
    check_node_count(len(labels), "the networkx graph")
    pairs = list(graph.edges(data=True))
    ids = _Ids(labels, [u for u, _, _ in pairs] + [v for _, v, _ in pairs])
    src = np.array([ids(u) for u, _, _ in pairs], dtype=np.int64)
    dst = np.array([ids(v) for _, v, _ in pairs], dtype=np.int64)
    attr = "weight" if any("weight" in d for _, _, d in pairs) else "capacity"
    weight = None
    if any(d.get(attr) is not None for _, _, d in pairs):
        weight = np.array(
            [
                np.nan if d.get(attr) is None else read_weight(d[attr], f"the {attr} of edge ({u}, {v})")
                for u, v, d in pairs
            ]
        )
    names = ids.names
    for node, data in graph.nodes(data=True):
        for key in _NAME_KEYS:
            if key in data:
                names = {**(names or {}), ids(node): _name(data[key], f"the {key} of node {shown(node)}")}
                break
    node_weights = {
        ids(n): read_weight(d["weight"], f"the weight of node {shown(n)}")
        for n, d in graph.nodes(data=True)
        if "weight" in d
    }
    return _build(src, dst, weight, ids.n, is_directed, warnings, names, node_weights)


def _from_array(array: np.ndarray, directed: bool | None, warnings: list[str]) -> ParsedProblem:
    if array.ndim != 2 or array.shape[1] not in (2, 3):
        raise GraphTextError(f"an edge array must have shape (m, 2) or (m, 3), got {array.shape}")
    if array.dtype.kind in "bO":  # booleans, or Python objects that may be numbers
        try:
            array = array.astype(np.float64)
        except (TypeError, ValueError, OverflowError):
            raise GraphTextError("an edge array must hold numbers; this one holds other objects") from None
    if array.dtype.kind not in "iuf":
        raise GraphTextError(f"an edge array must hold numbers, got dtype {array.dtype}")
    is_directed = _direction(None, directed, warnings, "edge array")
    ends = array[:, :2]  # integer arrays are not copied to float: big graphs come this way
    n = 0
    if ends.size:
        if array.dtype.kind == "f" and not (np.isfinite(ends).all() and (ends == np.round(ends)).all()):
            raise GraphTextError("edge array node ids must be non-negative integers")
        if ends.min() < 0:
            raise GraphTextError("edge array node ids must be non-negative integers")
        top = int(ends.max())
        n = check_node_count(top + 1, f"the edge array (largest node id {top})")
    src, dst = ends[:, 0].astype(np.int64), ends[:, 1].astype(np.int64)
    weight = None
    if array.shape[1] == 3:
        weight = array[:, 2].astype(np.float64)
        _require_finite(src, dst, weight)
    return _build(src, dst, weight, n, is_directed, warnings)


def _require_finite(src: np.ndarray, dst: np.ndarray, weight: np.ndarray) -> None:
    """A weight column must hold finite numbers (NaN would otherwise read as "no weight")."""
    bad = np.flatnonzero(~np.isfinite(weight))
    if bad.size:
        i = int(bad[0])
        more = f"; {bad.size} such edges in all" if bad.size > 1 else ""
        raise GraphTextError(
            f"edge ({int(src[i])}, {int(dst[i])}) has weight {float(weight[i])}; weights must be finite numbers{more}"
        )


def _from_sparse(matrix: Any, directed: bool | None) -> ParsedProblem:
    shape = tuple(getattr(matrix, "shape", ()))
    if len(shape) != 2 or shape[0] != shape[1]:
        raise GraphTextError(f"an adjacency matrix must be square, got shape {shape}")
    check_node_count(int(shape[0]), "the adjacency matrix")  # before the transpose below allocates rows
    coo = matrix.tocoo()
    symmetric = (abs(matrix - matrix.T)).nnz == 0
    is_directed = (not symmetric) if directed is None else directed
    row, col, data = coo.row.astype(np.int64), coo.col.astype(np.int64), coo.data.astype(np.float64)
    if not is_directed:
        keep = row <= col
        row, col, data = row[keep], col[keep], data[keep]
    _require_finite(row, col, data)
    weight = None if np.all(data == 1.0) else data
    return _build(row, col, weight, int(shape[0]), is_directed, [])


def _from_file(path: Path, directed: bool | None) -> ParsedProblem:
    try:
        found = path.is_file()
    except (OSError, ValueError):  # a name too long, or holding a NUL byte, is no file either
        found = False
    if not found:
        raise GraphTextError(f"graph file {shown(str(path), 200)} not found")
    try:
        return _read_file(path, directed)
    except (OSError, UnicodeDecodeError) as err:
        raise GraphTextError(f"cannot read {path}: {err}") from err


def _read_file(path: Path, directed: bool | None) -> ParsedProblem:
    suffix = path.suffix.lower()
    if suffix == ".json":
        try:
            data = json.loads(path.read_text(encoding="utf-8-sig"))
        except json.JSONDecodeError as err:
            raise GraphTextError(f"{path} is not valid JSON: {err}") from err
        except RecursionError:
            raise GraphTextError(f"{path}: the JSON is nested too deeply to be a graph") from None
        if isinstance(data, list):
            data = {"edges": data}
        if not isinstance(data, Mapping):
            raise GraphTextError(f"{path}: expected a JSON object with 'edges'/'links' or a list of edges")
        return _from_dict(data, directed)
    if suffix in EDGE_FILE_SUFFIXES:
        return _from_edge_file(path, directed, "," if suffix == ".csv" else None)
    raise GraphTextError(
        f"unknown graph file type {suffix!r} for {path}; use .json or one of {', '.join(EDGE_FILE_SUFFIXES)}"
    )


def _data_lines(path: Path) -> tuple[list[str], int]:
    """The first data line(s) (for sniffing) and the number of data lines."""
    head: list[str] = []
    count = 0
    with path.open(encoding="utf-8-sig") as fh:
        for line in fh:
            text = line.strip()
            if not text or text.startswith(("#", "%")):
                continue
            count += 1
            if len(head) < 2:
                head.append(text)
    return head, count


def _from_edge_file(path: Path, directed: bool | None, delimiter: str | None) -> ParsedProblem:
    warnings: list[str] = []
    head, count = _data_lines(path)
    if not head:
        raise GraphTextError(f"graph file {path} has no edge lines (expected 'u v' or 'u v w' per line)")
    first = head[0].replace(",", " ").split()
    skip, max_rows, params, stated = 0, None, {}, None
    if not all(_numeric(x) for x in first):
        skip = 1  # a column-name header such as "source,target,weight"
        count -= 1
    elif (
        len(first) == 2
        and all(_SMALL_INT.fullmatch(x) for x in first)
        and not any(x.startswith("-") for x in first)
        and int(first[0]) > 0
        and count - 1 in (int(first[1]), int(first[1]) + 1)
    ):
        stated, m = int(first[0]), int(first[1])
        check_node_count(stated, f"the 'n m' header of {path.name}")
        skip, max_rows = 1, m
        warnings.append(f"first line read as an 'n m' header: {stated} nodes, {m} edges")
        count = m
    if count <= 0:
        return _build(
            np.zeros(0, np.int64), np.zeros(0, np.int64), None, stated or 0, bool(directed), warnings
        )  # directed: None or a bool already read by load_structured_graph
    try:
        table = np.loadtxt(
            path,
            comments=("#", "%"),
            delimiter=delimiter,
            skiprows=_skip_lines(path, skip),
            max_rows=max_rows,
            ndmin=2,
        )
    except ValueError as err:
        raise GraphTextError(f"{path}: every line must be 'u v' or 'u v w' ({err})") from err
    if table.shape[1] not in (2, 3):
        raise GraphTextError(f"{path}: every line must be 'u v' or 'u v w', found {table.shape[1]} columns")
    if stated is not None and max_rows is not None:
        tail = _tail_after(path, skip + max_rows)
        if tail:
            params["query"] = [int(x) if _SMALL_INT.fullmatch(x) else x for x in tail.split()]
    is_directed = _direction(None, directed, warnings, f"edge file {path.name}")
    problem = _from_array(table, is_directed, warnings)
    if stated is not None:
        if problem.n_nodes > stated:
            raise GraphTextError(
                f"{path}: edges use node ids up to {problem.n_nodes - 1} but the header says {stated} nodes"
            )
        problem.n_nodes, problem.stated_n_nodes = stated, stated
    problem.params.update(params)
    return problem


_SMALL_INT = re.compile(r"-?[0-9]{1,18}")  # ASCII digits only: "²".isdigit() is True but int() refuses it


def _numeric(token: str) -> bool:
    try:
        float(token)
    except ValueError:
        return False
    return True


def _skip_lines(path: Path, data_lines: int) -> int:
    """Physical lines to skip so that ``data_lines`` data lines (not comments/blank) are passed."""
    if data_lines == 0:
        return 0
    seen = 0
    with path.open(encoding="utf-8-sig") as fh:
        for physical, line in enumerate(fh, 1):
            text = line.strip()
            if text and not text.startswith(("#", "%")):
                seen += 1
                if seen == data_lines:
                    return physical
    return 0


def _tail_after(path: Path, data_lines: int) -> str:
    """The data line after the first ``data_lines`` ones (NLGraph's query line), or ''."""
    seen = 0
    with path.open(encoding="utf-8-sig") as fh:
        for line in fh:
            text = line.strip()
            if text and not text.startswith(("#", "%")):
                seen += 1
                if seen == data_lines + 1:
                    return text
    return ""
