"""A Finish that holds a call, a relation name, a feature name or an error text is refused; ids become names.

Test graph: tests/tools/conftest.py (papers 1-6 titled, authors a1-a3 named).
"""

from __future__ import annotations

import pytest

from graphreason.tools.counselor.answers import (
    FinalCheck,
    asks_for_name,
    check_final,
    completed_list,
    grounded,
    tie_of,
    without_left_out,
)
from graphreason.tools.counselor.functions import GraphFunctions

WHICH = "Which paper does Graph Counselor cite most often?"


@pytest.mark.parametrize(
    ("answer", "kind"),
    [
        ("MaxDegree[Neighbour[Retrieve[Graph Counselor], cites], cited_by]", "call"),
        ("Neighbour[Retrieve[A], cites], cites", "call"),
        ("feature[4, title]", "call"),
        ("cited_by", "relation"),
        ("759, cited_by", "relation"),
        ("Written By", "relation"),
        ("title", "feature name"),
        ("[], title", "feature name"),
        ("ReAct, year", "feature name"),
        ("MostLinked", "function name"),  # read off an error observation about the call
        ("maxdegree", "function name"),
        ("Observations", "heading"),  # the prompt's own heading, copied where the answer goes
        ("the observation", "heading"),
        ("Thought", "heading"),
    ],
)
def test_what_is_not_an_answer_is_refused_with_a_corrective_observation(
    functions: GraphFunctions, answer: str, kind: str
) -> None:
    check = check_final(answer, functions, WHICH)
    assert (check.answer, check.action, check.kind) == (None, "refused", kind)
    assert "the task is not finished" in check.message
    assert check.record(answer) == {"action": "refused", "kind": kind, "finish": answer}


def test_a_heading_an_observation_shows_as_a_value_is_an_answer(functions: GraphFunctions) -> None:
    shown = ["The name feature of [t7] are: ['thought']."]  # a tag named "thought"
    assert check_final("thought", functions, "Which tag is on ReAct?", observations=shown).action == "kept"
    assert check_final("Observations, Notes", functions, WHICH).action == "kept"  # a list: not a heading alone


def test_an_error_observation_copied_as_the_answer_is_refused(functions: GraphFunctions) -> None:
    failed = ["No single node has the most cited_by neighbors: ['2', '4'] have 2 each."]
    check = check_final("No single node has the most cited_by neighbors", functions, WHICH, failed)
    assert check.action == "refused" and check.kind == "error observation"
    assert check_final("ReAct", functions, WHICH, failed).action == "kept"


def test_ids_become_names_only_where_a_name_is_asked(functions: GraphFunctions) -> None:
    mapped = check_final("4", functions, WHICH)
    assert (mapped.answer, mapped.action, mapped.kind) == ("ReAct", "mapped", "node id")
    assert mapped.record("4") == {"action": "mapped", "kind": "node id", "finish": "4", "answer": "ReAct"}
    both = check_final("a1, a2", functions, "Who wrote Graph Counselor?")
    assert both.answer == "Alice, Bob"
    # a count is a number, and Cora's ids are numbers too: never mapped
    assert check_final("4", functions, "How many papers does Graph Counselor cite?").answer == "4"
    assert check_final("4", functions, "What is the id of the paper titled ReAct?").answer == "4"
    assert check_final("4, Reflexion", functions, WHICH).answer == "4, Reflexion"  # not every item is an id
    # no "which paper" or "name", but the trial read the node's title and then wrote its id: the title
    terse = "The papers Graph Counselor cites: most cited?"
    read = ["The title feature of 4 are: ReAct."]
    assert check_final("4", functions, terse).answer == "4"
    assert check_final("4", functions, terse, observations=read) == FinalCheck("ReAct", "mapped", "node id")
    assert check_final("4", functions, "How many papers cite " + terse, observations=read).answer == "4"
    # a Finish that copies the count an Observation ends in is that count, though "whose" asks nothing of a name
    whose = "Compute the size of the set of papers Graph Counselor cites whose label is Theory."
    for observed in ("The number of distinct values is: 4.", "The cites neighbor number of 1 is 4."):
        assert check_final("4", functions, whose, observations=[observed]) == FinalCheck("4"), observed
    assert check_final("4", functions, whose).action == "mapped"  # nothing counted: the id of a paper, named


def test_plain_answers_are_kept(functions: GraphFunctions) -> None:
    for answer in ("ReAct", "3", "Alice, Bob", "Machine Learning"):
        assert check_final(answer, functions, WHICH) == check_final(answer, functions, WHICH)
        assert check_final(answer, functions, WHICH).action in ("kept", "mapped")
    assert check_final("ReAct", functions, WHICH).action == "kept"


def test_which_questions_ask_for_names() -> None:
    assert asks_for_name("Which paper cites X?", ["paper"]) and asks_for_name("What is the title of the paper cited by X?")
    assert asks_for_name("Which artists are tagged with rock?", ["artist"]) and asks_for_name("Who wrote X?")
    assert asks_for_name("List the papers X cites.", ["paper"]) and asks_for_name("Name the artists tagged rock.")
    assert not asks_for_name("Which paper cites X?", ["author"])  # the ids are not of the type asked about
    assert not asks_for_name("How many papers cite X?", ["paper"])
    assert not asks_for_name("In which year was the paper titled X published?", ["paper"])
    assert not asks_for_name("What is the research area of the paper titled X?", ["paper"])


