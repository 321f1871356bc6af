"""Graph-ToolFormer's ``toolx`` toolkit: the basic graph-property functions.

``GR(G, "toolx:diameter")`` and its eleven siblings (Graph-ToolFormer §4.3.2,
Table 1, Appendix C.1) reduce to networkx-style computations on one
``networkx`` graph. Each function here takes the graph first and returns a
plain Python value in the form the ``graph_properties`` prompts print as their
``Reasoning Result``: ``int`` for counts and lengths, ``float`` for density and
the average, a ``{node: int}`` dict for eccentricity, a list of nodes (in the
graph's node order) for center and periphery.

Conventions, decided from the data and the paper:

* **Average shortest path** divides the sum of all ordered-pair distances by
  ``n(n-1)`` by default (``convention="networkx"``). All 98
  ``avg_path_length`` gold answers in ``graph_properties/prompts_train`` match
  that divisor to 1e-6 and none matches ``n^2`` (the ``n^2`` values are lower
  by ``avg/n``: 0.037 to 0.36 on those graphs). The paper's Table 1 example
  (2.86 on ``lollipop_graph(4, 6)``) divides by ``n^2`` instead; that is
  ``convention="paper"`` (the default gives 3.18). Measured with
  ``benchmarks/toolformer_gpr_gold.py --avg-convention paper``.
* **Disconnected graphs** (none among the 37 GPR graphs): the paper defines
  eccentricity, radius and diameter as infinite there, so unreachable pairs
  count as ``math.inf`` everywhere instead of raising: a node's eccentricity
  is ``inf`` when it cannot reach every node, radius/diameter/max/avg follow,
  ``shortest_path`` between unconnected nodes is ``inf``, and center/periphery
  are the nodes whose eccentricity equals that (infinite) radius/diameter.
  ``min_path_length`` stays finite while any pair is connected. Directed
  graphs use directed distances (so "connected" means strongly connected).
* A one-node graph has eccentricity 0 everywhere and 0 for every path length;
  an empty graph is refused (:class:`ToolxError`).

Node arguments arrive from call text as strings (``"node#5"`` -> ``"5"``);
:func:`resolve_node` maps them onto the graph's own ids (ints for GPR) and
raises :class:`UnknownToolxNodeError` naming valid ids otherwise.
:func:`call` dispatches a function by any of its spellings
(``toolx:avg_path_length``, ``avg-shortest-path``, ...).
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable, Hashable, Iterable
from typing import Any, Literal

import networkx as nx

from graphreason.tools.core.errors import GraphError, _preview
from graphreason.tools.core.node_ids import ANY_PREFIX, find_id

Node = Hashable
Length = int | float  # float only for math.inf


class ToolxError(GraphError):
    """A toolx call cannot be answered: unknown function, bad argument or empty graph."""


class UnknownToolxNodeError(ToolxError, KeyError):
    """A node argument names no node of the graph."""

    def __init__(self, node: object, graph: nx.Graph) -> None:
        self.node = node
        valid = [str(n) for n in graph.nodes]
        super().__init__(f"The node {node!r} is not in the graph. Valid node ids: {_preview(valid, 10)}.")

    def __str__(self) -> str:  # KeyError would otherwise quote the message
        return self.args[0]


# ---------------------------------------------------------------- helpers


def resolve_node(graph: nx.Graph, node: object) -> Node:
    """The graph's own id for ``node``: ``"5"``, ``5``, ``"node#5"`` and ``" #5 "`` all give ``5``.

    The readings are :func:`graphreason.tools.core.node_ids.id_readings` with any
    prefix cut (``node#5``, ``paper 5``), each tried as written and as an integer.
    """
    found = find_id(node, graph, ANY_PREFIX, numbers=True)
    if found is None:
        raise UnknownToolxNodeError(node, graph)
    return found


def _check_nonempty(graph: nx.Graph) -> None:
    if not isinstance(graph, nx.Graph):
        raise ToolxError(f"toolx functions need a networkx graph, got {type(graph).__name__}")
    if graph.number_of_nodes() == 0:
        raise ToolxError("the graph has no nodes, so no distance-based property is defined")


def _distances(graph: nx.Graph, source: Node) -> dict[Node, int]:
    return nx.single_source_shortest_path_length(graph, source)


def _eccentricity_of(graph: nx.Graph, source: Node, n: int) -> Length:
    lengths = _distances(graph, source)
    # a node that cannot reach all others is infinitely eccentric (paper, Appendix C.1)
    return max(lengths.values()) if len(lengths) == n else math.inf


def _all_eccentricities(graph: nx.Graph) -> dict[Node, Length]:
    _check_nonempty(graph)
    n = graph.number_of_nodes()
    return {v: _eccentricity_of(graph, v, n) for v in graph.nodes}


def _pair_lengths(graph: nx.Graph) -> Iterable[Length]:
    """Every ordered pair of distinct nodes' distance (``inf`` when unreachable)."""
    n = graph.number_of_nodes()
    for source in graph.nodes:
        lengths = _distances(graph, source)
        yield from (d for target, d in lengths.items() if target != source)
        yield from [math.inf] * (n - len(lengths))


# ---------------------------------------------------------------- the functions


def order(graph: nx.Graph) -> int:
    """Number of nodes |V|."""
    return graph.number_of_nodes()


def size(graph: nx.Graph) -> int:
    """Number of edges |E|."""
    return graph.number_of_edges()


def density(graph: nx.Graph, is_directed: bool | None = None) -> float:
    """|E| / (|V|(|V|-1)), doubled for undirected graphs (``is_directed`` overrides the graph's own flag)."""
    n, m = graph.number_of_nodes(), graph.number_of_edges()
    if n < 2:
        return 0.0
    directed = graph.is_directed() if is_directed is None else _as_bool(is_directed, "is_directed")
    return m / (n * (n - 1)) * (1 if directed else 2)


def eccentricity(graph: nx.Graph, nodes: object = None) -> dict[Node, Length] | Length:
    """Largest distance from a node: all nodes (dict), one node (a number) or a node subset (dict)."""
    _check_nonempty(graph)
    n = graph.number_of_nodes()
    if nodes is None:
        return _all_eccentricities(graph)
    if isinstance(nodes, (list, tuple, set, frozenset)):
        picked = [resolve_node(graph, v) for v in nodes]
        return {v: _eccentricity_of(graph, v, n) for v in picked}
    return _eccentricity_of(graph, resolve_node(graph, nodes), n)


def radius(graph: nx.Graph) -> Length:
    """Smallest eccentricity (``inf`` for a disconnected graph)."""
    return min(_all_eccentricities(graph).values())


def diameter(graph: nx.Graph) -> Length:
    """Largest eccentricity, i.e. the longest shortest path (``inf`` for a disconnected graph)."""
    return max(_all_eccentricities(graph).values())


def center(graph: nx.Graph) -> list[Node]:
    """Nodes whose eccentricity equals the radius, in the graph's node order."""
    ecc = _all_eccentricities(graph)
    low = min(ecc.values())
    return [v for v, e in ecc.items() if e == low]


def periphery(graph: nx.Graph) -> list[Node]:
    """Nodes whose eccentricity equals the diameter, in the graph's node order."""
    ecc = _all_eccentricities(graph)
    high = max(ecc.values())
    return [v for v, e in ecc.items() if e == high]


def shortest_path(graph: nx.Graph, source: object, target: object) -> Length:
    """Length (number of edges) of a shortest path from ``source`` to ``target``; ``inf`` if none."""
    _check_nonempty(graph)
    a, b = resolve_node(graph, source), resolve_node(graph, target)
    return _distances(graph, a).get(b, math.inf)


def avg_path_length(graph: nx.Graph, convention: Literal["networkx", "paper"] = "networkx") -> float:
    """Mean shortest-path length over ordered pairs of distinct nodes.

    ``convention="networkx"`` (default) divides the distance sum by ``n(n-1)``,
    as ``nx.average_shortest_path_length`` does and as every gold answer in
    ``graph_properties/prompts_train`` does; ``"paper"`` divides by ``n^2``,
    which reproduces the paper's Table 1 value (2.86 instead of 3.18 on
    ``lollipop_graph(4, 6)``). ``inf`` for a disconnected graph; 0.0 for one node.
    """
    _check_nonempty(graph)
    n = graph.number_of_nodes()
    if convention not in ("networkx", "paper"):
        raise ToolxError(f"unknown convention {convention!r}; use 'networkx' (n(n-1)) or 'paper' (n^2)")
    if n == 1:
        return 0.0
    total = sum(_pair_lengths(graph))
    return total / (n * (n - 1) if convention == "networkx" else n * n)


def max_path_length(graph: nx.Graph) -> Length:
    """Largest shortest-path length over all pairs; equals the diameter."""
    return diameter(graph)


def min_path_length(graph: nx.Graph) -> Length:
    """Smallest shortest-path length between two distinct nodes (1 when there is an edge)."""
    _check_nonempty(graph)
    if graph.number_of_nodes() == 1:
        return 0
    # any edge between distinct nodes is a path of length 1; self-loops do not count
    if any(u != v for u, v in graph.edges()):
        return 1
    return math.inf


# ---------------------------------------------------------------- dispatch by name

FUNCTIONS: dict[str, Callable[..., Any]] = {
    "order": order,
    "size": size,
    "density": density,
    "eccentricity": eccentricity,
    "radius": radius,
    "center": center,
    "shortest_path": shortest_path,
    "avg_path_length": avg_path_length,
    "max_path_length": max_path_length,
    "min_path_length": min_path_length,
    "diameter": diameter,
    "periphery": periphery,
}

# the paper's Table 1 spellings (after hyphen -> underscore) and a few natural variants
ALIASES: dict[str, str] = {
    "avg_shortest_path": "avg_path_length",
    "average_shortest_path": "avg_path_length",
    "average_shortest_path_length": "avg_path_length",
    "max_shortest_path": "max_path_length",
    "min_shortest_path": "min_path_length",
    "shortest_path_length": "shortest_path",
    "number_of_nodes": "order",
    "number_of_edges": "size",
}


def function_key(name: str) -> str:
    """Canonical toolx function name for any spelling: ``"toolx:avg-shortest-path"`` -> ``"avg_path_length"``."""
    text = str(name).strip().strip("\"'")
    domain, colon, func = text.partition(":")
    if colon and domain.strip().lower() != "toolx":
        raise ToolxError(
            f"{text!r} is not a toolx function (domain {domain!r}); toolx functions: {', '.join(FUNCTIONS)}"
        )
    key = (func if colon else text).strip().lower().replace("-", "_").replace(" ", "_")
    key = ALIASES.get(key, key)
    if key not in FUNCTIONS:
        raise ToolxError(f"unknown toolx function {text!r}; valid: {', '.join(FUNCTIONS)}")
    return key


def call(name: str, graph: nx.Graph, *args: object, **kwargs: object) -> Any:
    """Run the toolx function ``name`` (any spelling) on ``graph``.

    Keyword names from call text (``is-directed``) are matched with hyphens
    read as underscores. A wrong number of arguments is a :class:`ToolxError`
    naming the function's parameters.
    """
    key = function_key(name)
    func = FUNCTIONS[key]
    kwargs = {k.strip().lower().replace("-", "_"): v for k, v in kwargs.items()}
    if key == "eccentricity" and len(args) > 1:  # node#1, node#2, ... is a node subset
        args = (list(args),)
    try:
        bound = inspect.signature(func).bind(graph, *args, **kwargs)
    except TypeError as exc:
        params = ", ".join(list(inspect.signature(func).parameters)[1:]) or "no arguments"
        raise ToolxError(f"toolx:{key} takes ({params}) after the graph: {exc}") from None
    return func(*bound.args, **bound.kwargs)


def _as_bool(value: object, name: str) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in {"true", "1", "yes"}:
        return True
    if text in {"false", "0", "no"}:
        return False
    raise ToolxError(f"{name} must be True or False, got {value!r}")
