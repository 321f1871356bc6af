"""Compiled vertex programs for GraphAgent-Reasoner (layer 1: no workflow, no LLM).

* :mod:`tools.vertex.graph` - :class:`VertexGraph`, the CSR graph the programs run on;
* :mod:`tools.vertex.engine` - the six-part :class:`VertexAlgorithm` interface and the
  superstep engine :func:`run`;
* :mod:`tools.vertex.library` - the algorithm library (``ALGORITHMS``, ``get_algorithm``);
* :mod:`tools.vertex.reference` - exact reference solvers (networkx / scipy), bounded
  search for the NP-complete tasks, and structural answer checkers.
"""

from tools.vertex.engine import Inbox, Messages, RoundInfo, RunResult, VertexAlgorithm, combine, run
from tools.vertex.graph import VertexGraph, VertexProgramError
from tools.vertex.library import ALGORITHMS, get_algorithm

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
