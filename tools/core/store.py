"""A typed, text-attributed graph store.

Nodes carry an id (always a string), a type and a feature dict. Edges carry a
relation label and optional attributes (weight, ...). Lookups are plain dict
accesses so a graph function costs microseconds.

Relation labels are what the agents name in ``Neighbour[node, relation]``:

* undirected edge ``u -r- v`` is listed under ``r`` at both ends;
* directed edge ``u -r-> v`` is listed under ``r`` at ``u`` and, when the loader
  gives a reverse label (``cites`` / ``cited_by``), under that label at ``v``;
  ``neighbors(direction="in")`` also reaches in-arcs without a reverse label.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal, TypeVar
from weakref import WeakKeyDictionary

from graphreason.tools.core.errors import UnknownFeatureError, UnknownNodeError, UnknownRelationError

Direction = Literal["out", "in", "any"]


# Shared by every edge without attributes: read-only, so no edge can change another's.
_NO_ATTRS: Mapping[str, Any] = MappingProxyType({})


@dataclass(frozen=True, slots=True)
class Edge:
    """One primary edge as loaded (reverse-labelled arcs are not repeated here).

    Slots and the shared empty ``attrs`` matter at scale: a ``__dict__`` and a dict
    per edge would cost memory on every one of a large graph's edges.
    """

    src: str
    dst: str
    relation: str
    attrs: Mapping[str, Any] = field(default_factory=lambda: _NO_ATTRS)


class GraphStore:
    """Typed multigraph with labelled adjacency lists.

    ``text_keys`` maps a node type to the feature used as its name/title: it is
    the text Retrieve embeds and what answers should quote instead of ids.
    """

    def __init__(
        self,
        name: str = "graph",
        directed: bool = False,
        text_keys: dict[str, str] | None = None,
        description: str = "",
    ) -> None:
        self.name = name
        self.directed = directed
        self.text_keys: dict[str, str] = dict(text_keys or {})
        self.description = description
        self._type: dict[str, str] = {}
        self._features: dict[str, dict[str, Any]] = {}
        # node -> relation -> ordered set of neighbour ids (dict keys keep order, dedupe)
        self._out: dict[str, dict[str, dict[str, None]]] = {}
        self._in: dict[str, dict[str, dict[str, None]]] = {}
        self._edges: list[Edge] = []
        self._fingerprint: str | None = None
        self._schema: dict[str, dict[str, list[str]]] | None = None  # node type -> relation -> target types
        self._type_features: dict[str, list[str]] | None = None  # node type -> feature names

    # ------------------------------------------------------------------ building
    def add_node(self, node: Any, type: str = "node", features: dict[str, Any] | None = None) -> str:
        """Add a node or merge features into an existing one. Returns the string id."""
        nid = str(node)
        if nid not in self._type:
            self._type[nid] = type
            self._features[nid] = {}
            self._out[nid] = {}
            self._in[nid] = {}
        elif type != "node":
            self._type[nid] = type
        if features:
            self._features[nid].update(features)
        self._fingerprint = self._schema = self._type_features = None
        return nid

    def add_edge(
        self,
        src: Any,
        dst: Any,
        relation: str = "neighbor",
        reverse_relation: str | None = None,
        **attrs: Any,
    ) -> None:
        """Add a primary edge; endpoints are created as untyped nodes if new."""
        s, d = str(src), str(dst)
        for nid in (s, d):
            if nid not in self._type:
                self.add_node(nid)
        self._edges.append(Edge(s, d, relation, attrs or _NO_ATTRS))
        self._arc(s, d, relation)
        if not self.directed:
            self._arc(d, s, relation)
        elif reverse_relation:
            self._arc(d, s, reverse_relation)
        self._fingerprint = self._schema = self._type_features = None

    def add_arc(self, src: Any, dst: Any, relation: str) -> None:
        """Add one adjacency entry only (for formats that list both directions themselves)."""
        s, d = str(src), str(dst)
        for nid in (s, d):
            if nid not in self._type:
                self.add_node(nid)
        if d not in self._out[s].get(relation, ()):
            self._edges.append(Edge(s, d, relation))
        self._arc(s, d, relation)
        self._fingerprint = self._schema = self._type_features = None

    def _arc(self, s: str, d: str, relation: str) -> None:
        self._out[s].setdefault(relation, {})[d] = None
        self._in[d].setdefault(relation, {})[s] = None

    # ------------------------------------------------------------------ lookups
    def __contains__(self, node: object) -> bool:
        return str(node) in self._type

    def __len__(self) -> int:
        return len(self._type)

    def nodes(self, type: str | None = None) -> Iterator[str]:
        """Node ids, optionally of one type, in insertion order."""
        if type is None:
            return iter(self._type)
        return (n for n, t in self._type.items() if t == type)

    def edges(self) -> list[Edge]:
        return self._edges

    @property
    def num_edges(self) -> int:
        return len(self._edges)

    def require(self, node: Any) -> str:
        """Return the string id of ``node`` or raise :class:`UnknownNodeError`."""
        nid = str(node).strip()
        if nid in self._type:
            return nid
        raise UnknownNodeError(nid, self._similar_ids(nid))

    def _similar_ids(self, nid: str, limit: int = 5) -> list[str]:
        low = nid.lower()
        return [n for n in self._type if low and (low in n.lower() or n.lower() in low)][:limit]

    def node_type(self, node: Any) -> str:
        return self._type[self.require(node)]

    def node_types(self) -> list[str]:
        return sorted(set(self._type.values()))

    def relations(self, node: Any | None = None, direction: Direction = "out") -> list[str]:
        """Relation labels at one node, or every label in the graph."""
        if node is None:
            return sorted({r for adj in self._out.values() for r in adj})
        nid = self.require(node)
        out = list(self._out[nid]) if direction in ("out", "any") else []
        inn = list(self._in[nid]) if direction in ("in", "any") else []
        return list(dict.fromkeys(out + inn))

    def type_relations(self, node_type: str) -> list[str]:
        """The relation labels found at any node of ``node_type`` (outgoing, reverse labels included), sorted.

        This is the type's schema: a label outside it is not a relation such nodes can have,
        while a label inside it with no arc at one node means that node has none.
        """
        return sorted(self.schema().get(node_type, {}))

    def schema(self) -> dict[str, dict[str, list[str]]]:
        """``node type -> relation -> the node types at the other end`` (sorted), read from the arcs once."""
        if self._schema is None:
            found: dict[str, dict[str, set[str]]] = {}
            for nid, table in self._out.items():
                relations = found.setdefault(self._type[nid], {})
                for relation, targets in table.items():
                    ends = relations.setdefault(relation, set())
                    for target in targets:
                        ends.add(self._type[target])
            self._schema = {
                t: {r: sorted(ends) for r, ends in sorted(rels.items())} for t, rels in sorted(found.items())
            }
        return {t: dict(rels) for t, rels in self._schema.items()}

    def type_features(self) -> dict[str, list[str]]:
        """``node type -> the feature names its nodes carry`` (sorted), read from the nodes once."""
        if self._type_features is None:
            found: dict[str, set[str]] = {}
            for nid, t in self._type.items():
                found.setdefault(t, set()).update(self._features[nid].keys())
            self._type_features = {t: sorted(keys) for t, keys in sorted(found.items())}
        return dict(self._type_features)

    def neighbors(self, node: Any, relation: str | None = None, direction: Direction = "out") -> list[str]:
        """Neighbour ids; ``relation=None`` merges all relations.

        Raises :class:`UnknownRelationError` when ``relation`` is not a label in
        the graph at all; a known label with no arcs at this node gives ``[]``.
        """
        nid = self.require(node)
        tables = []
        if direction in ("out", "any"):
            tables.append(self._out[nid])
        if direction in ("in", "any") and (self.directed or direction == "in"):
            tables.append(self._in[nid])
        if relation is None:
            merged: dict[str, None] = {}
            for table in tables:
                for ids in table.values():
                    merged.update(ids)
            return list(merged)
        found = [t[relation] for t in tables if relation in t]
        if not found:
            if relation not in self._known_relations():
                raise UnknownRelationError(nid, relation, self.relations(nid, direction))
            return []
        if len(found) == 1:
            return list(found[0])
        merged = dict(found[0])
        for ids in found[1:]:
            merged.update(ids)
        return list(merged)

    def _known_relations(self) -> set[str]:
        cached = getattr(self, "_relation_cache", None)
        if cached is None or cached[0] != len(self._edges):
            labels = {r for adj in self._out.values() for r in adj}
            self._relation_cache = (len(self._edges), labels)
            return labels
        return cached[1]

    def degree(self, node: Any, relation: str | None = None, direction: Direction = "out") -> int:
        return len(self.neighbors(node, relation, direction))

    def features(self, node: Any) -> dict[str, Any]:
        """The whole feature dict of a node (a live view: do not mutate)."""
        return self._features[self.require(node)]

    def feature(self, node: Any, key: str | None = None) -> Any:
        """One feature value, or the whole dict when ``key`` is None."""
        feats = self.features(node)
        if key is None:
            return feats
        if key in feats:
            return feats[key]
        raise UnknownFeatureError(str(node), key, list(feats))

    def text(self, node: Any) -> str:
        """The node's main text (its name/title feature), falling back to its id."""
        nid = self.require(node)
        key = self.text_keys.get(self._type[nid])
        value = self._features[nid].get(key) if key else None
        return str(value) if value not in (None, "") else nid

    def describe(self) -> str:
        """The prompt's graph definition: each node type with its features and its relations to other types.

        ``A directed graph 'cora' with paper nodes (features: label, title; neighbor types:
        cited_by -> paper, cites -> paper).`` A loader's own description wins.
        """
        if self.description:
            return self.description
        schema = self.schema()
        parts = []
        for t, keys in self.type_features().items():
            relations = ", ".join(f"{r} -> {' or '.join(ends)}" for r, ends in schema.get(t, {}).items())
            parts.append(f"{t} nodes (features: {', '.join(keys) or 'none'}; neighbor types: {relations or 'none'})")
        kind = "directed" if self.directed else "undirected"
        return f"A {kind} graph '{self.name}' with " + "; ".join(parts) + "."

    # ------------------------------------------------------------------ export
    def fingerprint(self) -> str:
        """Content hash (ids, types, text, edges): keys persisted indexes to this graph."""
        if self._fingerprint is None:
            h = hashlib.sha256()
            for nid, t in self._type.items():
                h.update(f"{nid}\x00{t}\x00{self.text(nid)}\x01".encode())
            for e in self._edges:
                h.update(f"{e.src}\x00{e.dst}\x00{e.relation}\x01".encode())
            self._fingerprint = h.hexdigest()[:16]
        return self._fingerprint

    @classmethod
    def from_edges(
        cls,
        edges: Iterable[tuple[Any, Any]],
        directed: bool = False,
        name: str = "graph",
        relation: str = "neighbor",
    ) -> GraphStore:
        """Convenience builder for plain edge lists."""
        store = cls(name=name, directed=directed)
        for u, v in edges:
            store.add_edge(u, v, relation)
        return store

    def __repr__(self) -> str:
        return (
            f"GraphStore({self.name!r}, nodes={len(self)}, edges={self.num_edges}, directed={self.directed})"
        )


_T = TypeVar("_T")


def per_store(read: Callable[[GraphStore], _T]) -> Callable[[GraphStore], _T]:
    """``read(store)`` worked out once per store and again when the store grows (its node or edge count changed);
    a store that is gone takes its entry with it."""
    cache: WeakKeyDictionary[GraphStore, tuple[tuple[int, int], _T]] = WeakKeyDictionary()

    @functools.wraps(read)
    def cached(store: GraphStore) -> _T:
        size = (len(store), store.num_edges)
        held = cache.get(store)
        if held is None or held[0] != size:
            held = (size, read(store))
            cache[store] = held
        return held[1]

    return cached
