"""Graphs that arrive already structured: dicts, networkx graphs, arrays, files.

Large graphs (10^5-10^6 nodes) come this way, so edges stay in numpy arrays
(:class:`~tools.graph_text.problem.EdgeArray`) and go through the same
consistency checks as parsed text.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from tools.graph_text.problem import EdgeArray, GraphTextError, ParsedProblem, check_edges, preview

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
    """
    if isinstance(obj, ParsedProblem):
        return obj
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
    src, dst, weight, edge_warnings = check_edges(src, dst, weight, n_nodes, directed)
    if n_nodes == 0:
        raise GraphTextError("the structured graph has no nodes")
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


def _direction(declared: Any, override: bool | None, warnings: list[str], what: str) -> bool:
    if override is not None:
        return bool(override)
    if declared is None:
        warnings.append(f"the {what} does not say whether the graph is directed; read as undirected")
        return False
    return bool(declared)


class _Ids:
    """Labels -> dense ids; the identity when every label is an integer and a declared list is 0..n-1."""

    def __init__(self, declared: Sequence[Any] | None, endpoints: Sequence[Any]) -> None:
        labels = list(declared) if declared is not None else []
        self.names: dict[int, str] | None = None
        self.index: dict[Any, int] | None = None
        dense = all(_is_int(x) for x in labels) and [int(x) for x in labels] == list(range(len(labels)))
        if dense and all(_is_int(x) for x in endpoints):
            # out-of-range endpoints are left for check_edges, which names them
            self.n = len(labels) if labels else max((int(x) for x in endpoints), default=-1) + 1
            return
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

    def __call__(self, label: Any) -> int:
        if self.index is None:
            return int(label)
        try:
            return self.index[_key(label)]
        except KeyError:
            raise GraphTextError(f"unknown node {label!r}; nodes: {preview(list(self.index))}") from None


def _is_int(x: Any) -> bool:
    return isinstance(x, (int, np.integer)) and not isinstance(x, bool) and int(x) >= 0


def _key(label: Any) -> Any:
    return int(label) if isinstance(label, np.integer) else label


# ---------------------------------------------------------------------- sources
def _from_dict(data: Mapping[str, Any], directed: bool | None) -> ParsedProblem:
    warnings: list[str] = []
    edges = data.get("edges", data.get("links"))
    if edges is None:
        raise GraphTextError(
            f"a graph dict needs an 'edges' (or node-link 'links') list; keys given: {sorted(data)}"
        )
    is_directed = _direction(data.get("directed"), directed, warnings, "graph dict")
    nodes = data.get("nodes")
    if isinstance(edges, np.ndarray):
        return _dense_extras(_from_array(edges, is_directed, warnings), data)
    if nodes is None and isinstance(edges, list) and len(edges) > _FAST_LIST_EDGES:
        # big JSON edge lists (server / Studio input) with integer ids: one numpy conversion, not a loop
        try:
            array = np.asarray(edges, dtype=np.float64)
            return _dense_extras(_from_array(array, is_directed, warnings), data)
        except (ValueError, TypeError, GraphTextError):
            pass  # labels, mixed shapes or missing weights: the general path below
    node_labels: list[Any] | None = None
    node_weights_raw: dict[Any, float] = dict(data.get("node_weights") or {})
    names_raw: dict[Any, str] = {}
    if isinstance(nodes, Sequence) and not isinstance(nodes, str):
        node_labels = []
        for item in nodes:
            if isinstance(item, Mapping):
                label = item.get("id")
                node_labels.append(label)
                if "weight" in item:
                    node_weights_raw[label] = float(item["weight"])
                for key in _NAME_KEYS:
                    if key in item:
                        names_raw[label] = str(item[key])
                        break
            else:
                node_labels.append(item)
    us, vs, ws = [], [], []
    for e in edges:
        if isinstance(e, Mapping):
            u, v = e.get("source", e.get("u")), e.get("target", e.get("v"))
            w = e.get("weight", e.get("capacity", e.get("w")))
        elif isinstance(e, Sequence) and len(e) in (2, 3):
            u, v, w = e[0], e[1], (e[2] if len(e) == 3 else None)
        else:
            raise GraphTextError(
                f"cannot read the edge {e!r}; use [u, v], [u, v, w] or {{'source', 'target', 'weight'}}"
            )
        if u is None or v is None:
            raise GraphTextError(f"edge {e!r} has no source/target")
        us.append(u)
        vs.append(v)
        ws.append(np.nan if w is None else float(w))
    # ParsedProblem.to_dict() round trip: ids are already dense, names are given separately
    if "n_nodes" in data and node_labels is None:
        node_labels = list(range(int(data["n_nodes"])))
        names_raw = {int(k): str(v) for k, v in (data.get("node_names") or {}).items()}
        node_weights_raw = {int(k): float(v) for k, v in node_weights_raw.items()}
    ids = _Ids(node_labels, us + vs)
    src = np.array([ids(u) for u in us], dtype=np.int64)
    dst = np.array([ids(v) for v in vs], dtype=np.int64)
    weight = np.array(ws, dtype=np.float64) if ws and not np.isnan(ws).all() else None
    names = ids.names
    if names_raw:
        names = {**(names or {}), **{ids(k): v for k, v in names_raw.items()}}
    params = _map_params(dict(data.get("params") or {}), ids)
    node_weights = {ids(k): float(v) for k, v in node_weights_raw.items()}
    stated = data.get("stated_n_nodes")
    return _build(src, dst, weight, ids.n, is_directed, warnings, names, node_weights, params, stated)


