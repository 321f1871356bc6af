"""The OpenAI-compatible server (``graphreason.llm.server``) against hostile clients, over real HTTP.

One real server process runs on a loopback port the OS picks, through the same
``main`` as ``python -m graphreason.cli.model_server``, with a cheap scripted model
(no embedded model is loaded) whose stream ticks slowly and writes how far it
got to a file. Checked: a 10 MB body (declared or chunked) is a 413 and the
server's peak memory stays where it was; 100,000-deep JSON, ``NaN`` and ``1e308``
are 400s; a streaming client that hangs up stops generation within seconds.
"""

from __future__ import annotations

import http.client
import json
import queue
import socket
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import AIMessageChunk
from langchain_core.outputs import ChatGenerationChunk

from graphreason.workflows.models.scripted import ScriptedChatModel
from tests.integration.model_server import model_server

pytestmark = pytest.mark.integration

REPO = Path(__file__).resolve().parents[2]
STARTUP_SECONDS = 60
TICKS = 1000  # a stream nobody stops runs TICKS * TICK_SECONDS = 20 s
TICK_SECONDS = 0.02
TEN_MB = 10 << 20
CHILD = (
    "import sys\n"
    "from graphreason.llm.server import main\n"
    "from tests.integration.test_llm_server_limits import ticking_model\n"
    "main(sys.argv[1:], make_model=ticking_model)\n"
)


class TickingModel(ScriptedChatModel):
    """Replies ``ok`` when invoked; streams ``tick`` chunks made by a worker thread, like the embedded engine.

    The worker ticks every TICK_SECONDS whether or not anyone pulls, writing the count
    so far to ``progress``, and stops only when the stream is closed: a server that
    merely stops reading does not stop it.
    """

    progress: str = ""

    def _stream(self, messages, stop=None, run_manager=None, **kwargs):  # noqa: ANN001, ANN202
        ticks: queue.Queue[str] = queue.Queue()
        closed = threading.Event()

        def work() -> None:
            for i in range(1, TICKS + 1):
                if closed.wait(TICK_SECONDS):
                    return
                Path(self.progress).write_text(str(i))
                ticks.put(f"tick{i} ")

        threading.Thread(target=work, daemon=True).start()
        try:
            for _ in range(TICKS):
                yield ChatGenerationChunk(message=AIMessageChunk(content=ticks.get()))
        finally:
            closed.set()


def ticking_model(spec: str) -> TickingModel:
    """The server's model factory: ``spec`` is the progress file."""
    return TickingModel(script=["ok"] * 1000, progress=spec)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    folder = tmp_path_factory.mktemp("llm_server_limits")
    log_path, progress = folder / "server.log", folder / "progress"
    cmd = [sys.executable, "-c", CHILD, "--model", str(progress), "--port", "0"]
    with model_server(cmd, log_path, STARTUP_SECONDS) as (process, url):
        port = int(url.removesuffix("/v1").rsplit(":", 1)[1])
        assert post(port, request())[0] == 200  # warmed up: the peak memory below starts from here
        yield {"port": port, "pid": process.pid, "progress": progress, "log": log_path}


def request(**fields: Any) -> bytes:
    fields.setdefault("messages", [{"role": "user", "content": "hello"}])
    return json.dumps(fields).encode()


def post(port: int, body: bytes | Iterator[bytes], chunked: bool = False) -> tuple[int, dict[str, Any]]:
    """Status and JSON reply of a POST to /v1/chat/completions."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        headers = {"Content-Type": "application/json"}
        connection.request("POST", "/v1/chat/completions", body, headers, encode_chunked=chunked)
        response = connection.getresponse()
        return response.status, json.loads(response.read() or b"{}")
    finally:
        connection.close()


def peak_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    raise AssertionError(f"no VmHWM in /proc/{pid}/status")


def test_a_10_mb_body_is_a_413_and_costs_no_memory(server: dict[str, Any]) -> None:
    before = peak_rss_mb(server["pid"])
    huge = request(messages=[{"role": "user", "content": "x" * TEN_MB}])
    status, reply = post(server["port"], huge)  # Content-Length says 10 MB
    assert status == 413, reply
    assert "1048576 bytes" in reply["error"]["message"] and "--max-body-bytes" in reply["error"]["message"]
    piece = 256 << 10
    status, reply = post(
        server["port"], (huge[i : i + piece] for i in range(0, len(huge), piece)), chunked=True
    )
    assert status == 413, reply  # no length to check first: counted while reading
    assert peak_rss_mb(server["pid"]) < before + 32  # a parsed 10 MB request costs far more
    assert post(server["port"], request())[0] == 200  # and it still answers


@pytest.mark.parametrize(
    ("body", "words"),
    [
        (b"[" * 100_000 + b"]" * 100_000, "nests arrays/objects"),
        (b'{"a": ' * 100_000 + b"1" + b"}" * 100_000, "nests arrays/objects"),
        (request()[:-1] + b', "temperature": NaN}', "numbers must be finite"),
        (request(temperature=1e308), "'temperature'"),
        (request(max_tokens=1e308), "'max_tokens'"),
    ],
    ids=["deep-arrays", "deep-objects", "nan", "temperature-1e308", "max_tokens-1e308"],
)
def test_hostile_json_is_a_400_naming_the_problem(server: dict[str, Any], body: bytes, words: str) -> None:
    status, reply = post(server["port"], body)
    assert status == 400, reply
    assert words in reply["error"]["message"]


def test_a_streaming_client_that_hangs_up_stops_generation(server: dict[str, Any]) -> None:
    progress: Path = server["progress"]
    body = request(stream=True)
    with socket.create_connection(("127.0.0.1", server["port"]), timeout=10) as sock:
        head = "POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        sock.sendall(head.encode() + f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
        received = b""
        while received.count(b"tick") < 3:
            data = sock.recv(65536)
            assert data, f"the stream ended early: {received!r}"
            received += data
    assert b"200 OK" in received.split(b"\r\n", 1)[0]
    # the hang-up is seen before the next chunk; give the server a moment, then the count must stand still
    time.sleep(1.0)
    stopped_at = int(progress.read_text())
    time.sleep(0.5)
    assert int(progress.read_text()) == stopped_at, "the model kept streaming after the client left"
    assert stopped_at < 40  # 3 ticks were read; a stream nobody stopped would be past 50 by now
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{server['port']}/health", timeout=10) as response:
            assert response.status == 200
    except urllib.error.URLError as exc:  # pragma: no cover - the failure message is the point
        pytest.fail(f"server no longer answers: {exc}\n{server['log'].read_text()}")
