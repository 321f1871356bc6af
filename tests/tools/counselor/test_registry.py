"""The declared tool registry: lookup, errors, and one entry reaching every caller.

A function registered here (not in the default registry) must be callable
through the bracket and JSON parsers, the executor and a generated LangChain
tool without any change to their code.
"""

from __future__ import annotations

import pytest

from graphreason.tools.core.registry import (
    NODE,
    TEXT,
    Applied,
    Entry,
    MapMode,
    Param,
    Registry,
    UnknownFunctionError,
)
from graphreason.tools.core.store import GraphStore
from graphreason.tools.counselor.calls import ActionParseError, Call, canonical_name, parse_action, run_action
from graphreason.tools.counselor.functions import FunctionCallError, GraphFunctions
from graphreason.tools.counselor.registry import GRAPH_FUNCTIONS


def _title(fx: GraphFunctions, node: object) -> Applied:
    nid, _, value = fx.lookup_feature(node, "title")
    return Applied(value, subject=nid, label="title")


TITLE = Entry(
    "Title",
    (Param("node", NODE, "Node id of a paper."),),
    "The title of a paper.",
    run=_title,
    observe=lambda fx, a: f"The title of {a.subject} is {a.value}.",
    observe_many=lambda fx, label, ids, value: (
        f"The titles of {ids} are: {fx.render_list(value, noun='values')}."
    ),
    aliases=("GetTitle",),
)
SIZE = Entry(  # takes a whole list: not mapped
    "Size",
    (Param("items", TEXT, "A list, e.g. returned by Neighbour."),),
    "How many items a list holds.",
    run=lambda fx, items: Applied(len(items) if isinstance(items, list) else 1),
    observe=lambda fx, a: f"There are {a.value} items.",
    maps=MapMode.NONE,
)
NOTE = Entry(  # verbatim: commas belong to the argument
    "Note",
    (Param("text", TEXT, "Free text."),),
    "Repeat a note.",
    run=lambda fx, text: Applied(text),
    observe=lambda fx, a: f"Noted: {a.value}",
    verbatim=True,
)


@pytest.fixture
def extended(store: GraphStore, retriever) -> GraphFunctions:
    return GraphFunctions(store, retriever, registry=GRAPH_FUNCTIONS.extended(TITLE, SIZE, NOTE))


# ---------------------------------------------------------------- lookup


def test_names_aliases_and_iteration() -> None:
    assert GRAPH_FUNCTIONS.names() == [
        "Retrieve", "Feature", "Neighbour", "Degree", "Count", "Mode", "MaxDegree", "Differing", "Matching",
        "MinDegree", "Same", "Intersect", "Union", "Without", "Contains", "Exists", "MostLinked", "MoreThan",
        "FewerThan", "Difference", "Finish",
    ]  # fmt: skip
    assert [e.name for e in GRAPH_FUNCTIONS] == GRAPH_FUNCTIONS.names() and len(GRAPH_FUNCTIONS) == 21
    for spelling, name in [
        ("neighbors", "Neighbour"),
        ("NEIGHBOURS", "Neighbour"),
        ("Search", "Retrieve"),
        ("look-up", "Retrieve"),
        ("features", "Feature"),
        ("Final Answer", "Finish"),
        ("final_answer", "Finish"),
        ("except", "Without"),
    ]:
        assert GRAPH_FUNCTIONS.get(spelling).name == name, spelling
        assert spelling in GRAPH_FUNCTIONS
    assert GRAPH_FUNCTIONS.find("Title") is None and "Title" not in GRAPH_FUNCTIONS
    assert GRAPH_FUNCTIONS.aliases["neighbors"] == "Neighbour"


def test_declared_parameters_and_flags() -> None:
    feature = GRAPH_FUNCTIONS.get("Feature")
    assert [(p.name, p.kind.name) for p in feature.params] == [("node", "node"), ("key", "feature-key")]
    assert feature.syntax == "Feature[node, feature]"
    assert GRAPH_FUNCTIONS.get("Neighbour").maps is MapMode.UNION
    assert GRAPH_FUNCTIONS.get("Degree").maps is MapMode.EACH
    assert {e.name for e in GRAPH_FUNCTIONS if e.verbatim} == {"Retrieve", "Finish"}
    assert {e.name for e in GRAPH_FUNCTIONS if e.terminal} == {"Finish"}


