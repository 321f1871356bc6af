"""The langchain-openai path against our real OpenAI-compatible server serving the embedded model."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from langchain_core.messages import HumanMessage

from workflows.models.factory import make_chat_model
from workflows.models.invoke import invoke_text

pytestmark = pytest.mark.integration

REPO = Path(__file__).resolve().parents[2]
STARTUP_SECONDS = 300  # a first run converts the GGUF before serving


def free_loopback_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = free_loopback_port()
    log_path = tmp_path_factory.mktemp("openai_server") / "server.log"
    cmd = [sys.executable, "-m", "workflows.models.openai_server", "--model", "local", "--port", str(port)]
    with log_path.open("w") as log:
        process = subprocess.Popen(cmd, cwd=REPO, env=dict(os.environ), stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + STARTUP_SECONDS
        while True:
            if process.poll() is not None:
                pytest.fail(f"server exited with {process.returncode}:\n{log_path.read_text()}")
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2) as response:
                    assert json.load(response)["status"] == "ok"
                    break
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail(f"server not healthy after {STARTUP_SECONDS}s:\n{log_path.read_text()}")
                time.sleep(0.5)
        yield f"http://127.0.0.1:{port}/v1"
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=5)


def client(base_url: str, max_tokens: int = 24):
    return make_chat_model(
        "openai:local", base_url=base_url, temperature=0.0, max_tokens=max_tokens, timeout=60.0
    )


def test_invoke_returns_text_and_usage(base_url: str) -> None:
    reply = client(base_url).invoke("What is the capital of France?")
    assert "Paris" in reply.content
    assert reply.usage_metadata["input_tokens"] > 10
    assert reply.usage_metadata["output_tokens"] > 0
    assert reply.response_metadata["finish_reason"] == "stop"


def test_stop_sequences_work_over_http(base_url: str) -> None:
    reply = client(base_url).invoke("Count from 1 to 10, separated by commas.", stop=["5"])
    assert "5" not in reply.content
    assert "4" in reply.content
    assert reply.response_metadata["finish_reason"] == "stop"


def test_max_tokens_limits_the_reply(base_url: str) -> None:
    reply = client(base_url, max_tokens=4).invoke("Write a long story about a dragon.")
    assert reply.usage_metadata["output_tokens"] == 4
    assert reply.response_metadata["finish_reason"] == "length"


def test_invoke_text_records_usage_through_the_server(base_url: str) -> None:
    reply = invoke_text(client(base_url), [HumanMessage(content="What is the capital of France?")])
    assert "Paris" in reply.text
    assert reply.input_tokens > 10
    assert reply.output_tokens > 0


def test_models_endpoint_lists_the_served_model(base_url: str) -> None:
    with urllib.request.urlopen(f"{base_url}/models", timeout=10) as response:
        listing = json.load(response)
    assert [m["id"] for m in listing["data"]] == ["local"]


def test_counselor_runs_through_the_openai_compatible_endpoint(base_url: str, tmp_path, monkeypatch) -> None:
    from workflows.counselor import CounselorContext, solve

    monkeypatch.setenv("GRAPHREASON_CACHE", str(tmp_path))
    ctx = CounselorContext(
        graph=str(REPO / "tests" / "fixtures" / "mini_academic.json"),
        embedding_model="hash",
        reasoner_model="openai:local",
        reflector_model="openai:local",
        judge_model="openai:local",
        base_url=base_url,
        max_steps=2,
        max_reflections=0,
        max_tokens=32,
        temperature=0.0,
        seed=1,
    )
    out = solve("Which papers cite Sparse coding of natural images?", ctx)
    steps = out["trials"][0]["steps"]
    assert 1 <= len(steps) <= 2 and all(s["observation"] for s in steps)
    assert out["usage"]["llm_calls"] == 3 * len(steps) and out["usage"]["output_tokens"] > 0
