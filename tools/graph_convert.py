"""Every conversion between the project's three graph forms, in one place, each one tested.

* :class:`~tools.store.GraphStore` - the typed, text-attributed store (Counselor, Graph-ToolFormer,
  GraphAgent): string ids, node types and features, labelled edges;
* :class:`~tools.graph_text.problem.ParsedProblem` - a graph problem read from text or a
  structured input (GAR): dense integer ids, optional weights and names, the question's parameters;
* :class:`~tools.vertex.graph.VertexGraph` - the vertex engine's CSR arrays (GAR's execution).

networkx is the common exchange form for checks and brute force; it is built by one
function, :func:`networkx_graph`, whatever the source. The classes' ``to_networkx`` /
``to_store`` / ``from_store`` methods delegate here.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the graph classes import this module lazily; no import cycle at run time
    from tools.graph_text.problem import ParsedProblem
    from tools.store import GraphStore
    from tools.vertex.graph import VertexGraph

Node = tuple[Any, dict[str, Any]]
Edge = tuple[Any, Any, dict[str, Any]]


def networkx_graph(directed: bool, nodes: Iterable[Node], edges: Iterable[Edge]) -> Any:
    """A networkx ``DiGraph`` / ``Graph`` from ``(id, attrs)`` nodes and ``(u, v, attrs)`` edges.

    Attributes go in as dicts, never keyword arguments, so a feature called ``type``
    or an edge attribute called ``relation`` cannot clash with networkx's parameters.
    """
    import networkx as nx  # slow to import: only the paths that convert pay for it

    graph = nx.DiGraph() if directed else nx.Graph()
    graph.add_nodes_from(nodes)
    graph.add_edges_from(edges)
    return graph


def to_networkx(graph: GraphStore | ParsedProblem | VertexGraph) -> Any:
    """Any of the three forms as networkx.

    * store: node attributes are the features plus ``type``; edges carry their attributes plus ``relation``;
    * parsed problem: nodes ``0..n-1``; edges carry ``weight`` only on weighted graphs;
    * vertex graph: nodes ``0..n-1`` (with ``weight`` when the graph has node weights); every
      edge carries ``weight`` (1.0 on unweighted graphs, as the engine stores it).
    """
    from tools.graph_text.problem import ParsedProblem
    from tools.store import GraphStore

    if isinstance(graph, GraphStore):
        return networkx_graph(
            graph.directed,
            ((nid, {**graph.features(nid), "type": graph.node_type(nid)}) for nid in graph.nodes()),
            ((e.src, e.dst, {**e.attrs, "relation": e.relation}) for e in graph.edges()),
        )
    if isinstance(graph, ParsedProblem):
        return networkx_graph(
            graph.directed,
            ((i, {}) for i in range(graph.n_nodes)),
            ((u, v, {} if w is None else {"weight": w}) for u, v, w in graph.edges),
        )
    weights = graph.node_weights
    return networkx_graph(
        graph.directed,
        ((i, {} if weights is None else {"weight": float(weights[i])}) for i in range(graph.num_nodes)),
        ((u, v, {"weight": w}) for u, v, w in graph.edge_list()),
    )


def problem_to_store(problem: ParsedProblem, name: str = "graph") -> GraphStore:
    """A parsed problem as a store: node type ``"node"``, relation ``"edge"``, ids as strings.

    Node features carry ``name`` (when the text named its nodes) and ``weight`` (node
    weights); a weighted edge carries attribute ``weight``.
    """
    from tools.store import GraphStore

    store = GraphStore(
        name=name, directed=problem.directed, text_keys={"node": "name"} if problem.node_names else None
    )
    for node in range(problem.n_nodes):
        features: dict[str, Any] = {}
        if problem.node_names and node in problem.node_names:
            features["name"] = problem.node_names[node]
        if node in problem.node_weights:
            features["weight"] = problem.node_weights[node]
        store.add_node(node, "node", features)
    for u, v, w in problem.edges:
        if w is None:
            store.add_edge(u, v, "edge")
        else:
            store.add_edge(u, v, "edge", weight=w)
    return store


def store_to_vertex(store: GraphStore, relation: str | None = None) -> VertexGraph:
    """A store (optionally one relation) as a vertex graph; labels are the store's ids, weights default to 1."""
    from tools.vertex.graph import VertexGraph

    ids = list(store.nodes())
    index = {nid: i for i, nid in enumerate(ids)}
    rows = [
        (index[e.src], index[e.dst], float(e.attrs.get("weight", 1.0)))
        for e in store.edges()
        if relation is None or e.relation == relation
    ]
    return VertexGraph.from_edges(max(len(ids), 1), rows, directed=store.directed, labels=ids or None)
