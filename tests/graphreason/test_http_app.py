"""The request guard ``langgraph dev`` runs in front of the graphs (langgraph.json: http.app).

Unit tests over a stand-in app; tests/integration/test_server_security.py sends
the same requests to a real ``langgraph dev``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route
from starlette.testclient import TestClient

from graphreason.cli import http_app
from graphreason.cli.http_app import RequestGuard, host_name, origin_allowed

REPO = Path(__file__).resolve().parents[2]


async def echo(request: Request) -> JSONResponse:
    body = await request.body()
    return JSONResponse({"bytes": len(body), "method": request.method})


def client(**headers: str) -> TestClient:
    app = Starlette(routes=[Route("/runs", echo, methods=["GET", "POST", "PUT", "PATCH", "DELETE"])])
    app.add_middleware(RequestGuard)
    return TestClient(app, base_url="http://127.0.0.1:2024", headers=headers)


JSON = {"Content-Type": "application/json"}


def test_loopback_json_requests_pass() -> None:
    response = client().post("/runs", content=b'{"a": 1}', headers=JSON)
    assert response.status_code == 200 and response.json() == {"bytes": 8, "method": "POST"}
    assert client().get("/runs").status_code == 200
    assert client().post("/runs").status_code == 200  # no body (a cancel): no content type needed


@pytest.mark.parametrize("host", ["localhost", "localhost:2024", "127.0.0.1:8123", "[::1]:2024", "LOCALHOST"])
def test_loopback_hosts_pass(host: str) -> None:
    assert client().get("/runs", headers={"Host": host}).status_code == 200


@pytest.mark.parametrize("host", ["attacker.example.com", "attacker.example.com:2024", "127.0.0.1.nip.io", "0.0.0.0"])
def test_other_hosts_are_refused(host: str) -> None:
    response = client().get("/runs", headers={"Host": host})
    assert response.status_code == 400 and "GRAPHREASON_ALLOWED_HOSTS" in response.json()["detail"]


def test_the_owner_may_allow_other_hosts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRAPHREASON_ALLOWED_HOSTS", "graphs.internal")
    assert client().get("/runs", headers={"Host": "graphs.internal:2024"}).status_code == 200
    assert client().get("/runs", headers={"Host": "other.internal"}).status_code == 400
    monkeypatch.setenv("GRAPHREASON_ALLOWED_HOSTS", "*")
    assert client().get("/runs", headers={"Host": "anything.example"}).status_code == 200


@pytest.mark.parametrize("origin", ["https://evil.example", "http://localhost.evil.example", "null", "http://127.0.0.1.evil:80"])
def test_foreign_origins_are_refused_even_with_json(origin: str) -> None:
    response = client().post("/runs", content=b"{}", headers={**JSON, "Origin": origin})
    assert response.status_code == 403 and "GRAPHREASON_ALLOWED_ORIGINS" in response.json()["detail"]
    preflight = client().options("/runs", headers={"Origin": origin, "Access-Control-Request-Method": "POST"})
    assert preflight.status_code == 403


@pytest.mark.parametrize(
    "origin", ["https://smith.langchain.com", "https://eu.smith.langchain.com", "http://localhost:5173", "http://[::1]:3000"]
)
def test_studio_and_loopback_pages_pass(origin: str) -> None:
    assert client().post("/runs", content=b"{}", headers={**JSON, "Origin": origin}).status_code == 200


def test_the_owner_may_allow_other_origins(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRAPHREASON_ALLOWED_ORIGINS", "https://studio.example.org/")
    assert origin_allowed("https://studio.example.org")
    assert not origin_allowed("https://studio.example.org.evil")


@pytest.mark.parametrize(
    "content_type", ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", None]
)
@pytest.mark.parametrize("method", ["POST", "PUT", "PATCH"])
def test_bodies_that_are_not_json_are_refused(method: str, content_type: str | None) -> None:
    headers = {"Content-Type": content_type} if content_type else {}
    response = client().request(method, "/runs", content=b'{"assistant_id": "gar"}', headers=headers)
    assert response.status_code == 415 and "application/json" in response.json()["detail"]


@pytest.mark.parametrize("content_type", ["application/json; charset=utf-8", "application/merge-patch+json"])
def test_json_media_types_pass(content_type: str) -> None:
    assert client().post("/runs", content=b"{}", headers={"Content-Type": content_type}).status_code == 200


def test_a_body_over_the_limit_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRAPHREASON_MAX_BODY_BYTES", "100")
    small = json.dumps({"text": "x" * 50}).encode()
    assert client().post("/runs", content=small, headers=JSON).json()["bytes"] == len(small)
    big = json.dumps({"text": "x" * 500}).encode()
    response = client().post("/runs", content=big, headers=JSON)
    assert response.status_code == 413 and "GRAPHREASON_MAX_BODY_BYTES" in response.json()["detail"]


def test_a_chunked_body_is_counted_as_it_arrives(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRAPHREASON_MAX_BODY_BYTES", "100")

    def pieces(n: int):
        for _ in range(n):
            yield b"x" * 30

    fine = client().post("/runs", content=pieces(3), headers=JSON)  # a generator: sent chunked, no length
    assert fine.status_code == 200 and fine.json()["bytes"] == 90  # replayed whole to the app
    assert client().post("/runs", content=pieces(10), headers=JSON).status_code == 413


def test_host_names_are_read_without_their_port() -> None:
    assert host_name("[::1]:2024") == "::1" and host_name("Example.ORG:80") == "example.org"
    assert host_name("localhost") == "localhost" and host_name("::1") == "::1"


def test_langgraph_json_mounts_the_guard_and_its_cors_origins_pass_it() -> None:
    config = json.loads((REPO / "langgraph.json").read_text())
    module, _, name = config["http"]["app"].partition(":")
    assert (REPO / module).resolve() == Path(http_app.__file__).resolve() and name == "app"
    assert any(m.cls is RequestGuard for m in http_app.app.user_middleware)
    for origin in config["http"]["cors"]["allow_origins"]:
        assert origin_allowed(origin), origin


def test_the_lifespan_cancels_live_runs_and_arms_no_watchdog_outside_a_server(monkeypatch: pytest.MonkeyPatch) -> None:
    from graphreason.runtime.cancel import CancelToken, bind_token

    monkeypatch.delenv("LANGSERVE_GRAPHS", raising=False)
    monkeypatch.delenv("GRAPHREASON_SERVER", raising=False)
    armed: list[float] = []
    monkeypatch.setattr(http_app, "_exit_if_still_running", armed.append)
    token = CancelToken()
    import contextvars

    contextvars.copy_context().run(bind_token, token)
    with TestClient(http_app.app):
        assert not token.cancelled
    assert token.cancelled and armed == []
    monkeypatch.setenv("GRAPHREASON_SERVER", "1")
    with TestClient(http_app.app):
        pass
    assert armed == [http_app.SHUTDOWN_SECONDS]


def test_crons_and_batches_need_the_owners_flag(monkeypatch) -> None:
    from graphreason.cli.http_app import route_refusal

    for name in ("GRAPHREASON_ALLOW_CRONS", "GRAPHREASON_ALLOW_BATCHES"):
        monkeypatch.delenv(name, raising=False)
    assert "GRAPHREASON_ALLOW_CRONS=1" in route_refusal("POST", "/runs/crons")
    assert "GRAPHREASON_ALLOW_CRONS=1" in route_refusal("POST", "/threads/abc/runs/crons")
    assert "GRAPHREASON_ALLOW_BATCHES=1" in route_refusal("POST", "/runs/batch")
    assert route_refusal("POST", "/runs/wait") is None and route_refusal("GET", "/runs/crons") is None
    monkeypatch.setenv("GRAPHREASON_ALLOW_CRONS", "1")
    monkeypatch.setenv("GRAPHREASON_ALLOW_BATCHES", "1")
    assert route_refusal("POST", "/runs/crons") is None and route_refusal("POST", "/runs/batch") is None
