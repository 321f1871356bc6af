"""The aggregates beyond the paper: Count, Mode and MaxDegree take the whole list an inner call returns;
Differing compares a node's neighbours with the node.

On the test graph (tests/tools/conftest.py) paper 1 cites 2, 3 and 4; 4 is cited
by 1, 2 and 3; years are 2021 + id - 1.
"""

from __future__ import annotations

import pytest

from graphreason.evals.counselor.reference_agent import observation_values
from graphreason.tools.counselor.calls import run_action
from graphreason.tools.counselor.functions import GraphFunctions
from graphreason.tools.counselor.registry import counting_without


@pytest.mark.parametrize(
    ("action", "observation", "value"),
    [
        ("Count[Neighbour[1, cites]]", "The number of distinct values is: 3.", 3),
        # 2, 3, 4 cite 4, 5, 4, 5, 6: three distinct papers two hops away
        ("Count[Neighbour[Neighbour[1, cites], cites]]", "The number of distinct values is: 3.", 3),
        ("Count[Feature[Neighbour[1, written_by], name]]", "The number of distinct values is: 2.", 2),
        ("Count[Neighbour[6, cites]]", "The number of distinct values is: 0. (Count got an empty list)", 0),
        ("Count[3]", "The number of distinct values is: 1. (Count got one value, not a list)", 1),
        # the authors of 4's citers 1, 2, 3: a1, a2, a1, a2 -> a tie; of 5's citers 2 and 4: a1, a2, a3
        ("Mode[Neighbour[Neighbour[4, cited_by], written_by]]", None, None),
        # 1's references 2, 3, 4 are cited 1, 1 and 3 times (a Neighbour of a list is a de-duplicated union)
        ("Mode[Degree[Neighbour[1, cites], cited_by]]", "The most common value (2 of 3) is: 1.", 1),
        ("MaxDegree[Neighbour[1, cites], cited_by]", "The node with the most cited_by neighbors (3) is: 4.", 4),
        ("Feature[MaxDegree[Neighbour[1, cites], cited_by], title]", "The title feature of 4 are: ReAct.", "ReAct"),
        # 1 (2021) cites 2, 3, 4 (2022 to 2024): all three differ; every abstract is empty, so none does
        ("Differing[1, cites, year]", "The number of cites neighbors of 1 whose year is not its own (2021) is: 3.", 3),
        ("Differing[1, cites, abstract]", "The number of cites neighbors of 1 whose abstract is not its own () is: 0.", 0),
        ("Differing[6, cites, year]", "The number of cites neighbors of 6 whose year is not its own (2026) is: 0.", 0),
    ],
)
def test_aggregates_observe_one_value_the_reference_agent_reads(
    functions: GraphFunctions, action: str, observation: str | None, value: object
) -> None:
    result = run_action(action, functions)
    if observation is None:  # a tie: reported, never broken
        assert not result.ok and "no single most common value" in result.observation
        assert "'a1'" in result.observation and "'a2'" in result.observation
        return
    assert result.ok and result.observation == observation
    assert observation_values(result.observation) == [value]


def test_count_leaves_out_the_nodes_the_question_leaves_out_by_name(functions: GraphFunctions) -> None:
    """"How many papers are two steps from X, not counting X itself?": within ``counting_without``, Count drops the
    named nodes (by name or id) and says so; the value stays where the reference agent reads it. It never counts a
    whole list as nothing, and outside the block nothing is left out."""
    two_hops = "Count[Neighbour[Neighbour[1, cites], cited_by]]"  # 1's references, cited by 1, 2 and 3
    assert run_action(two_hops, functions).observation == "The number of distinct values is: 3."
    with counting_without(("Graph Counselor",)):  # paper 1's title
        result = run_action(two_hops, functions)
        assert result.ok
        assert result.observation == "The number of distinct values (Graph Counselor left out, as the question asks) is: 2."
        assert observation_values(result.observation) == [2]
        kept = run_action("Count[Neighbour[2, cited_by]]", functions)  # 2 is cited by 1 only: not emptied
        assert kept.observation == "The number of distinct values is: 1."
    with counting_without(("reflexion", "ReAct")):  # case aside; values too (the titles Feature lists)
        assert run_action("Count[Feature[Neighbour[1, cites], title]]", functions).observation.endswith("is: 1.")
    assert run_action(two_hops, functions).observation == "The number of distinct values is: 3."


def test_a_tie_for_the_most_links_is_reported_with_the_tied_nodes(functions: GraphFunctions) -> None:
    result = run_action("MaxDegree[Neighbour[4, cited_by], cites]", functions)  # 1 cites 3, 2 cites 2, 3 cites 1
    assert result.ok and result.observation.endswith("is: 1.")
    tie = run_action("MaxDegree[Neighbour[1, cites], cites]", functions)  # 2 and 4 cite 2 papers each, 3 cites 1
    assert not tie.ok and "No single node has the most cites neighbors" in tie.observation
    assert "'2'" in tie.observation and "'4'" in tie.observation and "have 2 each" in tie.observation


