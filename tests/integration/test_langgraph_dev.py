"""`langgraph dev`, started by ``graphreason serve``, serves the graphs; runs complete through its HTTP API.

The server runs from the repo's langgraph.json on a free loopback port, with a
scripted model (given in the run's ``context``), the hash encoder and a fixture
graph, so the answer is deterministic and no network or weights are needed.
Its log goes to a temporary folder: a log inside the repo would be watched.
The file's last test checks what ``graphreason serve`` itself owes: it printed
the URL it serves at, and SIGTERM to it alone stops its ``langgraph dev`` child.
"""

from __future__ import annotations

import json
import signal
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.integration.graph_server import graph_server

pytestmark = [pytest.mark.integration, pytest.mark.heavy]

REPO = Path(__file__).resolve().parents[2]
FIXTURE = REPO / "tests" / "fixtures" / "mini_academic.json"
QUESTION = "What is the label of the paper Sparse coding of natural images?"
SCRIPT = [
    "Plan 1: find the paper and read its label",
    "Thought 1: I need the label feature of the paper",
    "Action 1: Feature[Retrieve[Sparse coding of natural images], label]",
    "Plan 2: answer with the label",
    "Thought 2: the observation says Vision",
    "Action 2: Finish[Vision]",
    "The label comes straight from the graph. [yes]",
]


def http(method: str, url: str, body: dict | None = None, timeout: float = 120.0) -> tuple[int, bytes]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        url, data=data, method=method, headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as err:
        return err.code, err.read()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    # scripted models and a fixture path are test-only choices a real server refuses
    # (tests/integration/test_server_security.py); this server trusts its client
    with graph_server(tmp_path_factory.mktemp("langgraph_dev"), {"GRAPHREASON_TRUST_CLIENTS": "1"}) as served:
        yield served


def run_context(tmp: Path, name: str) -> dict:
    script = tmp / f"{name}.json"
    script.write_text(json.dumps(SCRIPT))
    spec = f"scripted:{script}"
    return {
        "graph": str(FIXTURE),
        "embedding_model": "hash",
        "reasoner_model": spec,
        "reflector_model": spec,
        "judge_model": spec,
        "max_steps": 4,
    }


def test_graph_counselor_is_registered(server):
    status, body = http(
        "POST", f"{server['base']}/assistants/search", {"graph_id": "graph_counselor", "limit": 5}
    )
    assert status == 200, body
    assert any(a["graph_id"] == "graph_counselor" for a in json.loads(body))


def test_thread_run_completes_through_the_http_api(server):
    status, body = http("POST", f"{server['base']}/threads", {})
    assert status == 200, body
    thread_id = json.loads(body)["thread_id"]
    status, body = http(
        "POST",
        f"{server['base']}/threads/{thread_id}/runs/wait",
        {
            "assistant_id": "graph_counselor",
            "input": {"question": QUESTION},
            "context": run_context(server["tmp"], "wait"),
        },
    )
    assert status == 200, body
    output = json.loads(body)
    assert output.get("answer") == "Vision", f"{output}\n{server['log'].read_text()[-3000:]}"
    assert output["accepted"] is True and output["first_answer"] == "Vision"
    assert output["usage"]["llm_calls"] == 7
    assert output["trials"][0]["steps"][0]["observation"] == "The label feature of p2 are: Vision."


def test_a_human_edits_the_pending_action_and_the_edit_runs(server):
    """Human review through the HTTP API as Studio drives it: the run pauses before its first Action, the
    thread's state shows the proposed Action, and the resumed run executes the edited one."""
    status, body = http("POST", f"{server['base']}/threads", {})
    thread_id = json.loads(body)["thread_id"]
    context = {**run_context(server["tmp"], "review"), "review_actions": True, "max_reflections": 0}
    url = f"{server['base']}/threads/{thread_id}/runs/wait"
    status, body = http("POST", url, {"assistant_id": "graph_counselor", "input": {"question": QUESTION},
                                      "context": context})
    assert status == 200, body
    status, body = http("GET", f"{server['base']}/threads/{thread_id}/state")
    state = json.loads(body)
    assert state["next"] == ["review"], state["next"]
    (interrupt,) = [i for task in state["tasks"] for i in task.get("interrupts", [])]
    assert interrupt["value"]["proposed"] == "Feature[Retrieve[Sparse coding of natural images], label]"
    status, body = http("POST", url, {"assistant_id": "graph_counselor", "command": {"resume": "Finish[Edited]"},
                                      "context": context})
    assert status == 200, body
    output = json.loads(body)
    step = output["trials"][0]["steps"][0]
    assert step["action"] == "Finish[Edited]" and step["edited"] is True
    assert output["answer"] == "Edited", output


