"""The project's HTTP layer for ``langgraph dev`` (``langgraph.json``: ``http.app``).

LangGraph's server mounts this app's middleware in front of its own routes,
and runs its lifespan beside its own. Every request passes :class:`RequestGuard`:

* **Host** must be a loopback name (``localhost``, ``127.0.0.1``, ``::1``) or
  one the owner lists in ``GRAPHREASON_ALLOWED_HOSTS`` (``*``: any); otherwise
  400. A web page cannot reach the server by pointing its own domain at
  127.0.0.1 (DNS rebinding), since the browser sends that domain as the Host.
* **Origin**, when a browser sends one, must be LangSmith Studio, a loopback
  page, or one the owner lists in ``GRAPHREASON_ALLOWED_ORIGINS``; otherwise
  403. CORS alone does not stop a cross-site "simple" request: the browser
  sends it and only hides the answer, after the run has started.
* **Bodies** of POST, PUT and PATCH requests must be JSON
  (``Content-Type: application/json`` or ``+json``); otherwise 415. A form or
  ``text/plain`` body is what a cross-site page can send without a preflight.
  A body may hold at most ``GRAPHREASON_MAX_BODY_BYTES`` bytes (default
  :data:`DEFAULT_MAX_BODY_BYTES`); a larger declared length is refused before
  it is read, and a body without a length is counted as it arrives: 413.

On shutdown the lifespan cancels every run still working
(:func:`graphreason.llm.cancel.cancel_all`: searches stop, sandbox children are
killed), and a watchdog ends the process if it still lingers
:data:`SHUTDOWN_SECONDS` later, so a stop or restart never waits on a run.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import threading
from collections.abc import AsyncIterator
from typing import Any

from starlette.applications import Starlette
from starlette.datastructures import Headers
from starlette.responses import JSONResponse

from graphreason.llm.cancel import cancel_all
from graphreason.settings import allowed_hosts, allowed_origins, max_body_bytes
from graphreason.tools.core.policy import serving_process

log = logging.getLogger(__name__)

LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "::1")
STUDIO_ORIGINS = ("https://smith.langchain.com", "https://eu.smith.langchain.com")
LOOPBACK_ORIGIN = re.compile(r"^https?://(localhost|127\.0\.0\.1|\[::1\])(:[0-9]{1,5})?$")
BODY_METHODS = ("POST", "PUT", "PATCH")
DEFAULT_MAX_BODY_BYTES = 8 << 20  # 8 MiB: a GAR problem of 2 million characters with room to spare
SHUTDOWN_SECONDS = 8.0  # after shutdown begins, the process ends within this (the issue asks for 10)


def host_name(header: str) -> str:
    """The host part of a ``Host`` header (``[::1]:2024`` -> ``::1``, ``Example.org:80`` -> ``example.org``)."""
    text = header.strip().lower()
    if text.startswith("["):
        return text[1 : text.find("]")] if "]" in text else text
    return text.rsplit(":", 1)[0] if text.count(":") == 1 else text


def host_allowed(header: str | None) -> bool:
    if not header:
        return False
    extra = allowed_hosts()
    return "*" in extra or host_name(header) in (*LOOPBACK_HOSTS, *extra)


def origin_allowed(origin: str) -> bool:
    origin = origin.strip().rstrip("/")
    return origin in STUDIO_ORIGINS or bool(LOOPBACK_ORIGIN.match(origin)) or origin in allowed_origins()


def is_json(content_type: str | None) -> bool:
    media = (content_type or "").split(";", 1)[0].strip().lower()
    return media == "application/json" or (media.startswith("application/") and media.endswith("+json"))


def has_body(headers: Headers) -> bool:
    length = headers.get("content-length")
    if length is not None:
        return length.strip() not in ("", "0")
    return "transfer-encoding" in headers


def refusal(method: str, headers: Headers) -> tuple[int, str] | None:
    """Why a request is refused (status, message), or ``None`` when it may pass."""
    if not host_allowed(headers.get("host")):
        return 400, (
            "this server answers only requests addressed to localhost, 127.0.0.1 or ::1; its owner may "
            "allow other host names with GRAPHREASON_ALLOWED_HOSTS"
        )
    origin = headers.get("origin")
    if origin is not None and not origin_allowed(origin):
        return 403, (
            "requests from this web page's origin are refused; the server accepts LangSmith Studio and "
            "pages on localhost, and its owner may allow other origins with GRAPHREASON_ALLOWED_ORIGINS"
        )
    if method in BODY_METHODS and has_body(headers) and not is_json(headers.get("content-type")):
        return 415, "request bodies must be JSON: send them with Content-Type: application/json"
    length = headers.get("content-length", "").strip()
    if length.isdigit() and int(length) > body_limit():
        return 413, too_large()
    return None


def body_limit() -> int:
    return max_body_bytes(DEFAULT_MAX_BODY_BYTES)


def too_large() -> str:
    return (
        f"the request body is over {body_limit():,} bytes; the server's owner may raise the limit with "
        "GRAPHREASON_MAX_BODY_BYTES"
    )


class RequestGuard:
    """ASGI middleware applying :func:`refusal` to every HTTP and WebSocket request."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket"):
            headers = Headers(scope=scope)
            problem = refusal(scope.get("method", "GET"), headers)
            if problem is not None:
                status, message = problem
                if scope["type"] == "websocket":
                    await send({"type": "websocket.close", "code": 1008})
                    return
                await _refuse(scope, receive, send, status, message)
                return
            chunked = "content-length" not in headers and "transfer-encoding" in headers
            if scope["type"] == "http" and scope.get("method") in BODY_METHODS and chunked:
                receive = await _counted(scope, receive, send)  # a body of unknown length: read it here
                if receive is None:
                    return
        await self.app(scope, receive, send)


async def _refuse(scope: dict, receive: Any, send: Any, status: int, message: str) -> None:
    response = JSONResponse({"error": "RequestRefused", "detail": message}, status_code=status)
    await response(scope, receive, send)


async def _counted(scope: dict, receive: Any, send: Any) -> Any:
    """Read a body sent without a length up to the limit; a receive that replays it (``None``: refused)."""
    limit, parts, size = body_limit(), [], 0
    while True:
        message = await receive()
        if message["type"] != "http.request":  # the client left
            return _replay([], receive, message)
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            await _refuse(scope, receive, send, 413, too_large())
            return None
        parts.append(chunk)
        if not message.get("more_body", False):
            return _replay(parts, receive, None)


def _replay(parts: list[bytes], original: Any, last: dict | None) -> Any:
    """A receive that hands the app the body read already, then waits on the connection as before."""
    body = b"".join(parts)
    sent = False

    async def receive() -> dict:
        nonlocal sent
        if last is not None:
            return last
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await original()

    return receive


def _exit_if_still_running(seconds: float) -> None:
    """Last resort after shutdown began: a thread that never reached a check must not hold the process."""

    def watchdog() -> None:
        log.warning("graphreason: shutdown still waiting after %.0f s; ending the process", seconds)
        logging.shutdown()
        os._exit(0)

    timer = threading.Timer(seconds, watchdog)
    timer.daemon = True
    timer.start()


@contextlib.asynccontextmanager
async def lifespan(_app: Starlette) -> AsyncIterator[None]:
    yield
    stopped = cancel_all("the server is shutting down")
    if stopped:
        log.info("graphreason: cancelled %d run step(s) still working at shutdown", stopped)
    if serving_process():  # a LangGraph server: never a test or a program that mounts this app itself
        _exit_if_still_running(SHUTDOWN_SECONDS)


app = Starlette(lifespan=lifespan)
app.add_middleware(RequestGuard)
