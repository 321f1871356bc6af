"""Question programs over any graph's schema, with golds from a reference evaluator of their own.

The fixed templates of :mod:`graphreason.evals.datasets.generated` are written per graph; a program
is written per *schema*. :class:`PlainGraph` reads a graph once into plain dicts (node types, features,
and every labelled arc, reverse labels included, so each relation is seen in both directions);
:func:`schema_of` derives from that view which relations each node type has and where they lead,
and which of its features are names and which are categories. Programs are small trees of
operations over that schema:

* a node set: the subject's neighbours along a relation (:class:`Hop`, nested for two hops), a set
  filtered by a feature value (:class:`Filter`), the intersection or union of two sets (:class:`Join`);
* a value of a set or a node: a feature (:class:`Lookup`; of a set's one member, :class:`OnlyMember`), the size (:class:`Count`), the members'
  names (:class:`Names`), the member with the most / fewest neighbours along a relation
  (:class:`Extreme`), a feature of that member or its count of neighbours (:class:`OfExtreme`), the same for the
  members that tie where no single one wins (:class:`TiedPick`), the most common feature value (:class:`Mode`), how many members share or do not
  share the subject's value (:class:`CompareToSubject`), whether a node is in the set (:class:`Contains`);
* two named nodes compared by their neighbours along a relation: whether the first has more or fewer
  (:class:`MoreThan`), and how many more or fewer (:class:`Gap`).

Each program counts its operations (:attr:`Program.depth`, at most :data:`MAX_DEPTH`), and
:meth:`Program.evaluate` is the reference evaluator: plain set and dict operations over the view,
never the graph functions an agent calls, so a function bug cannot make a wrong gold look right.
A program whose answer is not well defined (a tie for the most, an empty set where a value is
asked, a list too long to write) evaluates to ``None`` and is not asked; a tie is asked by a program of its own
(:class:`TiedPick`), whose answer is every tied node.

:mod:`graphreason.evals.datasets.program_questions` samples programs and words them.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Literal

from graphreason.evals.datasets.answer_rules import sorted_items

MAX_DEPTH = 3  # operations in one program
MAX_LIST = 15  # the most names a list answer holds
MAX_CATEGORY_VALUES = 40  # a feature with more distinct values per type is a name or a text, not a category


@dataclass(frozen=True)
class PlainGraph:
    """A graph as plain dicts: what the reference evaluator reads.

    ``arcs[node][relation]`` holds the nodes at the other end of ``relation`` (reverse labels are
    relations of their own, so ``cites`` and ``cited_by`` are both here); ``names`` is each node's
    name or title (its id when it has none).
    """

    name: str
    types: dict[str, str]
    features: dict[str, dict[str, str]]
    arcs: dict[str, dict[str, frozenset[str]]]
    names: dict[str, str]
    named: frozenset[str] = frozenset()  # the nodes with a name of their own (not their id)

    @classmethod
    def from_store(cls, store: Any) -> PlainGraph:
        """Read a :class:`~graphreason.tools.core.store.GraphStore` once: nodes, features and labelled arcs."""
        types, features, arcs, names, named = {}, {}, {}, {}, set()
        for node in store.nodes():
            types[node] = store.node_type(node)
            raw = store.features(node)
            features[node] = {k: str(v) for k, v in raw.items() if isinstance(v, str | int | float) and str(v).strip()}
            arcs[node] = {r: frozenset(store.neighbors(node, r)) for r in store.relations(node)}
            names[node] = store.text(node)
            key = store.text_keys.get(types[node])
            if key and str(raw.get(key) or "").strip():
                named.add(node)
        return cls(store.name, types, features, arcs, names, frozenset(named))

    def hop(self, nodes: frozenset[str], relation: str) -> frozenset[str]:
        """Every node one ``relation`` step from any of ``nodes``."""
        found: set[str] = set()
        for node in nodes:
            found |= self.arcs.get(node, {}).get(relation, frozenset())
        return frozenset(found)


@dataclass(frozen=True)
class TypeSchema:
    """What one node type has: relations (with the types they lead to), its name feature, its categories."""

    relations: dict[str, tuple[str, ...]]
    name_key: str | None
    categories: tuple[str, ...]


def schema_of(graph: PlainGraph, text_keys: dict[str, str] | None = None) -> dict[str, TypeSchema]:
    """Each node type's relations (both directions, as labelled) and features, read from the view.

    A category is a feature that every node of the type carries, with 2 to
    :data:`MAX_CATEGORY_VALUES` distinct values; the name key is ``text_keys``' entry for the type.
    """
    relations: dict[str, dict[str, set[str]]] = {}
    values: dict[str, dict[str, set[str]]] = {}
    carried: dict[str, Counter[str]] = {}
    counts: Counter[str] = Counter()
    for node, node_type in graph.types.items():
        counts[node_type] += 1
        for relation, ends in graph.arcs[node].items():
            relations.setdefault(node_type, {}).setdefault(relation, set()).update(graph.types[e] for e in ends)
        for key, value in graph.features[node].items():
            values.setdefault(node_type, {}).setdefault(key, set()).add(value)
            carried.setdefault(node_type, Counter())[key] += 1
    schema = {}
    for node_type in sorted(counts):
        name_key = (text_keys or {}).get(node_type)
        categories = tuple(
            key for key, seen in sorted(values.get(node_type, {}).items())
            if key != name_key and carried[node_type][key] == counts[node_type] and 2 <= len(seen) <= MAX_CATEGORY_VALUES
        )  # fmt: skip
        schema[node_type] = TypeSchema(
            {r: tuple(sorted(ends)) for r, ends in sorted(relations.get(node_type, {}).items())}, name_key, categories
        )
    return schema


# ------------------------------------------------------------------------------------- node sets


@dataclass(frozen=True)
class Subject:
    """A node the question names (``slot`` 0 is the subject, 1 a second node)."""

    slot: int = 0

    def nodes(self, graph: PlainGraph, bound: tuple[str, ...]) -> frozenset[str]:
        return frozenset((bound[self.slot],))

    @property
    def depth(self) -> int:
        return 0


@dataclass(frozen=True)
class Hop:
    """The nodes one ``relation`` step from the nodes of ``source``."""

    source: Subject | Hop | Filter | Join
    relation: str

    def nodes(self, graph: PlainGraph, bound: tuple[str, ...]) -> frozenset[str]:
        return graph.hop(self.source.nodes(graph, bound), self.relation)

    @property
    def depth(self) -> int:
        return self.source.depth + 1


@dataclass(frozen=True)
class Filter:
    """The nodes of ``source`` whose ``key`` is ``value``."""

    source: Hop | Join
    key: str
    value: str

    def nodes(self, graph: PlainGraph, bound: tuple[str, ...]) -> frozenset[str]:
        return frozenset(n for n in self.source.nodes(graph, bound) if graph.features[n].get(self.key) == self.value)

    @property
    def depth(self) -> int:
        return self.source.depth + 1


@dataclass(frozen=True)
class Join:
    """The intersection (``both``) or union (``either``) of two node sets."""

    left: Hop
    right: Hop
    how: Literal["both", "either"]

    def nodes(self, graph: PlainGraph, bound: tuple[str, ...]) -> frozenset[str]:
        a, b = self.left.nodes(graph, bound), self.right.nodes(graph, bound)
        return a & b if self.how == "both" else a | b

    @property
    def depth(self) -> int:
        return max(self.left.depth, self.right.depth) + 1


@dataclass(frozen=True)
class Pair:
    """The two nodes the question names (slots 0 and 1), set side by side: "which has more citations, X or Y?"."""

    def nodes(self, graph: PlainGraph, bound: tuple[str, ...]) -> frozenset[str]:
        return frozenset(bound[:2])

    @property
    def depth(self) -> int:
        return 0


NodeSet = Subject | Hop | Filter | Join | Pair


# ------------------------------------------------------------------------------------- values


@dataclass(frozen=True)
class Lookup:
    """One feature of the subject."""

    key: str

    def value(self, graph: PlainGraph, bound: tuple[str, ...]) -> str | None:
        return graph.features[bound[0]].get(self.key)

    @property
    def depth(self) -> int:
        return 1


@dataclass(frozen=True)
class Count:
    """How many distinct nodes a set holds (0 is an answer)."""

    source: NodeSet

    def value(self, graph: PlainGraph, bound: tuple[str, ...]) -> str | None:
        return str(len(self.source.nodes(graph, bound)))

    @property
    def depth(self) -> int:
        return self.source.depth + 1


@dataclass(frozen=True)
class Names:
    """The distinct names of a set's nodes, sorted as list answers are; 1 to :data:`MAX_LIST` of them, all named."""

    source: NodeSet

    def value(self, graph: PlainGraph, bound: tuple[str, ...]) -> list[str] | None:
        members = self.source.nodes(graph, bound)
        if any(n not in graph.named for n in members):  # a node without a name would be answered by its id
            return None
        names = sorted_items(graph.names[n] for n in members)
        return names if 1 <= len(names) <= MAX_LIST else None

    @property
    def depth(self) -> int:
        return self.source.depth + 1


