"""The executor runs every function application as a call of the entry's generated LangChain tool."""

from __future__ import annotations

from langchain_core.messages import ToolMessage
from langchain_core.tracers.context import collect_runs

from graphreason.tools.core.registry import NODE, TEXT, Applied, Entry, FunctionResult, Param
from graphreason.tools.core.registry.tools import args_schema
from graphreason.tools.counselor.calls import run_action
from graphreason.tools.counselor.calls.entry_tools import Toolbox, entry_tool
from graphreason.tools.counselor.functions import GraphFunctions
from graphreason.tools.counselor.registry import GRAPH_FUNCTIONS


def _tool_runs(action: str, functions: GraphFunctions) -> tuple[object, list]:
    with collect_runs() as cb:
        result = run_action(action, functions)
    return result, [run for run in cb.traced_runs if run.run_type == "tool"]


def test_each_application_is_a_run_of_the_entry_tool(functions: GraphFunctions) -> None:
    result, runs = _tool_runs("Feature[Neighbour[Retrieve[Graph Agents], cites], title]", functions)
    assert result.observation == "The title feature of ['4', '5'] are: ['ReAct', 'Chain of Thought']."
    assert [run.name for run in runs] == ["retrieve", "neighbour", "feature"]  # innermost first
    assert runs[1].inputs == {"node": "2", "relation": "cites"}  # the id Retrieve returned
    assert runs[2].outputs["output"].content == result.observation
    assert result.n_calls == 3


def test_calls_no_tool_can_take_run_nothing_and_get_the_registry_message(functions: GraphFunctions) -> None:
    result, runs = _tool_runs("Feature[3]", functions)
    assert runs == [] and not result.ok
    assert result.observation.startswith("Feature takes 2 argument(s), Feature[node, feature], but got 1.")
    assert "Feature names of 3:" in result.observation  # the registry's hint for the named node


def test_tool_call_carries_the_result_as_artifact(functions: GraphFunctions) -> None:
    tool = entry_tool(GRAPH_FUNCTIONS.get("Feature"), functions)
    message = tool.invoke(
        {"type": "tool_call", "id": "c1", "name": "feature", "args": {"node": ["4", "5"], "key": "title"}}
    )
    assert isinstance(message, ToolMessage) and isinstance(message.artifact, FunctionResult)
    assert message.artifact.value == ["ReAct", "Chain of Thought"] and message.artifact.mapped
    assert message.content == message.artifact.observation
    # invoked with plain arguments, a tool answers with the text alone
    assert tool.invoke({"node": 4, "key": "title"}) == "The title feature of 4 are: ReAct."


def test_schema_offers_a_list_for_the_first_argument() -> None:
    schema = args_schema(GRAPH_FUNCTIONS.get("Degree")).model_json_schema()
    assert schema["required"] == ["node", "relation"]
    assert {t["type"] for t in schema["properties"]["node"]["anyOf"]} == {"string", "array"}
    assert "A list of them applies the function to each." in schema["properties"]["node"]["description"]
    assert schema["properties"]["relation"]["type"] == "string"


def test_optional_parameters_may_be_left_out(functions: GraphFunctions) -> None:
    greet = Entry(
        "Greet",
        (Param("node", NODE, "Who."), Param("word", TEXT, "Greeting.", optional=True)),
        "Greet a node.",
        run=lambda fx, node, word="Hello": Applied(f"{word} {node}"),
        observe=lambda fx, a: a.value,
    )
    fx = GraphFunctions(functions.store, functions.retriever, registry=GRAPH_FUNCTIONS.extended(greet))
    assert args_schema(greet).model_json_schema()["required"] == ["node"]
    assert run_action("Greet[3]", fx).observation == "Hello 3"
    assert run_action("Greet[3, Hi]", fx).observation == "Hi 3"
    assert entry_tool(greet, fx).invoke({"node": "3"}) == "Hello 3"


def test_an_unexpected_failure_is_reported_by_the_executor_in_its_words(functions: GraphFunctions) -> None:
    class Broken:
        def search(self, text, k=1, node_type=None):
            raise RuntimeError("index not loaded")

    functions.retriever = Broken()  # type: ignore[assignment]
    assert run_action("Feature[Retrieve[ReAct], title]", functions).observation == (
        "Feature[Retrieve[ReAct], title] failed: RuntimeError: index not loaded"
    )
    message = Toolbox(functions).tool(GRAPH_FUNCTIONS.get("Retrieve")).invoke(
        {"type": "tool_call", "id": "c1", "name": "retrieve", "args": {"text": "ReAct"}}
    )
    assert message.content == "retrieve failed: RuntimeError: index not loaded"
    assert isinstance(message.artifact, RuntimeError)