def test_an_answer_is_grounded_when_its_items_occur_in_the_observations() -> None:
    seen = ["The title feature of ['2', '3'] are: ['Graph Agents', 'Reflexion'].", "The cited_by neighbor number of 4 is 3."]
    assert grounded("Graph Agents, Reflexion", seen, "Which papers does X cite?")
    assert grounded("reflexion", seen, "Which paper?")  # case and punctuation aside
    assert not grounded("Graph", seen[1:], "Which paper?")
    assert not grounded("Graph Agents, ReAct", seen, "Which papers?")  # every item must occur
    assert grounded("3", seen, "How many papers cite ReAct?")
    assert not grounded("Reflexion", seen, "How many papers cite ReAct?")  # a count must be a number
    assert not grounded("", seen, "Which paper?") and not grounded(None, seen, "Which paper?")


def test_a_value_an_observation_shows_is_an_answer_even_where_it_spells_a_name(functions: GraphFunctions) -> None:
    """Cora has a paper titled "Abstract" (a feature's name): listed by an Observation, it is a title."""
    listed = ["The title feature of ['3', '4'] are: ['Abstract', 'ReAct']."]
    assert check_final("Abstract, ReAct", functions, WHICH, observations=listed).action == "kept"
    assert check_final("Abstract, ReAct", functions, WHICH).action == "refused"  # shown nowhere: a name
    single = ["The most common value (2 of 3) is: title."]
    assert check_final("title", functions, WHICH, observations=single).action == "kept"
    assert check_final("cites", functions, WHICH, observations=listed).kind == "relation"


def test_a_node_the_question_leaves_out_by_name_is_dropped_from_a_list(functions: GraphFunctions) -> None:
    """Two hops away and back, a paper is among its own neighbours' neighbours: where the question leaves it out by
    name, a list answer drops it (matched whole, commas and case as written aside); an answer is never emptied."""
    question = 'Which papers, other than "Graph Agents" itself, are cited by the papers "Graph Agents" cites?'
    check = check_final("Reflexion, Graph Agents, ReAct", functions, question)
    assert (check.answer, check.action, check.kind) == ("Reflexion, ReAct", "mapped", "left-out name")
    check = check_final("graph agents", functions, question)
    assert (check.answer, check.action) == ("graph agents", "kept")
    titled = 'List the papers citing "Chain of Thought", excluding "Attention, Again".'
    assert without_left_out("Attention, Again, ReAct, Attention", titled) == "ReAct, Attention"
    assert without_left_out("ReAct, Reflexion", titled) is None
    assert without_left_out("ReAct, Reflexion", 'Which papers cite "ReAct"?') is None
    # a name written bare is left out too, where the question gives it as a name; never one it owns a value of
    bare = "Which papers, other than Graph Agents itself, are cited by the papers Graph Agents cites?"
    check = check_final("Reflexion, Graph Agents, ReAct", functions, bare)
    assert (check.answer, check.action, check.kind) == ("Reflexion, ReAct", "mapped", "left-out name")
    owned = 'Which papers cited by "Graph Agents" have a year other than "Graph Agents"\'s?'
    assert check_final("Reflexion, Graph Agents", functions, owned).action == "kept"


def test_a_list_copy_cut_short_by_the_token_budget_is_completed_from_its_observation(functions: GraphFunctions) -> None:
    """A Finish the reply's token budget cut off while it copied a listed observation is that list, whole (less a node
    the question leaves out); one that closed, or that copies no list's start, is left as it is."""
    seen = ["The title feature of ['1', '2', '3'] are: ['Graph Agents', 'ReAct, Revisited', 'Reflexion']."]
    question = 'Which papers, other than "Graph Agents" itself, are cited by the papers "Graph Agents" cites?'
    check = check_final("Graph Agents, ReAct, Revisited, Refl", functions, question, observations=seen, cut=True)
    assert (check.answer, check.action, check.kind) == ("ReAct, Revisited, Reflexion", "mapped", "cut list")
    assert check_final("Graph Agents, ReAct", functions, "Which papers cite X?", observations=seen).action == "kept"
    assert completed_list("Graph Agents, ReAct", seen) == "Graph Agents, ReAct, Revisited, Reflexion"
    assert completed_list("Graph Ag", seen) is None  # not one whole value yet: no list is being copied
    assert completed_list("Reflexion, Graph", seen) is None  # not its start
    assert completed_list("Graph Agents, ReAct, Revisited, Reflexion", seen) is None  # whole already


TIED = "In MaxDegree[Neighbour[Retrieve[Graph Counselor], cites], cited_by]: No single node has the most cited_by neighbors: ['2', '4'] have 2 each."  # noqa: E501


