"""Graph Counselor's vocabulary, declared once: Retrieve, Feature, Neighbour, Degree, Finish, aggregates, sets and a filter.

Each entry runs against a :class:`~graphreason.tools.counselor.functions.GraphFunctions` (the graph
context) and renders the observation formats of the paper's case studies::

    Retrieve   The ID of this retrieval target node is 12.
    Neighbour  The cites neighbors of 12 are: ['3', '4'].
    Feature    The title feature of 12 are: Graph Counselor.
    Degree     The cites neighbor number of 12 is 2.

and, when the node argument is a list returned by an inner call::

    Feature    The title feature of ['3', '4'] are: ['Paper C', 'Paper D'].
    Neighbour  The cites neighbors of ['3', '4'] are: ['5', '6'].     (union, first-seen order)
    Degree     The cites neighbor numbers of ['3', '4'] are: [1, 0].
    Retrieve   The IDs of these retrieval target nodes are: ['3', '4'].

Beyond the paper, four aggregates do the counting and comparing, so a question that needs it
reads its answer off the observation instead of working it out. Three take the whole list an
inner call returned (they are not mapped over it); ``Differing`` compares a node's neighbours
with the node itself::

    Count      Count[Neighbour[12, cites]]: The number of distinct values is: 2.
    Mode       Mode[Feature[Neighbour[12, cites], label]]: The most common value (2 of 3) is: Theory.
    MaxDegree  MaxDegree[Neighbour[12, cites], cites]: The node with the most cites neighbors (4) is: 3.
    Differing  Differing[12, cites, label]: The number of cites neighbors of 12 whose label is not
               its own (Theory) is: 1.

``Matching`` filters a list by a value the question names, for Count or Finish to read::

    Matching   Matching[Neighbour[12, cites], label, Theory]: The nodes whose label is Theory are: ['3'].

The rest close the questions whose answer is worked out over lists (the fewest, the same value
as the node's, two lists' overlap, union or difference, membership, existence), so that every question
program of :mod:`graphreason.evals.datasets.programs` is one action whose observation holds
its answer::

    MinDegree  MinDegree[Neighbour[12, cites], cites]: The node with the fewest cites neighbors (0) is: 4.
    Same       Same[12, cites, label]: The number of cites neighbors of 12 whose label is its own (Theory) is: 1.
    Intersect  Intersect[Neighbour[12, cites], Neighbour[7, cites]]: The nodes in both lists are: ['3'].
    Union      Union[Neighbour[12, cites], Neighbour[7, cites]]: The nodes in either list are: ['3', '4', '9'].
    Without    Without[Neighbour[Neighbour[12, cites], cites], Neighbour[12, cites]]: The nodes in the first list and
               not in the second are: ['5'].
    Contains   Contains[Neighbour[12, cites], 3]: Whether the list holds 3 is: yes.
    Exists     Exists[Matching[Neighbour[12, cites], label, Theory]]: Whether the list holds anything is: yes.
    MostLinked MostLinked[Neighbour[12, cites], cites]: The node that is the cites neighbor of the most of them
               (2 of 3) is: 5.

Three compare two named nodes by their numbers of neighbours ("Does X have more citations than Y?",
"how many more?"); a list of more than one node is an error::

    MoreThan   MoreThan[12, 7, cites]: Whether 12 has more cites neighbors than 7 (2 against 1) is: yes.
    FewerThan  FewerThan[12, 7, cites]: Whether 12 has fewer cites neighbors than 7 (2 against 1) is: no.
    Difference Difference[12, 7, cites]: The difference between the cites neighbor numbers of 12 and 7 (2 and 1)
               is: 1.

The paper's four functions leave counting and comparing to the language model; a
135M model cannot count thirty items in its head, so the tuned reasoner is taught to call
these. A tie has no single most common value or top node: Mode and MaxDegree then
say so as an error observation naming the tied values, never pick one.

Finish is terminal: the executor takes its answer, it runs nothing. To add a
function, register another :class:`~graphreason.tools.core.registry.Entry` here (or build a
new registry with :meth:`~graphreason.tools.core.registry.Registry.extended`); the parsers, the
executor and the LangChain tools pick it up without changes.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any

from graphreason.tools.core.errors import GraphError
from graphreason.tools.core.registry import (
    ANSWER,
    FEATURE_KEY,
    NODE,
    RELATION,
    TEXT,
    VALUES,
    Applied,
    Entry,
    MapMode,
    Param,
    Registry,
)
from graphreason.tools.core.retrieval.lexical import normalise

if TYPE_CHECKING:  # entries receive it at call time; importing it here would be circular
    from graphreason.tools.counselor.functions import GraphFunctions

FINISH = "Finish"

_NODE = Param("node", NODE, "Node id, e.g. one returned by retrieve or neighbour.")
_RELATION = Param(
    "relation", RELATION, "Edge type (neighbor type), e.g. cites or written_by.", placeholder="neighbor_type"
)


def _retrieve(fx: GraphFunctions, text: Any) -> Applied:
    return Applied(fx.retrieve(str(text)), subject=str(text))


def _feature(fx: GraphFunctions, node: Any, key: str) -> Applied:
    nid, name, value = fx.lookup_feature(node, key)
    return Applied(value, subject=nid, label=name)


def _neighbour(fx: GraphFunctions, node: Any, relation: str) -> Applied:
    nid, label, ids = fx.lookup_neighbours(node, relation)
    return Applied(ids, subject=nid, label=label)


def _degree(fx: GraphFunctions, node: Any, relation: str) -> Applied:
    nid, label, ids = fx.lookup_neighbours(node, relation)
    return Applied(len(ids), subject=nid, label=label)


RETRIEVE = Entry(
    "Retrieve",
    (Param("text", TEXT, "Keywords or a name/title to search for by meaning (not a node id)."),),
    "Find the id of the node whose text is most similar to `text` (similarity search over "
    "names/titles, not an id lookup). Returns one node id.",
    run=_retrieve,
    observe=lambda fx, a: f"The ID of this retrieval target node is {a.value}.",
    observe_many=lambda fx, label, ids, value: (
        f"The IDs of these retrieval target nodes are: {fx.render_list(value)}."
    ),
    aliases=("Retrieval", "Search", "Lookup"),
    verbatim=True,  # search text may hold commas
    returns=NODE,
)

FEATURE = Entry(
    "Feature",
    (_NODE, Param("key", FEATURE_KEY, "Feature name, e.g. title or name.", placeholder="feature")),
    "Read one feature (e.g. title, name) of a node given its id.",
    run=_feature,
    observe=lambda fx, a: f"The {a.label} feature of {a.subject} are: {fx.render_value(a.value)}.",
    observe_many=lambda fx, label, ids, value: (
        f"The {label} feature of {ids} are: {fx.render_list(value, noun='values')}."
    ),
    aliases=("Features",),
)

NEIGHBOUR = Entry(
    "Neighbour",
    (_NODE, _RELATION),
    "List the ids of all neighbours of a node along one edge type.",
    run=_neighbour,
    observe=lambda fx, a: f"The {a.label} neighbors of {a.subject} are: {fx.render_list(a.value)}.",
    observe_many=lambda fx, label, ids, value: (
        f"The {label} neighbors of {ids} are: {fx.render_list(value)}."
    ),
    aliases=("Neighbours", "Neighbor", "Neighbors"),
    maps=MapMode.UNION,  # nesting reads as "all nodes two hops away"
    returns=NODE,
)

DEGREE = Entry(
    "Degree",
    (_NODE, _RELATION),
    "Count the neighbours of a node along one edge type.",
    run=_degree,
    observe=lambda fx, a: f"The {a.label} neighbor number of {a.subject} is {a.value}.",
    observe_many=lambda fx, label, ids, value: (
        f"The {label} neighbor numbers of {ids} are: {fx.render_list(value, noun='values')}."
    ),
    aliases=("Degrees",),
)

_VALUES = Param("values", VALUES, "The list an inner call returns, e.g. Neighbour[12, cites].")


def _items(values: Any) -> list[str]:
    """The values of a (nested) list as text, empty ones left out; a single value is a list of one."""
    if isinstance(values, (list, tuple)):
        return [text for value in values for text in _items(value)]
    text = "" if values is None else str(values).strip()
    return [text] if text else []


def _leaders(counts: dict[str, int]) -> tuple[list[str], int]:
    """The keys with the largest count, in first-seen order, and that count (``counts`` not empty)."""
    top = max(counts.values())
    return [key for key, count in counts.items() if count == top], top


def _single(values: Any) -> bool:
    """Count, Mode and MaxDegree read the list an inner call returns; one bare value is said to be one."""
    return not isinstance(values, (list, tuple))


_ONE_VALUE = "got one value, not a list"
_EMPTY = "got an empty list"
# the note an aggregate adds after its value (readers of observations strip it: INPUT_NOTE.sub("", text))
INPUT_NOTE = re.compile(r" \((?:Count|Mode|MaxDegree|MinDegree|MostLinked|Matching|Exists) got (?:one value, not a list|an empty list)\)$")


# The names a question leaves out of what it counts ("not counting X itself", "other than X"), set by the workflow
# around one question's calls: two hops away and back, a node is among its own neighbours' neighbours
_NOT_COUNTED: ContextVar[tuple[str, ...]] = ContextVar("counselor_not_counted", default=())


@contextmanager
def counting_without(names: tuple[str, ...]) -> Iterator[None]:
    """Within the block, ``Count`` leaves out the nodes (or values) named ``names`` (as a question writes them)."""
    token = _NOT_COUNTED.set(tuple(names))
    try:
        yield
    finally:
        _NOT_COUNTED.reset(token)


def _count(fx: GraphFunctions, values: Any) -> Applied:
    items = set(_items(values))
    note = _ONE_VALUE if _single(values) else (_EMPTY if not items else "")
    left = {normalise(name): name for name in _NOT_COUNTED.get()}
    dropped = [
        item for item in sorted(items)
        if normalise(item) in left or (item in fx.store and normalise(fx.store.text(item)) in left)
    ]  # fmt: skip
    if dropped and len(dropped) < len(items):  # never a whole list counted as nothing
        names = ", ".join(dict.fromkeys(fx.store.text(item) if item in fx.store else item for item in dropped))
        return Applied(len(items) - len(dropped), subject=note, label=f" ({names} left out, as the question asks)")
    return Applied(len(items), subject=note)


def _mode(fx: GraphFunctions, values: Any) -> Applied:
    counts = Counter(_items(values))
    if not counts:
        raise GraphError("Mode got an empty list, so there is no most common value. Give it a list, e.g. Feature[...].")
    tied, top = _leaders(counts)
    total = sum(counts.values())
    if len(tied) > 1:
        raise GraphError(
            f"There is no single most common value: {fx.render_list(tied, noun='values')} "
            f"each appear {top} of {total} times."
        )
    return Applied(tied[0], subject=_ONE_VALUE if _single(values) else "", label=f"{top} of {total}")


def _degrees(fx: GraphFunctions, nodes: Any, relation: str, name: str) -> tuple[dict[str, int], str]:
    """Each node's number of ``relation`` neighbours (``nodes`` a list or one node) and the edge label resolved."""
    degrees: dict[str, int] = {}
    label = str(relation)
    for node in [nodes] if _single(nodes) else nodes:
        if node is None:
            continue
        nid, label, ids = fx.lookup_neighbours(node, relation)
        degrees[nid] = len(ids)
    if not degrees:
        raise GraphError(f"{name} got an empty list of nodes. Give it a list of node ids, e.g. Neighbour[...].")
    return degrees, label


