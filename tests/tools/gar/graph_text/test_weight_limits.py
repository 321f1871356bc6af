"""Weights that are not finite numbers, or that add up past float's range, are errors naming their edge.

Issue 21 ("serving safely", silent wrong answers from weights): ``(0,1,nan)`` and
``(0,1,inf)`` were skipped as unreadable text with a warning, a weight of 400
nines (past float's range) was dropped without a word, and ``(0,1,1e308)
(1,2,1e308)`` answered "There is no path" because the path's length overflowed
to infinity. Each is now one :class:`GraphTextError` naming the edge (or node)
as the text writes it, in every syntax the extractors read; a large weight
whose sums stay in range is still answered.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from graphreason.tools.gar.graph_text import GraphTextError, load_structured_graph, parse_graph_problem
from graphreason.tools.gar.graph_text.problem import MAX_WEIGHT_SUM, ParsedProblem
from graphreason.tools.gar.vertex import VertexGraph, get_algorithm, run

HUGE = "9" * 400  # an integer past float's range: float() reads it as inf
NON_FINITE = {"huge": HUGE, "nan": "nan", "inf": "inf", "-inf": "-inf"}

# each syntax of an edge weight: (text with {w} for the weight, the edge as the text names it)
EDGE_SYNTAXES = {
    "tuple": ("The nodes are numbered from 0 to 2, and the edges are: (0,1,{w}) (1,2,3).", "edge (0, 1)"),
    "directed tuple": (
        "In a directed graph, the nodes are numbered from 0 to 2, and the edges are: (0->1,3) (1->2,{w}).",
        "edge (1, 2)",
    ),
    "named tuple": (
        "The nodes are named from a to c, and the edges are: (a, b, {w}) (b, c, 3).",
        "edge (a, b)",
    ),
    "numbered from 1": (
        "The nodes are numbered from 1 to 3, and the edges are: (1,2,3) (2,3,{w}).",
        "edge (2, 3)",
    ),
    "NLGraph weight": (
        "In an undirected graph, the nodes are numbered from 0 to 2, and the edges are:\n"
        "an edge between node 0 and node 1 with weight {w},\nan edge between node 1 and node 2 with weight 1.\n"
        "Q: Give the shortest path from node 0 to node 2.",
        "edge (0, 1)",
    ),
    "NLGraph capacity": (
        "In a directed graph, the nodes are numbered from 0 to 2, and the edges are:\n"
        "an edge from node 0 to node 1 with capacity 5,\nan edge from node 1 to node 2 with capacity {w}.\n"
        "Q: What is the maximum flow from node 0 to node 2?",
        "edge (1, 2)",
    ),
    "bracket": (
        "The nodes are numbered from 0 to 2, and the edges are: [0, 1, {w}] [1, 2, 3].",
        "edge (0, 1)",
    ),
    "adjacency item": ("node 3 is connected to node 1 (weight 5), node 2 (weight {w}).", "edge (3, 2)"),
    "adjacency tail": (
        "node 0 is connected to node 1 with weight {w}.\nnode 1 is connected to node 2 with weight 3.",
        "edge (0, 1)",
    ),
    "arrow": ("0 -> 1 with weight {w}. 1 -> 2 with weight 2.", "edge (0, 1)"),
    "arrow in parentheses": ("0 → 1 (weight 2), 1 → 2 (w={w}).", "edge (1, 2)"),
    "arrow chain": ("The edges are: 0 -> 1 -> 2: {w}.", "edge (1, 2)"),
}

NODE_SYNTAXES = {
    "bracket": (
        "In an undirected graph, [i, k] means that node i has the weight k. The nodes are numbered from 0 to 2, "
        "weights of nodes are: [0, 1] [1, {w}] [2, 3], and the edges are: (0, 1) (1, 2) (0, 2).",
        "node 1",
    ),
    "weight of node": ("The weight of node 2 is {w}. The edges are: (0, 1) (1, 2) (0, 2).", "node 2"),
    "node has weight": ("Node 0 has a weight of {w}. The edges are: (0, 1) (1, 2) (0, 2).", "node 0"),
    "named nodes": (
        "The nodes are named from A to C, and node B has weight {w}. The edges are: (A, B) (B, C).",
        "node B",
    ),
}


def refusal(where: str, written: str, what: str = "weight") -> str:
    """The message for a weight written as ``written`` (a long number is shown cut, ending in '...')."""
    if written == HUGE:
        return re.escape(f"{where}: {what} '") + r"9+\.\.\. is not a finite number \(too large for a float\)"
    return re.escape(f"{where}: {what} '{written}' is not a finite number")


def solve(problem: ParsedProblem, algorithm: str, **params: int) -> object:
    """The engine's answer on a parsed problem (capacities of parallel arcs add up for max flow, as in GAR)."""
    edges = [(u, v, 1.0 if w is None else w) for u, v, w in problem.edges]
    graph = VertexGraph.from_edges(
        problem.n_nodes,
        edges,
        directed=problem.directed,
        parallel="sum" if algorithm == "max_flow" else "min",
    )
    result = run(get_algorithm(algorithm), graph, params)
    assert result.complete
    return result.answer


