"""The OpenAI-compatible server, in-process with a scripted model behind it."""

from __future__ import annotations

import json
from typing import Any

import pytest
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatResult
from starlette.testclient import TestClient

from graphreason.llm.server import create_app
from graphreason.workflows.models.scripted import ScriptedChatModel


class RecordingModel(ScriptedChatModel):
    """Scripted model that also remembers the options each call received."""

    options: list[dict[str, Any]] = []

    def _generate(
        self, messages: list[BaseMessage], stop: list[str] | None = None, run_manager=None, **kwargs: Any
    ) -> ChatResult:
        self.options.append({"stop": stop, **kwargs})
        return super()._generate(messages, stop=stop, run_manager=run_manager)


def client_for(*replies: Any) -> tuple[TestClient, RecordingModel]:
    model = RecordingModel(script=list(replies), options=[])
    return TestClient(create_app(model, "scripted-test")), model


def chat(client: TestClient, **body: Any) -> Any:
    body.setdefault("messages", [{"role": "user", "content": "hello there"}])
    return client.post("/v1/chat/completions", json=body)


def test_chat_completion_has_the_openai_shape() -> None:
    client, model = client_for("General Kenobi")
    response = chat(client, model="scripted-test")
    assert response.status_code == 200
    body = response.json()
    assert body["object"] == "chat.completion"
    assert body["model"] == "scripted-test"
    assert body["id"].startswith("chatcmpl-")
    choice = body["choices"][0]
    assert choice["message"] == {"role": "assistant", "content": "General Kenobi"}
    assert choice["finish_reason"] == "stop"
    assert body["usage"] == {"prompt_tokens": 2, "completion_tokens": 2, "total_tokens": 4}


def test_messages_and_options_reach_the_model() -> None:
    client, model = client_for("ok")
    response = chat(
        client,
        messages=[
            {"role": "system", "content": "be brief"},
            {"role": "user", "content": [{"type": "text", "text": "hi"}]},
            {"role": "assistant", "content": "hello"},
            {"role": "tool", "content": "42", "tool_call_id": "c1"},
        ],
        temperature=0,
        top_p=0.5,
        max_tokens=7,
        seed=11,
        stop="END",
    )
    assert response.status_code == 200
    assert [m.type for m in model.calls[0]] == ["system", "human", "ai", "tool"]
    assert model.calls[0][1].content == "hi"
    assert model.options[0] == {
        "stop": ["END"],
        "temperature": 0.0,
        "top_p": 0.5,
        "max_tokens": 7,
        "seed": 11,
    }


def test_max_completion_tokens_is_accepted() -> None:
    client, model = client_for("ok")
    assert chat(client, max_completion_tokens=5).status_code == 200
    assert model.options[0]["max_tokens"] == 5


def test_stop_sequences_cut_the_reply() -> None:
    client, _ = client_for("Action: look\nObservation: invented")
    body = chat(client, stop=["\nObservation:"]).json()
    assert body["choices"][0]["message"]["content"] == "Action: look"


def test_tool_calls_are_returned_in_openai_form() -> None:
    call = AIMessage(content="", tool_calls=[{"name": "neighbors", "args": {"node": "A"}, "id": "call_1"}])
    client, _ = client_for(call)
    choice = chat(client).json()["choices"][0]
    assert choice["finish_reason"] == "tool_calls"
    assert choice["message"]["tool_calls"] == [
        {"id": "call_1", "type": "function", "function": {"name": "neighbors", "arguments": '{"node": "A"}'}}
    ]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"messages": []}, "'messages' must be a non-empty list"),
        ({"messages": [{"role": "wizard", "content": "x"}]}, "unsupported role 'wizard'"),
        ({"messages": [{"role": "user", "content": [{"type": "image_url"}]}]}, "only text content parts"),
        ({"n": 2}, "only n=1"),
        ({"stream": "yes"}, "'stream' must be true or false"),
        ({"temperature": "hot"}, "'temperature' must be a number"),
        ({"max_tokens": 0}, "'max_tokens' must be >= 1"),
        ({"max_tokens": 2.5}, "'max_tokens' must be an integer"),
        ({"stop": [1, 2]}, "'stop' must be a string or a list of strings"),
    ],
)
def test_bad_requests_get_a_400_with_the_reason(body: dict, message: str) -> None:
    client, model = client_for("unused")
    response = chat(client, **body)
    assert response.status_code == 400
    assert message in response.json()["error"]["message"]
    assert model.calls == []


