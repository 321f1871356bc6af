"""A remote client of `langgraph dev` cannot steal the API key, read files or use CORS.

One real ``langgraph dev`` serves the repo's graphs with the repo's CORS
settings; its endpoint and key come from a ``.env`` file (as a user's would),
pointing at a fake OpenAI-compatible endpoint on another loopback port. A
second listener plays the attacker: every attack below must leave it without
a single request, and the run must fail with a message naming the policy.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from graphreason.cli.serve import free_port

pytestmark = [pytest.mark.integration, pytest.mark.heavy]

REPO = Path(__file__).resolve().parents[2]
FIXTURE = REPO / "tests" / "fixtures" / "mini_academic.json"
SECRET_KEY = "sk-server-secret-0123456789"
SECRET_TEXT = "TOP-SECRET-FILE-CONTENT"
QUESTION = "What is the label of the paper Sparse coding of natural images?"
REPLY = "Action 1: Finish[Vision] [yes]"


class Endpoint:
    """A tiny OpenAI-compatible endpoint that records the Authorization header of every request."""

    def __init__(self) -> None:
        self.requests: list[dict[str, str]] = []
        endpoint = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                endpoint.requests.append({"path": self.path, "auth": self.headers.get("Authorization", "")})
                body = json.dumps(
                    {
                        "id": "chatcmpl-1",
                        "object": "chat.completion",
                        "created": 0,
                        "model": "fake",
                        "choices": [
                            {
                                "index": 0,
                                "message": {"role": "assistant", "content": REPLY},
                                "finish_reason": "stop",
                            }
                        ],
                        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
                    }
                ).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def http(
    method: str, url: str, body: dict | None = None, headers: dict | None = None, timeout: float = 180.0
) -> tuple[int, dict[str, str], bytes]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        url, data=data, method=method, headers={"Content-Type": "application/json", **(headers or {})}
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, {k.lower(): v for k, v in response.headers.items()}, response.read()
    except urllib.error.HTTPError as err:
        return err.code, {k.lower(): v for k, v in err.headers.items()}, err.read()


def server_config(tmp: Path, env_file: Path) -> Path:
    """The repo's langgraph.json (CORS included) with absolute graph paths and a private .env."""
    config = json.loads((REPO / "langgraph.json").read_text())
    assert config["env"] == ".env", "langgraph.json must read the server's .env"
    config["env"] = str(env_file)
    for entry in config["graphs"].values():
        entry["path"] = str(REPO / entry["path"])
    path = tmp / "langgraph.json"
    path.write_text(json.dumps(config))
    return path


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict]:
    tmp = tmp_path_factory.mktemp("server_security")
    data, outside = tmp / "data", tmp / "outside"
    (data / "mini").mkdir(parents=True)
    shutil.copy(FIXTURE, data / "mini" / "graph.json")
    outside.mkdir()
    secret_graph = json.loads(FIXTURE.read_text())
    for node in secret_graph.get("paper_nodes", {}).values():
        node.setdefault("features", {})["title"] = SECRET_TEXT
    (outside / "graph.json").write_text(json.dumps(secret_graph))
    (outside / "script.json").write_text(json.dumps([SECRET_TEXT] * 20))
    (data / "escape").symlink_to(outside, target_is_directory=True)

    configured, attacker = Endpoint(), Endpoint()
    env_file = tmp / ".env"
    env_file.write_text(f"OPENAI_API_KEY={SECRET_KEY}\nOPENAI_BASE_URL={configured.url}\n")
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"OPENAI_API_KEY", "OPENAI_BASE_URL", "GRAPHREASON_TRUST_CLIENTS", "GRAPHREASON_SERVER"}
    }
    env.update(
        LANGGRAPH_CLI_NO_ANALYTICS="1",
        LANGSMITH_TRACING="false",
        GRAPHREASON_CACHE=str(tmp / "cache"),
        GRAPHREASON_DATA_ROOT=str(data),
    )
    port = free_port()
    cmd = [
        str(Path(sys.executable).parent / "langgraph"),
        *("dev", "--no-browser", "--no-reload", "--host", "127.0.0.1", "--port", str(port)),
        *("--config", str(server_config(tmp, env_file))),
    ]
    log_path = tmp / "server.log"
    with log_path.open("w") as log:
        process = subprocess.Popen(
            cmd, cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            if process.poll() is not None:
                pytest.fail(
                    f"langgraph dev exited with {process.returncode}:\n{log_path.read_text()[-3000:]}"
                )
            try:
                if http("GET", f"{base}/ok", timeout=2)[0] == 200:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"langgraph dev not ready after 120 s:\n{log_path.read_text()[-3000:]}")
            time.sleep(0.5)
        yield {
            "pid": process.pid,
            "base": base,
            "outside": outside,
            "configured": configured,
            "attacker": attacker,
            "log": log_path,
        }
    finally:
        if process.poll() is None:  # the server runs in its own session: stop exactly that group
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=10)
        configured.close()
        attacker.close()


