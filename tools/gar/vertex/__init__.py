"""Compiled vertex programs for GraphAgent-Reasoner (layer 1: no workflow, no LLM).

* :mod:`graphreason.tools.gar.vertex.graph` - :class:`VertexGraph`, the CSR graph the programs run on;
* :mod:`graphreason.tools.gar.vertex.engine` - the six-part :class:`VertexAlgorithm` interface and the
  superstep engine :func:`run`;
* :mod:`graphreason.tools.gar.vertex.library` - the algorithm library (``ALGORITHMS``, ``get_algorithm``);
* :mod:`graphreason.tools.gar.vertex.reference` - exact reference solvers (networkx / scipy), bounded
  search for the NP-complete tasks, and structural answer checkers.
"""

from graphreason.tools.gar.vertex.engine import (
    Inbox,
    Messages,
    RoundInfo,
    RunResult,
    VertexAlgorithm,
    combine,
    run,
)
from graphreason.tools.gar.vertex.graph import VertexGraph, VertexProgramError
from graphreason.tools.gar.vertex.library import ALGORITHMS, get_algorithm

__all__ = [
    "ALGORITHMS",
    "Inbox",
    "Messages",
    "RoundInfo",
    "RunResult",
    "VertexAlgorithm",
    "VertexGraph",
    "VertexProgramError",
    "combine",
    "get_algorithm",
    "run",
]
