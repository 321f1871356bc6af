"""The distributed-algorithm library: every algorithm in six-part form, by name.

The master of GraphAgent-Reasoner retrieves entries by their ``description``
(and reads ``describe()`` to adapt parameters or to design a new algorithm by
example); the engine runs them with :func:`graphreason.tools.gar.vertex.engine.run`.
"""

from __future__ import annotations

from graphreason.tools.gar.vertex.engine import VertexAlgorithm
from graphreason.tools.gar.vertex.flow import MaxFlow
from graphreason.tools.gar.vertex.graph import VertexProgramError
from graphreason.tools.gar.vertex.pagerank import PageRank
from graphreason.tools.gar.vertex.structure import (
    Bipartiteness,
    CycleDetection,
    MaxTriangleSum,
    TopologicalSort,
)
from graphreason.tools.gar.vertex.traversal import (
    BFSLevels,
    ConnectedComponents,
    Connectivity,
    Degree,
    Neighbourhood,
    ShortestPath,
)

ALGORITHMS: dict[str, VertexAlgorithm] = {
    algorithm.name: algorithm
    for algorithm in (
        Connectivity(),
        CycleDetection(),
        Bipartiteness(),
        TopologicalSort(),
        ShortestPath(),
        MaxTriangleSum(),
        MaxFlow(),
        PageRank(),
        ConnectedComponents(),
        BFSLevels(),
        Degree(),
        Neighbourhood(),
    )
}


def get_algorithm(name: str) -> VertexAlgorithm:
    """The library entry called ``name`` (a clear error listing the valid names otherwise)."""
    key = name.strip().lower().replace("-", "_").replace(" ", "_")
    if key not in ALGORITHMS:
        raise VertexProgramError(
            f"no algorithm named {name!r} in the library; known: {', '.join(ALGORITHMS)}"
        )
    return ALGORITHMS[key]
