"""Every supported encoding, on small hand-written texts whose graphs were worked out by hand."""

from __future__ import annotations

import pytest

from graphreason.tools.gar.graph_text import GraphTextError, parse_graph_problem


def edge_set(problem) -> set[tuple]:
    """Edges as a set; undirected pairs in sorted order so the listing direction does not matter."""
    if problem.directed:
        return {(u, v, w) for u, v, w in problem.edges}
    return {(min(u, v), max(u, v), w) for u, v, w in problem.edges}


GRAPHINSTRUCT_UNDIRECTED = (
    "Determine whether or not there is a cycle in an undirected graph. In an undirected graph, (i,j) means that "
    "node i and node j are connected with an undirected edge. Given a graph, you need to output Yes or No, "
    "indicating whether there is a cycle in the graph. Q: The nodes are numbered from 0 to 5, and the edges are: "
    "(0, 4) (0, 3) (1, 4) (3, 4). Is there a cycle in this graph?"
)


def test_graphinstruct_undirected_tuples() -> None:
    p = parse_graph_problem(GRAPHINSTRUCT_UNDIRECTED)
    assert (p.n_nodes, p.stated_n_nodes, p.directed, p.weighted) == (6, 6, False, False)
    assert p.edges == [(0, 4, None), (0, 3, None), (1, 4, None), (3, 4, None)]
    assert p.params == {} and p.warnings == [] and p.unparsed == []


def test_graphinstruct_directed_weighted_flow() -> None:
    text = (
        "Find the maximum flow between two nodes in a directed graph. In a directed graph, (i->j,k) means that "
        "node i and node j are connected with an directed edge from node i to node j with weight k. Given a graph "
        "and a pair of nodes, you need to output the maximum flow between the two nodes. Q: The nodes are numbered "
        "from 0 to 4, and the edges are: (0->3,2) (1->4,6) (3->4,10) (0->1,1). What is the maximum flow from node 0 to node 4?"
    )
    p = parse_graph_problem(text)
    assert p.directed and p.weighted and p.n_nodes == 5
    assert p.edges == [(0, 3, 2.0), (1, 4, 6.0), (3, 4, 10.0), (0, 1, 1.0)]
    assert p.params == {"source": 0, "target": 4, "weight_kind": "capacity"}


def test_graphinstruct_weighted_shortest_path_params() -> None:
    text = (
        "In an undirected graph, (i,j,k) means that node i and node j are connected with an undirected edge with "
        "weight k. Q: The nodes are numbered from 0 to 3, and the edges are: (0,2,10) (0,1,3) (1,3,2.5). "
        "Give the weight of the shortest path from node 3 to node 2."
    )
    p = parse_graph_problem(text)
    assert edge_set(p) == {(0, 2, 10.0), (0, 1, 3.0), (1, 3, 2.5)}
    assert (p.params["source"], p.params["target"], p.params["weight_kind"]) == (3, 2, "weight")


def test_graphinstruct_node_weights_for_triangle_sum() -> None:
    text = (
        "Find the maximum sum of the weights of three interconnected nodes. In an undirected graph, [i, k] means "
        "that node i has the weight k. (i,j) means that node i and node j are connected with an undirected edge. "
        "Q: The nodes are numbered from 0 to 3, weights of nodes are: [0, 10] [1, 1] [2, 5] [3, 4], and the edges "
        "are: (0, 2) (0, 3) (2, 3). What is the maximum sum of the weights of three nodes?"
    )
    p = parse_graph_problem(text)
    assert p.node_weights == {0: 10.0, 1: 1.0, 2: 5.0, 3: 4.0}
    assert edge_set(p) == {(0, 2, None), (0, 3, None), (2, 3, None)} and not p.weighted