def _dense_extras(problem: ParsedProblem, data: Mapping[str, Any]) -> ParsedProblem:
    """What a dict with integer-id array edges adds: node count, params, node weights and names."""
    n_nodes = max(problem.n_nodes, int(data.get("n_nodes") or 0))
    nodes = data.get("nodes")
    names = {int(k): str(v) for k, v in (data.get("node_names") or {}).items()}
    node_weights = {int(k): float(v) for k, v in (data.get("node_weights") or {}).items()}
    if isinstance(nodes, Sequence) and not isinstance(nodes, str):
        for item in nodes:
            node = item.get("id") if isinstance(item, Mapping) else item
            if not _is_int(node):
                raise GraphTextError(f"with array edges, node ids must be integers; got {node!r}")
            n_nodes = max(n_nodes, int(node) + 1)
            if isinstance(item, Mapping):
                if "weight" in item:
                    node_weights[int(node)] = float(item["weight"])
                name = next((item[k] for k in _NAME_KEYS if k in item), None)
                if name is not None:
                    names[int(node)] = str(name)
    bad = [k for k in [*names, *node_weights] if not 0 <= k < n_nodes]
    if bad:
        raise GraphTextError(f"node names / weights given for ids outside 0..{n_nodes - 1}: {preview(bad)}")
    problem.n_nodes = n_nodes
    problem.node_names = names or None
    problem.node_weights = node_weights
    problem.params = _map_params(dict(data.get("params") or {}), _Ids(None, []))  # ids are the labels
    return problem


def _map_params(params: dict[str, Any], ids: _Ids) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in params.items():
        if key == "pattern" and isinstance(value, Mapping):
            out[key] = _from_dict(value, None)
        elif key in ("source", "target", "start", "node") and value is not None:
            out[key] = ids(value)
        else:
            out[key] = value
    return out


