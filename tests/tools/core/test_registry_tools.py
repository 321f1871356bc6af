"""``Registry.as_tools``: every entry of every registry becomes a LangChain tool with a meaningful schema."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from langchain_core.messages import ToolMessage
from langchain_core.tools import BaseTool

from graphreason.tools.core.registry import (
    NODE,
    Applied,
    Entry,
    FunctionResult,
    Param,
    ParamKind,
    Registry,
)
from graphreason.tools.core.registry.tools import Toolbox, tool_name
from graphreason.tools.counselor.functions import GraphFunctions
from graphreason.tools.counselor.registry import GRAPH_FUNCTIONS
from graphreason.tools.toolformer.registry import TOOLFORMER_FUNCTIONS, GRContext


class _Plain:
    """The least a context needs: list rendering and arity hints."""

    def render_list(self, items: Sequence[Any], noun: str = "nodes") -> str:
        return "/".join(str(i) for i in items)

    def arity_hint(self, entry: Entry, args: Sequence[Any]) -> str:
        return " (hint)"


COUNT = ParamKind("count", "a count", json_type="integer")
REPEAT = Entry(
    "Repeat",
    (Param("word", NODE, "The word to say."), Param("times", COUNT, "How often.", optional=True)),
    "Say a word several times.",
    run=lambda ctx, word, times="2": Applied(" ".join([str(word)] * int(times)), subject=str(word)),
    observe=lambda ctx, applied: applied.value,
)
STOP = Entry("Stop", (), "End.", terminal=True)


def _registries(functions: GraphFunctions) -> list[tuple[Registry, Any]]:
    return [(GRAPH_FUNCTIONS, functions), (TOOLFORMER_FUNCTIONS, GRContext()), (TOOLFORMER_FUNCTIONS, GRContext(True))]


def test_every_entry_of_every_registry_is_a_tool_listing_its_params(functions: GraphFunctions) -> None:
    for registry, ctx in _registries(functions):
        tools = registry.as_tools(ctx)
        entries = [e for e in registry if not e.terminal]
        assert [t.name for t in tools] == [tool_name(e) for e in entries]
        assert len({t.name for t in tools}) == len(tools)
        for entry, tool in zip(entries, tools, strict=True):
            schema = tool.tool_call_schema.model_json_schema()
            assert list(schema.get("properties", {})) == [p.name for p in entry.params], entry.name
            assert schema.get("required", []) == [p.name for p in entry.params if not p.optional], entry.name
            for param in entry.params:
                assert schema["properties"][param.name]["description"].startswith(param.description)
            assert tool.description.startswith(entry.description)
            assert len(entry.description) > 20, f"{entry.name} needs a real description"


def test_terminal_entries_are_not_tools(functions: GraphFunctions) -> None:
    names = [t.name for t in GRAPH_FUNCTIONS.as_tools(functions)]
    assert "finish" not in names and names == [
        "retrieve", "feature", "neighbour", "degree", "count", "mode", "maxdegree", "differing", "matching",
        "mindegree", "same", "intersect", "union", "without", "contains", "exists", "mostlinked", "morethan",
        "fewerthan", "difference",
    ]  # fmt: skip


def test_parameter_kinds_type_the_schema() -> None:
    tools = {t.name: t for t in TOOLFORMER_FUNCTIONS.as_tools(GRContext(load_by_name=True))}
    topk = tools["bpr_topk_recommendation"].tool_call_schema.model_json_schema()["properties"]
    assert {"type": "integer"} in topk["k"]["anyOf"] and topk["user"]["type"] == "string"
    density = tools["toolx_density"].tool_call_schema.model_json_schema()["properties"]
    assert {"type": "boolean"} in density["is_directed"]["anyOf"]
    graph = topk["graph"]
    assert {"type": "string"} in graph["anyOf"] and "movielens" in graph["description"]


def test_a_registry_of_any_context_becomes_tools() -> None:
    registry = Registry([REPEAT, STOP])
    (tool,) = registry.as_tools(_Plain(), note=" Mind the echo.")
    assert tool.name == "repeat" and tool.description == "Say a word several times. Mind the echo."
    assert tool.invoke({"word": "hi"}) == "hi hi"
    assert tool.invoke({"word": "hi", "times": 3}) == "hi hi hi"
    message = tool.invoke({"type": "tool_call", "id": "c1", "name": "repeat", "args": {"word": ["a", "b"]}})
    assert isinstance(message, ToolMessage) and isinstance(message.artifact, FunctionResult)
    assert message.artifact.mapped and message.artifact.value == ["a a", "b b"]


def test_tools_never_raise() -> None:
    (tool,) = Registry([REPEAT]).as_tools(_Plain())
    assert tool.invoke({"word": "hi", "times": "often"}) == (
        "repeat failed: ValueError: invalid literal for int() with base 10: 'often'"
    )
    assert tool.invoke({"times": 2}) == (
        "Invalid arguments for repeat (word: Field required). Expected: repeat(word: str, times: int)."
    )


def test_clashing_tool_names_are_refused() -> None:
    one = Entry("say:it", REPEAT.params, "Say a word.", run=REPEAT.run, observe=REPEAT.observe)
    two = Entry("say.it", REPEAT.params, "Say a word again.", run=REPEAT.run, observe=REPEAT.observe)
    with pytest.raises(ValueError, match="both be the tool 'say_it'"):
        Registry([one, two]).as_tools(_Plain())


def test_toolbox_runs_tools_and_words_calls_no_tool_can_take() -> None:
    toolbox = Toolbox(Registry([REPEAT, STOP]), _Plain())
    assert toolbox.apply("REPEAT", ["x"]).value == "x x"
    wrong = toolbox.apply("Repeat", ["x", "2", "3"])
    assert not wrong.ok and wrong.observation == (
        "Repeat takes 1-2 argument(s), Repeat[word, times], but got 3. (hint)"
    )
    unknown = toolbox.apply("Shout", ["x"])
    assert not unknown.ok and "Unknown function 'Shout'" in unknown.observation
    assert isinstance(toolbox.tool(REPEAT), BaseTool) and toolbox.tool(REPEAT) is toolbox.tool(REPEAT)
