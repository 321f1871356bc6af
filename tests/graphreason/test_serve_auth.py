"""The graph server's client tokens and handlers, called directly (the real server: tests/integration/test_server_clients.py)."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import pytest
from langgraph_sdk import Auth

from graphreason import settings
from graphreason.cli import serve_auth

TOKENS = "owner=owner-token-0123456789,alice=alice-token-0123456789"


def ctx(who: str, action: str, resource: str = "threads") -> SimpleNamespace:
    return SimpleNamespace(user=SimpleNamespace(identity=who), action=action, resource=resource)


@pytest.mark.parametrize(
    "text, words",
    [
        ("alice", "name=token pairs"),
        ("al ice=0123456789abcdefgh", "name=token pairs"),
        ("alice=short", "shorter than 16"),
        ("alice=0123456789abcdefgh,bob=0123456789abcdefgh", "the same token"),
    ],
)
def test_bad_client_tokens_are_refused_naming_the_variable(monkeypatch, text: str, words: str) -> None:
    monkeypatch.setenv("GRAPHREASON_CLIENT_TOKENS", text)
    with pytest.raises(ValueError, match=words) as err:
        settings.client_tokens()
    assert "GRAPHREASON_CLIENT_TOKENS" in str(err.value)


def test_without_tokens_every_request_is_the_owners(monkeypatch) -> None:
    monkeypatch.delenv("GRAPHREASON_CLIENT_TOKENS", raising=False)
    assert asyncio.run(serve_auth.authenticate(None)) == "owner"
    assert asyncio.run(serve_auth.own_work(ctx("owner", "search"), {})) is None


def test_tokens_name_the_client_and_anything_else_is_refused(monkeypatch) -> None:
    monkeypatch.setenv("GRAPHREASON_CLIENT_TOKENS", TOKENS)
    assert asyncio.run(serve_auth.authenticate("Bearer alice-token-0123456789")) == "alice"
    for header in (None, "", "alice-token-0123456789", "Basic alice-token-0123456789", "Bearer guess"):
        with pytest.raises(Auth.exceptions.HTTPException) as err:
            asyncio.run(serve_auth.authenticate(header))
        assert err.value.status_code == 401


def test_a_clients_work_is_tagged_filtered_and_bounded(monkeypatch) -> None:
    monkeypatch.setenv("GRAPHREASON_CLIENT_QUOTAS", "thread_metadata_bytes=64,store_item_bytes=64")
    value: dict = {"metadata": {"owner": "bob", "q": "mine"}}
    assert asyncio.run(serve_auth.own_work(ctx("alice", "create"), value)) == {"owner": "alice"}
    assert value["metadata"] == {"owner": "alice", "q": "mine"}  # a client cannot name another owner
    with pytest.raises(Auth.exceptions.HTTPException) as err:
        asyncio.run(serve_auth.own_work(ctx("alice", "create"), {"metadata": {"q": "x" * 100}}))
    assert err.value.status_code == 413 and "64 bytes" in str(err.value.detail)
    item: dict = {"namespace": ("notes",), "key": "k", "value": {"t": 1}}
    asyncio.run(serve_auth.store(ctx("alice", "put"), item))
    assert item["namespace"] == ("alice", "notes")
    with pytest.raises(Auth.exceptions.HTTPException):
        asyncio.run(serve_auth.store(ctx("alice", "put"), {"namespace": (), "key": "k", "value": {"t": "x" * 100}}))
    with pytest.raises(Auth.exceptions.HTTPException) as err:
        asyncio.run(serve_auth.assistants(ctx("alice", "update"), {}))
    assert err.value.status_code == 403
    assert asyncio.run(serve_auth.assistants(ctx("alice", "search"), {})) is None


def test_threads_and_waiting_runs_are_counted_per_client(monkeypatch) -> None:
    monkeypatch.setenv("GRAPHREASON_CLIENT_QUOTAS", "threads=2,pending_runs=1")
    held = {("threads", "alice"): 2, ("runs", "alice"): 0, ("threads", "bob"): 0, ("runs", "bob"): 1}
    monkeypatch.setattr(serve_auth, "_held", lambda kind, who, statuses=(): held[(kind, who)])
    with pytest.raises(Auth.exceptions.HTTPException) as err:
        asyncio.run(serve_auth.own_work(ctx("alice", "create"), {}))
    assert err.value.status_code == 429 and "at most 2 threads kept, and alice has 2" in str(err.value.detail)
    assert asyncio.run(serve_auth.own_work(ctx("alice", "create_run"), {})) == {"owner": "alice"}
    assert asyncio.run(serve_auth.own_work(ctx("alice", "create", "crons"), {})) == {"owner": "alice"}
    assert asyncio.run(serve_auth.own_work(ctx("bob", "create"), {})) == {"owner": "bob"}
    with pytest.raises(Auth.exceptions.HTTPException) as err:
        asyncio.run(serve_auth.own_work(ctx("bob", "create_run"), {}))
    assert err.value.status_code == 429 and "1 runs pending or running" in str(err.value.detail)
    assert asyncio.run(serve_auth.own_work(ctx("owner", "create_run"), {})) is None  # the owner has no quota


def test_a_quota_name_that_names_no_quota_is_refused(monkeypatch) -> None:
    monkeypatch.setenv("GRAPHREASON_CLIENT_QUOTAS", "thread=5")
    with pytest.raises(ValueError, match="names no quota thread; the quotas are store_item_bytes"):
        serve_auth.check_quota_names()
