"""Clients of one real `langgraph dev` with client tokens: each sees only its own work, none changes the owner's.

The server is started as a user would (``graphreason serve``) with three tokens in
``GRAPHREASON_CLIENT_TOKENS``: ``owner``, ``alice`` and ``bob``. Through the HTTP API:
no token gets 401; alice's threads and store items are invisible to bob, and visible to the
owner; the served graphs' assistants can be read by clients but not changed or deleted;
oversized store items and metadata are refused with 413, and threads or waiting runs past their
count with 429; and the start says who is served.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest

from graphreason.cli.serve import clients_line
from tests.integration.graph_server import graph_server

pytestmark = [pytest.mark.integration, pytest.mark.heavy]

TOKENS = {
    "owner": "owner-token-0123456789",
    "alice": "alice-token-0123456789",
    "bob": "bob-token-0123456789ab",
    "carol": "carol-token-0123456789",
}


def call(base: str, method: str, path: str, who: str | None, body: dict | None = None) -> tuple[int, object]:
    headers = {"Content-Type": "application/json"}
    if who is not None:
        headers["Authorization"] = f"Bearer {TOKENS[who]}"
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            text = response.read()
            return response.status, json.loads(text) if text else None
    except urllib.error.HTTPError as err:
        text = err.read()
        try:
            return err.code, json.loads(text)
        except ValueError:
            return err.code, text.decode(errors="replace")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    env = {
        "GRAPHREASON_CLIENT_TOKENS": ",".join(f"{name}={token}" for name, token in TOKENS.items()),
        "GRAPHREASON_CLIENT_QUOTAS": "store_item_bytes=4096,thread_metadata_bytes=2048,threads=3,pending_runs=1",
    }
    with graph_server(tmp_path_factory.mktemp("clients"), env) as served:
        yield served


def test_the_start_says_who_is_served(server, monkeypatch: pytest.MonkeyPatch) -> None:
    start = server["log"].read_text()
    assert "3 client token(s) (alice, bob, carol): owner has full access" in start
    assert "at most 4,096 bytes per store item" in start and "1 runs pending or running at once" in start
    monkeypatch.delenv("GRAPHREASON_CLIENT_TOKENS", raising=False)
    assert "local-only" in clients_line()


def test_a_request_without_a_known_token_is_refused(server) -> None:
    base = server["base"]
    status, body = call(base, "POST", "/threads/search", None, {})
    assert status == 401 and "Bearer" in str(body)
    request = urllib.request.Request(base + "/threads/search", data=b"{}", method="POST",
                                     headers={"Content-Type": "application/json", "Authorization": "Bearer guess"})  # fmt: skip
    with pytest.raises(urllib.error.HTTPError) as err:
        urllib.request.urlopen(request, timeout=30)
    assert err.value.code == 401


def test_one_clients_threads_are_hidden_from_another(server) -> None:
    base = server["base"]
    status, thread = call(base, "POST", "/threads", "alice", {"metadata": {"question": "alice's private question"}})
    assert status == 200 and thread["metadata"]["owner"] == "alice", thread
    tid = thread["thread_id"]
    status, found = call(base, "POST", "/threads/search", "bob", {})
    assert status == 200 and all(t["thread_id"] != tid for t in found)
    assert call(base, "GET", f"/threads/{tid}", "bob")[0] == 404
    assert call(base, "PATCH", f"/threads/{tid}", "bob", {"metadata": {"owner": "bob"}})[0] == 404
    assert call(base, "DELETE", f"/threads/{tid}", "bob")[0] == 404
    assert call(base, "GET", f"/threads/{tid}", "alice")[0] == 200
    status, everything = call(base, "POST", "/threads/search", "owner", {})
    assert status == 200 and any(t["thread_id"] == tid for t in everything)
    # a client cannot claim another's work by writing the owner tag itself
    status, thread = call(base, "POST", "/threads", "bob", {"metadata": {"owner": "alice"}})
    assert status == 200 and thread["metadata"]["owner"] == "bob"


def test_the_served_assistants_are_read_only_to_clients(server) -> None:
    base = server["base"]
    status, found = call(base, "POST", "/assistants/search", "alice", {"graph_id": "gar"})
    assert status == 200 and found, found
    aid = found[0]["assistant_id"]
    assert call(base, "GET", f"/assistants/{aid}", "alice")[0] == 200
    for method, body in (("PATCH", {"config": {"configurable": {"x": 1}}}), ("DELETE", None)):
        status, detail = call(base, method, f"/assistants/{aid}", "alice", body)
        assert status == 403 and "owner" in str(detail), (method, status, detail)
    assert call(base, "POST", "/assistants", "bob", {"graph_id": "gar"})[0] == 403
    assert call(base, "GET", f"/assistants/{aid}", "bob")[0] == 200  # still there for everyone


def test_store_items_live_under_their_client_and_within_the_quota(server) -> None:
    base = server["base"]
    item = {"namespace": ["notes"], "key": "k1", "value": {"text": "alice's note"}}
    assert call(base, "PUT", "/store/items", "alice", item)[0] in (200, 204)
    status, got = call(base, "GET", "/store/items?key=k1&namespace=notes", "alice")
    assert status == 200 and got["value"] == {"text": "alice's note"}
    assert call(base, "GET", "/store/items?key=k1&namespace=notes", "bob") == (200, None)  # no such item for bob
    status, got = call(base, "GET", "/store/items?key=k1&namespace=alice.notes", "owner")
    assert status == 200 and got["namespace"] == ["alice", "notes"]  # where alice's items really live
    big = {"namespace": ["notes"], "key": "k2", "value": {"text": "x" * 5000}}
    status, detail = call(base, "PUT", "/store/items", "alice", big)
    assert status == 413 and "4096 bytes" in str(detail)
    status, detail = call(base, "POST", "/threads", "alice", {"metadata": {"blob": "y" * 3000}})
    assert status == 413 and "2048 bytes" in str(detail)


def test_a_client_keeps_at_most_its_quota_of_threads_and_waiting_runs(server) -> None:
    """carol may keep 3 threads and have 1 run waiting or working; past either she gets 429 until one is gone."""
    base = server["base"]
    threads = []
    for _ in range(3):
        status, thread = call(base, "POST", "/threads", "carol", {})
        assert status == 200, thread
        threads.append(thread["thread_id"])
    status, detail = call(base, "POST", "/threads", "carol", {})
    assert status == 429 and "at most 3 threads kept" in str(detail), (status, detail)
    assert call(base, "POST", "/threads", "bob", {})[0] == 200  # another client's count is its own
    assert call(base, "DELETE", f"/threads/{threads.pop()}", "carol")[0] in (200, 204)
    status, thread = call(base, "POST", "/threads", "carol", {})
    assert status == 200, thread
    threads.append(thread["thread_id"])

    later = {"assistant_id": "gar", "input": {"question": "Edges: (0,1). Is there a path from 0 to 1?"},
             "after_seconds": 600}  # fmt: skip
    status, waiting = call(base, "POST", f"/threads/{threads[0]}/runs", "carol", later)
    assert status == 200 and waiting["status"] == "pending", waiting
    status, detail = call(base, "POST", f"/threads/{threads[1]}/runs", "carol", later)
    assert status == 429 and "1 runs pending or running at once" in str(detail), (status, detail)
    status, detail = call(base, "POST", "/runs/wait", "carol", later)  # a stateless run counts the same
    assert status == 429, (status, detail)
    status, _ = call(base, "POST", f"/threads/{threads[0]}/runs/{waiting['run_id']}/cancel", "carol")
    assert status in (200, 202, 204)
    status, second = call(base, "POST", f"/threads/{threads[1]}/runs", "carol", later)
    assert status == 200 and second["status"] == "pending", second
    call(base, "POST", f"/threads/{threads[1]}/runs/{second['run_id']}/cancel", "carol")