def _noted(name: str, note: str | None, sentence: str) -> str:
    """An aggregate's observation, then what it says about its input (one value, an empty list), if anything.

    The note comes after the value, so the sentence that holds it keeps the form the tuned reasoner reads.
    """
    text = sentence[0].upper() + sentence[1:]
    return f"{text} ({name} {note})" if note else text


COUNT_ENTRY = Entry(
    "Count",
    (_VALUES,),
    "Count the distinct values of a list returned by an inner call (nodes, feature values).",
    run=_count,
    observe=lambda fx, a: _noted("Count", a.subject, f"the number of distinct values{a.label or ''} is: {a.value}."),
    maps=MapMode.NONE,  # the whole list is one argument
)

MODE = Entry(
    "Mode",
    (_VALUES,),
    "The single most common value of a list returned by an inner call (a tie is reported, not broken).",
    run=_mode,
    observe=lambda fx, a: _noted("Mode", a.subject, f"the most common value ({a.label}) is: {fx.render_value(a.value)}."),
    aliases=("MostCommon",),
    maps=MapMode.NONE,
)

def _extreme(name: str, most: bool) -> Entry:
    """MaxDegree or MinDegree: the one node of a list with the most (fewest) neighbours along a relation."""
    word = "most" if most else "fewest"

    def run(fx: GraphFunctions, nodes: Any, relation: str) -> Applied:
        degrees, label = _degrees(fx, nodes, relation, name)
        best = max(degrees.values()) if most else min(degrees.values())
        tied = [nid for nid, degree in degrees.items() if degree == best]
        if len(tied) > 1:
            raise GraphError(f"No single node has the {word} {label} neighbors: {fx.render_list(tied)} have {best} each.")
        note = _ONE_VALUE if _single(nodes) else ""
        return Applied(tied[0], subject=note, label=f"{label} neighbors ({best})")

    return Entry(
        name,
        (Param("nodes", NODE, "Node ids, e.g. the list Neighbour returns."), _RELATION),
        f"The one node of a list with the {word} neighbours along an edge type (a tie is reported, not broken).",
        run=run,
        observe=lambda fx, a: _noted(name, a.subject, f"the node with the {word} {a.label} is: {a.value}."),
        maps=MapMode.NONE,
        returns=NODE,
    )


