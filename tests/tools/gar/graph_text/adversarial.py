"""Phrases that a backtracking rule of GAR's question reader would choke on when repeated (shared with a benchmark)."""

from __future__ import annotations

# the words the task rules and the graph-text patterns start or end with, and edge notations
PHRASES = (
    "among ", "subgraph ", "sub-graph ", "substructure ", "triangle ", "weight ", "sum ", "nodes ", "node ",
    "maximum ", "max flow ", "flow ", "path ", "between ", "is ", "can ", "are ", "how many ", "number of ",
    "means ", "numbered ", "edges ", "has ", "from ", "to ", "and ", "with ", "weight of the ", "(0,1) ",
    "0 -> 1 ", "an edge between node ", "node 1 is connected to nodes ", "applicants ", "shortest ",
    "neighbors of ", "is there a path ", "visits every node ", "page rank ", "topological ", "bipartite ",
)


def repeated(phrase: str, size: int) -> str:
    """``phrase`` repeated to exactly ``size`` characters: one endless sentence."""
    return (phrase * (size // len(phrase) + 1))[:size]
