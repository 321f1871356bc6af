"""Task detection from question wording, and dataset task names."""

from __future__ import annotations

import pytest

from graphreason.tools.gar.graph_text import TASKS, canonical_task, detect_task

QUESTIONS = [
    ("Is there a cycle in this graph?", "cycle"),
    ("In a directed graph the edges are (0->1). Is there a path between node 9 and node 13?", "connectivity"),
    ("Q: Is there a path from node 3 to node 5?\nA: ", "connectivity"),
    ("Is this graph bipartite?", "bipartite"),
    ("Give one topology sorting path of this graph.", "topology"),
    ("Q: Can all the nodes be visited? Give the solution.\nA:", "topology"),
    ("Give the weight of the shortest path from node 6 to node 4.", "shortest"),
    ("Q: What is the length of the shortest path from node 1 to node 2?\nA: ", "shortest"),
    ("What is the maximum sum of the weights of three nodes?", "triangle"),
    ("What is the maximum flow from node 0 to node 7?", "flow"),
    ("Q: What is the maximum capacity of the flow from node 1 to node 3?\nA: ", "flow"),
    ("Is there a Hamiltonian path in this graph?", "hamilton"),
    (
        "Q: Is there a path in this graph that visits every node exactly once? If yes, give the path.",
        "hamilton",
    ),
    ("Is subgraph G' present within graph G as a direct substructure?", "substructure"),
    (
        "Q: Find an assignment of jobs to applicants such that the maximum number of applicants find a job.",
        "matching",
    ),
    ("Q: What's the embedding of each node after two layers of simple graph convolution layer?", "gnn"),
    ("Rank the web pages: which are the 3 most important pages?", "pagerank"),
    ("Compute the PageRank of every node.", "pagerank"),
    ("Q: What is the degree of node 4?\nA: ", "degree"),
    ("Q: List all the nodes connected to James in alphabetical order.\nA: ", "neighbors"),
    ("Q: List all the nodes that are not connected to 3 in alphabetical order.", "neighbors"),
    ("Q: Is node 2 connected to node 5?\nA: ", "edge_existence"),
    ("Q: How many nodes are in this graph?\nA: ", "node_count"),
    ("Q: How many edges are in this graph?\nA: ", "edge_count"),
    ("Q: How many triangles are in this graph?\nA: ", "triangle_count"),
    ("How many connected components does the graph have?", "components"),
]


@pytest.mark.parametrize(("question", "task"), QUESTIONS)
def test_detect_task(question: str, task: str) -> None:
    assert detect_task(question) == task


def test_question_sentence_outranks_the_graph_description() -> None:
    # the header talks about connectivity; the question asks for the degree
    text = (
        "Determine whether two nodes are connected. The edges are (0,1) (1,2). What is the degree of node 1?"
    )
    assert detect_task(text) == "degree"


def test_no_task() -> None:
    assert detect_task("The edges are (0,1) (1,2).") is None
    assert detect_task("") is None


@pytest.mark.parametrize(
    ("name", "task"),
    [
        ("triplet", "triangle"),
        ("shortest_path", "shortest"),
        ("GNN", "gnn"),
        ("Hamiltonian", "hamilton"),
        ("maximum-flow", "flow"),
        ("reachability", "connectivity"),
        ("cycle", "cycle"),
        ("nonsense", None),
    ],
)
def test_canonical_task(name: str, task: str | None) -> None:
    assert canonical_task(name) == task


def test_every_rule_names_a_known_task() -> None:
    assert {detect_task(q) for q, _ in QUESTIONS} <= set(TASKS)
