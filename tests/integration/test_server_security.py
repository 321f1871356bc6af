"""A remote client of `langgraph dev` cannot steal the API key, read files or use CORS.

One real ``langgraph dev`` serves the repo's graphs with the repo's CORS
settings; its endpoint and key come from a ``.env`` file (as a user's would),
pointing at a fake OpenAI-compatible endpoint on another loopback port. A
second listener plays the attacker: every attack below must leave it without
a single request, and the run must fail with a message naming the policy.
"""

from __future__ import annotations

import json
import math
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
from tests.integration.graph_server import served_config, with_test_hooks

pytestmark = [pytest.mark.integration, pytest.mark.heavy]

REPO = Path(__file__).resolve().parents[2]
FIXTURE = REPO / "tests" / "fixtures" / "mini_academic.json"
SECRET_KEY = "sk-server-secret-0123456789"
SECRET_TEXT = "TOP-SECRET-FILE-CONTENT"
QUESTION = "What is the label of the paper Sparse coding of natural images?"
REPLY = "Action 1: Finish[Vision] [yes]"
LISTENER_SECONDS = 3.0


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


def start_server(tmp: Path, env: dict[str, str], *, cwd: Path, config: Path) -> tuple[subprocess.Popen, str, Path]:
    """``langgraph dev`` on a free loopback port, in its own process group; waits until it answers."""
    port = free_port()
    cmd = [
        str(Path(sys.executable).parent / "langgraph"),
        *("dev", "--no-browser", "--no-reload", "--host", "127.0.0.1", "--port", str(port)),
        *("--config", str(config)),
    ]
    log_path = tmp / f"server-{port}.log"
    with log_path.open("w") as log:
        process = subprocess.Popen(
            cmd, cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while True:
        if process.poll() is not None:
            pytest.fail(f"langgraph dev exited with {process.returncode}:\n{log_path.read_text()[-3000:]}")
        try:
            if http("GET", f"{base}/ok", timeout=2)[0] == 200:
                return process, base, log_path
        except OSError:
            pass
        if time.monotonic() > deadline:
            stop_server(process)
            pytest.fail(f"langgraph dev not ready after 120 s:\n{log_path.read_text()[-3000:]}")
        time.sleep(0.5)


def stop_server(process: subprocess.Popen, timeout: float = 20.0) -> float:
    """SIGTERM the server's process group; returns the seconds it took to exit (SIGKILL after ``timeout``)."""
    began = time.monotonic()
    if process.poll() is None:  # the server runs in its own session: stop exactly that group
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)
            return math.inf
    return time.monotonic() - began


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
    (data / "linked").mkdir()  # a folder inside the data root whose graph.json leads out
    (data / "linked" / "graph.json").symlink_to(outside / "graph.json")
    (data / "empty").mkdir()

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
    # the runtime stops hearing cancels after LISTENER_SECONDS, as it does after 240 s (see runtime_hooks)
    env = with_test_hooks(env, GRAPHREASON_TEST_CANCEL_LISTENER_SECONDS=str(LISTENER_SECONDS))
    config = served_config(tmp, env_file)
    home = tmp / "home"  # the server's working folder: its own run store, which a restart reads back
    home.mkdir()
    process, base, log_path = start_server(tmp, env, cwd=home, config=config)
    world: dict = {}  # the restart test puts the restarted server here
    try:
        world.update({
            "tmp": tmp,
            "home": home,
            "env": env,
            "config": config,
            "process": process,
            "pid": process.pid,
            "base": base,
            "outside": outside,
            "data": data,
            "configured": configured,
            "attacker": attacker,
            "log": log_path,
        })
        yield world
    finally:
        stop_server(world.get("process", process))
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


