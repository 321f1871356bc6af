"""The scripted chat model: replays replies in order and fails loudly when it runs out."""

from __future__ import annotations

import json

import pytest
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage
from pydantic import BaseModel

from graphreason.workflows.models.scripted import (
    ScriptedChatModel,
    ScriptExhaustedError,
    approx_tokens,
    cut_at_stop,
)


class Answer(BaseModel):
    node: str
    score: float


def test_replies_come_back_in_script_order() -> None:
    model = ScriptedChatModel(script=["first", "second", "third"])
    assert [model.invoke("q").content for _ in range(3)] == ["first", "second", "third"]
    assert model.remaining == 0


def test_calls_are_recorded_with_their_messages() -> None:
    model = ScriptedChatModel(script=["ok"])
    model.invoke([SystemMessage(content="be brief"), HumanMessage(content="hello")])
    assert len(model.calls) == 1
    assert [m.content for m in model.calls[0]] == ["be brief", "hello"]


def test_callable_entries_see_the_prompt() -> None:
    def echo_last(messages: list) -> str:
        return f"you said {messages[-1].content}"

    model = ScriptedChatModel(script=[echo_last, lambda msgs: AIMessage(content=str(len(msgs)))])
    assert model.invoke("ping").content == "you said ping"
    assert model.invoke([HumanMessage(content="a"), HumanMessage(content="b")]).content == "2"


def test_stop_sequences_truncate_string_replies() -> None:
    model = ScriptedChatModel(script=["Thought: look\nObservation: fake", "no stop here"])
    assert model.invoke("q", stop=["\nObservation:"]).content == "Thought: look"
    assert model.invoke("q", stop=["zzz"]).content == "no stop here"


def test_cut_at_stop_picks_the_earliest_sequence() -> None:
    assert cut_at_stop("a STOP b END c", ["END", "STOP"]) == "a "
    assert cut_at_stop("text", None) == "text"
    assert cut_at_stop("text", []) == "text"


def test_usage_metadata_counts_whitespace_tokens() -> None:
    model = ScriptedChatModel(script=["three word reply"])
    reply = model.invoke("two words")
    assert reply.usage_metadata["input_tokens"] == 2
    assert reply.usage_metadata["output_tokens"] == 3
    assert reply.usage_metadata["total_tokens"] == 5
    assert approx_tokens("  a  b ") == 2


def test_running_out_of_script_raises() -> None:
    model = ScriptedChatModel(script=["only one"])
    model.invoke("q")
    with pytest.raises(ScriptExhaustedError, match="exhausted after 1 replies"):
        model.invoke("q")


def test_bind_tools_returns_scripted_tool_calls() -> None:
    call = AIMessage(content="", tool_calls=[{"name": "get_neighbors", "args": {"node": "A"}, "id": "c1"}])
    model = ScriptedChatModel(script=[call])

    def get_neighbors(node: str) -> list[str]:
        """Neighbours of a node."""
        return [node]

    bound = model.bind_tools([get_neighbors])
    reply = bound.invoke("who is next to A?")
    assert model.bound_tools == [get_neighbors]
    assert reply.tool_calls[0]["name"] == "get_neighbors"
    assert reply.tool_calls[0]["args"] == {"node": "A"}


def test_with_structured_output_parses_a_tool_call() -> None:
    call = AIMessage(
        content="", tool_calls=[{"name": "Answer", "args": {"node": "B", "score": 0.75}, "id": "s1"}]
    )
    structured = ScriptedChatModel(script=[call]).with_structured_output(Answer)
    result = structured.invoke("pick a node")
    assert result == Answer(node="B", score=0.75)


def test_from_file_loads_a_list_of_strings(tmp_path) -> None:
    path = tmp_path / "script.json"
    path.write_text(json.dumps(["alpha", "beta"]))
    model = ScriptedChatModel.from_file(path)
    assert [model.invoke("q").content for _ in range(2)] == ["alpha", "beta"]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "cannot read model script"),
        (json.dumps({"a": 1}), "must be a JSON list of strings"),
        (json.dumps(["ok", 3]), "must be a JSON list of strings"),
    ],
)
def test_from_file_rejects_bad_scripts(tmp_path, content: str, message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(ValueError, match=message):
        ScriptedChatModel.from_file(path)


def test_from_file_names_a_missing_file(tmp_path) -> None:
    missing = tmp_path / "nope.json"
    with pytest.raises(ValueError, match="nope.json"):
        ScriptedChatModel.from_file(missing)
