"""A real, local, misbehaving OpenAI-compatible HTTP server for endpoint-fault tests.

``FakeEndpoint(chat=..., models=...)`` listens on a free 127.0.0.1 port in a
thread. Each route answers in one of these ways:

* ``ok``       - a well-formed reply (chat: ``reply`` as the assistant's text);
* ``hang``     - never answers (until the server stops);
* ``drop``     - closes the connection without an answer;
* ``500``, ``429``, ``401``, ``404`` - that HTTP status with an OpenAI-style error body;
* ``badjson``  - status 200, JSON content type, a body that is not JSON;
* ``html``     - status 200 with an HTML page (a proxy's login page, say).

``ok_first=N`` lets the first N chat requests succeed before the fault starts
(an endpoint that breaks in the middle of an eval). It counts the requests each
route received, so a test can check how many attempts a client made instead of
timing it.

A scripted endpoint (``script=[...]``) answers successive ``ok`` chat requests
with successive entries instead of ``reply``: a string is the assistant's text;
a :func:`tool_calls` dict is a reply calling tools (OpenAI's ``tool_calls``
format, ``finish_reason`` ``tool_calls``); a callable gets the request body and
returns either. A request after the script's end gets HTTP 500 naming the
problem. Every chat request's JSON body is kept in ``bodies`` (the messages,
and the ``tools`` schemas a client bound), so a test can check what was sent.
"""

from __future__ import annotations

import json
import socket
import threading
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

_REASONS = {401: "invalid api key", 404: "model not found", 429: "rate limited", 500: "server exploded"}


def closed_port() -> int:
    """A loopback port nothing listens on (bound, then released)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def tool_calls(*calls: tuple[str, dict[str, Any]], content: str = "") -> dict[str, Any]:
    """A scripted reply that calls tools: ``tool_calls(("feature", {"node": "p1", "key": "title"}))``."""
    return {"content": content, "tool_calls": [{"name": name, "arguments": args} for name, args in calls]}


class FakeEndpoint:
    """Context manager: the server runs inside the ``with`` block; ``url`` is its ``/v1`` base."""

    def __init__(
        self,
        chat: str = "ok",
        models: str = "ok",
        reply: str = "Finish[42]",
        ok_first: int = 0,
        script: list[Any] | None = None,
    ) -> None:
        self.behaviour = {"/v1/chat/completions": chat, "/v1/models": models}
        self.reply = reply
        self.ok_first = ok_first
        self.script = list(script) if script is not None else None
        self.bodies: list[dict[str, Any]] = []  # the JSON body of every chat request, in order
        self.requests: Counter[str] = Counter()
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler_class())
        self._server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    @property
    def chat_requests(self) -> int:
        return self.requests["/v1/chat/completions"]

    def __enter__(self) -> FakeEndpoint:
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()  # releases hanging handlers
        self._server.shutdown()
        self._server.server_close()

    def _answer(self, handler: BaseHTTPRequestHandler, path: str, raw: bytes = b"") -> None:
        with self._lock:
            self.requests[path] += 1
            count = self.requests[path]
            request: dict[str, Any] = {}
            if path.endswith("/chat/completions"):
                try:
                    request = json.loads(raw or b"{}")
                except ValueError:
                    request = {"unreadable": raw.decode("utf-8", "replace")}
                self.bodies.append(request)
        mode = self.behaviour.get(path, "404")
        if path.endswith("/chat/completions") and count <= self.ok_first:
            mode = "ok"
        if mode == "hang":
            self._stop.wait(600)  # longer than any client timeout in the tests
            return
        if mode == "drop":
            handler.close_connection = True
            return
        if mode == "badjson":
            self._send(handler, 200, b"this is { not json", "application/json")
        elif mode == "html":
            self._send(handler, 200, b"<html><body>please log in</body></html>", "text/html")
        elif mode.isdigit():
            status = int(mode)
            body = {"error": {"message": _REASONS.get(status, "error"), "type": "fake", "code": status}}
            self._send(handler, status, json.dumps(body).encode(), "application/json")
        elif path.endswith("/models"):
            body = {"object": "list", "data": [{"id": "fake", "object": "model", "owned_by": "test"}]}
            self._send(handler, 200, json.dumps(body).encode(), "application/json")
        else:
            entry = self._next_entry(request)
            if entry is None:
                error = {"error": {"message": "the fake endpoint's script is exhausted", "type": "fake"}}
                self._send(handler, 500, json.dumps(error).encode(), "application/json")
                return
            self._send(handler, 200, json.dumps(self._completion(entry)).encode(), "application/json")

    def _next_entry(self, request: dict[str, Any]) -> str | dict[str, Any] | None:
        """The reply to this request: ``reply``, or the script's next entry (None once it is used up)."""
        if self.script is None:
            return self.reply
        with self._lock:
            if not self.script:
                return None
            entry = self.script.pop(0)
        return entry(request) if callable(entry) else entry

    def _completion(self, entry: str | dict[str, Any]) -> dict[str, Any]:
        message: dict[str, Any] = {"role": "assistant", "content": entry}
        finish = "stop"
        if isinstance(entry, dict):
            calls = [
                {
                    "id": f"call_{i}",
                    "type": "function",
                    "function": {
                        "name": call["name"],
                        "arguments": call["arguments"] if isinstance(call["arguments"], str)
                        else json.dumps(call["arguments"]),
                    },
                }
                for i, call in enumerate(entry.get("tool_calls") or [])
            ]
            message = {"role": "assistant", "content": entry.get("content") or None}
            if calls:
                message["tool_calls"] = calls
                finish = "tool_calls"
        return {
            "id": "chatcmpl-fake",
            "object": "chat.completion",
            "created": 0,
            "model": "fake",
            "choices": [{"index": 0, "message": message, "finish_reason": finish}],
            "usage": {"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5},
        }

    @staticmethod
    def _send(handler: BaseHTTPRequestHandler, status: int, body: bytes, kind: str) -> None:
        handler.send_response(status)
        handler.send_header("Content-Type", kind)
        handler.send_header("Content-Length", str(len(body)))
        handler.end_headers()
        try:
            handler.wfile.write(body)
        except OSError:  # the client gave up first
            pass

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        endpoint = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 - http.server's naming
                endpoint._answer(self, self.path.split("?")[0])

            def do_POST(self) -> None:  # noqa: N802
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length)
                endpoint._answer(self, self.path.split("?")[0], body)

            def log_message(self, *args: object) -> None:  # keep test output clean
                pass

        return Handler
