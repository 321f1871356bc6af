"""Who a ``langgraph dev`` request comes from, and what that client may see and change (LangGraph custom auth).

``langgraph.json`` names :data:`auth`; the server runs :func:`authenticate` on every
request and the ``on`` handlers on every resource access.

* **No client tokens** (``GRAPHREASON_CLIENT_TOKENS`` unset): the server is local-only,
  as before, and every request is the owner's (the server says so when it starts).
* **With tokens** (``name=token`` pairs): a request must carry
  ``Authorization: Bearer <token>``; an unknown or missing token gets 401. The client
  named ``owner`` keeps full access. Every other client:

  - sees and changes only its own threads, runs and crons: each is tagged
    ``metadata.owner = <client>`` when created and filtered by it on every read;
  - writes and reads store items under its own namespace (``(<client>, ...)``);
  - may read the served graphs' assistants but not create, change or delete any;
  - is held to per-client quotas (:data:`DEFAULT_QUOTAS`, raised or lowered with
    ``GRAPHREASON_CLIENT_QUOTAS``): the bytes of one store item and of one thread's or
    run's metadata (413 past them), how many threads it keeps and how many of its runs
    wait or work at once (429 past them: delete a thread, or wait for a run to end).

Crons and batches stay off for every client unless the owner enables them
(:mod:`graphreason.cli.http_app`).
"""

from __future__ import annotations

import json
from typing import Any

from langgraph_sdk import Auth

from graphreason.settings import client_quotas, client_tokens

OWNER = "owner"
DEFAULT_QUOTAS = {"store_item_bytes": 262_144, "thread_metadata_bytes": 16_384, "threads": 500, "pending_runs": 4}
# what each quota counts, for messages and the server's start line
QUOTA_WORDS = {
    "store_item_bytes": "bytes per store item",
    "thread_metadata_bytes": "bytes of metadata per thread or run",
    "threads": "threads kept",
    "pending_runs": "runs pending or running at once",
}

auth = Auth()


def quota(name: str) -> int:
    """The per-client limit ``name`` (the owner's setting, else the default)."""
    return int(client_quotas().get(name, DEFAULT_QUOTAS[name]))


def check_quota_names() -> None:
    """Refuse a ``GRAPHREASON_CLIENT_QUOTAS`` entry that names no quota (a typo would silently change nothing)."""
    unknown = sorted(set(client_quotas()) - set(DEFAULT_QUOTAS))
    if unknown:
        raise ValueError(
            f"GRAPHREASON_CLIENT_QUOTAS names no quota {', '.join(unknown)}; the quotas are {', '.join(DEFAULT_QUOTAS)}"
        )


def _held(kind: str, who: str, statuses: tuple[str, ...] = ()) -> int:
    """How many threads or runs (``kind``) of client ``who`` the server holds (runs: in ``statuses``).

    Read from the in-memory runtime ``langgraph dev`` serves from; counted on each create, so a quota
    holds without a second record to keep in step.
    """
    from langgraph_runtime_inmem.database import GLOBAL_STORE

    return sum(
        1
        for item in GLOBAL_STORE.get(kind) or ()
        if (item.get("metadata") or {}).get("owner") == who and (not statuses or item.get("status") in statuses)
    )


def _check_count(name: str, who: str, held: int) -> None:
    if held >= quota(name):
        raise _refuse(
            429,
            f"this server lets a client keep at most {quota(name)} {QUOTA_WORDS[name]}, and {who} has {held}: "
            + ("delete a thread first" if name == "threads" else "wait for one to end, or cancel one"),
        )


def _size(value: Any) -> int:
    return len(json.dumps(value, ensure_ascii=False, default=str).encode("utf-8"))


def _refuse(status: int, detail: str) -> Auth.exceptions.HTTPException:
    return Auth.exceptions.HTTPException(status_code=status, detail=detail)


@auth.authenticate
async def authenticate(authorization: str | None) -> str:
    """The client a request comes from: its bearer token's name, or the owner on a server without tokens."""
    tokens = client_tokens()
    if not tokens:
        return OWNER
    scheme, _, token = (authorization or "").strip().partition(" ")
    name = tokens.get(token.strip()) if scheme.lower() == "bearer" else None
    if name is None:
        raise _refuse(401, "this server asks each client for its token: send Authorization: Bearer <token>")
    return name


@auth.on
async def own_work(ctx: Auth.types.AuthContext, value: dict[str, Any]) -> dict[str, str] | None:
    """Threads, runs and crons: tagged with their client when made, filtered by it on every access."""
    who = ctx.user.identity
    if who == OWNER:
        return None
    metadata = value.get("metadata") if isinstance(value, dict) else None
    if metadata is not None and _size(metadata) > quota("thread_metadata_bytes"):
        raise _refuse(413, f"metadata over this server's {quota('thread_metadata_bytes')} bytes per client")
    if ctx.resource == "threads" and ctx.action == "create":
        _check_count("threads", who, _held("threads", who))
    if ctx.action == "create_run":
        _check_count("pending_runs", who, _held("runs", who, ("pending", "running")))
    if isinstance(value, dict) and ctx.action in ("create", "create_run", "update"):
        if value.get("metadata") is None:
            value["metadata"] = {}
        value["metadata"]["owner"] = who  # in place: the server keeps the object it handed over
    return {"owner": who}


@auth.on.assistants
async def assistants(ctx: Auth.types.AuthContext, value: dict[str, Any]) -> None:
    """The served graphs' assistants: every client may read them; only the owner may make, change or delete one."""
    if ctx.user.identity == OWNER or ctx.action in ("read", "search"):
        return None
    raise _refuse(403, "assistants belong to the server's owner: clients may read them, not change them")


@auth.on.store()
async def store(ctx: Auth.types.AuthContext, value: dict[str, Any]) -> None:
    """Store items: each client's live under its own name, within the per-item quota."""
    who = ctx.user.identity
    if who == OWNER:
        return None
    namespace = tuple(value.get("namespace") or ())
    value["namespace"] = (who, *namespace)
    if ctx.action == "put" and value.get("value") is not None and _size(value["value"]) > quota("store_item_bytes"):
        raise _refuse(413, f"a store item over this server's {quota('store_item_bytes')} bytes per client")
    return None