# ---------------------------------------------------------------------- non-finite weights
@pytest.mark.parametrize("value", NON_FINITE.values(), ids=NON_FINITE.keys())
@pytest.mark.parametrize("syntax", EDGE_SYNTAXES)
def test_a_non_finite_edge_weight_is_an_error_naming_the_edge(syntax: str, value: str) -> None:
    text, where = EDGE_SYNTAXES[syntax]
    with pytest.raises(GraphTextError, match=refusal(where, value)):
        parse_graph_problem(text.format(w=value))


@pytest.mark.parametrize("value", NON_FINITE.values(), ids=NON_FINITE.keys())
@pytest.mark.parametrize("syntax", NODE_SYNTAXES)
def test_a_non_finite_node_weight_is_an_error_naming_the_node(syntax: str, value: str) -> None:
    text, where = NODE_SYNTAXES[syntax]
    with pytest.raises(GraphTextError, match=refusal(where, value)):
        parse_graph_problem(text.format(w=value))


@pytest.mark.parametrize("value", ["NaN", "+Infinity", "-INF", "∞", "1e999", "-" + HUGE + ".5"])
def test_every_spelling_of_a_non_finite_weight_is_refused(value: str) -> None:
    text = f"The nodes are numbered from 0 to 2, and the edges are: (0,1,2) (1,2,{value})."
    with pytest.raises(GraphTextError, match=r"^edge \(1, 2\): weight '\S+ is not a finite number"):
        parse_graph_problem(text)


@pytest.mark.parametrize("value", NON_FINITE.values(), ids=NON_FINITE.keys())
def test_a_non_finite_node_feature_is_an_error_naming_the_node(value: str) -> None:
    text = f"node 0: [1, 2]\nnode 1: [0, {value}]\nThe edges are (0,1)."
    with pytest.raises(GraphTextError, match=refusal("node 1", value, "feature value")):
        parse_graph_problem(text)


def test_a_long_but_finite_weight_is_read() -> None:
    """A weight written with hundreds of digits is not too long for a tuple; only its value counts."""
    small = "0." + "0" * 300 + "5"
    problem = parse_graph_problem(f"The nodes are numbered from 0 to 1, and the edges are: (0,1,{small}).")
    assert problem.edges == [(0, 1, float(small))] and not problem.unparsed


# ---------------------------------------------------------------------- sums that would overflow
@pytest.mark.parametrize(
    ("text", "where"),
    [
        (  # the path's length, 2e308, was infinity: "There is no path"
            "The nodes are numbered from 0 to 2, and the edges are: (0,1,1e308) (1,2,1e308). "
            "What is the shortest path from node 0 to node 2?",
            r"edge \(0, 1\): weight 1e\+308",
        ),
        (  # finite in all, but past the limit: the largest weight is named
            "The nodes are numbered from 1 to 4, and the edges are: (1,2,1e307) (2,3,-3e307) (3,4,2e307).",
            r"edge \(2, 3\): weight -3e\+307",
        ),
        (
            "In a directed graph, the nodes are numbered from 0 to 2, and the edges are:\n"
            "an edge from node 0 to node 1 with capacity 9e307,\nan edge from node 1 to node 2 with capacity 9e307.\n"
            "Q: What is the maximum flow from node 0 to node 2?",
            r"edge \(0, 1\): weight 9e\+307",
        ),
        (  # a triangle's weight is a sum of node weights
            "In an undirected graph, [i, k] means that node i has the weight k. The nodes are named from a to c, "
            "weights of nodes are: [a, 1] [b, 1e308] [c, 1e308], and the edges are: (a, b) (b, c) (a, c).",
            r"node b: weight 1e\+308",
        ),
        (  # edge and node weights add up together
            "The weight of node 0 is 3e307. The edges are: (0, 1, 2e307) (1, 2, 1).",
            r"node 0: weight 3e\+307",
        ),
    ],
    ids=["path", "largest named", "flow", "node weights", "edges and nodes"],
)
def test_weights_whose_sums_could_overflow_are_an_error(text: str, where: str) -> None:
    with pytest.raises(GraphTextError, match=where + r" is too large: .* could overflow"):
        parse_graph_problem(text)


