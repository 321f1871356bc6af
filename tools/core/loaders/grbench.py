"""Read and write the GRBench / Graph-CoT ``graph.json`` format.

The format groups nodes by type and lists each node's adjacency itself::

    {"paper_nodes": {"p1": {"features": {"title": "..."},
                             "neighbors": {"author": ["a1"], "cites": ["p2"]}}},
     "author_nodes": {"a1": {"features": {"name": "..."},
                             "neighbors": {"paper": ["p1"]}}}}

The node type is the key without ``_nodes``; the relation label an agent names
in ``Neighbour[node, relation]`` is the ``neighbors`` key. Because every node
lists its own arcs (both directions of a link appear when the file has them),
arcs are added one by one with :meth:`GraphStore.add_arc`.
"""

from __future__ import annotations

import json
import sys
import warnings
from pathlib import Path
from typing import Any

from tqdm import tqdm

from graphreason.settings import LENIENT_GRAPH, lenient_graph
from graphreason.tools.core.errors import GraphFileError
from graphreason.tools.core.store import GraphStore

NODES_SUFFIX = "_nodes"
# Feature names tried, in order, as a node type's main text (what Retrieve embeds).
TEXT_KEY_CANDIDATES = ("name", "title", "text", "label", "description", "content", "summary")
_EXAMPLES = 5
# Files from this size on show progress by default: loading a much larger one takes long enough to need it.
PROGRESS_BYTES = 20_000_000
# Set to 1 to keep dangling neighbour ids as untyped nodes (see load_graph_json's strict).
LENIENT_ENV = LENIENT_GRAPH.name  # declared in graphreason.settings


def load_graph_json(
    path: str | Path,
    name: str | None = None,
    strict: bool | None = None,
    directed: bool = True,
    text_keys: dict[str, str] | None = None,
    description: str = "",
    progress: bool | None = None,
) -> GraphStore:
    """Load a ``graph.json`` file (or a folder holding one) into a :class:`GraphStore`.

    ``strict=True`` rejects neighbour ids that are not nodes of the file;
    ``strict=False`` keeps them as untyped nodes and warns; ``None`` (default)
    is strict unless the environment sets :data:`LENIENT_ENV` (what the CLI's
    ``--lenient-graph`` does, and how a server is configured). ``text_keys``
    overrides the main-text feature chosen per node type. ``progress`` shows
    what is being done on stderr (default: for files of :data:`PROGRESS_BYTES`
    or more). Raises :class:`GraphFileError` naming the problem for a missing
    file, invalid JSON, a wrong shape, ids shared by two types or dangling
    neighbour ids.
    """
    file = _resolve_file(Path(path).expanduser())
    size = file.stat().st_size
    show = size >= PROGRESS_BYTES if progress is None else progress
    if show:  # json.load reports nothing while it parses: say what is happening and how big it is
        print(f"reading {file} ({size / 1e6:.0f} MB)...", file=sys.stderr, flush=True)
    data = _read_json(file)
    groups = _check_shape(data, file)
    del data  # the groups hold the same entries; drop the top-level object early
    _check_unique_ids(groups, file)
    dangling = _dangling_neighbours(groups)
    if strict is None:
        strict = not lenient_graph()
    if dangling and strict:
        raise GraphFileError(
            _dangling_message(file, dangling) + " To keep them as untyped nodes, pass --lenient-graph to "
            f"graphreason, set {LENIENT_ENV}=1, or call load_graph_json(..., strict=False)."
        )
    if dangling:
        warnings.warn(_dangling_message(file, dangling) + " They are kept as untyped nodes.", stacklevel=2)

    chosen = _choose_text_keys(groups)
    chosen.update(text_keys or {})
    store = GraphStore(
        name=name or (file.parent.name if file.name == "graph.json" else file.stem),
        directed=directed,
        text_keys=chosen,
        description=description,
    )
    total = sum(len(nodes) for nodes in groups.values())
    with tqdm(total=2 * total, desc=f"building {store.name}", unit="node", disable=not show) as bar:
        for node_type, nodes in groups.items():
            for nid, entry in nodes.items():
                store.add_node(nid, node_type, dict(entry.get("features") or {}))
            bar.update(len(nodes))
        for nodes in groups.values():
            # popping each entry frees the parsed neighbour lists as their arcs move into the store
            for nid in list(nodes):  # in file order: neighbour lists keep their order
                entry = nodes.pop(nid)
                for relation, ids in (entry.get("neighbors") or {}).items():
                    for other in ids:
                        store.add_arc(nid, other, relation)
                bar.update(1)
    return store