def _best(graph: PlainGraph, nodes: frozenset[str], relation: str, most: bool) -> tuple[list[str], int] | None:
    """The nodes of ``nodes`` (two or more) with the most (``most``) or fewest neighbours along ``relation``, sorted,
    and how many each has; None for a set of fewer than two."""
    degrees = {n: len(graph.arcs[n].get(relation, ())) for n in nodes}
    if len(degrees) < 2:
        return None
    best = max(degrees.values()) if most else min(degrees.values())
    return sorted(n for n, d in degrees.items() if d == best), best


def _pick(graph: PlainGraph, nodes: frozenset[str], relation: str, most: bool) -> tuple[str, int] | None:
    """The one node of ``nodes`` (two or more) with the most (``most``) or fewest neighbours along ``relation``, and
    how many it has; None for a tie or a set of fewer than two."""
    found = _best(graph, nodes, relation, most)
    return (found[0][0], found[1]) if found is not None and len(found[0]) == 1 else None


@dataclass(frozen=True)
class Extreme:
    """The name of the one node of a set with the most (``most``) or fewest neighbours along ``relation``."""

    source: NodeSet
    relation: str
    most: bool = True

    def value(self, graph: PlainGraph, bound: tuple[str, ...]) -> str | None:
        picked = _pick(graph, self.source.nodes(graph, bound), self.relation, self.most)
        return graph.names[picked[0]] if picked is not None and picked[0] in graph.named else None

    @property
    def depth(self) -> int:
        return self.source.depth + 1