MAX_DEGREE = _extreme("MaxDegree", most=True)
MIN_DEGREE = _extreme("MinDegree", most=False)


# The node(s) a MostLinked's list was taken from (``MostLinked[Neighbour[X, liked_by], likes]``: X), set by the
# executor around the call: every member links back to X, so X is never the answer ("the fans of X also like ...");
# and the node two lists a Without or a Union joins are both walked from (X, among its friends' friends)
_LEFT_OUT: ContextVar[Any] = ContextVar("counselor_most_linked_left_out", default=None)


@contextmanager
def leaving_out(origin: Any) -> Iterator[None]:
    """Within the block, ``MostLinked`` does not count ``origin``, the node its list was taken from, nor do ``Without``
    and ``Union`` keep it (None: none)."""
    token = _LEFT_OUT.set(origin)
    try:
        yield
    finally:
        _LEFT_OUT.reset(token)


def _most_linked(fx: GraphFunctions, nodes: Any, relation: str) -> Applied:
    """The one node that the most nodes of a list have as a ``relation`` neighbour, each list node counted once;
    never the node the list was taken from (:func:`leaving_out`)."""
    members = _members(fx, nodes)
    if not members:
        raise GraphError("MostLinked got an empty list of nodes. Give it a list of node ids, e.g. Neighbour[...].")
    counts: dict[str, int] = {}
    label = str(relation)
    for member in members:
        _, label, ids = fx.lookup_neighbours(member, relation)
        for other in dict.fromkeys(ids):
            counts[other] = counts.get(other, 0) + 1
    origin = _LEFT_OUT.get()
    left_out = [node for node in (_members(fx, origin) if origin is not None else []) if counts.pop(node, None)]
    if not counts and left_out:
        raise GraphError(f"No node but {', '.join(left_out)}, whose neighbors they are, is a {label} neighbor of them.")
    if not counts:
        raise GraphError(f"None of the {len(members)} nodes has a {label} neighbor, so no node is linked the most.")
    tied, top = _leaders(counts)
    if len(tied) > 1:
        raise GraphError(f"No single node is a {label} neighbor of the most of them: {fx.render_list(tied)} are of {top} each.")
    note = _ONE_VALUE if _single(nodes) else ""
    aside = f"; {', '.join(left_out)}, whose neighbors they are, left out" if left_out else ""
    return Applied(tied[0], subject=note, label=f"{label} neighbor of the most of them ({top} of {len(members)}{aside})")