def test_graphinstruct_substructure_keeps_the_pattern_graph() -> None:
    text = (
        "Determine if a smaller graph is present as an exact match within a larger graph. In a directed graph, "
        "(i->j) means that node i and node j are connected with a directed edge from node i to node j. Given a "
        "graph G and a subgraph G', you need to output Yes or No, indicating whether subgraph G' is present within "
        "the directed graph G. Q: The nodes of graph G are numbered from 0 to 3, and the edges are: (0->1) (1->2) "
        "(2->3). The nodes of subgraph G' are numbered from a to c, and the edges are: (a->b) (b->c). "
        "Is subgraph G' present within graph G as a direct substructure?"
    )
    p = parse_graph_problem(text)
    assert p.directed and p.n_nodes == 4 and p.edges == [(0, 1, None), (1, 2, None), (2, 3, None)]
    pattern = p.params["pattern"]
    assert pattern.directed and pattern.n_nodes == 3
    assert pattern.edges == [(0, 1, None), (1, 2, None)]
    assert pattern.node_names == {0: "a", 1: "b", 2: "c"}


def test_nlgraph_weighted_sentences() -> None:
    text = (
        "In an undirected graph, the nodes are numbered from 0 to 3, and the edges are:\n"
        "an edge between node 0 and node 1 with weight 2,\n"
        "an edge between node 1 and node 2 with weight 1,\n"
        "an edge between node 2 and node 3 with weight 4.\n"
        "Q: Give the shortest path from node 0 to node 3.\nA:"
    )
    p = parse_graph_problem(text)
    assert not p.directed and p.edges == [(0, 1, 2.0), (1, 2, 1.0), (2, 3, 4.0)]
    assert (p.params["source"], p.params["target"]) == (0, 3)


def test_nlgraph_directed_capacity_sentences_do_not_leak_into_params() -> None:
    # the edge sentences say "from node 0 to node 1"; only the question's pair may become source/target
    text = (
        "In a directed graph, the nodes are numbered from 0 to 2, and the edges are:\n"
        "an edge from node 0 to node 1 with capacity 5,\nan edge from node 1 to node 2 with capacity 3.\n"
        "Q: What is the maximum flow from node 0 to node 2?\nA:"
    )
    p = parse_graph_problem(text)
    assert p.directed and p.edges == [(0, 1, 5.0), (1, 2, 3.0)]
    assert p.params == {"source": 0, "target": 2, "weight_kind": "capacity"}


def test_nlgraph_precedence_sentences_are_directed_edges() -> None:
    text = (
        "In a directed graph with 3 nodes numbered from 0 to 2:\nnode 2 should be visited before node 0\n"
        "node 0 should be visited before node 1\nQ: Can all the nodes be visited? Give the solution.\nA:"
    )
    p = parse_graph_problem(text)
    assert p.directed and p.n_nodes == 3 and p.edges == [(2, 0, None), (0, 1, None)]


def test_nlgraph_matching_gives_applicants_and_jobs_their_own_ids() -> None:
    text = (
        "There are 2 job applicants numbered from 0 to 1, and 2 jobs numbered from 0 to 1. "
        "Applicant 0 is interested in job 0, job 1.\nApplicant 1 is interested in job 1.\nQ: Find an assignment."
    )
    p = parse_graph_problem(text)
    assert p.n_nodes == 4 and not p.directed
    assert p.node_names == {0: "applicant 0", 1: "applicant 1", 2: "job 0", 3: "job 1"}
    assert p.edges == [(0, 2, None), (0, 3, None), (1, 3, None)]
    assert (p.params["n_applicants"], p.params["n_jobs"]) == (2, 2)


def test_nlgraph_embeddings_become_node_features() -> None:
    text = (
        "In an undirected graph, the nodes are numbered from 0 to 1, and every node has an embedding.\n"
        "node 0: [1,2]\nnode 1: [0,-1]\nThe edges are: (0,1)\nQ: What's the embedding of each node?"
    )
    p = parse_graph_problem(text)
    assert p.params["node_features"] == {0: [1.0, 2.0], 1: [0.0, -1.0]} and p.edges == [(0, 1, None)]