def save_graph_json(store: GraphStore, path: str | Path, indent: int | None = None) -> Path:
    """Write ``store`` in ``graph.json`` format and return the file path.

    Every outgoing arc is written under its relation label (reverse labels such
    as ``cited_by`` included), so loading the file gives the same adjacency.
    Edge attributes (ratings, weights) have no place in the format and are
    dropped; feature values that JSON cannot hold are written as strings.
    """
    out = Path(path).expanduser()
    if out.is_dir():
        out = out / "graph.json"
    groups: dict[str, dict[str, Any]] = {}
    for nid in store.nodes():
        neighbours = {rel: store.neighbors(nid, rel, direction="out") for rel in store.relations(nid, "out")}
        groups.setdefault(store.node_type(nid) + NODES_SUFFIX, {})[nid] = {
            "features": store.features(nid),
            "neighbors": neighbours,
        }
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w", encoding="utf-8") as fh:
        json.dump(groups, fh, ensure_ascii=False, indent=indent, default=str)
    return out


# ---------------------------------------------------------------------- checks
def _resolve_file(path: Path) -> Path:
    if path.is_dir():
        candidate = path / "graph.json"
        if not candidate.is_file():
            raise GraphFileError(f"folder {path} has no graph.json file")
        return candidate
    if not path.is_file():
        raise GraphFileError(f"graph file {path} not found")
    return path


def _read_json(file: Path) -> Any:
    try:
        with file.open(encoding="utf-8-sig") as fh:
            return json.load(fh)
    except json.JSONDecodeError as err:
        raise GraphFileError(
            f"{file} is not valid JSON: {err.msg} at line {err.lineno}, column {err.colno}"
        ) from err
    except UnicodeDecodeError as err:
        raise GraphFileError(f"{file} is not UTF-8 text ({err.reason} at byte {err.start})") from err
    except OSError as err:
        raise GraphFileError(f"cannot read graph file {file}: {err}") from err


def _kind(value: Any) -> str:
    """JSON name of a value's type, for error messages."""
    names = {dict: "an object", list: "a list", str: "a string", bool: "a boolean", type(None): "null"}
    for py_type, label in names.items():
        if isinstance(value, py_type):
            return label
    return "a number" if isinstance(value, (int, float)) else type(value).__name__


