"""The bracket call language: parsing (strict and lenient) and execution.

Expected answers are worked out by hand from the fixture graph in conftest.py.
"""

from __future__ import annotations

import pytest

from graphreason.tools.counselor.calls import (
    ActionParseError,
    Call,
    canonical_name,
    execute,
    parse_action,
    run_action,
)
from graphreason.tools.counselor.functions import GraphFunctions

FEATURE_12_TITLE = [Call("Feature", ["12", "title"])]

# ---------------------------------------------------------------- AST


def test_call_render_roundtrip() -> None:
    call = Call("Feature", [Call("Neighbour", [Call("Retrieve", ["graph agents"]), "cites"]), "title"])
    assert call.render() == "Feature[Neighbour[Retrieve[graph agents], cites], title]"
    assert parse_action(call.render()) == [call]
    assert call.depth == 3
    assert Call("Feature", ["1", "title"]) == Call("Feature", ("1", "title"))
    assert hash(Call("Feature", ["1", "title"])) == hash(Call("Feature", ("1", "title")))


def test_canonical_names() -> None:
    for alias in ("Neighbor", "neighbors", "NEIGHBOURS", "Neighbour"):
        assert canonical_name(alias) == "Neighbour"
    assert canonical_name("Features") == "Feature"
    assert canonical_name("search") == canonical_name("Lookup") == "Retrieve"
    assert canonical_name("Final Answer") == canonical_name("answer") == "Finish"
    assert canonical_name("Title") is None


# ---------------------------------------------------------------- parsing


def test_parse_nested_and_parallel() -> None:
    assert parse_action("Feature[Neighbour[Retrieve[x], cites], title]") == [
        Call("Feature", [Call("Neighbour", [Call("Retrieve", ["x"]), "cites"]), "title"])
    ]
    expected = [Call("Neighbour", ["1", "cites"]), Call("Neighbour", ["2", "cites"])]
    for text in (
        "Neighbour[1, cites], Neighbour[2, cites]",
        "Neighbour[1, cites]; Neighbour[2, cites]",
        "Neighbour[1, cites] and Neighbour[2, cites]",
        "Neighbour[1,cites],Neighbour[2,cites]",
    ):
        assert parse_action(text) == expected, text


@pytest.mark.parametrize(
    "text",
    [
        "Feature[12, title]",
        "Action 3: Feature[12, title]",
        "Action: Feature[12, title]",
        "**Action 3:** `Feature[12, title]`",
        "```\nFeature[12, title]\n```",
        "Feature[12, title].",
        "Feature(12, title)",
        "feature[12, title]",
        "FEATURES[12, title]",
        "Feature['12', \"title\"]",
        "Feature[ `12` , title ]",
        "Action 3: I will read the title with Feature[12, title] now.",
        "Thought: the title is needed\nAction 3: Feature[12, title]",
        "Feature[12, title",  # closing bracket lost to a stop sequence
        '{"function": "Feature", "args": ["12", "title"]}',
        '{"name": "Feature", "arguments": {"node": "12", "key": "title"}}',
        '{"name": "feature", "arguments": "{\\"key\\": \\"title\\", \\"node\\": 12}"}',
        '{"command": {"name": "Feature", "args": ["12", "title"]}}',
        "```json\n{'function': 'Feature', 'args': ['12', 'title']}\n```",
    ],
)
def test_tolerant_forms_of_one_call(text: str) -> None:
    assert parse_action(text) == FEATURE_12_TITLE


def test_aliases_in_brackets() -> None:
    assert parse_action("Neighbors[1, cites]") == [Call("Neighbour", ["1", "cites"])]
    assert parse_action("Neighbor[1, cites]") == [Call("Neighbour", ["1", "cites"])]
    assert parse_action("Search[graph agents]") == [Call("Retrieve", ["graph agents"])]
    assert parse_action("Lookup(graph agents)") == [Call("Retrieve", ["graph agents"])]
    assert parse_action("Final Answer[Alice]") == [Call("Finish", ["Alice"])]
    assert parse_action("Answer[Alice]") == [Call("Finish", ["Alice"])]