MOST_LINKED = Entry(
    "MostLinked",
    (Param("nodes", NODE, "Node ids, e.g. the list Neighbour returns."), _RELATION),
    "The one node that the most nodes of a list have as a neighbour along an edge type, e.g. the tag most of a "
    "user's artists carry (a tie is reported, not broken).",
    run=_most_linked,
    observe=lambda fx, a: _noted("MostLinked", a.subject, f"the node that is the {a.label} is: {a.value}."),
    maps=MapMode.NONE,
    returns=NODE,
)


def _compared(fx: GraphFunctions, node: Any, relation: str, key: str, name: str, same: bool) -> Applied:
    """How many of a node's ``relation`` neighbours have (``same``) or lack its own ``key`` value."""
    if isinstance(node, (list, tuple)):
        raise GraphError(f"{name} compares one node with its neighbours: give it one node id, not a list.")
    nid, label, ids = fx.lookup_neighbours(node, relation)
    _, feature, own = fx.lookup_feature(nid, key)
    counted = sum(1 for other in ids if (fx.lookup_feature(other, feature)[2] == own) == same)
    whose = "is its own" if same else "is not its own"
    return Applied(counted, subject=nid, label=f"{label} neighbors of {nid} whose {feature} {whose} ({own})")


def _comparing(name: str, same: bool, description: str) -> Entry:
    """Differing or Same: how many of a node's neighbours lack (or share) its own feature value."""

    def run(fx: GraphFunctions, node: Any, relation: str, key: str) -> Applied:
        return _compared(fx, node, relation, key, name, same)

    return Entry(
        name,
        (_NODE, _RELATION, Param("key", FEATURE_KEY, "Feature name, e.g. label.", placeholder="feature")),
        description,
        run=run,
        observe=lambda fx, a: f"The number of {a.label} is: {a.value}.",
        maps=MapMode.NONE,
    )