def test_a_tie_is_read_off_the_three_observations_that_report_one() -> None:
    tie = tie_of(TIED)
    assert tie is not None and (tie.items, tie.count, tie.answer) == (("2", "4"), "2", "2, 4")
    mode = tie_of("In Mode[...]: There is no single most common value: ['Theory', 'Agents'] each appear 3 of 6 times.")
    assert mode is not None and mode.items == ("Theory", "Agents") and mode.count == "3"
    reached = tie_of("In MostLinked[...]: No single node is a tag neighbor of the most of them: ['t1', 't2'] are of 2 each.")
    assert reached is not None and reached.items == ("t1", "t2")
    assert tie_of("No single node has the most cites neighbors: ['1', '2', ... (9 nodes in all)] have 2 each.") is None
    assert tie_of("The most common value (2 of 3) is: Theory.") is None


def test_the_tied_nodes_answer_with_the_feature_the_question_writes_or_their_names(functions: GraphFunctions) -> None:
    """After a tie, every tied node is the answer: their names where a name is asked, the one feature the question
    writes where it writes one (each value once), never the ids."""
    store = functions.store
    named = check_final("2, 4", functions, "Which paper that Graph Counselor cites is cited most?", [TIED])
    assert (named.answer, named.kind) == (f"{store.text('2')}, {store.text('4')}", "tied nodes")
    year = check_final("2, 4", functions, "What is the year of the paper Graph Counselor cites with the most citations?", [TIED])
    assert (year.answer, year.action, year.kind) == ("2022, 2024", "mapped", "tied nodes")
    for nid in ("2", "4"):
        store.add_node(nid, "paper", {"title": store.text(nid), "year": 2020, "label": "Agents"})
    shared = check_final("2, 4", functions, "What label does the most cited paper Graph Counselor cites have?", [TIED])
    assert (shared.answer, shared.kind) == ("Agents", "tied nodes")  # one value where they share it
    assert check_final("2, 4", functions, "What is the year of the most cited one?", []).kind != "tied nodes"  # no tie
    store.add_node("2", "paper", {"title": None})  # no title: the id is its name, the others' titles still map
    untitled = check_final("2, 4", functions, "Which paper that Graph Counselor cites is cited most?", [TIED])
    assert (untitled.answer, untitled.kind) == (f"2, {store.text('4')}", "tied nodes")
    assert check_final("2, 4", functions, "Which ids tie for the most citations?", [TIED]).action == "kept"
    # a count word that says how the node is picked asks for the nodes, not a number
    for picked in ("Determine which of the papers Graph Counselor cites has the highest count of citations.",
                   "Identify the member of the papers Graph Counselor cites with the greatest number of citations.",
                   "Go through the papers Graph Counselor cites, counting citations: which one ends with the biggest count?",
                   "Which one in the papers Graph Counselor cites is having biggest number of citations?",
                   "Find the argmax over the papers Graph Counselor cites of the number of citations."):  # fmt: skip
        found = check_final("2, 4", functions, picked, [TIED])
        assert (found.answer, found.kind) == (f"2, {store.text('4')}", "tied nodes"), picked
    for counted in ("How many citations does the one with the highest count of citations have?",
                    "What is the highest number of citations among the papers Graph Counselor cites?",
                    "Determine the number of citations of the member having the smallest number of them."):  # fmt: skip
        assert check_final("2, 4", functions, counted, [TIED]).action == "kept", counted


@pytest.mark.parametrize(
    ("answer", "question", "mapped"),
    [
        ("yes", "Does ReAct cite Graph Counselor? Kindly respond with True or False", "True"),
        ("no", "Is ReAct written by Ada? Answer true/false.", "False"),
        ("01-Jan-1994", "In what year was the movie Trust (1990) released?", "1994"),
        ("1994-03-07", "Which year did ReAct appear?", "1994"),
    ],
)
def test_an_answer_is_put_in_the_form_the_question_asks_for(
    functions: GraphFunctions, answer: str, question: str, mapped: str
) -> None:
    check = check_final(answer, functions, question)
    assert (check.answer, check.action, check.kind) == (mapped, "mapped", "answer form")


@pytest.mark.parametrize(
    ("answer", "question"),
    [
        ("yes", "Does ReAct cite Graph Counselor?"),  # no form asked: yes stays yes
        ("True", "Is it cited? Kindly respond with True or False"),  # already in form
        ("1994", "In what year was ReAct released?"),
        ("3", "In what year was ReAct released?"),  # holds no year: left as it is
        ("1994 to 1996", "Which year did ReAct appear?"),  # two years: no one of them is picked
        ("01-Jan-1994", "When was ReAct released?"),  # a date is what "when" asks for
    ],
)
def test_an_answer_already_in_form_or_with_no_single_year_is_kept(
    functions: GraphFunctions, answer: str, question: str
) -> None:
    assert check_final(answer, functions, question).action == "kept"


def test_true_stands_for_the_yes_an_observation_shows_when_true_or_false_is_asked() -> None:
    seen = ["Whether the list holds 4 is: yes."]
    assert grounded("True", seen, "Does 1 cite 4? Kindly respond with True or False")
    assert not grounded("False", seen, "Does 1 cite 4? Kindly respond with True or False")
    assert not grounded("True", seen, "Does 1 cite 4?")