def test_adjacency_phrasing_lists_each_edge_once() -> None:
    text = (
        "In an undirected graph: Node 0 is connected to nodes 1, 2 and 3.\nNode 1 is connected to node 0.\n"
        "The neighbors of node 2 are 0 and 3.\nnode 3 is adjacent to nodes 0, 2.\nQ: What is the degree of node 3?"
    )
    p = parse_graph_problem(text)
    assert edge_set(p) == {(0, 1, None), (0, 2, None), (0, 3, None), (2, 3, None)}
    assert p.params == {"node": 3}
    assert not any("repeated" in w for w in p.warnings)  # both-ends listing is expected, not reported


def test_adjacency_colon_lines_and_per_item_weights() -> None:
    p = parse_graph_problem("A directed graph with nodes numbered from 0 to 2.\n0: 1, 2\n1: 2\n")
    assert p.directed and p.edges == [(0, 1, None), (0, 2, None), (1, 2, None)]
    q = parse_graph_problem("Undirected graph. Node 0 is connected to node 1 (weight 4), node 2 (weight 7).")
    assert q.edges == [(0, 1, 4.0), (0, 2, 7.0)] and q.weighted


@pytest.mark.parametrize("arrow", ["->", " -> ", "→", " --> "])
def test_arrows_are_directed(arrow: str) -> None:
    p = parse_graph_problem(f"The nodes are numbered from 0 to 2. Edges: 0{arrow}1, 1{arrow}2, 2{arrow}0.")
    assert p.directed and p.edges == [(0, 1, None), (1, 2, None), (2, 0, None)]


def test_arrow_chains_and_weights() -> None:
    p = parse_graph_problem("Nodes are numbered from 0 to 3. Paths: 0 -> 1 -> 2 and 2 -> 3.")
    assert p.edges == [(0, 1, None), (1, 2, None), (2, 3, None)]
    q = parse_graph_problem("Nodes 0 to 2. Links: 0 -> 1 with weight 3, 1 -> 2 with weight 4.")
    assert q.directed and q.edges == [(0, 1, 3.0), (1, 2, 4.0)]


def test_arrows_in_a_text_that_says_undirected_are_undirected_edges() -> None:
    text = "You have been given a graph G among nodes A, B, and C.\nG has the following undirected edges:\nA -> B\nB -> C\n"
    p = parse_graph_problem(text)
    assert not p.directed and p.edges == [(0, 1, None), (1, 2, None)]
    assert p.node_names == {0: "A", 1: "B", 2: "C"}
    assert any("undirected" in w for w in p.warnings)


def test_graphqa_friendship_names_map_to_ids_in_list_order() -> None:
    text = (
        "G describes a friendship graph among James, Robert, John, and Michael.\nWe have the following edges in G:\n"
        "James and Robert are friends.\nJohn and Michael are friends.\nRobert and John are friends.\n"
        "Q: Is there a path from node James to node Michael?\nA: "
    )
    p = parse_graph_problem(text)
    assert p.node_names == {0: "James", 1: "Robert", 2: "John", 3: "Michael"}
    assert edge_set(p) == {(0, 1, None), (2, 3, None), (1, 2, None)}
    assert (p.params["source"], p.params["target"]) == (0, 3)
    assert p.label(3) == "Michael" and p.node_id("John") == 2 and p.stated_n_nodes == 4


def test_graphqa_coauthorship_and_neighbour_question() -> None:
    text = (
        "G describes a coauthorship graph among nodes Ann, Bo, and Cy.\nIn this coauthorship graph:\n"
        "Ann and Bo wrote a paper together.\nBo and Cy wrote a paper together.\n"
        "Q: List all the nodes connected to Bo in alphabetical order.\nA: "
    )
    p = parse_graph_problem(text)
    assert edge_set(p) == {(0, 1, None), (1, 2, None)} and p.params == {"node": 1}