def test_non_json_body_is_rejected() -> None:
    client, _ = client_for("unused")
    response = client.post(
        "/v1/chat/completions", content=b"not json", headers={"content-type": "application/json"}
    )
    assert response.status_code == 400
    assert response.json()["error"]["message"] == "request body must be JSON"


def test_model_failures_become_500_with_the_cause() -> None:
    client, _ = client_for()  # an empty script: the first call raises ScriptExhaustedError
    response = chat(client)
    assert response.status_code == 500
    assert "ScriptExhaustedError" in response.json()["error"]["message"]


def test_models_and_health_endpoints() -> None:
    client, _ = client_for()
    assert client.get("/health").json() == {"status": "ok", "model": "scripted-test"}
    listing = client.get("/v1/models").json()
    assert listing["object"] == "list"
    assert [m["id"] for m in listing["data"]] == ["scripted-test"]
    assert client.get("/v1/chat/completions").status_code == 405


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"tools": [{"type": "function", "function": {"name": "f", "parameters": {}}}]}, "tools"),
        ({"tool_choice": "required"}, "tool_choice"),
        ({"tool_choice": {"type": "function", "function": {"name": "f"}}}, "tool_choice"),
        ({"response_format": {"type": "json_object"}}, "response_format"),
        ({"response_format": {"type": "json_schema", "json_schema": {"name": "x"}}}, "response_format"),
        ({"functions": [{"name": "f"}]}, "functions"),
    ],
)
def test_unsupported_fields_are_refused_not_ignored(body: dict, field: str) -> None:
    client, model = client_for("unused")
    response = chat(client, **body)
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["param"] == field and error["code"] == "unsupported_parameter"
    assert f"'{field}'" in error["message"] and "not supported" in error["message"]
    assert model.calls == []


def test_harmless_defaults_of_those_fields_are_accepted() -> None:
    client, _ = client_for("ok")
    body = {"tools": [], "tool_choice": "auto", "response_format": {"type": "text"}}
    assert chat(client, **body).status_code == 200


def _events(response: Any) -> list[Any]:
    lines = [line for line in response.text.split("\n") if line]
    assert all(line.startswith("data: ") for line in lines)
    assert lines[-1] == "data: [DONE]"
    return [json.loads(line[len("data: ") :]) for line in lines[:-1]]


def test_streaming_sends_openai_chunks_then_done() -> None:
    client, model = client_for("General Kenobi")
    response = chat(client, stream=True, stream_options={"include_usage": True}, stop=["END"], max_tokens=9)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/event-stream")
    events = _events(response)
    assert {e["id"] for e in events} == {events[0]["id"]} and events[0]["id"].startswith("chatcmpl-")
    assert all(e["object"] == "chat.completion.chunk" and e["model"] == "scripted-test" for e in events)
    assert events[0]["choices"][0]["delta"]["role"] == "assistant"
    text = "".join(e["choices"][0]["delta"].get("content", "") for e in events if e["choices"])
    assert text == "General Kenobi"
    finishes = [e["choices"][0]["finish_reason"] for e in events if e["choices"]]
    assert finishes[-1] == "stop" and set(finishes[:-1]) == {None}
    assert events[-1]["choices"] == [] and events[-1]["usage"]["total_tokens"] == 4
    assert model.options[0]["stop"] == ["END"] and model.options[0]["max_tokens"] == 9


def test_streaming_without_include_usage_sends_no_usage_event() -> None:
    client, _ = client_for("hi")
    events = _events(chat(client, stream=True))
    assert all("usage" not in e for e in events)


def test_a_stream_that_fails_at_once_gets_an_http_error() -> None:
    client, _ = client_for()  # an empty script: the first call raises ScriptExhaustedError
    response = chat(client, stream=True)
    assert response.status_code == 500
    assert "ScriptExhaustedError" in response.json()["error"]["message"]


def test_a_failure_mid_stream_is_reported_in_band() -> None:
    from langchain_core.messages import AIMessageChunk
    from langchain_core.outputs import ChatGenerationChunk

    class Breaks(ScriptedChatModel):
        def _stream(self, messages, stop=None, run_manager=None, **kwargs):  # noqa: ANN001, ANN202
            yield ChatGenerationChunk(message=AIMessageChunk(content="half a rep"))
            raise RuntimeError("engine fell over")

    client = TestClient(create_app(Breaks(script=[]), "scripted-test"))
    events = _events(chat(client, stream=True))
    assert events[1]["choices"][0]["delta"]["content"] == "half a rep"
    assert "engine fell over" in events[-1]["error"]["message"]
