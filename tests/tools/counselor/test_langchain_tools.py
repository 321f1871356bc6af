"""LangChain tools: dict invocation, observations, errors as text."""

from __future__ import annotations

import pytest
from langchain_core.messages import ToolMessage
from langchain_core.tools import BaseTool

from graphreason.tools.counselor.functions import GraphFunctions


@pytest.fixture
def tools(functions: GraphFunctions) -> dict[str, BaseTool]:
    return {tool.name: tool for tool in functions.registry.as_tools(functions, f" Graph: {functions.store.describe()}")}


def test_names_schemas_and_descriptions(tools: dict[str, BaseTool]) -> None:
    assert sorted(tools) == [
        "contains", "count", "degree", "difference", "differing", "exists", "feature", "fewerthan", "intersect",
        "matching", "maxdegree", "mindegree", "mode", "morethan", "mostlinked", "neighbour", "retrieve", "same", "union",
        "without",
    ]  # fmt: skip
    assert set(tools["matching"].args) == {"nodes", "key", "value"}
    assert tools["count"].tool_call_schema.model_json_schema()["properties"]["values"]["type"] == "array"
    schema = tools["feature"].tool_call_schema.model_json_schema()
    assert schema["required"] == ["node", "key"]
    assert set(tools["neighbour"].args) == {"node", "relation"}
    # the description carries the graph schema so the model can name relations
    assert "written_by" in tools["neighbour"].description
    assert "not an id lookup" in tools["retrieve"].description


def test_invoke_with_dict_args(tools: dict[str, BaseTool]) -> None:
    assert tools["retrieve"].invoke({"text": "Reflexion"}) == "The ID of this retrieval target node is 3."
    assert tools["feature"].invoke({"node": "3", "key": "title"}) == "The title feature of 3 are: Reflexion."
    assert tools["neighbour"].invoke({"node": "a1", "relation": "writes"}) == (
        "The writes neighbors of a1 are: ['1', '2']."
    )
    assert tools["degree"].invoke({"node": "4", "relation": "cited_by"}) == (
        "The cited_by neighbor number of 4 is 3."
    )
    assert tools["matching"].invoke({"nodes": ["1", "2", "3"], "key": "title", "value": "reflexion"}) == (
        "The nodes whose title is reflexion are: ['3']."
    )


def test_a_second_node_argument_takes_a_list_or_one_id(tools: dict[str, BaseTool]) -> None:
    other = tools["intersect"].tool_call_schema.model_json_schema()["properties"]["other"]
    assert {option["type"] for option in other["anyOf"]} == {"string", "array"}
    assert tools["intersect"].invoke({"nodes": ["1", "2", "3"], "other": ["3", "4"]}) == "The nodes in both lists are: ['3']."
    assert tools["contains"].invoke({"nodes": ["1", "2"], "node": 2}) == "Whether the list holds 2 is: yes."


def test_numeric_ids_are_accepted(tools: dict[str, BaseTool]) -> None:
    assert tools["degree"].invoke({"node": 1, "relation": "cites"}) == "The cites neighbor number of 1 is 3."


def test_graph_errors_come_back_as_text(tools: dict[str, BaseTool]) -> None:
    text = tools["feature"].invoke({"node": "3", "key": "venue"})
    assert "'venue'" in text and "title, year, abstract" in text
    text = tools["neighbour"].invoke({"node": "nope", "relation": "cites"})
    assert "'nope' does not exist" in text


def test_bad_arguments_come_back_as_text(tools: dict[str, BaseTool]) -> None:
    text = tools["feature"].invoke({"node": "3"})
    assert (
        text == "Invalid arguments for feature (key: Field required). Expected: feature(node: str, key: str)."
    )
    message = tools["degree"].invoke(
        {"type": "tool_call", "id": "call-1", "name": "degree", "args": {"relation": "cites"}}
    )
    assert isinstance(message, ToolMessage) and message.status == "error"
    assert "node: Field required" in message.content


def test_unexpected_exceptions_become_text(functions: GraphFunctions) -> None:
    class Broken:
        def search(self, text, k=1, node_type=None):
            raise RuntimeError("index not loaded")

    functions.retriever = Broken()  # type: ignore[assignment]
    tool = {t.name: t for t in functions.registry.as_tools(functions, f" Graph: {functions.store.describe()}")}["retrieve"]
    assert tool.invoke({"text": "ReAct"}) == "retrieve failed: RuntimeError: index not loaded"
