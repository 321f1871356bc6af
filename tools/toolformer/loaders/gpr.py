"""The 37 GPR graphs of Graph-ToolFormer, rebuilt from their names.

Graph-ToolFormer's graph-property prompts (``graph_properties``) ask about
"generated classic graphs" that the authors shipped only as a pickle on
Google Drive. Every one is a networkx generator, so they are regenerated
here instead of read: ``GL("gpr", {"octahedral_graph"})`` ->
``gpr_graph("octahedral_graph")``. No data root is needed.

``prompts_train`` names exactly 37 graphs, the count of the paper's Table 3.
Fixed graphs take no parameters; for the parametric ones the parameters were
inferred from the gold ``Reasoning Result`` values: for each family every
parameter pair in a small grid was scored against all single-call gold
answers naming the graph (order, size, density, eccentricity dicts, center,
periphery, averages, node-to-node shortest paths), and the table lists the
unique full match (one exception, marked ambiguous). The paper's Table 3
averages (14.70 nodes, 28.27 edges over 37 graphs) are reproduced exactly:
544/37 = 14.7027 and 1046/37 = 28.2703.

=================================  ==============================  ==============================================
name in the prompts                built as                        evidence in prompts_train (gold answers)
=================================  ==============================  ==============================================
balanced_tree                      ``balanced_tree(2, 4)``         order 31, size 30, ecc(root) 4, periphery 15..30
barbell_graph                      ``barbell_graph(8, 3)``         order 19 = 2*8+3, size 60 = 2*28+4, ecc(9) = 3
binomial_tree                      ``binomial_tree(5)``            order 32, size 31, center [0, 16], diameter 9
circulant_graph                    ``circulant_graph(6, [1, 2])``  order 6, size 12 (4-regular), diameter 2
circular_ladder_graph              ``circular_ladder_graph(15)``   order 30, size 45, eccentricity 8 everywhere
complete_graph                     ``complete_graph(15)``          order 15, size 105, density 1.0
cycle_graph                        ``cycle_graph(6)``              order 6, size 6, radius 3
dorogovtsev_goltsev_mendes_graph   ``..._graph(3)``                order 15, size 27 (3^3), center [0, 1, 2]
full_rary_tree                     ``full_rary_tree(3, 7)``        order 7, size 6, center [0, 1]. **Ambiguous**: all
                                                                   47 single-call answers fit r=3 and r=4 alike;
                                                                   r=3 is taken because the ladder_graph answers
                                                                   (same order, size and eccentricities) single it
                                                                   out
ladder_graph                       ``full_rary_tree(3, 7)``        **not** ``nx.ladder_graph``: order 7, size 6 and
                                                                   eccentricities {0: 2, 1: 2, others 3} (a tree);
                                                                   ``ladder_graph(n)`` always has 2n nodes. All 32
                                                                   single-call answers match ``full_rary_tree(3, 7)``
                                                                   (node#1 to node#4 is 1; r=4 gives 2), so the
                                                                   upstream pickle evidently stored that tree
                                                                   under this name
lollipop_graph                     ``lollipop_graph(4, 10)``       order 14, size 16 = C(4,2)+10, center [7, 8]
path_graph                         ``path_graph(12)``              order 12, size 11, center [5, 6] (also Table 5)
star_graph                         ``star_graph(7)``               order 8, size 7, center [0]
turan_graph                        ``turan_graph(15, 3)``          order 15, size 75 (three parts of 5)
wheel_graph                        ``wheel_graph(6)``              order 6, size 10, ecc {0: 1, 1..5: 2} (Table 5)
the other 22 (bull, chvatal, ...)  ``nx.<name>()``                 fixed graphs; every gold answer matches
=================================  ==============================  ==============================================

Names are matched loosely: case, spaces, hyphens, quotes/braces from a set
literal and a missing ``_graph`` suffix are forgiven (``"House X"``,
``house-x``, ``{"diamond_graph"}``, ``lollipop``). An unknown name raises
:class:`UnknownGPRGraphError` listing the valid ones. Graphs are built once,
frozen (read-only) and shared; ``graph.copy()`` gives a mutable one.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache

import networkx as nx

from graphreason.tools.core.errors import GraphError


class UnknownGPRGraphError(GraphError, KeyError):
    """The name is none of the 37 GPR graphs."""

    def __init__(self, name: object) -> None:
        self.name = name
        super().__init__(f"{name!r} is not a GPR graph. Valid GPR graph names: {', '.join(GPR_GRAPHS)}.")

    def __str__(self) -> str:  # KeyError would otherwise quote the message
        return self.args[0]


def _fixed(name: str) -> Callable[[], nx.Graph]:
    return getattr(nx, name)


# name -> builder; parameters from the evidence in the module docstring
GPR_GRAPHS: dict[str, Callable[[], nx.Graph]] = {
    "balanced_tree": lambda: nx.balanced_tree(2, 4),
    "barbell_graph": lambda: nx.barbell_graph(8, 3),
    "binomial_tree": lambda: nx.binomial_tree(5),
    "bull_graph": _fixed("bull_graph"),
    "chvatal_graph": _fixed("chvatal_graph"),
    "circulant_graph": lambda: nx.circulant_graph(6, [1, 2]),
    "circular_ladder_graph": lambda: nx.circular_ladder_graph(15),
    "complete_graph": lambda: nx.complete_graph(15),
    "cubical_graph": _fixed("cubical_graph"),
    "cycle_graph": lambda: nx.cycle_graph(6),
    "desargues_graph": _fixed("desargues_graph"),
    "diamond_graph": _fixed("diamond_graph"),
    "dodecahedral_graph": _fixed("dodecahedral_graph"),
    "dorogovtsev_goltsev_mendes_graph": lambda: nx.dorogovtsev_goltsev_mendes_graph(3),
    "frucht_graph": _fixed("frucht_graph"),
    "full_rary_tree": lambda: nx.full_rary_tree(3, 7),
    "heawood_graph": _fixed("heawood_graph"),
    "hoffman_singleton_graph": _fixed("hoffman_singleton_graph"),
    "house_graph": _fixed("house_graph"),
    "house_x_graph": _fixed("house_x_graph"),
    "icosahedral_graph": _fixed("icosahedral_graph"),
    "krackhardt_kite_graph": _fixed("krackhardt_kite_graph"),
    "ladder_graph": lambda: nx.full_rary_tree(3, 7),  # sic: see the docstring table
    "lollipop_graph": lambda: nx.lollipop_graph(4, 10),
    "moebius_kantor_graph": _fixed("moebius_kantor_graph"),
    "octahedral_graph": _fixed("octahedral_graph"),
    "pappus_graph": _fixed("pappus_graph"),
    "path_graph": lambda: nx.path_graph(12),
    "petersen_graph": _fixed("petersen_graph"),
    "sedgewick_maze_graph": _fixed("sedgewick_maze_graph"),
    "star_graph": lambda: nx.star_graph(7),
    "tetrahedral_graph": _fixed("tetrahedral_graph"),
    "truncated_cube_graph": _fixed("truncated_cube_graph"),
    "truncated_tetrahedron_graph": _fixed("truncated_tetrahedron_graph"),
    "turan_graph": lambda: nx.turan_graph(15, 3),
    "tutte_graph": _fixed("tutte_graph"),
    "wheel_graph": lambda: nx.wheel_graph(6),
}


def gpr_key(name: object) -> str:
    """Canonical GPR name for a spelling variant, or :class:`UnknownGPRGraphError`."""
    text = str(name).strip().strip("{}[]()\"' ").lower()
    key = re.sub(r"[\s\-_]+", "_", text).strip("_").replace("möbius", "moebius")
    for candidate in (key, f"{key}_graph", key.removesuffix("_graph")):
        if candidate in GPR_GRAPHS:
            return candidate
    raise UnknownGPRGraphError(name)


@cache
def _build(key: str) -> nx.Graph:
    graph = nx.Graph(GPR_GRAPHS[key]())
    graph.graph["name"] = key
    return nx.freeze(graph)


def gpr_graph(name: str) -> nx.Graph:
    """The GPR graph called ``name`` (any spelling variant), frozen; ``.copy()`` it to modify."""
    return _build(gpr_key(name))


def gpr_names() -> list[str]:
    """The 37 canonical GPR graph names, sorted."""
    return list(GPR_GRAPHS)
