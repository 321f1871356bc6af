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


class FakeEndpoint:
    """Context manager: the server runs inside the ``with`` block; ``url`` is its ``/v1`` base."""

    def __init__(
        self, chat: str = "ok", models: str = "ok", reply: str = "Finish[42]", ok_first: int = 0
    ) -> None:
        self.behaviour = {"/v1/chat/completions": chat, "/v1/models": models}
        self.reply = reply
        self.ok_first = ok_first
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

    def _answer(self, handler: BaseHTTPRequestHandler, path: str) -> None:
        with self._lock:
            self.requests[path] += 1
            count = self.requests[path]
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
            self._send(handler, 200, json.dumps(self._completion()).encode(), "application/json")

    def _completion(self) -> dict[str, Any]:
        return {
            "id": "chatcmpl-fake",
            "object": "chat.completion",
            "created": 0,
            "model": "fake",
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": self.reply},
                    "finish_reason": "stop",
                }
            ],
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
                self.rfile.read(length)
                endpoint._answer(self, self.path.split("?")[0])

            def log_message(self, *args: object) -> None:  # keep test output clean
                pass

        return Handler