DIFFERING = _comparing(
    "Differing", False, "Count the neighbours of a node along one edge type whose feature value differs from the node's own."
)
SAME = _comparing(
    "Same", True, "Count the neighbours of a node along one edge type whose feature value equals the node's own."
)


def folded(value: Any) -> str:
    """A feature value as Matching compares it: case, underscores and runs of spaces aside."""
    return " ".join(str(value).replace("_", " ").split()).casefold()


def _matching(fx: GraphFunctions, nodes: Any, key: str, value: Any) -> Applied:
    members = [node for node in ([nodes] if _single(nodes) else nodes) if node is not None]
    wanted, name, kept = folded(value), str(key), []
    for index, node in enumerate(members):
        nid = fx.resolve_node(node)
        if index == 0:  # the first member resolves the feature's name; one its type lacks is an error
            name = fx.lookup_feature(nid, key)[1]
        found = fx.store.features(nid).get(name)  # a member without the feature does not match
        values = found if isinstance(found, (list, tuple)) else [found]
        if any(v is not None and folded(v) == wanted for v in values):
            kept.append(nid)
    note = _ONE_VALUE if _single(nodes) else (_EMPTY if not members else "")
    return Applied(kept, subject=note, label=f"{name} is {value}")


MATCHING = Entry(
    "Matching",
    (
        Param("nodes", NODE, "Node ids, e.g. the list Neighbour returns."),
        Param("key", FEATURE_KEY, "Feature name, e.g. label.", placeholder="feature"),
        Param("value", TEXT, "The value to keep, as the question or an observation writes it.", placeholder="value"),
    ),
    "Keep the nodes of a list whose feature has the given value (case and underscores aside).",
    run=_matching,
    observe=lambda fx, a: _noted("Matching", a.subject, f"the nodes whose {a.label} are: {fx.render_list(a.value)}."),
    maps=MapMode.NONE,
    returns=NODE,
)