@dataclass(frozen=True)
class OnlyMember:
    """A feature (``key``) of the one node a set holds: "the label of the paper X cites", asked where X cites one
    paper only. A set of none or of several, or a feature the node lacks, has no answer."""

    source: NodeSet
    key: str

    def value(self, graph: PlainGraph, bound: tuple[str, ...]) -> str | None:
        members = self.source.nodes(graph, bound)
        if len(members) != 1:
            return None
        (member,) = members
        return graph.features[member].get(self.key)

    @property
    def depth(self) -> int:
        return self.source.depth + 1


@dataclass(frozen=True)
class OfExtreme:
    """A value of the one node of a set with the most (``most``) or fewest neighbours along ``relation``: its ``key``
    feature, or, with no key, how many such neighbours it has ("the label of the most cited of X's references", "how
    many citations the least cited of them has"). A tie for the pick, or a feature the picked node lacks, has no
    answer."""

    source: NodeSet
    relation: str
    most: bool = True
    key: str | None = None

    def value(self, graph: PlainGraph, bound: tuple[str, ...]) -> str | None:
        picked = _pick(graph, self.source.nodes(graph, bound), self.relation, self.most)
        if picked is None:
            return None
        return str(picked[1]) if self.key is None else graph.features[picked[0]].get(self.key)

    @property
    def depth(self) -> int:
        return self.source.depth + 2  # the pick, then its value


def _tied(graph: PlainGraph, nodes: frozenset[str], relation: str, most: bool) -> tuple[list[str], int] | None:
    """The nodes of ``nodes`` that tie for the most (``most``) or fewest neighbours along ``relation``, sorted, and
    how many each has; None where one node wins (:func:`_pick`'s questions) or the set holds fewer than two."""
    found = _best(graph, nodes, relation, most)
    return found if found is not None and len(found[0]) > 1 else None


@dataclass(frozen=True)
class TiedPick:
    """A superlative over a set that no single node wins: two or more of its nodes tie for the most (``most``) or
    fewest neighbours along ``relation``. The answer is what the question asks of the pick, for all the tied nodes:
    their names (no ``key``, not ``count``); their values of ``key``, each once ("the label of the most cited of X's
    references", answered by both labels where the tied papers differ); or, with ``count``, the count they tie at.

    No answer where one node wins, a tied node has no name of its own (or lacks ``key``), two tied nodes share a name,
    or more than :data:`MAX_LIST` nodes tie."""

    source: NodeSet
    relation: str
    most: bool = True
    key: str | None = None
    count: bool = False

    def value(self, graph: PlainGraph, bound: tuple[str, ...]) -> str | list[str] | None:
        tied = _tied(graph, self.source.nodes(graph, bound), self.relation, self.most)
        if tied is None or len(tied[0]) > MAX_LIST:
            return None
        nodes, best = tied
        if self.count:
            return str(best)
        if self.key is not None:
            values = [graph.features[n].get(self.key) for n in nodes]
            if any(v is None for v in values):
                return None
            distinct = sorted_items(values)
            return distinct[0] if len(distinct) == 1 else distinct
        if any(n not in graph.named for n in nodes) or len({graph.names[n] for n in nodes}) < len(nodes):
            return None
        return sorted_items(graph.names[n] for n in nodes)

    @property
    def depth(self) -> int:
        return self.source.depth + (1 if self.key is None and not self.count else 2)  # the pick, then its value