@pytest.mark.parametrize("how", ["absolute", "dotdot", "symlink", "symlinked-file", "symlinked-file-by-name"])
def test_graph_paths_cannot_leave_the_data_root(world, how: str) -> None:
    graph = {
        "absolute": str(world["outside"] / "graph.json"),
        "dotdot": "../outside/graph.json",
        "symlink": "escape/graph.json",
        "symlinked-file": "linked",  # the folder is inside; its graph.json is a link leading out
        "symlinked-file-by-name": "linked/graph.json",
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


def _group_stats(pgid: int) -> Iterator[tuple[Path, list[str]]]:
    """Each live process of the group ``pgid``: its /proc folder and the fields of its stat line after the name."""
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if int(fields[2]) == pgid:  # fields after the name: state, ppid, pgrp, ..., utime (11), stime (12)
                yield stat.parent, fields
        except (OSError, IndexError, ValueError):
            continue


def _group_peak_rss_mb(pgid: int) -> float:
    """The largest peak resident size (VmHWM) among the server's processes, in MB."""
    peak = 0.0
    for folder, _ in _group_stats(pgid):
        try:
            status = (folder / "status").read_text()
        except OSError:
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
        # under the process-wide 5,000,000: the server client's own maximum refuses it (it built 5M-node arrays)
        {"question": "The nodes are numbered from 0 to 4999999, and the edges are: (0->1) (1->2). Give a "
                     "topological sort of the graph."},
    ],
    ids=["n_nodes", "range-from-1", "range-from-0", "range-5M"],
)
def test_tiny_inputs_cannot_ask_the_server_for_gigabytes(world, graph_input: dict) -> None:
    before = _group_peak_rss_mb(world["pid"])
    status, _, raw = http("POST", f"{world['base']}/runs/wait", {"assistant_id": "gar", "input": graph_input})
    text = raw.decode(errors="replace")
    assert "GraphTextError" in text and "the limit is 200000" in text, f"{status} {text[:2000]}"
    assert "GRAPHREASON_SERVER_LIMITS=max_nodes=N" in text and len(raw) < 10_000
    # the whole server stays within a few hundred MB of where it was (the attacks asked for 3-75 GB)
    assert _group_peak_rss_mb(world["pid"]) < before + 500
    assert http("GET", f"{world['base']}/ok")[0] == 200  # and it still answers


def test_an_answer_over_every_node_reaches_the_client_as_a_summary_and_a_file(world) -> None:
    """A topological sort of 150,000 nodes: the client gets the first 1,000 and the count; the file has them all."""
    question = ("The nodes are numbered from 0 to 149999, and the edges are: (0->1) (1->2). Give a topological "
                "sort of the graph.")  # fmt: skip
    context = {"master_model": "openai:fake", "embedding_model": "hash", "llm_parse": False}
    status, _, raw = http("POST", f"{world['base']}/runs/wait", {"assistant_id": "gar", "input": {"question": question},
                                                               "context": context})  # fmt: skip
    assert status == 200 and len(raw) < 200_000, (status, len(raw), raw[:1000])
    structured = json.loads(raw)["structured"]
    assert structured["items"] == 150_000 and len(structured["value"]) == 1000
    assert structured["file"].startswith("<cache>/gar-results/"), structured["file"]  # no server folder named
    written = world["tmp"] / "cache" / structured["file"].removeprefix("<cache>/")
    assert len(json.loads(written.read_text())) == 150_000


# ---------------------------------------------------------------------------------- issue 21: serving


