"""The model server (``python -m graphreason.llm.server``) behind the project's request guard, over real HTTP.

Before the guard, a ``Content-Type: text/plain`` POST with ``Host: attacker.example``
got a 200 and a completion: a web page, or DNS rebinding, could use the owner's model.
Two real servers run on loopback ports the OS picks (a cheap scripted model, no
embedded model): one as started by default, one with ``--token``.
"""

from __future__ import annotations

import http.client
import json
import sys
from collections.abc import Iterator
from typing import Any

import pytest

from tests.integration.model_server import model_server
from tests.integration.test_llm_server_limits import CHILD, STARTUP_SECONDS, request

pytestmark = pytest.mark.integration
TOKEN = "s3cret-token"


@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    folder = tmp_path_factory.mktemp("llm_server_guard")
    plain = [sys.executable, "-c", CHILD, "--model", str(folder / "progress-a"), "--port", "0"]
    guarded = [*plain[:-4], "--model", str(folder / "progress-b"), "--port", "0", "--token", TOKEN]
    with model_server(plain, folder / "plain.log", STARTUP_SECONDS) as (_, open_url), model_server(
        guarded, folder / "token.log", STARTUP_SECONDS
    ) as (_, token_url):
        yield {"open": open_url, "token": token_url}


def post(url: str, headers: dict[str, str], body: bytes | None = None) -> tuple[int, dict[str, Any]]:
    host, port = url.removeprefix("http://").removesuffix("/v1").rsplit(":", 1)
    connection = http.client.HTTPConnection(host, int(port), timeout=30)
    try:
        connection.putrequest("POST", "/v1/chat/completions", skip_host=True)
        payload = request() if body is None else body
        for name, value in {"Host": f"127.0.0.1:{port}", "Content-Length": str(len(payload)), **headers}.items():
            connection.putheader(name, value)
        connection.endheaders(payload)
        response = connection.getresponse()
        return response.status, json.loads(response.read() or b"{}")
    finally:
        connection.close()


def test_the_server_listens_on_loopback_by_default(servers: dict[str, Any]) -> None:
    assert servers["open"].startswith("http://127.0.0.1:")


@pytest.mark.parametrize(
    ("headers", "status", "words"),
    [
        ({"Host": "attacker.example", "Content-Type": "text/plain"}, 400, "localhost, 127.0.0.1 or ::1"),
        ({"Host": "attacker.example", "Content-Type": "application/json"}, 400, "GRAPHREASON_ALLOWED_HOSTS"),
        ({"Content-Type": "text/plain"}, 415, "must be JSON"),
        ({"Content-Type": "application/x-www-form-urlencoded"}, 415, "must be JSON"),
        ({"Content-Type": "application/json", "Origin": "https://evil.example"}, 403, "origin are refused"),
    ],
)
def test_cross_site_and_rebound_requests_get_no_completion(
    servers: dict[str, Any], headers: dict[str, str], status: int, words: str
) -> None:
    got, reply = post(servers["open"], headers)
    assert got == status and words in reply["error"]["message"], reply
    assert "choices" not in reply


def test_a_local_json_request_is_answered(servers: dict[str, Any]) -> None:
    got, reply = post(servers["open"], {"Content-Type": "application/json", "Origin": "http://localhost:3000"})
    assert got == 200 and reply["choices"][0]["message"]["content"] == "ok"


@pytest.mark.parametrize("authorization", [None, "Bearer wrong", f"Basic {TOKEN}", f"Bearer {TOKEN}x"])
def test_with_a_token_every_request_must_carry_it(servers: dict[str, Any], authorization: str | None) -> None:
    headers = {"Content-Type": "application/json"} | ({"Authorization": authorization} if authorization else {})
    got, reply = post(servers["token"], headers)
    assert got == 401 and reply["error"]["type"] == "authentication_error" and "bearer token" in reply["error"]["message"]


def test_the_token_is_what_an_openai_client_sends_as_its_key(servers: dict[str, Any]) -> None:
    from openai import OpenAI

    client = OpenAI(base_url=servers["token"], api_key=TOKEN, max_retries=0)
    reply = client.chat.completions.create(model="x", messages=[{"role": "user", "content": "hi"}])
    assert reply.choices[0].message.content == "ok"
    with pytest.raises(Exception, match="401"):
        OpenAI(base_url=servers["token"], api_key="not-it", max_retries=0).chat.completions.create(
            model="x", messages=[{"role": "user", "content": "hi"}]
        )