def test_verbatim_arguments_of_retrieve_and_finish() -> None:
    assert parse_action("Retrieve[Graphs, agents, and reasoning]") == [
        Call("Retrieve", ["Graphs, agents, and reasoning"])
    ]
    assert parse_action('Retrieve["Hand in Glove"]') == [Call("Retrieve", ["Hand in Glove"])]
    assert parse_action("Finish[Bob, Carol and Alice]") == [Call("Finish", ["Bob, Carol and Alice"])]
    assert parse_action('Finish["ReAct"]') == [Call("Finish", ["ReAct"])]
    assert parse_action("Finish[Attention (2017) [Vaswani]]") == [
        Call("Finish", ["Attention (2017) [Vaswani]"])
    ]
    # a parenthesis in a name that no call opens is text: the call still ends at its own bracket
    assert parse_action("Degree[Retrieve[APPROXIMATION IN L p (R d FROM SPACES], cites]") == [
        Call("Degree", [Call("Retrieve", ["APPROXIMATION IN L p (R d FROM SPACES"]), "cites"])
    ]
    assert parse_action("Difference[Retrieve[A (x], Retrieve[B) y], cites]") == [
        Call("Difference", [Call("Retrieve", ["A (x"]), Call("Retrieve", ["B) y"]), "cites"])
    ]
    # Retrieve nests when its whole content is one call
    assert parse_action("Retrieve[Feature[3, title]]") == [
        Call("Retrieve", [Call("Feature", ["3", "title"])])
    ]


def test_json_lists_and_wrappers() -> None:
    text = '[{"function": "Neighbour", "args": ["1", "cites"]}, {"name": "Degree", "arguments": ["4", "cited_by"]}]'
    assert parse_action(text) == [Call("Neighbour", ["1", "cites"]), Call("Degree", ["4", "cited_by"])]
    gar = '{"thought": "t", "function": [{"name": "Retrieve", "arguments": "ReAct"}]}'
    assert parse_action(gar) == [Call("Retrieve", ["ReAct"])]
    nested = '{"function": "Feature", "args": [{"function": "Retrieve", "args": ["ReAct"]}, "title"]}'
    assert parse_action(nested) == [Call("Feature", [Call("Retrieve", ["ReAct"]), "title"])]
    inline = '{"function": "Feature", "args": ["Retrieve[ReAct]", "title"]}'
    assert parse_action(inline) == [Call("Feature", [Call("Retrieve", ["ReAct"]), "title"])]


def test_braces_inside_a_bracket_call_fall_back_to_brackets() -> None:
    assert parse_action("Finish[{Alice, Bob}]") == [Call("Finish", ["{Alice, Bob}"])]
    assert parse_action('Finish[{"a": 1}]') == [Call("Finish", ['{"a": 1}'])]


def test_first_line_with_a_call_wins_and_action_lines_first() -> None:
    text = (
        "Plan 2: find the authors.\nThought 2: use Feature(title) later\nAction 2: Neighbour[3, written_by]"
    )
    assert parse_action(text) == [Call("Neighbour", ["3", "written_by"])]
    text = "I think so.\nNeighbour[3, written_by]\nFeature[3, title]"
    assert parse_action(text) == [Call("Neighbour", ["3", "written_by"])]


def test_prose_parentheses_are_not_calls() -> None:
    with pytest.raises(ActionParseError):
        parse_action("I should answer (maybe) later")
    assert parse_action("To answer (carefully) use Degree[4, cited_by]") == [
        Call("Degree", ["4", "cited_by"])
    ]


def test_unknown_function_in_brackets_is_parsed() -> None:
    # parsed so that execution can name the valid functions
    assert parse_action("GetTitle[12]") == [Call("GetTitle", ["12"])]


@pytest.mark.parametrize("text", ["", "   ", "hello there", "Feature 12 title", '{"foo": 1}'])
def test_parse_errors_teach_the_syntax(text: str) -> None:
    with pytest.raises(ActionParseError) as info:
        parse_action(text)
    message = str(info.value)
    assert "Retrieve[" in message and "Feature[NodeID" in message and "Finish[" in message


# ---------------------------------------------------------------- execution


def test_nesting_depth_three_hand_computed(functions: GraphFunctions) -> None:
    # 1 cites 2, 3, 4; they cite 4, 5 | 4 | 5, 6 -> union 4, 5, 6
    result = run_action("Feature[Neighbour[Neighbour[1, cites], cites], title]", functions)
    assert result.ok and result.n_calls == 3
    assert result.observation == (
        "The title feature of ['4', '5', '6'] are: ['ReAct', 'Chain of Thought', 'Attention Is All You Need']."
    )


