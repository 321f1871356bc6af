"""The OpenAI-compatible server, in-process with a scripted model behind it."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage
from langchain_core.outputs import ChatGenerationChunk, ChatResult
from pydantic import Field
from starlette.testclient import TestClient

from graphreason.llm.server import (
    DEFAULT_MAX_BODY_BYTES,
    MAX_JSON_DEPTH,
    MAX_MESSAGES,
    MAX_REPLY_TOKENS,
    create_app,
)
from graphreason.workflows.models.scripted import ScriptedChatModel


class RecordingModel(ScriptedChatModel):
    """Scripted model that also remembers the options each call received."""

    options: list[dict[str, Any]] = []

    def _generate(
        self, messages: list[BaseMessage], stop: list[str] | None = None, run_manager=None, **kwargs: Any
    ) -> ChatResult:
        self.options.append({"stop": stop, **kwargs})
        return super()._generate(messages, stop=stop, run_manager=run_manager)


def local_client(app: Any) -> TestClient:
    """A client that addresses the server as 127.0.0.1, as a local OpenAI client does (the guard checks Host)."""
    return TestClient(app, base_url="http://127.0.0.1", headers={"content-type": "application/json"})


def client_for(*replies: Any) -> tuple[TestClient, RecordingModel]:
    model = RecordingModel(script=list(replies), options=[])
    return local_client(create_app(model, "scripted-test")), model


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

    client = local_client(create_app(Breaks(script=[]), "scripted-test"))
    events = _events(chat(client, stream=True))
    assert events[1]["choices"][0]["delta"]["content"] == "half a rep"
    assert "engine fell over" in events[-1]["error"]["message"]


# ---------------------------------------------------------------- hostile clients (issue 21)


def _request_bytes(**body: Any) -> bytes:
    body.setdefault("messages", [{"role": "user", "content": "hello there"}])
    return json.dumps(body).encode()


def test_a_body_over_the_limit_gets_a_413_naming_the_limit_and_the_flag() -> None:
    client, model = client_for("unused")
    huge = _request_bytes(messages=[{"role": "user", "content": "x" * (2 << 20)}])
    response = client.post("/v1/chat/completions", content=huge, headers={"content-type": "application/json"})
    assert response.status_code == 413
    error = response.json()["error"]
    assert error["code"] == "request_too_large" and error["type"] == "invalid_request_error"
    assert str(DEFAULT_MAX_BODY_BYTES) in error["message"] and "--max-body-bytes" in error["message"]
    assert model.calls == []


def test_the_body_limit_is_the_apps_setting() -> None:
    model = RecordingModel(script=["ok"], options=[])
    client = local_client(create_app(model, "scripted-test", max_body_bytes=200))
    small = _request_bytes()
    assert len(small) < 200 and client.post("/v1/chat/completions", content=small).status_code == 200
    big = _request_bytes(messages=[{"role": "user", "content": "y" * 200}])
    response = client.post("/v1/chat/completions", content=big)
    assert response.status_code == 413 and "200 bytes" in response.json()["error"]["message"]


class _Hangup:
    """A raw ASGI client: sends a body in pieces, records the reply, and hangs up when told to."""

    def __init__(
        self,
        pieces: Iterator[bytes],
        headers: dict[str, str],
        hang_up_after_events: int | None,
        marker: bytes = b'"content": "tick',
    ) -> None:
        self.pieces, self.headers = pieces, headers
        self.hang_up_after_events = hang_up_after_events  # 0: gone before the reply; None: never
        self.marker = marker  # what a content event of the reply contains
        self.body_sent = 0  # bytes the app pulled
        self.status = 0
        self.reply = b""
        self.content_events = 0

    def run(
        self,
        app: Any,
        seconds: float = 20.0,
        linger: float = 0.0,
        when_done: Callable[[], None] | None = None,
    ) -> float:
        """Serve one request; the seconds the app took.

        ``when_done`` is called as soon as the app has returned; the event loop then runs
        on for ``linger`` seconds, as a server's would. (The end of the loop closes
        abandoned generators, which must not be what stops a stream.)
        """
        import anyio

        gone = anyio.Event()
        body_done = False
        if self.hang_up_after_events == 0:
            gone.set()

        async def receive() -> dict[str, Any]:
            nonlocal body_done
            piece = next(self.pieces, None)
            if piece is not None:
                self.body_sent += len(piece)
                return {"type": "http.request", "body": piece, "more_body": True}
            if not body_done:
                body_done = True
                return {"type": "http.request", "body": b"", "more_body": False}
            if not gone.is_set():  # like uvicorn: a known hang-up is reported without waiting
                await gone.wait()
            return {"type": "http.disconnect"}

        async def send(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                self.status = message["status"]
            elif message["type"] == "http.response.body":
                self.reply += message.get("body", b"")
                self.content_events = self.reply.count(self.marker)
                if self.hang_up_after_events and self.content_events >= self.hang_up_after_events:
                    gone.set()

        scope = {
            "type": "http",
            "asgi": {"version": "3.0", "spec_version": "2.3"},  # what uvicorn announces
            "http_version": "1.1",
            "method": "POST",
            "scheme": "http",
            "path": "/v1/chat/completions",
            "raw_path": b"/v1/chat/completions",
            "root_path": "",
            "query_string": b"",
            "headers": [(k.lower().encode(), v.encode()) for k, v in ({"host": "127.0.0.1:8765"} | self.headers).items()],
            "client": ("127.0.0.1", 50000),
            "server": ("127.0.0.1", 8765),
        }

        took = 0.0

        async def call() -> None:
            nonlocal took
            started = time.perf_counter()
            with anyio.fail_after(seconds):
                await app(scope, receive, send)
            took = time.perf_counter() - started
            if when_done is not None:
                when_done()
            await anyio.sleep(linger)

        anyio.run(call)
        return took


@pytest.mark.parametrize("declared", [None, "120"], ids=["no-length", "false-length"])
def test_a_body_is_cut_off_while_reading_whatever_its_length_header_says(declared: str | None) -> None:
    """A chunked upload, or one whose Content-Length lies, is refused once the bytes pass the limit."""
    model = RecordingModel(script=["unused"], options=[])
    piece = 64 << 10
    ten_mb = (b" " * piece for _ in range((10 << 20) // piece))  # whitespace: valid JSON around nothing
    headers = {"content-type": "application/json"} | ({"content-length": declared} if declared else {})
    client = _Hangup(ten_mb, headers, hang_up_after_events=None)
    client.run(create_app(model, "scripted-test"))
    assert client.status == 413
    assert b"request_too_large" in client.reply
    assert client.body_sent <= DEFAULT_MAX_BODY_BYTES + piece  # never buffered past the limit
    assert model.calls == []


def test_a_declared_length_over_the_limit_is_refused_before_reading() -> None:
    model = RecordingModel(script=["unused"], options=[])
    headers = {"content-type": "application/json", "content-length": str(10 << 20)}
    client = _Hangup(iter([b"{" * 1000]), headers, hang_up_after_events=None)
    client.run(create_app(model, "scripted-test"))
    assert client.status == 413 and client.body_sent == 0


def _deep(depth: int, kind: str) -> bytes:
    if kind == "arrays":
        return b'{"messages": [{"role": "user", "content": "hi"}], "x": ' + b"[" * depth + b"]" * depth + b"}"
    return b'{"a": ' * depth + b"1" + b"}" * depth


@pytest.mark.parametrize(
    "raw",
    [b"[" * 100_000 + b"]" * 100_000, _deep(100_000, "objects"), _deep(65, "arrays")],
    ids=["100k-arrays", "100k-objects", "65-arrays"],
)
def test_deeply_nested_json_is_a_400_not_a_500(raw: bytes) -> None:
    client, model = client_for("unused")
    response = client.post("/v1/chat/completions", content=raw, headers={"content-type": "application/json"})
    assert response.status_code == 400
    error = response.json()["error"]
    assert "nests arrays/objects" in error["message"] and f"at most {MAX_JSON_DEPTH}" in error["message"]
    assert error["code"] == "json_too_deep"
    assert model.calls == []


def test_nesting_within_the_limit_is_accepted_and_brackets_in_strings_do_not_count() -> None:
    client, _ = client_for("ok")
    raw = _deep(MAX_JSON_DEPTH - 1, "arrays").replace(b'"hi"', json.dumps("[" * 500 + "{" * 500).encode())
    assert client.post("/v1/chat/completions", content=raw).status_code == 200


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity", "1e400", "-1e999"])
def test_non_finite_numbers_are_refused(literal: str) -> None:
    client, model = client_for("unused")
    raw = b'{"messages": [{"role": "user", "content": "hi"}], "temperature": ' + literal.encode() + b"}"
    response = client.post("/v1/chat/completions", content=raw)
    assert response.status_code == 400
    assert "numbers must be finite" in response.json()["error"]["message"]
    assert model.calls == []


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("temperature", 1e308),
        ("temperature", 2.5),
        ("temperature", -0.1),
        ("temperature", 10**400),
        ("top_p", 0),
        ("top_p", 1.5),
        ("top_p", -1e308),
        ("max_tokens", 10**9),
        ("max_tokens", 1e308),
        ("max_tokens", 10**400),
        ("max_completion_tokens", 0),
        ("max_completion_tokens", 32_769),
        ("seed", 2**64),
        ("seed", 1.5),
        ("seed", 1e308),
    ],
)
def test_every_numeric_option_must_be_in_range(field: str, value: Any) -> None:
    client, model = client_for("unused")
    response = chat(client, **{field: value})
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["param"] == field and f"'{field}'" in error["message"]
    assert model.calls == []


def test_the_ends_of_each_range_are_accepted() -> None:
    client, model = client_for("ok", "ok")
    assert chat(client, temperature=2, top_p=1, max_tokens=MAX_REPLY_TOKENS, seed=-(2**63)).status_code == 200
    assert chat(client, temperature=0, top_p=1e-9, max_tokens=1, seed=2**63 - 1).status_code == 200
    assert model.options[0] == {
        "stop": None,
        "temperature": 2.0,
        "top_p": 1.0,
        "max_tokens": MAX_REPLY_TOKENS,
        "seed": -(2**63),
    }


def test_too_many_messages_are_refused() -> None:
    client, model = client_for("unused")
    response = chat(client, messages=[{"role": "user", "content": "hi"}] * (MAX_MESSAGES + 1))
    assert response.status_code == 400 and response.json()["error"]["param"] == "messages"
    assert model.calls == []


class SlowStream(ScriptedChatModel):
    """Streams up to 500 chunks, 20 ms apart; records how many were pulled and whether the stream was closed."""

    pulled: list[int] = Field(default_factory=list, exclude=True)
    closed: list[bool] = Field(default_factory=list, exclude=True)

    def _stream(self, messages, stop=None, run_manager=None, **kwargs):  # noqa: ANN001, ANN202
        try:
            for i in range(500):
                time.sleep(0.02)
                self.pulled.append(i)
                yield ChatGenerationChunk(message=AIMessageChunk(content=f"tick{i} "))
        finally:
            self.closed.append(True)


def test_a_streaming_client_that_hangs_up_stops_the_model_stream() -> None:
    model = SlowStream(script=[])
    client = _Hangup(iter([_request_bytes(stream=True)]), {"content-type": "application/json"}, 3)
    closed_at_reply_end: list[bool] = []
    seconds = client.run(
        create_app(model, "scripted-test"), when_done=lambda: closed_at_reply_end.extend(model.closed)
    )
    assert client.status == 200 and client.content_events >= 3
    assert closed_at_reply_end == [True]  # closed at once, not left to the garbage collector
    assert len(model.pulled) <= client.content_events + 2  # at most the chunk in progress after the hang-up
    assert seconds < 5  # 500 chunks would take 10 s


def test_a_hang_up_stops_the_embedded_engine_at_its_next_token(monkeypatch: pytest.MonkeyPatch) -> None:
    """LocalChatModel generates in a worker thread; closing its stream must stop that thread."""
    import graphreason.llm.engine.local_smollm as local
    from tests.runtime.test_cancel import Chars, Endless

    decoder = Endless()
    engine = local.LocalEngine(decoder, Chars(), "fp32")  # type: ignore[arg-type]
    monkeypatch.setattr(local, "get_engine", lambda n_ctx, precision, adapter=None: engine)
    model = local.LocalChatModel(temperature=0.0, max_tokens=4000, n_ctx=8192)
    client = _Hangup(
        iter([_request_bytes(stream=True)]), {"content-type": "application/json"}, 3, b'"content": "t'
    )
    steps_at_reply_end: list[int] = []
    client.run(
        create_app(model, "local"), linger=1.0, when_done=lambda: steps_at_reply_end.append(decoder.steps)
    )
    assert client.status == 200 and client.content_events >= 3
    # stopped at its next token (the step in progress may finish), while the server runs on
    assert decoder.steps <= steps_at_reply_end[0] + 2 and decoder.steps < 400
    assert engine._lock.acquire(timeout=1)  # the engine is free for the next request
    engine._lock.release()


@pytest.mark.parametrize("stream", [False, True])
def test_a_client_gone_before_its_reply_starts_never_reaches_the_model(stream: bool) -> None:
    model = RecordingModel(script=["unused"], options=[])
    client = _Hangup(iter([_request_bytes(stream=stream)]), {"content-type": "application/json"}, 0)
    client.run(create_app(model, "scripted-test"))
    assert model.calls == []


def test_the_command_line_sets_the_body_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    import graphreason.llm.server as server

    served: list[Any] = []
    monkeypatch.setattr(server.AnnouncingServer, "run", lambda self: served.append(self.config.app))
    model = RecordingModel(script=["ok"], options=[])
    server.main(["--model", "scripted", "--max-body-bytes", "300"], make_model=lambda spec: model)
    client = local_client(served[0])
    assert client.post("/v1/chat/completions", content=_request_bytes()).status_code == 200
    response = client.post(
        "/v1/chat/completions", content=_request_bytes(messages=[{"role": "user", "content": "z" * 300}])
    )
    assert response.status_code == 413 and "300 bytes" in response.json()["error"]["message"]
    for bad in ("0", "-5", "lots"):
        with pytest.raises(SystemExit) as stopped:
            server.main(["--max-body-bytes", bad], make_model=lambda spec: model)
        assert stopped.value.code == 2


def test_max_tokens_is_checked_even_where_max_completion_tokens_wins() -> None:
    client, model = client_for("unused")
    response = chat(client, max_completion_tokens=5, max_tokens=1e308)
    assert response.status_code == 400 and response.json()["error"]["param"] == "max_tokens"
    assert model.calls == []
