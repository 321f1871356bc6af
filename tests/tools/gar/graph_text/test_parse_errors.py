"""Bad graph text: every error names what was wrong; doubtful input is warned about, not guessed."""

from __future__ import annotations

import pytest

from graphreason.tools.gar.graph_text import GraphTextError, parse_graph_problem


@pytest.mark.parametrize("text", ["", "   \n  "])
def test_empty_text(text: str) -> None:
    with pytest.raises(GraphTextError, match="empty"):
        parse_graph_problem(text)


def test_not_text() -> None:
    with pytest.raises(GraphTextError, match="load_structured_graph"):
        parse_graph_problem({"edges": [[0, 1]]})  # type: ignore[arg-type]


def test_no_edges_says_what_was_not_understood() -> None:
    with pytest.raises(GraphTextError) as err:
        parse_graph_problem("Nodes 0 to 3. edges: an edge between node 0 and node one.")
    message = str(err.value)
    assert "no edges could be read" in message and "an edge between node 0 and node one" in message
    assert "understood encodings" in message


def test_text_without_any_graph() -> None:
    with pytest.raises(GraphTextError, match="no edges could be read"):
        parse_graph_problem("What is the capital of France?")


def test_ids_out_of_range_are_named() -> None:
    with pytest.raises(GraphTextError) as err:
        parse_graph_problem("The nodes are numbered from 0 to 3, and the edges are: (0,1) (2,7) (9,1).")
    assert "7, 9" in str(err.value) and "numbered from 0 to 3" in str(err.value)


def test_ids_out_of_a_one_based_range_are_named_as_written() -> None:
    with pytest.raises(
        GraphTextError, match=r"out of range: 0 \(the text says the nodes are numbered from 1 to 4\)"
    ):
        parse_graph_problem("The pages are numbered from 1 to 4. Links: 0 -> 2, 1 -> 3.")


def test_question_naming_a_missing_node() -> None:
    with pytest.raises(GraphTextError, match="question names node ids out of range: 9"):
        parse_graph_problem(
            "The nodes are numbered from 0 to 3, and the edges are: (0,1) (1,2). Is there a path between node 2 and node 9?"
        )


def test_contradictory_weights_name_the_edge() -> None:
    with pytest.raises(GraphTextError, match=r"edge \(0, 1\) is given 2 times with different weights: 3, 5"):
        parse_graph_problem("In an undirected graph, the edges are: (0,1,3) (1,2,4) (1,0,5).")


def test_reverse_arcs_with_different_weights_are_fine_when_directed() -> None:
    p = parse_graph_problem(
        "In a directed graph, the nodes are numbered from 0 to 2, and the edges are: (0->1,3) (1->0,5)."
    )
    assert p.edges == [(0, 1, 3.0), (1, 0, 5.0)]


def test_mixed_weighted_and_unweighted_edges() -> None:
    with pytest.raises(GraphTextError, match=r"1 of 2 edges have no weight.*\(1, 2\)"):
        parse_graph_problem("The nodes are numbered from 0 to 2, and the edges are: (0,1,3) (1,2).")


def test_two_different_node_counts() -> None:
    with pytest.raises(GraphTextError, match="different node counts: 4 .* 5"):
        parse_graph_problem("The graph has 5 nodes numbered from 0 to 3, and the edges are: (0,1).")


def test_names_missing_from_the_node_list() -> None:
    with pytest.raises(GraphTextError, match="not in its node list: Zed"):
        parse_graph_problem(
            "G describes a friendship graph among James and Robert.\nJames and Zed are friends."
        )


def test_negative_weights_are_flagged() -> None:
    p = parse_graph_problem(
        "In an undirected graph, the nodes are numbered from 0 to 2, and the edges are: (0,1,-3) (1,2,4)."
    )
    assert p.edges == [(0, 1, -3.0), (1, 2, 4.0)]
    assert any("negative edge weights: (0, 1, -3)" in w for w in p.warnings)


def test_repeats_and_self_loops_are_warned_and_merged() -> None:
    p = parse_graph_problem(
        "In an undirected graph, the nodes are numbered from 0 to 3, and the edges are: (0,1) (1,2) (1,0) (2,2)."
    )
    assert p.edges == [(0, 1, None), (1, 2, None), (2, 2, None)]
    assert any("repeated edge mentions merged: (0, 1)" in w for w in p.warnings)
    assert any("self-loops on nodes 2" in w for w in p.warnings)


def test_unreadable_fragments_are_returned_next_to_the_readable_graph() -> None:
    p = parse_graph_problem(
        "In an undirected graph, the nodes are numbered from 0 to 3, and the edges are: (0,1) (1,2) (2, 3, 4, 5) (x, 7)."
    )
    assert p.edges == [(0, 1, None), (1, 2, None)]
    assert p.unparsed == ["(2, 3, 4, 5)", "(x, 7)"]
    assert any("could not be read" in w for w in p.warnings)


def test_silent_direction_is_reported() -> None:
    p = parse_graph_problem("The nodes are numbered from 0 to 2, and the edges are: (0,1) (1,2).")
    assert not p.directed and any("does not say whether the graph is directed" in w for w in p.warnings)


def test_unstated_node_count_is_reported() -> None:
    p = parse_graph_problem("In a directed graph the edges are 0->1, 1->4.")
    assert p.n_nodes == 5 and p.stated_n_nodes is None
    assert any("largest id + 1 = 5" in w for w in p.warnings)


def test_question_naming_two_sources_uses_the_last_and_says_so() -> None:
    p = parse_graph_problem(
        "In an undirected graph the nodes are numbered from 0 to 3 and the edges are: (0,1) (1,2) (2,3). "
        "Example: the path from node 0 to node 1. Now give the shortest path from node 2 to node 3."
    )
    assert (p.params["source"], p.params["target"]) == (2, 3)
    assert any("several source nodes (0, 2)" in w for w in p.warnings)
