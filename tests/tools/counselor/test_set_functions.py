"""The functions that close the questions worked out over lists: MinDegree, Same, Intersect, Union, Contains, Exists.

Each returns the answer in its observation, so a question program is one action (the tuned
reasoner never intersects two lists in its head). On the test graph (tests/tools/conftest.py)
paper 1 cites 2, 3 and 4; 2 cites 4 and 5; 3 cites 4; 4 cites 5 and 6; years are 2021 + id - 1.
"""

from __future__ import annotations

import pytest

from graphreason.evals.counselor.reference_agent import observation_values
from graphreason.tools.counselor.calls import run_action
from graphreason.tools.counselor.functions import GraphFunctions
from graphreason.tools.counselor.registry import AGGREGATES, GRAPH_FUNCTIONS


@pytest.mark.parametrize(
    ("action", "observation", "value"),
    [
        # 2, 3, 4 cite 2, 1 and 2 papers: 3 is the one with the fewest
        ("MinDegree[Neighbour[1, cites], cites]", "The node with the fewest cites neighbors (1) is: 3.", 3),
        ("Feature[MinDegree[Neighbour[1, cites], cites], title]", None, None),
        ("Same[1, cites, year]", "The number of cites neighbors of 1 whose year is its own (2021) is: 0.", 0),
        ("Same[1, cites, abstract]", "The number of cites neighbors of 1 whose abstract is its own () is: 3.", 3),
        ("Intersect[Neighbour[1, cites], Neighbour[2, cites]]", "The nodes in both lists are: ['4'].", ["4"]),
        ("Count[Intersect[Neighbour[1, cites], Neighbour[2, cites]]]", "The number of distinct values is: 1.", 1),
        ("Count[Union[Neighbour[1, cites], Neighbour[2, cites]]]", "The number of distinct values is: 4.", 4),
        ("Contains[Neighbour[1, cites], 4]", "Whether the list holds 4 is: yes.", "yes"),
        ("Contains[Neighbour[1, cites], 5]", "Whether the list holds 5 is: no.", "no"),
        ("Exists[Matching[Neighbour[1, cites], year, 2022]]", "Whether the list holds anything is: yes.", "yes"),
        ("Exists[Matching[Neighbour[1, cites], year, 1999]]", "Whether the list holds anything is: no.", "no"),
        # 6's citers 4 and 5 are cited by 1, 2, 3 and 2, 4, which cite 2, 3, 4; 4, 5; 4; 5, 6: 4, by three of four
        ("MostLinked[Neighbour[Neighbour[6, cited_by], cited_by], cites]", "The node that is the cites neighbor of the most of them (3 of 4) is: 4.", 4),
        # 1 cites 3 papers, 2 cites 2: two named nodes compared by their links
        ("MoreThan[1, 2, cites]", "Whether 1 has more cites neighbors than 2 (3 against 2) is: yes.", "yes"),
        ("MoreThan[2, 1, cites]", "Whether 2 has more cites neighbors than 1 (2 against 3) is: no.", "no"),
        ("FewerThan[2, 1, cites]", "Whether 2 has fewer cites neighbors than 1 (2 against 3) is: yes.", "yes"),
        ("FewerThan[1, 1, cites]", "Whether 1 has fewer cites neighbors than 1 (3 against 3) is: no.", "no"),
        ("Difference[2, 1, cites]", "The difference between the cites neighbor numbers of 2 and 1 (2 and 3) is: 1.", 1),
        ("Difference[1, Neighbour[3, cites], cited_by]", "The difference between the cited_by neighbor numbers of 1 and 4 (0 and 3) is: 3.", 3),
    ],
)
def test_each_observation_holds_the_answer(
    functions: GraphFunctions, action: str, observation: str | None, value: object
) -> None:
    result = run_action(action, functions)
    assert result.ok, result.observation
    if observation is None:  # a node found by MinDegree feeds a Feature like any node id
        assert result.observation == f"The title feature of 3 are: {functions.store.features('3')['title']}."
        return
    assert result.observation == observation
    assert observation_values(result.observation) == [value]


def test_union_keeps_each_node_once_in_first_seen_order(functions: GraphFunctions) -> None:
    result = run_action("Union[Neighbour[1, cites], Neighbour[2, cites]]", functions)
    assert result.ok and result.observation == "The nodes in either list are: ['2', '3', '4', '5']."


def test_a_tie_for_the_fewest_is_reported_not_broken(functions: GraphFunctions) -> None:
    tie = run_action("MinDegree[Neighbour[2, cites], cites]", functions)  # 4 cites 2 papers, 5 cites 0? see below
    degrees = {n: len(functions.store.neighbors(n, "cites")) for n in ("4", "5")}
    if degrees["4"] == degrees["5"]:
        assert not tie.ok and "No single node has the fewest" in tie.observation
    else:
        assert tie.ok and tie.observation.endswith(f"is: {min(degrees, key=degrees.get)}.")
    two = run_action("MinDegree[Neighbour[4, cited_by], cites]", functions)  # 1, 2, 3 cite 3, 2 and 1 papers
    assert two.ok and two.observation.endswith("is: 3.")


def test_the_node_most_of_a_list_link_to_counts_each_member_once_and_reports_a_tie(functions: GraphFunctions) -> None:
    tie = run_action("MostLinked[Neighbour[1, cites], cites]", functions)  # 4 (from 2 and 3) and 5 (from 2 and 4)
    assert not tie.ok and "No single node" in tie.observation and "'4'" in tie.observation and "'5'" in tie.observation
    named = run_action("Feature[MostLinked[Neighbour[6, cited_by], cites], title]", functions)  # 6 itself left out
    assert named.ok and named.observation == f"The title feature of 5 are: {functions.store.features('5')['title']}."
    wrong = run_action("MostLinked[Neighbour[1, cites], written]", functions)
    assert not wrong.ok and "cites" in wrong.observation  # the relations the nodes have are named
    empty = run_action("MostLinked[Neighbour[6, cites], cites]", functions)
    assert not empty.ok and "MostLinked got an empty list" in empty.observation


def test_bad_arguments_say_what_is_valid(functions: GraphFunctions) -> None:
    assert "give it one node id, not a list" in run_action("Same[Neighbour[1, cites], cites, year]", functions).observation
    missing = run_action("Same[1, written, year]", functions)
    assert not missing.ok and "cites" in missing.observation  # the relations paper 1 has are named
    empty = run_action("MinDegree[Neighbour[6, cites], cites]", functions)
    assert not empty.ok and "MinDegree got an empty list" in empty.observation
    many = run_action("Contains[Neighbour[1, cites], Neighbour[2, cites]]", functions)
    assert not many.ok and "Contains looks for one node" in many.observation
    assert run_action("Exists[3]", functions).observation.endswith("(Exists got one value, not a list)")
    listed = run_action("MoreThan[Neighbour[1, cites], 2, cites]", functions)
    assert not listed.ok and "MoreThan compares two single nodes" in listed.observation and "list of 3" in listed.observation
    lacking = run_action("Difference[1, 2, written]", functions)
    assert not lacking.ok and "cites" in lacking.observation  # the relations paper 1 has are named


def test_every_new_function_is_declared_once_and_answers_in_its_observation() -> None:
    for name in ("MinDegree", "Same", "Contains", "Exists", "MostLinked", "MoreThan", "FewerThan", "Difference"):
        assert name in AGGREGATES and GRAPH_FUNCTIONS.get(name) is not None
    for name in ("Intersect", "Union"):  # lists for Count or Feature to read, like Matching
        assert name not in AGGREGATES and GRAPH_FUNCTIONS.get(name) is not None