def test_retrieve_nested_returns_an_id(functions: GraphFunctions) -> None:
    result = run_action("Feature[Retrieve[Reflexion], title]", functions)
    assert result.observation == "The title feature of 3 are: Reflexion."
    result = run_action("Action 4: Feature[Neighbour[Retrieve[ReAct], written_by], name]", functions)
    assert result.observation == "The name feature of ['a2', 'a3'] are: ['Bob', 'Carol']."
    assert result.calls == ["Feature[Neighbour[Retrieve[ReAct], written_by], name]"]


def test_mapping_over_lists(functions: GraphFunctions) -> None:
    result = run_action("Degree[Neighbour[a2, writes], cited_by]", functions)
    # a2 wrote 1, 3, 4; cited by 0, 1, 3 papers
    assert result.observation == "The cited_by neighbor numbers of ['1', '3', '4'] are: [0, 1, 3]."
    result = run_action("Neighbour[Neighbour[Retrieve[Carol], writes], written_by]", functions)
    # Carol wrote 4, 5, 6; their authors: a2, a3 (4), a3 (5), a3 (6)
    assert result.observation == "The written_by neighbors of ['4', '5', '6'] are: ['a2', 'a3']."


def test_parallel_calls_one_observation_each(functions: GraphFunctions) -> None:
    result = run_action("Feature[5, title], Feature[6, title]; Degree[6, cited_by]", functions)
    assert result.ok and result.n_calls == 3
    assert result.observation == (
        "The title feature of 5 are: Chain of Thought. The title feature of 6 are: Attention Is All You Need. "
        "The cited_by neighbor number of 6 is 2."
    )
    assert result.calls == ["Feature[5, title]", "Feature[6, title]", "Degree[6, cited_by]"]


def test_tolerant_inputs_execute(functions: GraphFunctions) -> None:
    for text in (
        "Action 2: neighbors(node 1, Cites).",
        '{"name": "Neighbour", "arguments": {"node": 1, "relation": "cites"}}',
        "`Neighbour['paper#1', 'cites']`",
    ):
        assert run_action(text, functions).observation == "The cites neighbors of 1 are: ['2', '3', '4'].", (
            text
        )


def test_one_failing_parallel_call_does_not_hide_the_others(functions: GraphFunctions) -> None:
    result = run_action("Feature[3, title], Feature[3, venue]", functions)
    assert not result.ok
    assert result.observation.startswith("The title feature of 3 are: Reflexion. The feature 'venue'")
    assert len(result.errors) == 1 and "title, year, abstract" in result.errors[0]


def test_nested_errors_name_the_failing_call(functions: GraphFunctions) -> None:
    result = run_action("Feature[Neighbour[1, refs], title]", functions)
    assert not result.ok
    assert result.observation.startswith("In Neighbour[1, refs]: The neighbor type 'refs' does not exist")
    assert "cites" in result.observation


def test_unknown_function_and_arity_are_observations(functions: GraphFunctions) -> None:
    result = run_action("GetTitle[12]", functions)
    assert not result.ok and "Unknown function 'GetTitle'" in result.observation
    assert "Neighbour[node, neighbor_type]" in result.observation
    result = run_action("Feature[3, title, year]", functions)
    assert not result.ok and "Feature takes 2 argument(s)" in result.observation
    result = run_action("Degree[3]", functions)
    assert "Neighbor types of 3: cited_by, cites, written_by" in result.observation


def test_parse_failure_is_a_corrective_observation(functions: GraphFunctions) -> None:
    result = run_action("I am not sure what to do", functions)
    assert not result.ok and result.n_calls == 0 and result.finish is None
    # the hint shows calls that work on this graph: a real node, its own feature and edge type
    assert "Feature[Retrieve[" in result.observation and "Neighbour[" in result.observation
    assert any(f"[{node}, cites]" in result.observation for node in functions.store.nodes())
    assert result.errors == [result.observation]