def _members(fx: GraphFunctions, nodes: Any) -> list[str]:
    """The node ids of a list argument (one node is a list of one), resolved, de-duplicated in order."""
    return list(dict.fromkeys(fx.resolve_node(n) for n in ([nodes] if _single(nodes) else nodes) if n is not None))


def _set_entry(name: str, way: str, description: str, aliases: tuple[str, ...] = ()) -> Entry:
    """Intersect, Union or Without (``way``: ``both``, ``either``, ``first``): the nodes in both of two lists, in
    either, or in the first and not the second, each once, in the first list's order."""
    label = {"both": "in both lists", "either": "in either list", "first": "in the first list and not in the second"}[way]

    def run(fx: GraphFunctions, first: Any, second: Any) -> Applied:
        if isinstance(second, str) and second.startswith("["):
            raise GraphError(f"{name} takes two lists from inner calls, e.g. {name}[Neighbour[1, cites], Neighbour[2, cites]].")
        left, right = _members(fx, first), _members(fx, second)
        other = set(right)
        if way == "both":
            return Applied([n for n in left if n in other], label=label)
        found = list(dict.fromkeys(left + right)) if way == "either" else [n for n in left if n not in other]
        origin = _LEFT_OUT.get()  # the node both lists are walked from: never one of the nodes they reach
        aside = [n for n in (_members(fx, origin) if origin is not None else []) if n in found]
        kept = [n for n in found if n not in aside]
        note = f" ({', '.join(fx.store.text(n) for n in aside)}, whom both lists start from, left out)" if aside else ""
        return Applied(kept, label=label + note)

    return Entry(
        name,
        (
            Param("nodes", NODE, "Node ids, e.g. the list Neighbour returns."),
            Param("other", NODE, "A second list of node ids, e.g. another Neighbour[...]."),
        ),
        description,
        run=run,
        observe=lambda fx, a: f"The nodes {a.label} are: {fx.render_list(a.value)}.",
        aliases=aliases,
        maps=MapMode.NONE,
        returns=NODE,
    )


INTERSECT = _set_entry(
    "Intersect", "both", "The nodes that are in both of two lists (e.g. the neighbours two nodes share).",
    aliases=("Intersection", "Common"),
)  # fmt: skip
UNION = _set_entry("Union", "either", "The nodes that are in either of two lists, each once.")
WITHOUT = _set_entry(
    "Without", "first", "The nodes of the first list that are not in the second (e.g. the friends of a node's "
    "friends who are not its own friends).",
    aliases=("Except", "Excluding"),
)  # fmt: skip


def _contains(fx: GraphFunctions, nodes: Any, node: Any) -> Applied:
    if isinstance(node, (list, tuple)):
        if len(node) != 1:
            raise GraphError("Contains looks for one node: give it one node id (or Retrieve[...]) as its second argument.")
        node = node[0]
    wanted = fx.resolve_node(node)
    return Applied("yes" if wanted in _members(fx, nodes) else "no", subject=wanted)


CONTAINS = Entry(
    "Contains",
    (Param("nodes", NODE, "Node ids, e.g. the list Neighbour returns."), Param("node", NODE, "The node to look for.")),
    "Whether a node is one of a list of nodes: yes or no.",
    run=_contains,
    observe=lambda fx, a: f"Whether the list holds {a.subject} is: {a.value}.",
    maps=MapMode.NONE,
)


def _exists(fx: GraphFunctions, values: Any) -> Applied:
    found = bool(_items(values))
    return Applied("yes" if found else "no", label=_ONE_VALUE if _single(values) else "")


EXISTS = Entry(
    "Exists",
    (_VALUES,),
    "Whether a list returned by an inner call (e.g. Matching[...]) holds anything: yes or no.",
    run=_exists,
    observe=lambda fx, a: _noted("Exists", a.label, f"whether the list holds anything is: {a.value}."),
    maps=MapMode.NONE,
)