def test_custom_events_stream_over_sse(server):
    status, body = http(
        "POST",
        f"{server['base']}/runs/stream",
        {
            "assistant_id": "graph_counselor",
            "input": {"question": QUESTION},
            "context": run_context(server["tmp"], "stream"),
            "stream_mode": ["custom"],
        },
    )
    assert status == 200, body
    events = [
        json.loads(line[len("data:") :])
        for line in body.decode().splitlines()
        if line.startswith("data:") and '"event"' in line
    ]
    kinds = [e["event"] for e in events if isinstance(e, dict)]
    assert kinds[:4] == ["plan", "thought", "action", "observation"]
    assert "verdict" in kinds and "answer" in kinds


@pytest.mark.parametrize("assistant", ["graph_counselor", "gar"])
def test_studio_gets_described_input_and_output_schemas(server, assistant):
    status, body = http("POST", f"{server['base']}/assistants/search", {"graph_id": assistant, "limit": 1})
    assert status == 200, body
    assistant_id = json.loads(body)[0]["assistant_id"]
    status, body = http("GET", f"{server['base']}/assistants/{assistant_id}/schemas")
    assert status == 200, body
    schemas = json.loads(body)
    output = schemas.get("output_schema") or {}
    assert "answer" in output.get("properties", {}), schemas
    assert all(spec.get("description") for spec in output["properties"].values())
    assert {"question", "messages"} <= set(schemas["input_schema"]["properties"])  # field or chat message


@pytest.mark.parametrize("assistant", ["graph_counselor", "gar"])
def test_a_run_without_question_gets_a_clear_error(server, assistant):
    status, body = http(
        "POST", f"{server['base']}/runs/wait", {"assistant_id": assistant, "input": {"graph": None}}
    )
    text = body.decode(errors="replace")
    assert "KeyError" not in text, text
    assert "QuestionError" in text and "no 'question'" in text, text


def test_graph_toolformer_runs_annotated_text_through_the_http_api(server):
    text = 'The diameter of the bull graph is [GR(GL("gpr", {"bull_graph"}), "toolx:diameter")-->r].'
    status, body = http(
        "POST",
        f"{server['base']}/runs/wait",
        {
            "assistant_id": "graph_toolformer",
            "input": {"text": text, "has_calls": True},
            "context": {"embedding_model": "hash"},
        },
    )
    assert status == 200, body
    output = json.loads(body)
    assert output["final"] == "The diameter of the bull graph is 3.", output
    assert output["results"][0]["ok"] and output["usage"]["llm_calls"] == 0
    status, body = http("POST", f"{server['base']}/assistants/search", {"graph_id": "graph_toolformer", "limit": 1})
    assistant_id = json.loads(body)[0]["assistant_id"]
    status, body = http("GET", f"{server['base']}/assistants/{assistant_id}/schemas")
    schemas = json.loads(body)
    assert {"text", "messages"} <= set(schemas["input_schema"]["properties"])  # field or chat message
    assert all(spec.get("description") for spec in schemas["output_schema"]["properties"].values())


def test_studio_chat_sends_a_message_and_gets_the_answer_as_a_message(server):
    """The chat view of Studio: input is only ``messages``; the answer comes back as the last AI message."""
    text = 'The diameter of the bull graph is [GR(GL("gpr", {"bull_graph"}), "toolx:diameter")-->r].'
    status, body = http(
        "POST",
        f"{server['base']}/runs/wait",
        {
            "assistant_id": "graph_toolformer",
            "input": {"messages": [{"role": "user", "content": text}], "has_calls": True},
            "context": {"embedding_model": "hash"},
        },
    )
    assert status == 200, body
    messages = json.loads(body)["messages"]
    assert [m["type"] for m in messages] == ["human", "ai"]
    assert messages[-1]["content"] == "The diameter of the bull graph is 3."