def run(world: dict, graph_id: str, context: dict | None = None, config: dict | None = None) -> dict:
    """One stateless run through the HTTP API; returns the output (or the error the API reports)."""
    question = (
        QUESTION if graph_id == "graph_counselor" else "Edges: (0,1) (1,2). Is there a path from 0 to 2?"
    )
    body: dict = {"assistant_id": graph_id, "input": {"node": "1"} if graph_id == "graph_agent" else {"question": question}}
    if context is not None:
        body["context"] = context
    if config is not None:
        body["config"] = config
    status, _, raw = http("POST", f"{world['base']}/runs/wait", body)
    return {"status": status, "text": raw.decode(errors="replace")}


def counselor_context(**fields: object) -> dict:
    base = {"graph": "mini", "embedding_model": "hash", "max_steps": 1, "max_reflections": 0}
    base.update({k: "openai:fake" for k in ("reasoner_model", "reflector_model", "judge_model")})
    return {**base, **fields}


def refused(result: dict, world: dict) -> None:
    assert '"error":"PolicyError"' in result["text"] and "refused" in result["text"], (
        f"{result}\n{world['log'].read_text()[-3000:]}"
    )
    assert SECRET_TEXT not in result["text"] and SECRET_KEY not in result["text"]


def test_the_configured_endpoint_gets_the_key_from_the_env_file(world) -> None:
    before = len(world["configured"].requests)
    result = run(world, "graph_counselor", counselor_context())
    assert result["status"] == 200 and '"answer"' in result["text"], result
    sent = world["configured"].requests[before:]
    assert sent and all(r["auth"] == f"Bearer {SECRET_KEY}" for r in sent)


@pytest.mark.parametrize("graph_id", ["graph_counselor", "gar"])
@pytest.mark.parametrize("where", ["context", "configurable"])
def test_a_client_base_url_never_receives_the_key(world, graph_id: str, where: str) -> None:
    fields = {"base_url": world["attacker"].url}
    fields |= counselor_context() if graph_id == "graph_counselor" else {"master_model": "openai:fake"}
    if where == "context":
        result = run(world, graph_id, context=fields)
    else:
        result = run(world, graph_id, config={"configurable": fields})
    refused(result, world)
    assert world["attacker"].requests == []


def test_a_stored_assistant_cannot_carry_a_base_url(world) -> None:
    status, _, raw = http(
        "POST",
        f"{world['base']}/assistants",
        {"graph_id": "graph_counselor", "context": counselor_context(base_url=world["attacker"].url)},
    )
    assert status == 200, raw
    refused(run(world, json.loads(raw)["assistant_id"]), world)
    assert world["attacker"].requests == []


@pytest.mark.parametrize(
    "graph_id, field",
    [("graph_counselor", "reasoner_model"), ("graph_counselor", "judge_model"), ("gar", "master_model")],
)
def test_scripted_specs_cannot_read_server_files(world, graph_id: str, field: str) -> None:
    spec = f"scripted:{world['outside'] / 'script.json'}"
    context = counselor_context(**{field: spec}) if graph_id == "graph_counselor" else {field: spec}
    refused(run(world, graph_id, context), world)


@pytest.mark.parametrize("how", ["absolute", "dotdot", "symlink"])
def test_graph_paths_cannot_leave_the_data_root(world, how: str) -> None:
    graph = {
        "absolute": str(world["outside"] / "graph.json"),
        "dotdot": "../outside/graph.json",
        "symlink": "escape/graph.json",
    }[how]
    refused(run(world, "graph_counselor", counselor_context(graph=graph)), world)


