"""invoke_text: text, usage and timing out; transport failures retried, then reported clearly."""

from __future__ import annotations

import socket

import pytest
from langchain_core.messages import HumanMessage

from workflows.models.factory import make_chat_model
from workflows.models.invoke import ModelUnavailableError, invoke_text
from workflows.models.scripted import ScriptedChatModel, ScriptExhaustedError


def test_returns_text_usage_and_timing() -> None:
    model = ScriptedChatModel(script=["The answer is 42"])
    reply = invoke_text(model, [HumanMessage(content="what is six times seven")])
    assert reply.text == "The answer is 42"
    assert reply.input_tokens == 5
    assert reply.output_tokens == 4
    assert reply.seconds >= 0.0


def test_stop_sequences_reach_the_model() -> None:
    model = ScriptedChatModel(script=["Action: search\nObservation: invented"])
    reply = invoke_text(model, [HumanMessage(content="q")], stop=["\nObservation:"])
    assert reply.text == "Action: search"


def test_transport_errors_are_retried() -> None:
    failures = iter([ConnectionError("connection refused"), ConnectionError("connection refused")])

    def flaky(_messages: list) -> str:
        error = next(failures, None)
        if error is not None:
            raise error
        return "recovered"

    model = ScriptedChatModel(script=[flaky, flaky, flaky])
    reply = invoke_text(model, [HumanMessage(content="q")], attempts=3, backoff=0.001)
    assert reply.text == "recovered"
    assert model.remaining == 0


def test_other_errors_are_not_retried_or_wrapped() -> None:
    model = ScriptedChatModel(script=[])
    with pytest.raises(ScriptExhaustedError):
        invoke_text(model, [HumanMessage(content="q")], attempts=3, backoff=0.001)


def _closed_loopback_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]  # closed again when the block exits


def test_unreachable_endpoint_raises_model_unavailable_naming_the_url() -> None:
    url = f"http://127.0.0.1:{_closed_loopback_port()}/v1"
    model = make_chat_model("openai:local", base_url=url, max_retries=0, timeout=2.0)
    with pytest.raises(ModelUnavailableError) as caught:
        invoke_text(model, [HumanMessage(content="hello")], attempts=2, backoff=0.01)
    assert url in str(caught.value)
    assert "after 2 attempts" in str(caught.value)