def test_names_without_a_node_list_are_numbered_by_first_appearance() -> None:
    p = parse_graph_problem("Alice and Bob are friends. Bob and Carol are friends.")
    assert p.node_names == {0: "Alice", 1: "Bob", 2: "Carol"} and p.n_nodes == 3
    assert p.stated_n_nodes is None and any("first appearance" in w for w in p.warnings)


def test_graphqa_random_integer_labels_become_names() -> None:
    text = "G describes a graph among nodes 512, 7, and 9031.\nThe edges in G are: (512, 9031) (7, 512).\nQ: What is the degree of node 512?"
    p = parse_graph_problem(text)
    assert p.node_names == {0: "512", 1: "7", 2: "9031"}
    assert edge_set(p) == {(0, 2, None), (0, 1, None)} and p.params["node"] == 0


def test_one_based_numbering_is_shifted_and_named() -> None:
    text = "The web pages are numbered from 1 to 4. Links: 1 -> 2, 2 -> 3, 4 -> 1. Which are the 2 most important pages?"
    p = parse_graph_problem(text)
    assert p.n_nodes == 4 and p.edges == [(0, 1, None), (1, 2, None), (3, 0, None)]
    assert p.label(0) == "1" and p.node_id("4") == 3 and p.params["k"] == 2


def test_gar_style_question_with_a_source_only() -> None:
    text = (
        "(i,j,k) means that node i and node j are connected with an undirected edge with weight k. The graph has "
        "4 nodes, and the edges are: (0,1,9) (1,2,3) (2,3,1). Give the weight of the shortest distance from node 1 "
        "to other nodes."
    )
    p = parse_graph_problem(text)
    assert p.stated_n_nodes == 4 and p.params["source"] == 1 and "target" not in p.params


def test_node_weight_sentences() -> None:
    p = parse_graph_problem(
        "Undirected graph. The weight of node 0 is 3. Node 1 has weight 5. node 2 has a weight of 7.5. Edges: (0,1) (1,2)."
    )
    assert p.node_weights == {0: 3.0, 1: 5.0, 2: 7.5}


def test_start_node_and_nodelink_style_relation_tuples() -> None:
    text = "In an undirected graph, the edges in G are: (0, linked, 1) (1, linked, 2). Find a path starting at node 2."
    p = parse_graph_problem(text)
    assert edge_set(p) == {(0, 1, None), (1, 2, None)} and p.params == {"start": 2}


def test_explicitly_empty_edge_list_is_a_graph_without_edges() -> None:
    p = parse_graph_problem(
        "The nodes are numbered from 0 to 2, and the edges are: . Is there a path between node 0 and node 2?"
    )
    assert p.n_nodes == 3 and p.edges == [] and p.params == {"source": 0, "target": 2}
    assert any("no edges" in w for w in p.warnings)


def test_few_shot_prompt_reads_only_the_last_question() -> None:
    text = (
        "In an undirected graph, (i,j) means that node i and node j are connected with an undirected edge.\n"
        "Q: The nodes are numbered from 0 to 2, and the edges are: (0,1) (1,2). Is there a cycle in this graph?\n"
        "A: From node 0 we reach node 1 (0,1), then node 2 (1,2); no edge (2,0). ### No.\n\n"
        "Q: The nodes are numbered from 0 to 3, and the edges are: (0,3) (3,1). Is there a cycle in this graph?\n"
        "A: Starting at node 0 (0,3) ..."
    )
    p = parse_graph_problem(text)
    assert p.n_nodes == 4 and p.edges == [(0, 3, None), (3, 1, None)] and p.unparsed == []
    assert any("2 'Q:' problems" in w for w in p.warnings)


def test_require_params_names_what_the_question_did_not_give() -> None:
    p = parse_graph_problem(
        GRAPHINSTRUCT_UNDIRECTED.replace("Is there a cycle", "What is the shortest path from node 1")
    )
    assert p.require_params("source") == (1,)
    with pytest.raises(GraphTextError, match="does not name the target node"):
        p.require_params("source", "target")
