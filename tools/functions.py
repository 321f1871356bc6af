"""Graph Counselor's four graph functions with observation rendering.

``GraphFunctions`` wraps a :class:`~tools.store.GraphStore` and a
:class:`~tools.retrieval.base.Retriever`. It has two faces:

* typed methods ``retrieve``, ``feature``, ``neighbour``, ``degree`` that return
  plain values and raise :class:`~tools.errors.GraphError` subclasses;
* :meth:`GraphFunctions.call`, which never raises and returns a
  :class:`FunctionResult` holding both the value and the observation text the
  model sees.

Observation formats (the first four follow the paper's case studies)::

    Retrieve   The ID of this retrieval target node is 12.
    Neighbour  The cites neighbors of 12 are: ['3', '4'].
    Feature    The title feature of 12 are: Graph Counselor.
    Degree     The cites neighbor number of 12 is 2.

When the node argument is a list (a nested call returned several nodes) the
function is *mapped* over it and one observation covers the whole list::

    Feature    The title feature of ['3', '4'] are: ['Paper C', 'Paper D'].
    Neighbour  The cites neighbors of ['3', '4'] are: ['5', '6'].     (union, first-seen order)
    Degree     The cites neighbor numbers of ['3', '4'] are: [1, 0].
    Retrieve   The IDs of these retrieval target nodes are: ['3', '4'].

Feature and Degree values stay aligned with the input list; a mapped Neighbour
returns the de-duplicated union so that nesting reads as "all nodes two hops
away". Lists longer than ``max_list`` show the first ``max_list`` items and a
``... (N nodes in all)`` tail; long text values are cut at ``max_chars``.
Errors render as the error's own message, which names the valid options.

Weak models write ids and labels loosely, so resolution is tolerant: see
:func:`resolve_node`, and relation / feature names match case-, separator- and
``neighbour``/``neighbor``-insensitively when that identifies one name.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tools.errors import GraphError, UnknownFeatureError, UnknownNodeError, UnknownRelationError, _preview
from tools.retrieval.base import Retriever
from tools.store import GraphStore


class FunctionCallError(GraphError):
    """A graph function was called wrongly (unknown name, wrong arity, empty text)."""


@dataclass(frozen=True)
class FunctionSpec:
    """Signature of one graph function as the model writes it."""

    name: str
    params: tuple[str, ...]
    description: str

    @property
    def syntax(self) -> str:
        return f"{self.name}[{', '.join(self.params)}]"


FUNCTION_SPECS: dict[str, FunctionSpec] = {
    spec.name: spec
    for spec in (
        FunctionSpec("Retrieve", ("text",), "id of the node whose text is most similar to the given text"),
        FunctionSpec("Feature", ("node", "feature"), "value of one feature (e.g. title, name) of a node"),
        FunctionSpec(
            "Neighbour", ("node", "neighbor_type"), "ids of all neighbours linked by that edge type"
        ),
        FunctionSpec("Degree", ("node", "neighbor_type"), "number of neighbours linked by that edge type"),
    )
}

_QUOTES = "'\"`‘’“”"
# "node 12", "paper#12", "#12", "id: 12", "node #4", "node_id=12": a generic word or
# a node type, then a separator, then the id. Only these prefixes are stripped so that
# ids such as "DOID:3310" are never cut at their own colon.
_PREFIXED_ID = re.compile(r"^\s*(?P<prefix>[A-Za-z_][\w\- ]*?)?\s*(?:[#:=]|\s)\s*(?P<id>\S.*?)\s*$")
_GENERIC_PREFIXES = {"", "node", "id", "nodeid", "node_id", "node id", "vertex", "the node", "node number"}


def strip_quotes(text: str) -> str:
    """Whitespace and surrounding quote/backtick characters removed."""
    return str(text).strip().strip(_QUOTES).strip()


def resolve_node(store: GraphStore, raw: Any, node_types: set[str] | None = None) -> str:
    """The existing node id a model most plausibly meant by ``raw``.

    Tries, in order: the text as is; without quotes; without a ``node``/``id``/
    node-type prefix (``node 12``, ``paper#12``, ``#12``, ``id: 12``); without a
    trailing full stop. Raises :class:`UnknownNodeError` (with similar ids) when
    none exists.
    """
    text = str(raw)
    if text in store:
        return text
    clean = strip_quotes(text)
    if clean in store:
        return clean
    types: set[str] | None = node_types
    candidate = clean
    for _ in range(3):  # "node id: 12" needs two prefixes stripped
        match = _PREFIXED_ID.match(candidate)
        if not match:
            break
        prefix = (match.group("prefix") or "").strip().lower()
        if types is None:
            types = {t.lower() for t in store.node_types()}
        if prefix not in _GENERIC_PREFIXES and prefix not in types:
            break
        candidate = strip_quotes(match.group("id"))
        if candidate in store:
            return candidate
    trimmed = clean.rstrip(".,;")
    if trimmed and trimmed in store:
        return trimmed
    return store.require(clean)  # raises with suggestions


def _name_key(name: str) -> str:
    """Comparison key for relation/feature names: case, separators, neighbour spelling ignored."""
    key = strip_quotes(name).lower().replace("neighbour", "neighbor")
    return re.sub(r"[\s_\-]+", "_", key)


@dataclass(frozen=True)
class FunctionResult:
    """Outcome of one (possibly mapped) function application."""

    name: str
    value: Any
    observation: str
    ok: bool = True
    mapped: bool = False
    error: str | None = None


class GraphFunctions:
    """The four graph functions over one store and one retriever."""

    def __init__(
        self,
        store: GraphStore,
        retriever: Retriever | None = None,
        max_list: int = 100,
        max_chars: int | None = 2000,
    ) -> None:
        if max_list < 1:
            raise ValueError(f"max_list must be at least 1, got {max_list}")
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
        hits = self.retriever.search(query, k=1)
        if not hits:
            raise FunctionCallError(f"Retrieve found no node for {query!r}. Try other keywords.")
        return str(hits[0][0])

    def feature(self, node: Any, key: str) -> Any:
        """Value of feature ``key`` of ``node``."""
        return self._feature(node, key)[2]

    def neighbour(self, node: Any, relation: str) -> list[str]:
        """Ids of all neighbours of ``node`` along edge label ``relation``."""
        return self._neighbour(node, relation)[2]

    def degree(self, node: Any, relation: str) -> int:
        """Number of ``relation`` neighbours of ``node``."""
        return len(self._neighbour(node, relation)[2])

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
                table.setdefault(_name_key(label), []).append(label)
            self._label_cache = (size, table)
        return self._label_cache[1]

    def resolve_relation(self, node: str, relation: str) -> str:
        """The graph's edge label meant by ``relation`` (exact, else loose match)."""
        labels = self._labels_by_key()
        if any(relation in group for group in labels.values()):
            return relation
        candidates = labels.get(_name_key(relation), [])
        if len(candidates) > 1:  # prefer the labels present at this node
            here = set(self.store.relations(node))
            candidates = [c for c in candidates if c in here] or candidates
        if len(candidates) == 1:
            return candidates[0]
        valid = candidates or self.store.relations(node) or self.store.relations()
        raise UnknownRelationError(node, strip_quotes(relation), valid)

    def resolve_feature(self, node: str, key: str) -> str:
        """The feature name of ``node`` meant by ``key`` (exact, else loose match)."""
        feats = self.store.features(node)
        if key in feats:
            return key
        wanted = _name_key(key)
        matches = [k for k in feats if _name_key(k) == wanted]
        if len(matches) == 1:
            return matches[0]
        raise UnknownFeatureError(node, strip_quotes(key), matches or list(feats))

    def _feature(self, node: Any, key: Any) -> tuple[str, str, Any]:
        nid = self.resolve_node(node)
        name = self.resolve_feature(nid, str(key))
        return nid, name, self.store.features(nid)[name]

    def _neighbour(self, node: Any, relation: Any) -> tuple[str, str, list[str]]:
        nid = self.resolve_node(node)
        rel = str(relation)
        try:
            return nid, rel, self.store.neighbors(nid, rel)
        except UnknownRelationError:
            rel = self.resolve_relation(nid, rel)
            return nid, rel, self.store.neighbors(nid, rel)

    # ------------------------------------------------------------ one application
    def call(self, name: str, *args: Any) -> FunctionResult:
        """Apply function ``name`` (canonical spelling) to evaluated ``args``.

        A list as first argument maps the function over it. Never raises: errors
        come back as ``ok=False`` with the message as the observation.
        """
        try:
            spec = FUNCTION_SPECS.get(name)
            if spec is None:
                raise FunctionCallError(f"Unknown function {name!r}. {self.usage()}")
            if len(args) != len(spec.params):
                raise FunctionCallError(self._arity_message(spec, args))
            subject, rest = args[0], [str(a) if not isinstance(a, str) else a for a in args[1:]]
            if isinstance(subject, (list, tuple)):
                return self._mapped(spec, list(subject), rest)
            return self._single(spec, subject, rest)
        except GraphError as err:
            return FunctionResult(name, None, str(err), ok=False, error=str(err))

    def _single(self, spec: FunctionSpec, subject: Any, rest: list[str]) -> FunctionResult:
        if spec.name == "Retrieve":
            nid = self.retrieve(str(subject))
            return FunctionResult(spec.name, nid, f"The ID of this retrieval target node is {nid}.")
        if spec.name == "Feature":
            nid, key, value = self._feature(subject, rest[0])
            return FunctionResult(
                spec.name, value, f"The {key} feature of {nid} are: {self.render_value(value)}."
            )
        nid, rel, ids = self._neighbour(subject, rest[0])
        if spec.name == "Neighbour":
            return FunctionResult(
                spec.name, ids, f"The {rel} neighbors of {nid} are: {self.render_list(ids)}."
            )
        return FunctionResult(spec.name, len(ids), f"The {rel} neighbor number of {nid} is {len(ids)}.")

    def _mapped(self, spec: FunctionSpec, subjects: list[Any], rest: list[str]) -> FunctionResult:
        values: list[Any] = []
        names: list[str] = []  # canonical label/key as resolved (last success wins)
        failures: list[tuple[str, str]] = []
        shown_ids: list[str] = []
        for subject in subjects:
            try:
                if spec.name == "Retrieve":
                    values.append(self.retrieve(str(subject)))
                    shown_ids.append(str(subject))
                    continue
                if spec.name == "Feature":
                    nid, key, value = self._feature(subject, rest[0])
                    values.append(value)
                else:
                    nid, key, ids = self._neighbour(subject, rest[0])
                    values.append(ids if spec.name == "Neighbour" else len(ids))
                names.append(key)
                shown_ids.append(nid)
            except GraphError as err:
                failures.append((str(subject), str(err)))
                values.append(None)
                shown_ids.append(str(subject))
        if subjects and len(failures) == len(subjects):
            raise FunctionCallError(f"No value for any of {self.render_list(shown_ids)}: {failures[0][1]}")
        label = names[-1] if names else (rest[0] if rest else "")
        ids_text = self.render_list(shown_ids)
        if spec.name == "Retrieve":
            value: Any = values
            text = f"The IDs of these retrieval target nodes are: {self.render_list(values)}."
        elif spec.name == "Feature":
            value = values
            text = f"The {label} feature of {ids_text} are: {self.render_list(values, noun='values')}."
        elif spec.name == "Neighbour":
            union: dict[str, None] = {}
            for ids in values:
                union.update(dict.fromkeys(ids or ()))
            value = list(union)
            text = f"The {label} neighbors of {ids_text} are: {self.render_list(value)}."
        else:
            value = values
            text = (
                f"The {label} neighbor numbers of {ids_text} are: {self.render_list(values, noun='values')}."
            )
        if failures:
            missing = self.render_list([s for s, _ in failures])
            text += f" No value for {missing}: {failures[0][1]}"
        return FunctionResult(spec.name, value, text, mapped=True)

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
        listed = ", ".join(spec.syntax for spec in FUNCTION_SPECS.values())
        return f"Valid functions: {listed}, and Finish with the answer itself between its brackets."

    def _arity_message(self, spec: FunctionSpec, args: Sequence[Any]) -> str:
        message = f"{spec.name} takes {len(spec.params)} argument(s), {spec.syntax}, but got {len(args)}."
        if spec.params[0] == "node" and args and not isinstance(args[0], (list, tuple)):
            try:
                nid = self.resolve_node(args[0])
            except UnknownNodeError:
                return message
            if spec.name == "Feature":
                message += f" Feature names of {nid}: {_preview(self.store.features(nid))}."
            else:
                message += f" Neighbor types of {nid}: {_preview(self.store.relations(nid))}."
        return message