def test_unknown_name_lists_the_valid_ones(functions: GraphFunctions) -> None:
    with pytest.raises(UnknownFunctionError) as info:
        GRAPH_FUNCTIONS.get("Title")
    message = str(info.value)
    assert isinstance(info.value, FunctionCallError)
    assert message.startswith(
        "Unknown function 'Title'. Valid functions: Retrieve[text], Feature[node, feature]"
    )
    assert message.endswith("and Finish with the answer itself between its brackets.")
    assert functions.call("Title", "3").observation == message


def test_clashing_names_are_refused() -> None:
    registry = Registry([TITLE])
    with pytest.raises(ValueError, match="already registered"):
        registry.register(TITLE)
    with pytest.raises(ValueError, match="already names Title"):
        registry.register(
            Entry("Heading", (), "x", run=_title, observe=TITLE.observe, aliases=("get title",))
        )
    with pytest.raises(ValueError, match="needs run and observe"):
        Entry("Broken", (), "no implementation")


def test_extended_leaves_the_default_registry_alone(extended: GraphFunctions) -> None:
    assert extended.registry.names()[-3:] == ["Title", "Size", "Note"]
    assert "Title" not in GRAPH_FUNCTIONS and canonical_name("GetTitle") is None
    # terminal entries are listed last whatever the registration order
    assert extended.usage().endswith(", Note[text], and Finish with the answer itself between its brackets.")


# ---------------------------------------------------------------- one new entry, every caller


def test_new_entry_is_parsed_from_its_registry() -> None:
    registry = GRAPH_FUNCTIONS.extended(TITLE, NOTE)
    # parentheses and aliases count only for names the registry knows
    assert parse_action("Action 1: gettitle(3)", registry) == [Call("Title", ["3"])]
    with pytest.raises(ActionParseError):
        parse_action("Action 1: gettitle(3)")
    assert parse_action('{"name": "get_title", "arguments": {"id": 3}}', registry) == [Call("Title", ["3"])]
    assert parse_action("Title[Retrieve[ReAct]]", registry) == [Call("Title", [Call("Retrieve", ["ReAct"])])]
    assert parse_action("Note[a, b, and c]", registry) == [Call("Note", ["a, b, and c"])]
    assert parse_action("Note[a, b, and c]") == [Call("Note", ["a", "b", "and c"])]


def test_new_entry_runs_through_the_executor(extended: GraphFunctions) -> None:
    result = run_action("Title[Retrieve[ReAct]]", extended)
    assert result.ok and result.n_calls == 2 and result.observation == "The title of 4 is ReAct."
    mapped = run_action("GetTitle[Neighbour[2, cites]]", extended)
    assert mapped.observation == "The titles of ['4', '5'] are: ['ReAct', 'Chain of Thought']."
    assert run_action("Size[Neighbour[1, cites]]", extended).observation == "There are 3 items."
    assert run_action("Note[x, y]", extended).observation == "Noted: x, y"
    # no observe_many declared: a mapped call shows each item's own observation
    assert extended.call("Note", ["x", "y"]).observation == "Noted: x Noted: y"
    wrong = run_action("Title[3, title]", extended)
    assert not wrong.ok and "Title takes 1 argument(s), Title[node], but got 2." in wrong.observation


def test_new_entry_becomes_a_langchain_tool(extended: GraphFunctions) -> None:
    tools = {tool.name: tool for tool in extended.registry.as_tools(extended, f" Graph: {extended.store.describe()}")}
    assert sorted(tools) == [
        "contains", "count", "degree", "difference", "differing", "exists", "feature", "fewerthan", "intersect",
        "matching", "maxdegree", "mindegree", "mode", "morethan", "mostlinked", "neighbour", "note", "retrieve", "same",
        "size", "title", "union", "without",
    ]  # fmt: skip
    assert tools["title"].tool_call_schema.model_json_schema()["required"] == ["node"]
    assert tools["title"].description.startswith("The title of a paper. Graph:")
    assert tools["title"].invoke({"node": 3}) == "The title of 3 is Reflexion."
    assert "does not exist" in tools["title"].invoke({"node": "p99"})


def test_default_tools_follow_the_registry(functions: GraphFunctions) -> None:
    tools = {tool.name: tool for tool in functions.registry.as_tools(functions)}
    for entry in GRAPH_FUNCTIONS:
        name = entry.name.lower()
        assert (name in tools) == (not entry.terminal), name
        if name in tools:
            assert list(tools[name].args) == [p.name for p in entry.params]
            assert tools[name].description.startswith(entry.description)