@dataclass(frozen=True)
class Mode:
    """The single most common ``key`` among a set's nodes (a tie has no answer)."""

    source: NodeSet
    key: str

    def value(self, graph: PlainGraph, bound: tuple[str, ...]) -> str | None:
        counts = Counter(graph.features[n][self.key] for n in self.source.nodes(graph, bound) if self.key in graph.features[n])
        if len(counts) == 0:
            return None
        (top, first), *rest = counts.most_common()
        return top if not rest or rest[0][1] < first else None

    @property
    def depth(self) -> int:
        return self.source.depth + 1


@dataclass(frozen=True)
class MostReached:
    """The name of the node ``relation`` reaches from the most nodes of a set, each member counting once (the tag
    most of a user's artists carry). A tie, a node no two members reach, a name two reached nodes share, or a set
    that leads back to the subject (the friends of one's friends: the subject would win) has no answer."""

    source: NodeSet
    relation: str

    def value(self, graph: PlainGraph, bound: tuple[str, ...]) -> str | None:
        counts = Counter(t for n in self.source.nodes(graph, bound) for t in graph.arcs[n].get(self.relation, ()))
        if not counts or bound[0] in counts:
            return None
        (top, first), *rest = counts.most_common()
        if first < 2 or (rest and rest[0][1] == first) or top not in graph.named:
            return None
        name = graph.names[top]
        return name if sum(graph.names.get(t) == name for t in counts) == 1 else None

    @property
    def depth(self) -> int:
        return self.source.depth + 1


@dataclass(frozen=True)
class CompareToSubject:
    """How many of a set's nodes have the subject's ``key`` (``same``) or another value."""

    source: NodeSet
    key: str
    same: bool

    def value(self, graph: PlainGraph, bound: tuple[str, ...]) -> str | None:
        own = graph.features[bound[0]].get(self.key)
        if own is None:
            return None
        members = self.source.nodes(graph, bound)
        matching = sum(1 for n in members if (graph.features[n].get(self.key) == own) == self.same)
        return str(matching)

    @property
    def depth(self) -> int:
        return self.source.depth + 1


@dataclass(frozen=True)
class Contains:
    """``yes`` when the node in ``slot`` is in the set, else ``no``."""

    source: NodeSet
    slot: int = 1

    def value(self, graph: PlainGraph, bound: tuple[str, ...]) -> str | None:
        return "yes" if bound[self.slot] in self.source.nodes(graph, bound) else "no"

    @property
    def depth(self) -> int:
        return self.source.depth + 1


@dataclass(frozen=True)
class AnyWith:
    """``yes`` when some node of a set has ``key`` equal to ``value``, else ``no``."""

    source: NodeSet
    key: str
    value_: str

    def value(self, graph: PlainGraph, bound: tuple[str, ...]) -> str | None:
        members = self.source.nodes(graph, bound)
        if not members:
            return None
        return "yes" if any(graph.features[n].get(self.key) == self.value_ for n in members) else "no"

    @property
    def depth(self) -> int:
        return self.source.depth + 1


@dataclass(frozen=True)
class MoreThan:
    """``yes`` when the node in slot 0 has more (``more``) or fewer neighbours along ``relation`` than the node in slot
    1, else ``no``; a tie has no answer (either reading of "more" would do)."""

    relation: str
    more: bool = True

    def value(self, graph: PlainGraph, bound: tuple[str, ...]) -> str | None:
        mine, theirs = (len(graph.arcs[n].get(self.relation, ())) for n in bound[:2])
        if mine == theirs:
            return None
        return "yes" if (mine > theirs) == self.more else "no"

    @property
    def depth(self) -> int:
        return 2


@dataclass(frozen=True)
class Gap:
    """How many more (``more``) or fewer neighbours along ``relation`` the node in slot 0 has than the node in slot 1:
    a positive number, else no answer (the question would say the wrong way round)."""

    relation: str
    more: bool = True

    def value(self, graph: PlainGraph, bound: tuple[str, ...]) -> str | None:
        mine, theirs = (len(graph.arcs[n].get(self.relation, ())) for n in bound[:2])
        gap = mine - theirs if self.more else theirs - mine
        return str(gap) if gap > 0 else None

    @property
    def depth(self) -> int:
        return 2


Operation = Lookup | Count | Names | OnlyMember | Extreme | OfExtreme | TiedPick | Mode | MostReached | CompareToSubject | Contains | AnyWith | MoreThan | Gap


@dataclass(frozen=True)
class Program:
    """A question's meaning: one operation over the graph and the nodes it names (``bound``)."""

    shape: str
    operation: Operation
    bound: tuple[str, ...]

    @property
    def depth(self) -> int:
        return self.operation.depth

    def evaluate(self, graph: PlainGraph) -> str | list[str] | None:
        """The gold answer, or ``None`` when the program has no well-defined one."""
        if self.depth > MAX_DEPTH:
            raise ValueError(f"{self.shape} has {self.depth} operations; programs have at most {MAX_DEPTH}")
        return self.operation.value(graph, self.bound)
