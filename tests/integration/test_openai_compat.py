"""The langchain-openai and openai clients against our real OpenAI-compatible server serving the embedded model.

The server runs as a child process on a port the OS picks (``--port 0``); the test
learns the URL from the ``serving on`` line the server prints once it listens.
Nothing here asserts what the model says (greedy text differs between CPUs).
"""

from __future__ import annotations

import json
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from langchain_core.messages import HumanMessage

from graphreason.workflows.models.factory import make_chat_model
from graphreason.workflows.models.invoke import invoke_text
from tests.integration.model_server import model_server

pytestmark = [pytest.mark.integration, pytest.mark.heavy]

REPO = Path(__file__).resolve().parents[2]
STARTUP_SECONDS = 300  # a first run converts the GGUF before serving


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    log_path = tmp_path_factory.mktemp("openai_server") / "server.log"
    cmd = [sys.executable, "-m", "graphreason.llm.server", "--model", "local", "--port", "0"]
    with model_server(cmd, log_path, STARTUP_SECONDS) as (_, url):
        with urllib.request.urlopen(url.removesuffix("/v1") + "/health", timeout=10) as response:
            assert json.load(response)["status"] == "ok"  # printed only once it answers
        yield url


def client(base_url: str, max_tokens: int = 24):
    return make_chat_model(
        "openai:local", base_url=base_url, temperature=0.0, max_tokens=max_tokens, timeout=60.0
    )


def test_invoke_returns_text_and_usage(base_url: str) -> None:
    reply = client(base_url, max_tokens=64).invoke("What is the capital of France?")
    assert reply.content.strip()
    usage = reply.usage_metadata
    assert usage["input_tokens"] > 10
    assert 0 < usage["output_tokens"] <= 64
    assert usage["total_tokens"] == usage["input_tokens"] + usage["output_tokens"]
    assert reply.response_metadata["finish_reason"] in ("stop", "length")


def test_stop_sequences_work_over_http(base_url: str) -> None:
    question = "Count from 1 to 10, separated by commas."
    full = client(base_url).invoke(question).content
    stop = full[len(full) // 2 :][:2]  # taken from the reply, so it exists whatever the wording
    reply = client(base_url).invoke(question, stop=[stop])
    assert reply.content == full[: full.index(stop)]
    assert reply.response_metadata["finish_reason"] == "stop"


def test_max_tokens_limits_the_reply(base_url: str) -> None:
    reply = client(base_url, max_tokens=4).invoke("Write a long story about a dragon.")
    assert reply.usage_metadata["output_tokens"] == 4
    assert reply.response_metadata["finish_reason"] == "length"


def test_invoke_text_records_usage_through_the_server(base_url: str) -> None:
    reply = invoke_text(client(base_url), [HumanMessage(content="What is the capital of France?")])
    assert reply.text.strip()
    assert reply.input_tokens > 10
    assert reply.output_tokens > 0


def test_openai_client_streams_the_same_reply(base_url: str) -> None:
    from openai import OpenAI

    api = OpenAI(base_url=base_url, api_key="unused", timeout=120.0, max_retries=0)
    request = {
        "model": "local",
        "messages": [{"role": "user", "content": "Count from 1 to 10, separated by commas."}],
        "temperature": 0.0,
        "max_tokens": 24,
    }
    whole = api.chat.completions.create(**request)
    chunks = list(api.chat.completions.create(**request, stream=True, stream_options={"include_usage": True}))
    pieces = [c.choices[0].delta.content for c in chunks if c.choices and c.choices[0].delta.content]
    assert len(pieces) > 1  # streamed as generated, not as one block
    assert "".join(pieces) == whole.choices[0].message.content
    finishes = [c.choices[0].finish_reason for c in chunks if c.choices and c.choices[0].finish_reason]
    assert finishes == [whole.choices[0].finish_reason]
    assert chunks[-1].usage.completion_tokens == whole.usage.completion_tokens


def test_langchain_streaming_through_the_server(base_url: str) -> None:
    chunks = list(client(base_url).stream("Name three colours."))
    assert "".join(str(c.content) for c in chunks).strip()


@pytest.mark.parametrize(
    ("extra", "field"),
    [
        (
            {"tools": [{"type": "function", "function": {"name": "f", "parameters": {"type": "object"}}}]},
            "tools",
        ),
        ({"tool_choice": "required"}, "tool_choice"),
        ({"response_format": {"type": "json_object"}}, "response_format"),
    ],
)
def test_unsupported_options_are_refused_with_the_field_named(base_url: str, extra: dict, field: str) -> None:
    from openai import BadRequestError, OpenAI

    api = OpenAI(base_url=base_url, api_key="unused", timeout=60.0, max_retries=0)
    with pytest.raises(BadRequestError) as caught:
        api.chat.completions.create(
            model="local", messages=[{"role": "user", "content": "hi"}], max_tokens=4, **extra
        )
    assert caught.value.status_code == 400
    assert f"'{field}'" in caught.value.message and "is not supported" in caught.value.message
    assert caught.value.body["param"] == field


def test_models_endpoint_lists_the_served_model(base_url: str) -> None:
    with urllib.request.urlopen(f"{base_url}/models", timeout=10) as response:
        listing = json.load(response)
    assert [m["id"] for m in listing["data"]] == ["local"]


def test_counselor_runs_through_the_openai_compatible_endpoint(base_url: str, tmp_path, monkeypatch) -> None:
    from graphreason.workflows.counselor import CounselorContext, solve

    monkeypatch.setenv("GRAPHREASON_CACHE", str(tmp_path))
    ctx = CounselorContext(
        graph=str(REPO / "tests" / "fixtures" / "mini_academic.json"),
        embedding_model="hash",
        reasoner_model="openai:local",
        reflector_model="openai:local",
        judge_model="openai:local",
        base_url=base_url,
        max_steps=1,  # one step (three calls) takes the whole path through the endpoint
        max_reflections=0,
        max_tokens=32,
        temperature=0.0,
        seed=1,
    )
    out = solve("Which papers cite Sparse coding of natural images?", ctx)
    steps = out["trials"][0]["steps"]
    assert len(steps) == 1 and all(s["observation"] for s in steps)
    assert out["usage"]["llm_calls"] == 3 and out["usage"]["output_tokens"] > 0
