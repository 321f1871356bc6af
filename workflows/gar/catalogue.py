"""What the master can choose from: the vertex-program library plus the two exact searches.

The NP-complete GraphInstruct tasks (Hamiltonian path, substructure) have no
exact distributed algorithm (the paper leaves them out), so they are entries
run by a bounded exact search instead of the engine. Every entry has a
description for retrieval and the parameters the master may set.
"""

from __future__ import annotations

from dataclasses import dataclass

from graphreason.tools.gar.vertex import ALGORITHMS
from graphreason.tools.gar.vertex.reference import TASK_ALIASES


@dataclass(frozen=True)
class LibraryAlgorithm:
    """One algorithm the master may choose: its name, description, parameters, answer kind and engine."""

    name: str
    description: str
    params: dict[str, str]
    answer_kind: str
    engine: str  # "compiled" (vertex program) or "search" (bounded exact search)


SEARCH_ENTRIES = {
    "hamiltonian_path": LibraryAlgorithm(
        "hamiltonian_path",
        "Hamiltonian path: is there a path that visits every node of the graph exactly once? "
        "NP-complete; decided by a bounded exact depth-first search that returns the path when one exists.",
        {},
        "yes/no",
        "search",
    ),
    "substructure": LibraryAlgorithm(
        "substructure",
        "Subgraph matching / substructure: does graph G contain a copy of the smaller graph G' "
        "(G' isomorphic to a subgraph of G)? NP-complete; decided by a bounded exact backtracking search.",
        {"pattern": "the smaller graph G' (read from the question)"},
        "yes/no",
        "search",
    ),
}

CATALOGUE: dict[str, LibraryAlgorithm] = {
    **{
        a.name: LibraryAlgorithm(a.name, a.description, dict(a.params), a.answer_kind, "compiled")
        for a in ALGORITHMS.values()
    },
    **SEARCH_ENTRIES,
}


def entry_for_task(task: str | None) -> str | None:
    """The catalogue entry answering a detected task (``shortest`` -> ``shortest_path``), or None."""
    if not task:
        return None
    name = TASK_ALIASES.get(task.strip().lower().replace(" ", "_"))
    return name if name in CATALOGUE else None