def test_bad_arguments_become_observations_that_say_what_is_valid(functions: GraphFunctions) -> None:
    empty = run_action("Mode[Neighbour[6, cites]]", functions)  # 6 cites nothing
    assert not empty.ok and "got an empty list" in empty.observation
    unknown = run_action("MaxDegree[Neighbour[1, cites], authored]", functions)
    assert not unknown.ok and "cites" in unknown.observation  # the valid relations are named
    assert not run_action("Count[Neighbour[1, cites], cites]", functions).ok  # one parameter only
    many = run_action("Differing[Neighbour[1, cites], cites, year]", functions)
    assert not many.ok and "give it one node id, not a list" in many.observation
    feature = run_action("Differing[1, cites, colour]", functions)
    assert not feature.ok and "year" in feature.observation  # the valid feature names are named


def test_the_aggregates_are_tools_that_take_a_list(functions: GraphFunctions) -> None:
    assert functions.call("Count", ["2", "3", "2", None, ""]).value == 2
    assert functions.call("Mode", [["x", "y"], ["y"]]).value == "y"  # list-valued features count each value
    assert functions.call("MaxDegree", ["2", "3"], "cites").value == "2"


@pytest.mark.parametrize(
    ("action", "said"),
    [
        ("Mode[Feature[1, title]]", "The most common value (1 of 1) is: Graph Counselor. (Mode got one value, not a list)"),
        ("MaxDegree[1, cites]", "The node with the most cites neighbors (3) is: 1. (MaxDegree got one value, not a list)"),
    ],
)
def test_a_single_value_where_a_list_belongs_is_said_to_be_one(functions: GraphFunctions, action: str, said: str) -> None:
    result = run_action(action, functions)
    assert result.ok and result.observation == said


def test_an_empty_list_is_named_empty(functions: GraphFunctions) -> None:
    empty = run_action("MaxDegree[Neighbour[6, cites], cites]", functions)
    assert not empty.ok and "got an empty list" in empty.observation
    assert run_action("Count[Neighbour[6, cites]]", functions).observation.endswith("(Count got an empty list)")


def test_matching_keeps_the_nodes_with_the_value_the_question_names(functions: GraphFunctions) -> None:
    """1 cites 2, 3 and 4 (years 2022 to 2024); Matching keeps a list's nodes by value for Count to count."""
    kept = run_action("Matching[Neighbour[1, cites], year, 2023]", functions)
    assert kept.ok and kept.observation == "The nodes whose year is 2023 are: ['3']."
    assert run_action("Count[Matching[Neighbour[1, cites], year, 2023]]", functions).observation == (
        "The number of distinct values is: 1."
    )
    none = run_action("Count[Matching[Neighbour[1, cites], year, 1999]]", functions)
    assert none.observation == "The number of distinct values is: 0. (Count got an empty list)"
    title = functions.store.features("4")["title"]
    loose = run_action(f"Matching[Neighbour[1, cites], title, {title.upper()}]", functions)  # case aside
    assert loose.observation.endswith("are: ['4'].")
    one = run_action("Matching[3, year, 2023]", functions)
    assert one.observation == "The nodes whose year is 2023 are: ['3']. (Matching got one value, not a list)"
    empty = run_action("Matching[Neighbour[6, cites], year, 2023]", functions)
    assert empty.observation == "The nodes whose year is 2023 are: []. (Matching got an empty list)"
    unknown = run_action("Matching[Neighbour[1, cites], colour, red]", functions)
    assert not unknown.ok and "year" in unknown.observation  # the valid feature names are named


def test_most_linked_leaves_out_the_node_its_list_was_taken_from(functions: GraphFunctions) -> None:
    """6 is cited by 4 and 5; they cite 5 and 6, and 6: every one of them cites 6, the node the list came from, so
    6 is never the answer ("the papers citing X also cite which other paper most?"); a list given whole, or one
    taken from a list, leaves nothing out."""
    result = run_action("MostLinked[Neighbour[6, cited_by], cites]", functions)
    assert result.ok and result.observation == (
        "The node that is the cites neighbor of the most of them (1 of 2; 6, whose neighbors they are, left out) is: 5."
    )
    # 6's citers 4 and 5 are cited by 1, 2, 3 and 2, 4, which cite 2, 3, 4; 4, 5; 4; 5, 6: 4, and nothing left out
    of_a_list = run_action("MostLinked[Neighbour[Neighbour[6, cited_by], cited_by], cites]", functions)
    assert of_a_list.observation.endswith("of the most of them (3 of 4) is: 4.")
    # 5 is cited by 2 and 4, which cite 4, 5 and 5, 6: with 5 left out, 4 and 6 tie
    tie = run_action("MostLinked[Neighbour[5, cited_by], cites]", functions)
    assert not tie.ok and "4" in tie.observation and "6" in tie.observation