def _raw_post(world: dict, path: str, body: bytes, headers: dict[str, str]) -> tuple[int, bytes]:
    request = urllib.request.Request(f"{world['base']}{path}", data=body, method="POST", headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as err:
        return err.code, err.read()


def _counselor_body() -> bytes:
    return json.dumps(
        {"assistant_id": "graph_counselor", "input": {"question": QUESTION}, "context": counselor_context()}
    ).encode()


@pytest.mark.parametrize(
    ("headers", "status", "words"),
    [
        ({"Content-Type": "text/plain", "Origin": "https://evil.example"}, 403, "GRAPHREASON_ALLOWED_ORIGINS"),
        ({"Content-Type": "application/json", "Origin": "https://evil.example"}, 403, "origin"),
        ({"Content-Type": "text/plain"}, 415, "application/json"),
        ({"Content-Type": "application/x-www-form-urlencoded"}, 415, "JSON"),
        ({"Content-Type": "application/json", "Host": "attacker.example.com"}, 400, "GRAPHREASON_ALLOWED_HOSTS"),
        ({"Content-Type": "application/json", "Host": "attacker.example.com:2024"}, 400, "host"),
    ],
    ids=["cross-site-text", "cross-site-json", "text-plain", "form", "rebound-host", "rebound-host-port"],
)
def test_cross_site_and_rebound_requests_start_no_run(world, headers: dict, status: int, words: str) -> None:
    before = len(world["configured"].requests)
    got, raw = _raw_post(world, "/runs/wait", _counselor_body(), headers)
    assert got == status and words in raw.decode(), (got, raw[:500])
    assert len(world["configured"].requests) == before  # nothing ran: the model was never called


@pytest.mark.parametrize(
    "headers",
    [
        {"Content-Type": "application/json", "Origin": "https://smith.langchain.com"},  # Studio
        {"Content-Type": "application/json; charset=utf-8", "Origin": "http://localhost:5173"},
        {"Content-Type": "application/json", "Host": "localhost"},
    ],
    ids=["studio", "loopback-page", "localhost-host"],
)
def test_studio_and_local_clients_still_run_graphs(world, headers: dict) -> None:
    got, raw = _raw_post(world, "/runs/wait", _counselor_body(), headers)
    assert got == 200 and b'"answer"' in raw, (got, raw[:500])


@pytest.mark.parametrize(
    ("graph_id", "fields"),
    [
        ("gar", {"master_model": "openai:fake", "search_seconds": 1e9}),
        ("gar", {"master_model": "openai:fake", "search_max_steps": 10**15}),
        ("gar", {"master_model": "openai:fake", "design_memory_mb": 10**7}),
        ("gar", {"master_model": "openai:fake", "max_agent_calls": 10**9}),
        ("graph_counselor", counselor_context(max_steps=10**9)),
        ("graph_counselor", counselor_context(max_tokens=10**9)),
    ],
    ids=["search_seconds", "search_max_steps", "design_memory_mb", "max_agent_calls", "max_steps", "max_tokens"],
)
def test_budgets_above_the_server_maximum_are_refused(world, graph_id: str, fields: dict) -> None:
    result = run(world, graph_id, fields)
    refused(result, world)
    assert "GRAPHREASON_SERVER_LIMITS" in result["text"]


@pytest.mark.parametrize("spec", ["langsmith:gpt-4o-mini", "anthropic:claude", "ollama/llama3"])
def test_a_client_cannot_send_the_servers_requests_to_another_provider(world, spec: str) -> None:
    result = run(world, "graph_counselor", counselor_context(reasoner_model=spec))
    refused(result, world)
    assert "GRAPHREASON_PROVIDERS" in result["text"]


@pytest.mark.parametrize(
    ("graph_id", "graph_input", "words"),
    [
        ("graph_toolformer", {"text": "x" * 1_000_000}, "at most 20,000"),
        ("graph_agent", {}, "has no 'node'"),
        ("graph_counselor", {"question": "x" * 1_000_000}, "at most 20,000"),
    ],
    ids=["toolformer-1MB", "graphagent-empty", "counselor-1MB"],
)
def test_bad_input_is_refused_by_the_first_node_before_any_work(world, graph_id: str, graph_input: dict, words: str) -> None:
    context = {
        "graph_toolformer": {"generator_model": "openai:fake"},
        "graph_agent": {"agent_model": "openai:fake", "embedding_model": "hash", "dataset": "mini"},
        "graph_counselor": counselor_context(),
    }[graph_id]
    before_rss, before_calls = _group_peak_rss_mb(world["pid"]), len(world["configured"].requests)
    began = time.monotonic()
    status, _, raw = http("POST", f"{world['base']}/runs/wait", {"assistant_id": graph_id, "input": graph_input, "context": context})
    text = raw.decode(errors="replace")
    assert words in text, f"{status} {text[:1500]}"
    assert time.monotonic() - began < 30
    assert len(world["configured"].requests) == before_calls  # refused before any model call
    assert _group_peak_rss_mb(world["pid"]) < before_rss + 500


def _group_cpu_seconds(pgid: int) -> float:
    """User + system CPU time of every process in the group ``pgid`` (from /proc)."""
    ticks = os.sysconf("SC_CLK_TCK")
    return sum((int(fields[11]) + int(fields[12])) / ticks for _, fields in _group_stats(pgid))


def _busy(pgid: int, seconds: float = 2.0) -> float:
    """Cores the group used over the next ``seconds``."""
    before = _group_cpu_seconds(pgid)
    time.sleep(seconds)
    return (_group_cpu_seconds(pgid) - before) / seconds


def _hard_hamiltonian() -> str:
    a, b = 12, 15  # K(12,15) has no Hamiltonian path; the exact search needs minutes to prove it
    edges = " ".join(f"({i},{a + j})" for i in range(a) for j in range(b))
    return (
        "Determine whether or not there is a Hamiltonian path in an undirected graph. Q: The nodes are "
        f"numbered from 0 to {a + b - 1}, and the edges are: {edges}. Is there a Hamiltonian path in this graph?"
    )


def _start_search(base: str, seconds: float = 60, steps: int = 20_000_000) -> tuple[str, str]:
    """A background GAR run on a thread that keeps a core busy for up to ``seconds``; (thread id, run id)."""
    status, _, raw = http("POST", f"{base}/threads", {})
    assert status == 200, raw
    thread = json.loads(raw)["thread_id"]
    body = {
        "assistant_id": "gar",
        "input": {"question": _hard_hamiltonian()},
        "context": {"master_model": "openai:fake", "embedding_model": "hash", "llm_parse": False,
                    "search_seconds": seconds, "search_max_steps": steps},
    }  # fmt: skip
    status, _, raw = http("POST", f"{base}/threads/{thread}/runs", body)
    assert status == 200, raw
    return thread, json.loads(raw)["run_id"]


def _run_status(base: str, thread: str, run_id: str) -> str:
    status, _, raw = http("GET", f"{base}/threads/{thread}/runs/{run_id}")
    assert status == 200, raw
    return json.loads(raw)["status"]


def _wait_for(predicate, seconds: float, what: str) -> float:
    began = time.monotonic()
    while not predicate():
        if time.monotonic() - began > seconds:
            pytest.fail(f"{what}: not within {seconds:g} s")
        time.sleep(0.25)
    return time.monotonic() - began


def _searching(base: str, pgid: int, thread: str, run_id: str) -> None:
    """Wait until the run is in its exact search (running, past its set-up, a core busy)."""
    _wait_for(lambda: _run_status(base, thread, run_id) == "running", 60, "the run never started")
    time.sleep(4)  # parsing, retrieval and the master's call take about a second with the fake endpoint
    _wait_for(lambda: _busy(pgid, 1.0) > 0.6, 60, "the search never kept a core busy")


def test_a_run_cancelled_after_the_runtime_stopped_listening_stops_within_seconds(world) -> None:
    """The runtime hears no cancel after 240 s (here LISTENER_SECONDS): the project's own watch stops the run.

    The server is then idle, and the next client's run starts and answers.
    ``benchmarks/bench_server_cancel.py`` measures the same at 300 s, with the runtime's own 240 s.
    """
    base, pgid = world["base"], world["pid"]
    assert f"gives up after {LISTENER_SECONDS:g} s" in world["log"].read_text(), "the test hook is not in the server"
    began = time.monotonic()
    thread, run_id = _start_search(base)
    _searching(base, pgid, thread, run_id)
    age = time.monotonic() - began
    assert age > LISTENER_SECONDS + 1
    status, _, raw = http("POST", f"{base}/threads/{thread}/runs/{run_id}/cancel", None)
    assert status in (200, 202, 204), raw
    waited = _wait_for(lambda: _run_status(base, thread, run_id) != "running", 10, "the run still reads running")
    assert _run_status(base, thread, run_id) == "interrupted"  # as after a cancel the runtime relayed, not error
    cores = _busy(pgid, 3.0)
    print(f"cancel at {age:.0f} s: run ended {waited:.1f} s after the request; {cores:.2f} cores used over 3 s after")
    assert cores < 0.3, "the cancelled run's search still uses the CPU"
    after = run(world, "gar", {"master_model": "openai:fake", "embedding_model": "hash", "llm_parse": False})
    assert after["status"] == 200 and '"answer"' in after["text"], after


def test_error_messages_name_no_server_folder(world) -> None:
    result = run(world, "graph_counselor", counselor_context(graph="empty"))  # a folder without graph.json
    assert result["status"] == 200 and "graph.json" in result["text"], result
    for folder in (world["data"], world["data"].resolve(), REPO, Path.home()):
        assert str(folder) not in result["text"], result["text"]


def test_a_body_over_the_limit_is_refused_before_it_is_read(world) -> None:
    """A 9 MB body is answered 413 from its declared length alone: the reply comes before any of the body is sent.
    (With part of a body sent and left unread, the server's close may reset the connection before the reply is
    read, a race of TCP's: a socket closed with unread data sends a reset, not the reply.)"""
    import socket

    host, port = world["base"].removeprefix("http://").split(":")
    before = _group_peak_rss_mb(world["pid"])
    with socket.create_connection((host, int(port)), timeout=30) as sock:
        sock.sendall(
            b"POST /runs/wait HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Content-Length: 9000000\r\nConnection: close\r\n\r\n"
        )
        reply = b""
        while chunk := sock.recv(65536):
            reply += chunk
    assert reply.startswith(b"HTTP/1.1 413") and b"GRAPHREASON_MAX_BODY_BYTES" in reply, reply[:300]
    assert _group_peak_rss_mb(world["pid"]) < before + 100
    assert http("GET", f"{world['base']}/ok")[0] == 200


# Last in this file (tests run in file order): it restarts the module's server.
def test_a_restart_stops_the_run_in_flight_and_does_not_repeat_it(world) -> None:
    """SIGTERM mid-search: the server is gone within 10 s; restarted, it does not run the search again."""
    process, base = world["process"], world["base"]
    thread, run_id = _start_search(base)
    _searching(base, process.pid, thread, run_id)
    took = stop_server(process, timeout=30)
    print(f"restart: the server stopped {took:.1f} s after SIGTERM mid-search")
    assert took <= 10, f"the server took {took:.1f} s to stop"
    leftover = list(_group_stats(process.pid))
    assert not leftover, "processes of the stopped server are still alive"

    process, base, log = start_server(world["tmp"], world["env"], cwd=world["home"], config=world["config"])
    world.update(process=process, base=base, pid=process.pid, log=log)
    _wait_for(lambda: _run_status(base, thread, run_id) not in ("pending", "running"), 20,
              "the run cut off by the restart was not ended")  # fmt: skip
    assert _run_status(base, thread, run_id) == "error"
    cores = _busy(process.pid, 3.0)
    print(f"restart: the cut-off run ended as error; {cores:.2f} cores used over 3 s after")
    assert cores < 0.3, "the restarted server searches again"


def test_a_thread_state_written_as_a_node_is_bounded_like_run_input(world) -> None:
    """``POST /threads/{id}/state`` as the first node, then a run with no input: the same limit applies."""
    base = world["base"]
    status, _, raw = http("POST", f"{base}/threads", {"metadata": {"graph_id": "graph_toolformer"}})
    assert status == 200, raw
    thread = json.loads(raw)["thread_id"]
    values = {"text": "x" * 30_000, "has_calls": True}
    status, _, raw = http("POST", f"{base}/threads/{thread}/state", {"values": values, "as_node": "start"})
    assert status == 200, raw
    status, _, raw = http(
        "POST", f"{base}/threads/{thread}/runs/wait", {"assistant_id": "graph_toolformer", "input": None}
    )
    text = raw.decode(errors="replace")
    assert "30,000 characters; at most 20,000 are accepted" in text, (status, text[:2000])


@pytest.mark.parametrize(
    ("path", "body", "words"),
    [
        ("/runs/crons", {"assistant_id": "gar", "schedule": "* * * * *", "input": {"question": "x"}}, "crons are off"),
        ("/runs/batch", [{"assistant_id": "gar", "input": {"question": "x"}}] * 3, "batches of runs are off"),
    ],
)
def test_crons_and_batches_are_the_owners_to_enable(world, path: str, body: object, words: str) -> None:
    status, _, raw = http("POST", f"{world['base']}{path}", body)  # type: ignore[arg-type]
    assert status == 403 and words in raw.decode(), raw[:500]
    status, _, raw = http("POST", f"{world['base']}/threads", {})
    thread = json.loads(raw)["thread_id"]
    if path == "/runs/crons":  # a thread's own crons too
        status, _, raw = http("POST", f"{world['base']}/threads/{thread}/runs/crons", body)  # type: ignore[arg-type]
        assert status == 403 and words in raw.decode()
    status, _, raw = http("POST", f"{world['base']}/runs/crons/search", {})
    assert status == 403  # searching crons is a POST as well: nothing to list when none can be made
