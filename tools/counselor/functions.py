"""The graph context every Counselor entry runs against, with observation rendering.

``GraphFunctions`` wraps a :class:`~graphreason.tools.core.store.GraphStore` and a
:class:`~graphreason.tools.core.retrieval.base.Retriever`. It has two faces:

* typed methods ``retrieve``, ``feature``, ``neighbour``, ``degree`` that return
  plain values and raise :class:`~graphreason.tools.core.errors.GraphError` subclasses;
* :meth:`GraphFunctions.call`, which never raises and returns a
  :class:`~graphreason.tools.core.registry.FunctionResult` holding both the value and the
  observation text the model sees.

``call`` looks the name up in the instance's registry (by default Graph
Counselor's, :data:`graphreason.tools.counselor.registry.GRAPH_FUNCTIONS`, where the
functions, their aliases and observation formats are declared) and applies the
entry with :func:`graphreason.tools.core.registry.apply`, which also maps a function over a list
argument. This module keeps what every entry shares: tolerant resolution of
node ids, relation and feature names, and bounded rendering of values. Lists
longer than ``max_list`` show the first ``max_list`` items and a
``... (N nodes in all)`` tail; long text values are cut at ``max_chars``.
Errors render as the error's own message, which names the valid options.

Weak models write ids and labels loosely, so resolution is tolerant: see
:func:`resolve_node`, and relation / feature names match case-, separator- and
``neighbour``/``neighbor``-insensitively when that identifies one name.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from graphreason.tools.core.errors import (
    GraphError,
    UnknownFeatureError,
    UnknownNodeError,
    UnknownRelationError,
    _preview,
)
from graphreason.tools.core.node_ids import GENERIC_PREFIXES, find_id, strip_quotes
from graphreason.tools.core.registry import (
    FEATURE_KEY,
    NODE,
    RELATION,
    Entry,
    FunctionCallError,
    FunctionResult,
    Registry,
    apply,
)
from graphreason.tools.core.retrieval.base import Retriever
from graphreason.tools.core.store import GraphStore
from graphreason.tools.counselor.registry import GRAPH_FUNCTIONS

# The four graph functions by name (Finish is not one: it runs nothing).
FUNCTION_SPECS: dict[str, Entry] = {e.name: e for e in GRAPH_FUNCTIONS if not e.terminal}


def resolve_node(store: GraphStore, raw: Any, node_types: set[str] | None = None) -> str:
    """The existing node id a model most plausibly meant by ``raw``.

    Tries the readings of :func:`graphreason.tools.core.node_ids.id_readings` in
    order: the text as is; without quotes or brackets; without a ``node``/``id``/
    node-type prefix (``node 12``, ``paper#12``, ``#12``, ``id: 12``); without a
    trailing full stop. Raises :class:`UnknownNodeError` (with similar ids) when
    none exists.
    """
    text = str(raw)
    if text in store:
        return text
    types = node_types if node_types is not None else {t.lower() for t in store.node_types()}
    found = find_id(raw, store, GENERIC_PREFIXES | types)
    return str(found) if found is not None else store.require(strip_quotes(text))  # raises with suggestions


# Where Retrieve writes how it ranked each search, while a caller collects them (see recording_retrievals).
_RETRIEVALS: ContextVar[list[dict[str, str]] | None] = ContextVar("counselor_retrievals", default=None)


@contextmanager
def recording_retrievals() -> Iterator[list[dict[str, str]]]:
    """Collect, for the calls run inside, each Retrieve's query, node and the ranking tier that chose it."""
    found: list[dict[str, str]] = []
    token = _RETRIEVALS.set(found)
    try:
        yield found
    finally:
        _RETRIEVALS.reset(token)


# The relation or feature names the call around a Retrieve asks of the node it finds (see retrieving_for)
_WANTED: ContextVar[tuple[str, ...]] = ContextVar("counselor_retrieve_for", default=())
NAMESAKES = 8  # how many nodes of one exact name Retrieve weighs by what the call around it asks of them


@contextmanager
def retrieving_for(names: Sequence[str]) -> Iterator[None]:
    """Inside, Retrieve prefers, of the nodes whose name is the search text, one whose type has a relation or feature
    of ``names`` (what the call around it asks: ``Degree[Retrieve[duran duran], tag_on]`` wants the tag, not the
    artist of that name)."""
    token = _WANTED.set(tuple(names))
    try:
        yield
    finally:
        _WANTED.reset(token)


def name_key(name: str) -> str:
    """Comparison key for relation/feature names: quotes, case, separators, neighbour spelling ignored."""
    key = strip_quotes(name).lower().replace("neighbour", "neighbor")
    return re.sub(r"[\s_\-]+", "_", key)


class GraphFunctions:
    """The graph functions of ``registry`` over one store and one retriever."""

    def __init__(
        self,
        store: GraphStore,
        retriever: Retriever | None = None,
        max_list: int = 100,
        max_chars: int | None = 2000,
        registry: Registry | None = None,
    ) -> None:
        if max_list < 1:
            raise ValueError(f"max_list must be at least 1, got {max_list}")
        self.registry = GRAPH_FUNCTIONS if registry is None else registry
        self.store = store
        self.retriever = retriever
        self.max_list = max_list
        self.max_chars = max_chars
        self._label_cache: tuple[int, dict[str, list[str]]] | None = None
        self._type_cache: tuple[int, set[str]] | None = None

    # ------------------------------------------------------------ typed functions
    def retrieve(self, text: str) -> str:
        """Id of the top-1 node by text similarity (not an id lookup)."""
        query = strip_quotes(text)
        if not query:
            raise FunctionCallError(
                "Retrieve needs some text to search for, e.g. Retrieve[graph neural networks]."
            )
        if self.retriever is None:
            raise FunctionCallError("Retrieve is not available: no retriever was configured for this graph.")
        explained = getattr(self.retriever, "search_explained", None)
        if explained is not None:
            found = explained(query, k=1)
            hits = [(hit.node, hit.score) for hit in found]
            how = found[0].how if found else ""
            wanted = _WANTED.get()
            if wanted and how == "exact name":  # of a name several nodes bear, the one with what the call asks
                hits = [(self._fitting(query, hits[0][0], wanted), hits[0][1])]
        else:
            hits, how = self.retriever.search(query, k=1), "dense"
        if not hits:
            raise FunctionCallError(f"Retrieve found no node for {query!r}. Try other keywords.")
        notes = _RETRIEVALS.get()
        if notes is not None:
            notes.append({"query": query, "node": str(hits[0][0]), "ranked_by": how})
        return str(hits[0][0])

    def _fitting(self, query: str, top: str, wanted: Sequence[str]) -> str:
        """The node Retrieve takes for ``query`` whose exact-name top hit is ``top``: ``top``, unless its type has none
        of ``wanted`` (relations or features) and a namesake's type (of the first :data:`NAMESAKES`) has one; then the
        first such namesake. Namesakes come from the retriever's exact-name lookup, with no dense search."""
        keys = {name_key(name) for name in wanted}
        schema, features = self.store.schema(), self.store.type_features()

        def fits(node: str) -> bool:
            node_type = self.store.node_type(node)
            owned = [*schema.get(node_type, {}), *features.get(node_type, ())]
            return any(name_key(name) in keys for name in owned)

        namesakes = getattr(self.retriever, "namesakes", None)
        if fits(top) or namesakes is None:
            return top
        return next((node for node in namesakes(query, NAMESAKES) if fits(node)), top)

    def feature(self, node: Any, key: str) -> Any:
        """Value of feature ``key`` of ``node``."""
        return self.lookup_feature(node, key)[2]

    def neighbour(self, node: Any, relation: str) -> list[str]:
        """Ids of all neighbours of ``node`` along edge label ``relation``."""
        return self.lookup_neighbours(node, relation)[2]

    def degree(self, node: Any, relation: str) -> int:
        """Number of ``relation`` neighbours of ``node``."""
        return len(self.lookup_neighbours(node, relation)[2])

    # ------------------------------------------------------------ resolution
    def resolve_node(self, raw: Any) -> str:
        """Tolerant id resolution (see :func:`resolve_node`)."""
        if isinstance(raw, str) and raw in self.store:
            return raw
        return resolve_node(self.store, raw, self._node_types())

    def _node_types(self) -> set[str]:
        size = len(self.store)
        if self._type_cache is None or self._type_cache[0] != size:
            self._type_cache = (size, {t.lower() for t in self.store.node_types()})
        return self._type_cache[1]

    def _labels_by_key(self) -> dict[str, list[str]]:
        size = self.store.num_edges
        if self._label_cache is None or self._label_cache[0] != size:
            table: dict[str, list[str]] = {}
            for label in self.store.relations():
                table.setdefault(name_key(label), []).append(label)
            self._label_cache = (size, table)
        return self._label_cache[1]

    def resolve_relation(self, node: str, relation: str) -> str:
        """The graph's edge label meant by ``relation`` (exact, else loose match)."""
        labels = self._labels_by_key()
        if any(relation in group for group in labels.values()):
            return relation
        candidates = labels.get(name_key(relation), [])
        node_type = self.store.node_type(node)
        schema = self.store.type_relations(node_type)
        if len(candidates) > 1:  # prefer the labels nodes of this type have
            candidates = [c for c in candidates if c in schema] or candidates
        if len(candidates) == 1:
            return candidates[0]
        if candidates:
            raise UnknownRelationError(node, strip_quotes(relation), candidates)
        raise UnknownRelationError(node, strip_quotes(relation), schema, node_type=node_type)

    def resolve_feature(self, node: str, key: str) -> str:
        """The feature name of ``node`` meant by ``key`` (exact, else loose match)."""
        feats = self.store.features(node)
        if key in feats:
            return key
        wanted = name_key(key)
        matches = [k for k in feats if name_key(k) == wanted]
        if len(matches) == 1:
            return matches[0]
        raise UnknownFeatureError(node, strip_quotes(key), matches or list(feats))

    def lookup_feature(self, node: Any, key: Any) -> tuple[str, str, Any]:
        """``(node id, feature name, value)`` as resolved from loosely written ``node`` and ``key``."""
        nid = self.resolve_node(node)
        name = self.resolve_feature(nid, str(key))
        return nid, name, self.store.features(nid)[name]

    def lookup_neighbours(self, node: Any, relation: Any) -> tuple[str, str, list[str]]:
        """``(node id, edge label, neighbour ids)`` as resolved from loosely written arguments."""
        nid = self.resolve_node(node)
        rel = str(relation)
        try:
            ids = self.store.neighbors(nid, rel)
        except UnknownRelationError:
            rel = self.resolve_relation(nid, rel)
            ids = self.store.neighbors(nid, rel)
        node_type = self.store.node_type(nid)
        schema = self.store.type_relations(node_type)
        if rel not in schema:  # a label of the graph that no node of this type has: not "0 neighbours"
            raise UnknownRelationError(nid, rel, schema, node_type=node_type)
        return nid, rel, ids

    # ------------------------------------------------------------ one application
    def call(self, name: str, *args: Any) -> FunctionResult:
        """Apply function ``name`` (any spelling or alias of the registry) to evaluated ``args``.

        A list as first argument maps the function over it. Never raises a
        graph error: those come back as ``ok=False`` with the message as the
        observation (unknown names and wrong arity included).
        """
        try:
            return apply(self.registry.get(name), self, args)
        except GraphError as err:
            return FunctionResult(name, None, str(err), ok=False, error=str(err))

    # ------------------------------------------------------------ rendering
    def render_list(self, items: Sequence[Any], noun: str = "nodes") -> str:
        """``['a', 'b']``; beyond ``max_list`` items: ``['a', 'b', ... (N nodes in all)]``."""
        shown = [self._atom(x) for x in items[: self.max_list]]
        if len(items) > self.max_list:
            shown.append(f"... ({len(items)} {noun} in all)")
        return "[" + ", ".join(shown) + "]"

    def _atom(self, value: Any) -> str:
        if isinstance(value, str):
            return repr(self._clip(value))
        if isinstance(value, (list, tuple)):
            return self.render_list(value, noun="values")
        return repr(value)

    def _clip(self, text: str) -> str:
        if self.max_chars is not None and len(text) > self.max_chars:
            return text[: self.max_chars] + f"... ({len(text)} characters in all)"
        return text

    def render_value(self, value: Any) -> str:
        """A feature value as observation text (strings bare, as in the paper)."""
        if value is None or value == "":
            return "(empty)"
        if isinstance(value, str):
            return self._clip(value)
        if isinstance(value, (list, tuple)):
            return self.render_list(value, noun="values")
        return str(value)

    # ------------------------------------------------------------ help texts
    def usage(self) -> str:
        """One-line list of valid functions, used in corrective observations."""
        return self.registry.usage()

    def arity_hint(self, entry: Entry, args: Sequence[Any]) -> str:
        """After a wrong argument count: the valid keys of the node the call names, if it names one."""
        if not entry.params or entry.params[0].kind is not NODE or not args:
            return ""
        if isinstance(args[0], (list, tuple)):
            return ""
        kinds = {p.kind for p in entry.params[1:]}
        try:
            nid = self.resolve_node(args[0])
        except UnknownNodeError:
            return ""
        if FEATURE_KEY in kinds:
            return f" Feature names of {nid}: {_preview(self.store.features(nid))}."
        if RELATION in kinds:
            return f" Neighbor types of {nid}: {_preview(self.store.relations(nid))}."
        return ""


__all__ = [
    "FUNCTION_SPECS",
    "FunctionCallError",
    "FunctionResult",
    "GraphFunctions",
    "resolve_node",
    "strip_quotes",
]