@pytest.mark.parametrize(
    ("graph", "where"),
    [
        ({"edges": [[0, 1, 1e308], [1, 2, 1e308]]}, r"edge \(0, 1\)"),
        ({"edges": [["a", "b", 1.0], ["b", "c", -1e308]], "directed": True}, r"edge \(b, c\)"),
        ({"edges": np.array([[0, 1, 2e307], [1, 2, 3e307]])}, r"edge \(1, 2\)"),
        ({"edges": [[0, 1, 1.0]], "node_weights": {"0": 1e308, "1": 1e308}}, r"node 0"),
    ],
    ids=["list", "names", "array", "node weights"],
)
def test_structured_graphs_whose_sums_could_overflow_are_an_error(graph: dict, where: str) -> None:
    with pytest.raises(GraphTextError, match=where + r": weight .* is too large: .* could overflow"):
        load_structured_graph(graph)


# ---------------------------------------------------------------------- large weights that are safe
def test_a_large_weight_on_one_edge_is_still_answered() -> None:
    problem = parse_graph_problem(
        "The nodes are numbered from 0 to 2, and the edges are: (0,1,1e300) (1,2,3). "
        "What is the shortest path from node 0 to node 2?"
    )
    assert problem.edges == [(0, 1, 1e300), (1, 2, 3.0)]
    assert float(solve(problem, "shortest_path", source=0, target=2)) == 1e300 + 3


@pytest.mark.parametrize("algorithm", ["shortest_path", "max_flow"])
def test_weights_just_under_the_limit_are_answered_without_overflow(algorithm: str) -> None:
    """Undirected, so max flow's residual network holds each capacity twice: still no overflow."""
    weight = MAX_WEIGHT_SUM / 2
    problem = parse_graph_problem(
        f"In an undirected graph, the nodes are numbered from 0 to 2, and the edges are: "
        f"(0,1,{weight!r}) (1,2,{weight!r})."
    )
    answer = float(solve(problem, algorithm, source=0, target=2))
    assert answer == (2 * weight if algorithm == "shortest_path" else weight)


@pytest.mark.parametrize("value", ["1e-400", "-2.5e-999", "0.1e-330"])
def test_a_weight_too_small_for_a_float_is_an_error_not_a_zero(value: str) -> None:
    with pytest.raises(GraphTextError, match=r"edge \(0, 1\).*too small for a float"):
        parse_graph_problem(f"Edges: (0,1,{value}) (1,2,3). What is the shortest path from node 0 to node 2?")


def test_a_written_zero_weight_is_still_zero() -> None:
    assert parse_graph_problem("Edges: (0,1,0.000) (1,2,0e5). Is there a path from 0 to 2?").edges == [
        (0, 1, 0.0), (1, 2, 0.0)
    ]


def test_one_weight_after_several_neighbours_is_ambiguous_not_dropped() -> None:
    text = "node 0 is connected to nodes 1, 2 with weight 5. What is the shortest path from node 0 to node 2?"
    with pytest.raises(GraphTextError, match="node 0: one weight .* ambiguous"):
        parse_graph_problem(text)
    single = parse_graph_problem("node 0 is connected to node 1 with weight 5. Is there a path from node 0 to node 1?")
    assert single.edges == [(0, 1, 5.0)]