def test_graph_agent_is_served_with_described_schemas(server):
    status, body = http("POST", f"{server['base']}/assistants/search", {"graph_id": "graph_agent", "limit": 1})
    assert status == 200, body
    assistant_id = json.loads(body)[0]["assistant_id"]
    status, body = http("GET", f"{server['base']}/assistants/{assistant_id}/schemas")
    schemas = json.loads(body)
    assert {"node", "messages"} <= set(schemas["input_schema"]["properties"])  # field or chat message
    assert {"answer", "ended_by", "steps", "usage"} <= set(schemas["output_schema"]["properties"])
    assert all(spec.get("description") for spec in schemas["output_schema"]["properties"].values())


def test_graph_agent_classifies_a_cora_node_through_the_http_api(server):
    from tests.conftest import require_data

    require_data("cora-citeseer-text")
    script = server["tmp"] / "graph_agent.json"
    answer = {"thoughts": {"text": "t", "reasoning": "r", "plan": "- p", "criticism": "c", "speak": "s"},
              "command": {"name": "answer", "args": {"label": "Neural Networks", "reason": "a guess"}}}
    script.write_text(json.dumps([json.dumps(answer)]))
    status, body = http(
        "POST",
        f"{server['base']}/runs/wait",
        {
            "assistant_id": "graph_agent",
            "input": {"node": "31336"},
            # faithful mode: no graph model to train, one scripted decision
            "context": {"agent_model": f"scripted:{script}", "embedding_model": "hash", "graph_tool": False,
                        "long_term": False},
        },
    )
    assert status == 200, body
    output = json.loads(body)
    assert output["answer"] == "Neural Networks" and output["ended_by"] == "answer", output
    assert output["dataset"] == "cora" and output["usage"]["llm_calls"] == 1


def test_a_human_edits_graph_agents_pending_command(server):
    """GraphAgent pauses before its decided command; the person's answer command ends the run instead."""
    from tests.conftest import require_data

    require_data("cora-citeseer-text")
    script = server["tmp"] / "graph_agent_review.json"
    look = {"thoughts": {"text": "t", "reasoning": "r", "plan": "- p", "criticism": "c", "speak": "s"},
            "command": {"name": "get_features", "args": {"node_id": "31336"}}}
    script.write_text(json.dumps([json.dumps(look)]))
    status, body = http("POST", f"{server['base']}/threads", {})
    thread_id = json.loads(body)["thread_id"]
    context = {"agent_model": f"scripted:{script}", "embedding_model": "hash", "graph_tool": False,
               "long_term": False, "review_actions": True}
    url = f"{server['base']}/threads/{thread_id}/runs/wait"
    status, body = http("POST", url, {"assistant_id": "graph_agent", "input": {"node": "31336"}, "context": context})
    assert status == 200, body
    state = json.loads(http("GET", f"{server['base']}/threads/{thread_id}/state")[1])
    (interrupt,) = [i for task in state["tasks"] for i in task.get("interrupts", [])]
    assert interrupt["value"]["proposed"]["command"] == "get_features"
    edit = {"command": "answer", "args": {"label": "Theory", "reason": "the person knows it"}}
    status, body = http("POST", url, {"assistant_id": "graph_agent", "command": {"resume": edit}, "context": context})
    assert status == 200, body
    output = json.loads(body)
    assert output["answer"] == "Theory" and output["ended_by"] == "answer", output
    assert output["steps"][-1]["edited"] is True and output["usage"]["llm_calls"] == 1


def test_serve_printed_its_url_and_sigterm_to_it_alone_stops_the_server(server):
    """Last in this file: it stops the module's server."""
    process, base = server["process"], server["base"]
    assert f"at {base}" in server["log"].read_text()
    process.send_signal(signal.SIGTERM)  # to serve only, not its process group
    process.wait(timeout=30)
    deadline = time.monotonic() + 10
    while True:  # its langgraph dev child is gone too: nothing answers on the port
        try:
            http("GET", f"{base}/ok", timeout=2)
        except OSError:
            break
        assert time.monotonic() < deadline, "the server still answers after serve was stopped"
        time.sleep(0.5)