def _from_networkx(graph: Any, directed: bool | None) -> ParsedProblem:
    warnings: list[str] = []
    is_directed = graph.is_directed() if directed is None else directed
    labels = list(graph.nodes)
    pairs = list(graph.edges(data=True))
    ids = _Ids(labels, [u for u, _, _ in pairs] + [v for _, v, _ in pairs])
    src = np.array([ids(u) for u, _, _ in pairs], dtype=np.int64)
    dst = np.array([ids(v) for _, v, _ in pairs], dtype=np.int64)
    attr = "weight" if any("weight" in d for _, _, d in pairs) else "capacity"
    values = [d.get(attr) for _, _, d in pairs]
    weight = (
        np.array([np.nan if x is None else float(x) for x in values])
        if any(x is not None for x in values)
        else None
    )
    names = ids.names
    for node, data in graph.nodes(data=True):
        for key in _NAME_KEYS:
            if key in data:
                names = {**(names or {}), ids(node): str(data[key])}
                break
    node_weights = {ids(n): float(d["weight"]) for n, d in graph.nodes(data=True) if "weight" in d}
    return _build(src, dst, weight, ids.n, is_directed, warnings, names, node_weights)


def _from_array(array: np.ndarray, directed: bool | None, warnings: list[str]) -> ParsedProblem:
    if array.ndim != 2 or array.shape[1] not in (2, 3):
        raise GraphTextError(f"an edge array must have shape (m, 2) or (m, 3), got {array.shape}")
    is_directed = _direction(None, directed, warnings, "edge array") if directed is None else directed
    if np.issubdtype(array.dtype, np.integer):  # no float copy of a big integer array
        if array.size and array[:, :2].min() < 0:
            raise GraphTextError("edge array node ids must be non-negative integers")
        src, dst = array[:, 0].astype(np.int64), array[:, 1].astype(np.int64)
        weight = array[:, 2].astype(np.float64) if array.shape[1] == 3 else None
    else:
        cols = array.astype(np.float64, copy=False)
        ends = cols[:, :2]
        if ends.size and (np.any(ends < 0) or np.any(ends != np.round(ends))):
            raise GraphTextError("edge array node ids must be non-negative integers")
        src, dst = ends[:, 0].astype(np.int64), ends[:, 1].astype(np.int64)
        weight = cols[:, 2].copy() if array.shape[1] == 3 else None
    n = int(max(src.max(initial=-1), dst.max(initial=-1)) + 1)
    return _build(src, dst, weight, n, is_directed, warnings)


def _from_sparse(matrix: Any, directed: bool | None) -> ParsedProblem:
    if matrix.shape[0] != matrix.shape[1]:
        raise GraphTextError(f"an adjacency matrix must be square, got shape {matrix.shape}")
    coo = matrix.tocoo()
    symmetric = (abs(matrix - matrix.T)).nnz == 0
    is_directed = (not symmetric) if directed is None else directed
    row, col, data = coo.row.astype(np.int64), coo.col.astype(np.int64), coo.data.astype(np.float64)
    if not is_directed:
        keep = row <= col
        row, col, data = row[keep], col[keep], data[keep]
    weight = None if np.all(data == 1.0) else data
    return _build(row, col, weight, int(matrix.shape[0]), is_directed, [])


def _from_file(path: Path, directed: bool | None) -> ParsedProblem:
    if not path.is_file():
        raise GraphTextError(f"graph file {path} not found")
    suffix = path.suffix.lower()
    if suffix == ".json":
        try:
            data = json.loads(path.read_text(encoding="utf-8-sig"))
        except json.JSONDecodeError as err:
            raise GraphTextError(f"{path} is not valid JSON: {err}") from err
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
        and all(x.isdigit() for x in first)
        and int(first[0]) > 0
        and count - 1 in (int(first[1]), int(first[1]) + 1)
    ):
        stated, m = int(first[0]), int(first[1])
        skip, max_rows = 1, m
        warnings.append(f"first line read as an 'n m' header: {stated} nodes, {m} edges")
        count = m
    if count <= 0:
        return _build(
            np.zeros(0, np.int64), np.zeros(0, np.int64), None, stated or 0, bool(directed), warnings
        )
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
            params["query"] = [int(x) if x.lstrip("-").isdigit() else x for x in tail.split()]
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
