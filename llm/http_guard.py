"""A guard in front of every HTTP server of the project: who may send what.

Used by the graph server (``langgraph dev``, :mod:`graphreason.cli.http_app`) and by the
OpenAI-compatible model server (:mod:`graphreason.llm.server`). Every request passes
:class:`RequestGuard`:

* **Host** must be a loopback name (``localhost``, ``127.0.0.1``, ``::1``) or
  one the owner lists in ``GRAPHREASON_ALLOWED_HOSTS`` (``*``: any); otherwise
  400. A web page cannot reach the server by pointing its own domain at
  127.0.0.1 (DNS rebinding), since the browser sends that domain as the Host.
* **Origin**, when a browser sends one, must be LangSmith Studio, a loopback
  page, or one the owner lists in ``GRAPHREASON_ALLOWED_ORIGINS``; otherwise
  403. CORS alone does not stop a cross-site "simple" request: the browser
  sends it and only hides the answer, after the work has started.
* **Bodies** of POST, PUT and PATCH requests must be JSON
  (``Content-Type: application/json`` or ``+json``); otherwise 415. A form or
  ``text/plain`` body is what a cross-site page can send without a preflight.
  A body may hold at most the server's limit (``GRAPHREASON_MAX_BODY_BYTES``,
  default :data:`DEFAULT_MAX_BODY_BYTES`); a larger declared length is refused
  before it is read, and a body without a length is counted as it arrives: 413.
* **A bearer token**, when the server was given one, must come with every request
  (``Authorization: Bearer <token>``, compared in constant time); otherwise 401.
"""

from __future__ import annotations

import hmac
import re
from collections.abc import Callable
from typing import Any

from starlette.datastructures import Headers
from starlette.responses import JSONResponse

from graphreason.settings import allowed_hosts, allowed_origins, max_body_bytes

LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "::1")
STUDIO_ORIGINS = ("https://smith.langchain.com", "https://eu.smith.langchain.com")
LOOPBACK_ORIGIN = re.compile(r"^https?://(localhost|127\.0\.0\.1|\[::1\])(:[0-9]{1,5})?$")
BODY_METHODS = ("POST", "PUT", "PATCH")
DEFAULT_MAX_BODY_BYTES = 8 << 20  # 8 MiB: a GAR problem of 2 million characters with room to spare


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


def refusal(method: str, headers: Headers, limit: int | None = None, token: str | None = None) -> tuple[int, str] | None:
    """Why a request is refused (status, message), or ``None`` when it may pass.

    ``limit`` is the body limit (None: the app counts bodies itself), ``token`` the bearer token
    every request must carry (None: none asked).
    """
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
    if token is not None and not bearer_matches(headers.get("authorization"), token):
        return 401, "this server needs its bearer token: send it as 'Authorization: Bearer <token>'"
    length = headers.get("content-length", "").strip()
    if limit is not None and length.isdigit() and int(length) > limit:
        return 413, too_large(limit)
    return None


def bearer_matches(header: str | None, token: str) -> bool:
    """Whether an ``Authorization`` header carries exactly ``token`` (constant-time comparison)."""
    scheme, _, given = (header or "").strip().partition(" ")
    return scheme.lower() == "bearer" and hmac.compare_digest(given.strip().encode(), token.encode())


def body_limit() -> int:
    return max_body_bytes(DEFAULT_MAX_BODY_BYTES)


def too_large(limit: int) -> str:
    return (
        f"the request body is over {limit:,} bytes; the server's owner may raise the limit with "
        "GRAPHREASON_MAX_BODY_BYTES"
    )


class RequestGuard:
    """ASGI middleware applying :func:`refusal` to every HTTP and WebSocket request.

    ``limit`` returns the body limit (default :func:`body_limit`, read per request; None leaves
    body sizes to the app); ``token`` is the bearer token every request must carry, or None;
    ``error`` shapes a refusal's JSON body from its status and message (the model server answers
    in OpenAI's error form).
    """

    def __init__(
        self, app: Any, limit: Callable[[], int] | None = body_limit, token: str | None = None,
        error: Callable[[int, str], dict] | None = None,
    ) -> None:
        self.app = app
        self.limit = limit
        self.token = token or None
        self.error = error or (lambda status, message: {"error": "RequestRefused", "detail": message})

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket"):
            headers = Headers(scope=scope)
            limit = self.limit() if self.limit is not None else None
            problem = refusal(scope.get("method", "GET"), headers, limit, self.token)
            if problem is not None:
                status, message = problem
                if scope["type"] == "websocket":
                    await send({"type": "websocket.close", "code": 1008})
                    return
                await self._refuse(scope, receive, send, status, message)
                return
            chunked = "content-length" not in headers and "transfer-encoding" in headers
            if scope["type"] == "http" and scope.get("method") in BODY_METHODS and chunked and limit is not None:
                receive = await self._counted(scope, receive, send, limit)  # a body of unknown length
                if receive is None:
                    return
        await self.app(scope, receive, send)

    async def _refuse(self, scope: dict, receive: Any, send: Any, status: int, message: str) -> None:
        await JSONResponse(self.error(status, message), status_code=status)(scope, receive, send)

    async def _counted(self, scope: dict, receive: Any, send: Any, limit: int) -> Any:
        """Read a body sent without a length up to ``limit``; a receive that replays it (``None``: refused)."""
        parts, size = [], 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client left
                return _replay([], receive, message)
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                await self._refuse(scope, receive, send, 413, too_large(limit))
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