def test_finish(functions: GraphFunctions) -> None:
    result = run_action("Action 5: Finish[Bob, Carol]", functions)
    assert result.ok and result.finish == "Bob, Carol" and result.observation == "Answer is Bob, Carol"
    assert result.n_calls == 0
    assert run_action("Final Answer[48]", functions).finish == "48"
    empty = run_action("Finish[]", functions)
    assert not empty.ok and empty.finish is None and "between its brackets" in empty.observation


def test_finish_must_be_alone(functions: GraphFunctions) -> None:
    result = run_action("Feature[3, title], Finish[Reflexion]", functions)
    assert not result.ok and result.finish is None and result.n_calls == 0
    assert "Finish must be the only call" in result.observation
    result = run_action("Feature[Finish[3], title]", functions)
    assert not result.ok and "Finish cannot be nested" in result.observation


def test_without_compound_calls(functions: GraphFunctions) -> None:
    simple = run_action("Neighbour[1, cites]", functions, allow_compound=False)
    assert simple.ok and simple.observation == "The cites neighbors of 1 are: ['2', '3', '4']."
    for text in ("Feature[Retrieve[ReAct], title]", "Feature[1, title], Feature[2, title]"):
        result = run_action(text, functions, allow_compound=False)
        assert not result.ok and result.n_calls == 0
        assert "Only one simple function call is allowed" in result.observation
    assert run_action("Finish[ReAct]", functions, allow_compound=False).finish == "ReAct"


def test_max_depth(functions: GraphFunctions) -> None:
    text = "Feature[Neighbour[Neighbour[1, cites], cites], title]"
    result = run_action(text, functions, max_depth=2)
    assert not result.ok and result.n_calls == 0
    assert "combines 3 functions, more than the limit of 2" in result.observation
    assert run_action("Feature[Neighbour[1, cites], title]", functions, max_depth=2).ok
    assert run_action(text, functions, max_depth=None).ok


def test_execute_never_raises_on_retriever_failure(store, functions: GraphFunctions) -> None:
    class Broken:
        def search(self, text, k=1, node_type=None):
            raise RuntimeError("index not loaded")

    functions.retriever = Broken()  # type: ignore[assignment]
    result = execute(parse_action("Feature[Retrieve[x], title], Degree[1, cites]"), functions)
    assert not result.ok
    assert "RuntimeError: index not loaded" in result.errors[0]
    assert result.observation.endswith("The cites neighbor number of 1 is 3.")


def test_execute_empty_call_list(functions: GraphFunctions) -> None:
    result = execute([], functions)
    assert not result.ok and "no function call" in result.observation


# ---------------------------------------------------------------- placeholders and graph-made hints
@pytest.mark.parametrize(
    "text",
    ["Finish[answer]", "Finish[<answer>]", "Finish[Your Answer]", "Finish[...]", "Finish[ ]", 'Finish["answer"]',
     "Final Answer[[your answer]]", "Finish[…]"],
)  # fmt: skip
def test_placeholder_answers_are_rejected_with_a_correction(text: str, functions: GraphFunctions) -> None:
    result = run_action(text, functions)
    assert not result.ok and result.finish is None
    assert "answer" in result.observation and "Finish" in result.observation


@pytest.mark.parametrize("answer", ["Answer Set Programming", "42", "Bob, Carol", "No"])
def test_real_answers_are_not_placeholders(answer: str, functions: GraphFunctions) -> None:
    assert run_action(f"Finish[{answer}]", functions).finish == answer


def test_hints_use_the_loaded_graphs_own_names() -> None:
    from graphreason.tools.core.store import GraphStore
    from graphreason.tools.counselor.call_examples import call_example, syntax_help

    store = GraphStore("cs", directed=True, text_keys={"paper": "title"})
    store.add_node("n7", "paper", {"title": "Deep sets", "label": "ML"})
    store.add_node("n9", "paper", {"title": "Graph kernels", "label": "DB"})
    store.add_edge("n7", "n9", "reference", reverse_relation="cited_by")
    example = call_example(store)
    assert example is not None and example.node in store and example.relation == "reference"
    assert example.feature == "label" and example.value == "ML"
    hint = syntax_help(store)
    assert "cites" not in hint and "reference" in hint and "[12," not in hint
    assert syntax_help(store) == hint  # deterministic
    empty = GraphStore("empty")
    assert call_example(empty) is None and "Retrieve[" in syntax_help(empty)
