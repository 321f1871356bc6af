"""invoke_text and probe_endpoint against a real local fake endpoint.

Retries are the openai client's own; every endpoint fault ends in one
ModelUnavailableError naming the endpoint and the cause. Attempts are counted
on the server, never timed.
"""

from __future__ import annotations

import pytest
from langchain_core.messages import HumanMessage

from graphreason.workflows.models.factory import make_chat_model
from graphreason.workflows.models.invoke import ModelUnavailableError, invoke_text, probe_endpoint
from graphreason.workflows.models.scripted import ScriptedChatModel, ScriptExhaustedError
from tests.fake_openai_endpoint import FakeEndpoint, closed_port

pytestmark = pytest.mark.heavy  # among the slowest files: scheduled first (tests/conftest.py)

HELLO = [HumanMessage(content="hello")]


@pytest.fixture(autouse=True)
def _no_openai_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "GRAPHREASON_TIMEOUT", "GRAPHREASON_MAX_RETRIES"):
        monkeypatch.delenv(name, raising=False)


def _model(url: str, retries: int = 1, timeout: float = 1.0):  # noqa: ANN202 - a ChatOpenAI
    return make_chat_model("openai:fake", base_url=url, max_retries=retries, timeout=timeout)


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


def test_in_process_model_errors_are_not_wrapped() -> None:
    with pytest.raises(ScriptExhaustedError):
        invoke_text(ScriptedChatModel(script=[]), [HumanMessage(content="q")])


def test_a_working_endpoint_answers_with_usage() -> None:
    with FakeEndpoint(reply="Finish[42]") as server:
        reply = invoke_text(_model(server.url), HELLO)
    assert reply.text == "Finish[42]"
    assert (reply.input_tokens, reply.output_tokens) == (3, 2)
    assert server.chat_requests == 1


@pytest.mark.parametrize(
    ("fault", "cause", "attempts"),
    [
        ("500", "HTTP 500 Internal Server Error: server exploded after 2 retries", 3),
        ("429", "HTTP 429 Too Many Requests: rate limited after 2 retries", 3),
        ("hang", "no reply within 1 s (timed out) after 2 retries", 3),
        ("drop", "connection failed (Server disconnected without sending a response.) after 2 retries", 3),
        ("401", "HTTP 401 Unauthorized: invalid api key", 1),  # not worth retrying
        ("404", "HTTP 404 Not Found: model not found", 1),
        ("badjson", "invalid response body", 1),
        ("html", "unexpected response", 1),
    ],
)
def test_each_fault_is_one_clear_error_after_the_clients_own_retries(
    fault: str, cause: str, attempts: int
) -> None:
    with FakeEndpoint(chat=fault) as server:
        with pytest.raises(ModelUnavailableError) as caught:
            invoke_text(_model(server.url, retries=2), HELLO)
    message = str(caught.value)
    assert message.startswith(f"model endpoint {server.url} failed: ")
    assert cause in message
    assert "\n" not in message
    assert server.chat_requests == attempts  # max_retries + 1 for retried faults, else 1


def test_a_refused_connection_names_the_endpoint() -> None:
    url = f"http://127.0.0.1:{closed_port()}/v1"
    with pytest.raises(ModelUnavailableError) as caught:
        invoke_text(_model(url, retries=0), HELLO)
    assert str(caught.value).startswith(f"model endpoint {url} failed: connection failed")


@pytest.mark.parametrize("models", ["ok", "404", "500", "badjson"])
def test_probe_accepts_an_endpoint_that_answers(models: str) -> None:
    # Servers without a model list (404) or with a broken one still answer: the real call decides.
    with FakeEndpoint(models=models) as server:
        probe_endpoint(_model(server.url), timeout=2.0)
    assert server.requests["/v1/models"] == 1  # one probe, never retried


@pytest.mark.parametrize(("models", "cause"), [("hang", "timed out"), ("401", "HTTP 401")])
def test_probe_refuses_a_silent_or_locked_endpoint(models: str, cause: str) -> None:
    with FakeEndpoint(models=models) as server:
        with pytest.raises(ModelUnavailableError) as caught:
            probe_endpoint(_model(server.url, retries=3, timeout=30), timeout=0.5)
    assert server.url in str(caught.value) and cause in str(caught.value)
    assert server.requests["/v1/models"] == 1


def test_probe_refuses_a_closed_port_and_skips_in_process_models() -> None:
    url = f"http://127.0.0.1:{closed_port()}/v1"
    with pytest.raises(ModelUnavailableError, match="connection failed"):
        probe_endpoint(_model(url), timeout=1.0)
    probe_endpoint(ScriptedChatModel(script=[]))  # nothing to reach: no error
