"""GAR's graph forms as networkx, the exchange form for checks and brute force.

* :class:`~graphreason.tools.gar.graph_text.problem.ParsedProblem` - a graph problem read from text or a
  structured input: dense integer ids, optional weights and names, the question's parameters;
* :class:`~graphreason.tools.gar.vertex.graph.VertexGraph` - the vertex engine's CSR arrays.

Both are built by one function, :func:`networkx_graph`; the classes' ``to_networkx``
methods delegate here. (The exact searches, the design checks and the evaluation's
answer checks read these graphs.)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the graph classes import this module lazily; no import cycle at run time
    from graphreason.tools.gar.graph_text.problem import ParsedProblem
    from graphreason.tools.gar.vertex.graph import VertexGraph

Node = tuple[Any, dict[str, Any]]
Edge = tuple[Any, Any, dict[str, Any]]


def networkx_graph(directed: bool, nodes: Iterable[Node], edges: Iterable[Edge]) -> Any:
    """A networkx ``DiGraph`` / ``Graph`` from ``(id, attrs)`` nodes and ``(u, v, attrs)`` edges.

    Attributes go in as dicts, never keyword arguments, so an attribute name cannot
    clash with networkx's parameters.
    """
    import networkx as nx  # slow to import: only the paths that convert pay for it

    graph = nx.DiGraph() if directed else nx.Graph()
    graph.add_nodes_from(nodes)
    graph.add_edges_from(edges)
    return graph


def problem_to_networkx(problem: ParsedProblem) -> Any:
    """Nodes ``0..n-1``; edges carry ``weight`` only on weighted graphs."""
    return networkx_graph(
        problem.directed,
        ((i, {}) for i in range(problem.n_nodes)),
        ((u, v, {} if w is None else {"weight": w}) for u, v, w in problem.edges),
    )


def vertex_to_networkx(graph: VertexGraph) -> Any:
    """Nodes ``0..n-1`` (with ``weight`` when the graph has node weights); every edge carries
    ``weight`` (1.0 on unweighted graphs, as the engine stores it)."""
    weights = graph.node_weights
    return networkx_graph(
        graph.directed,
        ((i, {} if weights is None else {"weight": float(weights[i])}) for i in range(graph.num_nodes)),
        ((u, v, {"weight": w}) for u, v, w in graph.edge_list()),
    )