def _one_node(fx: GraphFunctions, node: Any, name: str) -> str:
    """The one node id a comparing call's argument names (a list of one is that node); a longer list is an error."""
    if isinstance(node, (list, tuple)):
        if len(node) != 1:
            raise GraphError(
                f"{name} compares two single nodes: give it two node ids (or Retrieve[...]), not a list of {len(node)}."
            )
        node = node[0]
    return fx.resolve_node(node)


def _two_degrees(fx: GraphFunctions, node: Any, other: Any, relation: str, name: str) -> tuple[str, str, str, int, int]:
    """Both nodes' ids, the edge label resolved, and each node's number of ``relation`` neighbours."""
    first, second = _one_node(fx, node, name), _one_node(fx, other, name)
    first, label, mine = fx.lookup_neighbours(first, relation)
    second, _, theirs = fx.lookup_neighbours(second, label)
    return first, second, label, len(mine), len(theirs)


def _than_entry(name: str, more: bool) -> Entry:
    """MoreThan or FewerThan: whether one node has more (fewer) neighbours along a relation than another."""
    word = "more" if more else "fewer"

    def run(fx: GraphFunctions, node: Any, other: Any, relation: str) -> Applied:
        first, second, label, mine, theirs = _two_degrees(fx, node, other, relation, name)
        holds = mine > theirs if more else mine < theirs
        return Applied("yes" if holds else "no", subject=f"{first} has {word} {label} neighbors than {second}",
                       label=f"{mine} against {theirs}")  # fmt: skip

    return Entry(
        name,
        (_NODE, Param("other", NODE, "The node compared with, e.g. another Retrieve[...]."), _RELATION),
        f"Whether the first node has {word} neighbours along an edge type than the second: yes or no.",
        run=run,
        observe=lambda fx, a: f"Whether {a.subject} ({a.label}) is: {a.value}.",
        maps=MapMode.NONE,
    )


MORE_THAN = _than_entry("MoreThan", more=True)
FEWER_THAN = _than_entry("FewerThan", more=False)


def _difference(fx: GraphFunctions, node: Any, other: Any, relation: str) -> Applied:
    first, second, label, mine, theirs = _two_degrees(fx, node, other, relation, "Difference")
    return Applied(abs(mine - theirs), subject=f"{label} neighbor numbers of {first} and {second}",
                   label=f"{mine} and {theirs}")  # fmt: skip


DIFFERENCE = Entry(
    "Difference",
    (_NODE, Param("other", NODE, "The node compared with, e.g. another Retrieve[...]."), _RELATION),
    "By how many the two nodes' numbers of neighbours along an edge type differ (how many more one has).",
    run=_difference,
    observe=lambda fx, a: f"The difference between the {a.subject} ({a.label}) is: {a.value}.",
    maps=MapMode.NONE,
)

# beyond the paper: their observation holds the answer
AGGREGATES = (
    COUNT_ENTRY.name, MODE.name, MAX_DEGREE.name, DIFFERING.name,
    MIN_DEGREE.name, SAME.name, CONTAINS.name, EXISTS.name, MOST_LINKED.name,
    MORE_THAN.name, FEWER_THAN.name, DIFFERENCE.name,
)  # fmt: skip

FINISH_ENTRY = Entry(
    FINISH,
    (Param("answer", ANSWER, "The answer itself."),),
    "End the task with the answer (a name, title, number or list from the Observations).",
    aliases=("Answer", "Final Answer"),
    verbatim=True,  # an answer may hold commas and brackets
    terminal=True,
    usage="Finish with the answer itself between its brackets",
)

GRAPH_FUNCTIONS = Registry(
    [
        RETRIEVE, FEATURE, NEIGHBOUR, DEGREE, COUNT_ENTRY, MODE, MAX_DEGREE, DIFFERING, MATCHING,
        MIN_DEGREE, SAME, INTERSECT, UNION, WITHOUT, CONTAINS, EXISTS, MOST_LINKED,
        MORE_THAN, FEWER_THAN, DIFFERENCE, FINISH_ENTRY,
    ]  # fmt: skip
)