def _check_shape(data: Any, file: Path) -> dict[str, dict[str, dict[str, Any]]]:
    """``{type: {id: entry}}`` after checking the layout; raises on the first problem."""
    expected = 'an object like {"paper_nodes": {"<id>": {"features": {...}, "neighbors": {"<type>": [ids]}}}}'
    if not isinstance(data, dict):
        raise GraphFileError(f"{file}: expected {expected}, found {_kind(data)} at the top level")
    if not data:
        raise GraphFileError(f"{file}: expected {expected}, found an empty object")
    bad_keys = [k for k in data if not k.endswith(NODES_SUFFIX) or k == NODES_SUFFIX]
    if bad_keys:
        raise GraphFileError(
            f"{file}: every top-level key must be '<type>_nodes'; found {', '.join(map(repr, bad_keys[:_EXAMPLES]))}"
        )
    groups: dict[str, dict[str, dict[str, Any]]] = {}
    for key, nodes in data.items():
        node_type = key[: -len(NODES_SUFFIX)]
        if not isinstance(nodes, dict):
            raise GraphFileError(
                f"{file}: '{key}' must be an object mapping node id to node, found {_kind(nodes)}"
            )
        for nid, entry in nodes.items():
            where = f"{file}: node {nid!r} in '{key}'"
            if not isinstance(entry, dict):
                raise GraphFileError(
                    f'{where} must be an object {{"features": ..., "neighbors": ...}}, found {_kind(entry)}'
                )
            extra = set(entry) - {"features", "neighbors"}
            if extra:
                raise GraphFileError(
                    f"{where} has unexpected keys {sorted(extra)}; only 'features' and 'neighbors' are allowed"
                )
            features = entry.get("features", {})
            if features is not None and not isinstance(features, dict):
                raise GraphFileError(f"{where}: 'features' must be an object, found {_kind(features)}")
            neighbours = entry.get("neighbors", {})
            if neighbours is not None and not isinstance(neighbours, dict):
                raise GraphFileError(
                    f"{where}: 'neighbors' must be an object mapping neighbour type to a list of ids, "
                    f"found {_kind(neighbours)}"
                )
            for relation, ids in (neighbours or {}).items():
                if not isinstance(ids, list):
                    raise GraphFileError(
                        f"{where}: neighbors[{relation!r}] must be a list of ids, found {_kind(ids)}"
                    )
                if any(isinstance(i, (dict, list)) or i is None for i in ids):
                    raise GraphFileError(
                        f"{where}: neighbors[{relation!r}] must hold plain ids (strings or numbers)"
                    )
        # Ids are strings in the store; JSON object keys already are, list entries may be numbers.
        groups[node_type] = {str(nid): entry for nid, entry in nodes.items()}
        for entry in groups[node_type].values():
            if entry.get("neighbors"):
                entry["neighbors"] = {rel: [str(i) for i in ids] for rel, ids in entry["neighbors"].items()}
    return groups


def _check_unique_ids(groups: dict[str, dict[str, Any]], file: Path) -> None:
    seen: dict[str, str] = {}
    clashes: list[str] = []
    for node_type, nodes in groups.items():
        for nid in nodes:
            if nid in seen:
                clashes.append(f"{nid!r} ({seen[nid]} and {node_type})")
            else:
                seen[nid] = node_type
    if clashes:
        raise GraphFileError(
            f"{file}: node ids must be unique across types, but {len(clashes)} id(s) appear under two types, "
            f"e.g. {', '.join(clashes[:_EXAMPLES])}"
        )


def _dangling_neighbours(groups: dict[str, dict[str, dict[str, Any]]]) -> list[tuple[str, str, str]]:
    """``(node, relation, missing id)`` for every neighbour id that is not a node."""
    known = {nid for nodes in groups.values() for nid in nodes}
    return [
        (nid, relation, other)
        for nodes in groups.values()
        for nid, entry in nodes.items()
        for relation, ids in (entry.get("neighbors") or {}).items()
        for other in ids
        if other not in known
    ]


def _dangling_message(file: Path, dangling: list[tuple[str, str, str]]) -> str:
    distinct = sorted({other for _, _, other in dangling})
    examples = "; ".join(
        f"{other!r} (listed by {nid!r} under {rel!r})" for nid, rel, other in dangling[:_EXAMPLES]
    )
    return (
        f"{file}: {len(dangling)} neighbour reference(s) to {len(distinct)} id(s) that are not nodes in the file, "
        f"e.g. {examples}."
    )


def _choose_text_keys(groups: dict[str, dict[str, dict[str, Any]]]) -> dict[str, str]:
    """Per type, the first candidate feature present on most of its nodes (else any string feature)."""
    chosen: dict[str, str] = {}
    for node_type, nodes in groups.items():
        counts: dict[str, int] = {}
        for entry in nodes.values():
            for key, value in (entry.get("features") or {}).items():
                if isinstance(value, str) and value.strip():
                    counts[key] = counts.get(key, 0) + 1
        if not counts:
            continue
        half = len(nodes) / 2
        common = [k for k in TEXT_KEY_CANDIDATES if counts.get(k, 0) >= half]
        present = [k for k in TEXT_KEY_CANDIDATES if k in counts]
        chosen[node_type] = (common or present or [max(counts, key=counts.__getitem__)])[0]
    return chosen
