"""Graph Counselor's vocabulary, declared once: Retrieve, Feature, Neighbour, Degree, Finish.

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

Finish is terminal: the executor takes its answer, it runs nothing. To add a
function, register another :class:`~graphreason.tools.core.registry.Entry` here (or build a
new registry with :meth:`~graphreason.tools.core.registry.Registry.extended`); the parsers, the
executor and the LangChain tools pick it up without changes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from graphreason.tools.core.registry import (
    ANSWER,
    FEATURE_KEY,
    NODE,
    RELATION,
    TEXT,
    Applied,
    Entry,
    MapMode,
    Param,
    Registry,
)

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

FINISH_ENTRY = Entry(
    FINISH,
    (Param("answer", ANSWER, "The answer itself."),),
    "End the task with the answer (a name, title, number or list from the Observations).",
    aliases=("Answer", "Final Answer"),
    verbatim=True,  # an answer may hold commas and brackets
    terminal=True,
    usage="Finish with the answer itself between its brackets",
)

GRAPH_FUNCTIONS = Registry([RETRIEVE, FEATURE, NEIGHBOUR, DEGREE, FINISH_ENTRY])