@pytest.mark.parametrize("graph_id", ["graph_counselor", "gar"])
def test_embedding_model_folders_cannot_leave_the_data_root(world, graph_id: str) -> None:
    context = counselor_context() if graph_id == "graph_counselor" else {"master_model": "openai:fake"}
    refused(run(world, graph_id, {**context, "embedding_model": str(world["outside"])}), world)


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("agent_model", "scripted:{outside}/script.json"),
        ("data_path", "{outside}"),
        ("data_path", "../outside"),
        ("data_path", "escape"),  # a symlink inside the data root that leads out
        ("base_url", "{attacker}"),
        ("dataset", "{outside}"),  # a dataset is a name; a folder would bypass the data_path rule
        ("experience_path", "experience.sqlite"),
    ],
)
def test_graph_agent_context_cannot_reach_server_files_or_endpoints(world, field: str, value: str) -> None:
    value = value.format(outside=world["outside"], attacker=world["attacker"].url)
    result = run(world, "graph_agent", {"agent_model": "openai:fake", "embedding_model": "hash", field: value})
    refused(result, world)
    assert world["attacker"].requests == []


@pytest.mark.parametrize(
    "origin, allowed",
    [
        ("https://evil.example", False),
        ("http://localhost.evil.example", False),
        ("https://smith.langchain.com", True),
        ("http://127.0.0.1:5173", True),
    ],
)
def test_cors_answers_only_studio_and_loopback(world, origin: str, allowed: bool) -> None:
    _, headers, _ = http(
        "OPTIONS",
        f"{world['base']}/runs/wait",
        headers={"Origin": origin, "Access-Control-Request-Method": "POST"},
    )
    granted = headers.get("access-control-allow-origin")
    assert granted != "*"
    assert (granted == origin) is allowed, headers


def _context_properties(world: dict, graph_id: str) -> dict:
    """The context schema's properties as the server sends them to Studio."""
    status, _, raw = http("GET", f"{world['base']}/assistants/{graph_id}/schemas")
    if status != 200:  # older servers want the assistant's id, not the graph's
        _, _, found = http("POST", f"{world['base']}/assistants/search", {"graph_id": graph_id})
        status, _, raw = http(
            "GET", f"{world['base']}/assistants/{json.loads(found)[0]['assistant_id']}/schemas"
        )
    assert status == 200, raw
    return json.loads(raw)["context_schema"]["properties"]


def test_studio_gets_string_model_fields(world) -> None:
    props = _context_properties(world, "graph_counselor")
    for name in ("reasoner_model", "reflector_model", "judge_model"):
        assert props[name]["type"] == "string" and props[name]["description"]


@pytest.mark.parametrize(
    ("graph_id", "names"),
    [
        ("graph_counselor", ("reasoner_model", "reflector_model", "judge_model")),
        ("gar", ("master_model", "agent_model")),
    ],
)
def test_studio_gets_a_model_picker_on_every_model_field(
    world, graph_id: str, names: tuple[str, ...]
) -> None:
    props = _context_properties(world, graph_id)
    marked = {name for name, prop in props.items() if prop.get("__template_metadata__") == {"kind": "llm"}}
    assert marked == set(names)  # every model field, and nothing else (temperature, graph, ... stay plain)


def _group_peak_rss_mb(pgid: int) -> float:
    """The largest peak resident size (VmHWM) among the server's processes, in MB."""
    peak = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if int(fields[2]) != pgid:  # field 5 of /proc/PID/stat: the process group
                continue
            status = (stat.parent / "status").read_text()
        except (OSError, IndexError, ValueError):
            continue
        for line in status.splitlines():
            if line.startswith("VmHWM:"):
                peak = max(peak, int(line.split()[1]) / 1024)
    return peak


@pytest.mark.parametrize(
    "graph_input",
    [
        {"question": "Is there a path from node 0 to node 1?", "graph": {"edges": [[0, 1]], "n_nodes": 30_000_000}},
        {"question": "The nodes are numbered from 1 to 100000000 and the edges are: (1,2). Is node 1 linked to 2?"},
        {"question": "The nodes are numbered from 0 to 9999999999, edges: (0,1). Is there a path from 0 to 1?"},
    ],
    ids=["n_nodes", "range-from-1", "range-from-0"],
)
def test_tiny_inputs_cannot_ask_the_server_for_gigabytes(world, graph_input: dict) -> None:
    before = _group_peak_rss_mb(world["pid"])
    status, _, raw = http("POST", f"{world['base']}/runs/wait", {"assistant_id": "gar", "input": graph_input})
    text = raw.decode(errors="replace")
    assert "GraphTextError" in text and "GRAPHREASON_MAX_NODES" in text, f"{status} {text[:2000]}"
    # the whole server stays within a few hundred MB of where it was (the attacks asked for 3-75 GB)
    assert _group_peak_rss_mb(world["pid"]) < before + 500
    assert http("GET", f"{world['base']}/ok")[0] == 200  # and it still answers
