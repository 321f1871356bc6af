"""Native tool calling (``tool_calling="native"``) over the OpenAI-compatible path, against a fake endpoint.

The endpoint (tests/fake_openai_endpoint.py) answers with scripted replies,
some of them OpenAI ``tool_calls``, and keeps every request body. Each run
checks three things: the request carried the registry's tools as JSON
schemas, the calls ran on the real graph (the observation holds the graph's
data, which no scripted reply contains), and the run reached its answer.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from graphreason.workflows.counselor import CounselorContext
from graphreason.workflows.counselor import solve as counselor_solve
from graphreason.workflows.graphagent import GraphAgentContext
from graphreason.workflows.graphagent import solve as graphagent_solve
from tests.fake_openai_endpoint import FakeEndpoint, tool_calls
from tests.workflows.graphagent.fixtures import install

pytestmark = pytest.mark.integration

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "mini_academic.json"
P1_TITLE = "Graph neural networks for citation analysis"  # in the fixture only, never in a scripted reply


@pytest.fixture(autouse=True)
def _no_ambient_endpoint(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "GRAPHREASON_TIMEOUT", "GRAPHREASON_MAX_RETRIES"):
        monkeypatch.delenv(name, raising=False)


def _tools(body: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The tool schemas a request carried, by name."""
    return {tool["function"]["name"]: tool["function"] for tool in body.get("tools") or []}


def _prompt(body: dict[str, Any]) -> str:
    return "\n".join(str(message.get("content")) for message in body["messages"])


def _counselor(url: str, **settings: Any) -> CounselorContext:
    base: dict[str, Any] = dict(
        graph=str(FIXTURE), reasoner_model="openai:fake", base_url=url, tool_calling="native",
        embedding_model="hash", mode="no_reflection", use_planner=False, max_retries=0, timeout=20,
    )
    return CounselorContext(**{**base, **settings})


def test_counselor_runs_native_tool_calls_on_the_graph() -> None:
    script = [
        "Thought 1: I need the title of paper p1.",
        tool_calls(("feature", {"node": "p1", "key": "title"})),
        "Thought 2: Count who cites p2 and list what p1 cites.",
        tool_calls(("degree", {"node": "p2", "relation": "cited_by"}), ("neighbour", {"node": "p1", "relation": "cites"})),
        "Thought 3: The title is known.",
        tool_calls(("finish", {"answer": "Graph neural networks for citation analysis"})),
    ]
    with FakeEndpoint(script=script) as endpoint:
        out = counselor_solve("What is the title of paper p1?", _counselor(endpoint.url))
    bodies = endpoint.bodies
    assert len(bodies) == 6
    # thoughts are text calls; every Action request carries the registry's functions and Finish as tools
    assert all("tools" not in body for body in bodies[0::2])
    for body in bodies[1::2]:
        tools = _tools(body)
        assert set(tools) == {
            "retrieve", "feature", "neighbour", "degree", "count", "mode", "maxdegree", "differing", "matching",
            "mindegree", "same", "intersect", "union", "without", "contains", "exists", "mostlinked", "morethan",
            "fewerthan", "difference", "finish",
        }
        assert set(tools["matching"]["parameters"]["required"]) == {"nodes", "key", "value"}
        assert set(tools["morethan"]["parameters"]["required"]) == {"node", "other", "relation"}
        assert set(tools["differing"]["parameters"]["required"]) == {"node", "relation", "key"}
        assert tools["count"]["parameters"]["properties"]["values"]["type"] == "array"  # an aggregate takes a list
        assert set(tools["feature"]["parameters"]["properties"]) == {"node", "key"}
        assert tools["feature"]["parameters"]["required"] == ["node", "key"]
        assert tools["finish"]["parameters"]["required"] == ["answer"]
        assert "mini_academic" in tools["neighbour"]["description"]  # the graph's schema ends each description
    steps = out["trials"][0]["steps"]
    assert steps[0]["action"] == "Feature[p1, title]" and P1_TITLE in steps[0]["observation"]
    # two calls in one Action (compound): both ran, on the graph (p2 is cited by p1, p4 and p5)
    assert steps[1]["observation"] == (
        "The cited_by neighbor number of p2 is 3. The cites neighbors of p1 are: ['p2', 'p3']."
    )
    assert steps[1]["calls"] == ["Degree[p2, cited_by]", "Neighbour[p1, cites]"]
    # the observation was fed back where the text path puts it: the next prompt's scratchpad
    assert f"Observation 1: The title feature of p1 are: {P1_TITLE}." in _prompt(bodies[2])
    assert out["answer"] == P1_TITLE and out["trials"][0]["finished"]
    assert out["usage"]["llm_calls"] == 6


def test_counselor_native_keeps_the_text_path_rules() -> None:
    script = [
        "Thought 1: Two calls at once.",
        tool_calls(("feature", {"node": "p1", "key": "title"}), ("degree", {"node": "p2", "relation": "cited_by"})),
        "Thought 2: One call, with a node that does not exist.",
        tool_calls(("feature", {"node": "p99", "key": "title"})),
        "Thought 3: Answer in text.",
        "Action 3: Finish[Vision]",  # a reply without a tool call is read as a text Action
    ]
    with FakeEndpoint(script=script) as endpoint:
        out = counselor_solve("What is the label of p2?", _counselor(endpoint.url, compound=False))
    steps = out["trials"][0]["steps"]
    assert "Only one simple function call" in steps[0]["observation"] and not steps[0]["ok"]
    assert P1_TITLE not in steps[0]["observation"]  # nothing ran
    assert not steps[1]["ok"] and "p99" in steps[1]["observation"]  # the graph's error, as an observation
    assert out["answer"] == "Vision" and "tool_calls" not in steps[2]


def _graphagent(url: str, **settings: Any) -> GraphAgentContext:
    install()
    base: dict[str, Any] = dict(
        agent_model="openai:fake", base_url=url, tool_calling="native", dataset="tiny", embedding_model="hash",
        long_term=False, graph_tool=False, max_retries=0, timeout=20,
    )
    return GraphAgentContext(**{**base, **settings})


def test_graphagent_runs_native_tool_calls_on_the_graph() -> None:
    script = [
        tool_calls(("get_neighbors", {"node_id": "107"}), content="The neighbours' labels should tell."),
        "Two neighbours are neural network papers.",  # the summary (a text call)
        tool_calls(("answer", {"label": "Neural Networks", "reason": "its neighbours"})),
    ]
    with FakeEndpoint(script=script) as endpoint:
        out = graphagent_solve("107", _graphagent(endpoint.url))
    decide, summary, answer = endpoint.bodies
    tools = _tools(decide)
    assert set(tools) == {"get_features", "get_neighbors", "answer"}  # predict_label is off in this run
    assert set(tools["get_neighbors"]["parameters"]["properties"]) == {"node_id"}
    assert tools["answer"]["parameters"]["required"] == ["label"]
    assert "tools" not in summary and _tools(answer) == tools
    first = out["steps"][0]
    assert (first["command"], first["args"], first["valid"]) == ("get_neighbors", {"node_id": "107"}, True)
    # the environment's text for node 107: its neighbours' titles and training labels
    assert first["observation"].startswith("Node 107 has 5 neighbours.")
    assert "Backpropagation in deep networks [label: Neural Networks]" in first["observation"]
    assert "step 1: get_neighbors(107) -> Two neighbours are neural network papers." in _prompt(answer)
    assert (out["answer"], out["ended_by"], out["reason"]) == ("Neural Networks", "answer", "its neighbours")
    assert out["usage"]["llm_calls"] == 3


def test_graphagent_native_corrects_what_cannot_run() -> None:
    script = [
        "I think this is about neural networks.",  # no tool call, no command in the text
        tool_calls(("neighbors", {"node_id": "107"})),  # not a command
        tool_calls(("get_features", {"node_id": "paper#101"}), ("get_neighbors", {"node_id": "101"})),
        "A paper on backpropagation.",
        tool_calls(("answer", {"label": "Robotics"})),  # not in the label set
        tool_calls(("answer", {"label": 0, "reason": "title"})),
    ]
    with FakeEndpoint(script=script) as endpoint:
        out = graphagent_solve("107", _graphagent(endpoint.url, max_bad_replies=0))
    steps = out["steps"]
    assert [s["valid"] for s in steps] == [False, False, True, False, True]
    assert "called no tool" in steps[0]["observation"]
    assert "Did you mean get_neighbors?" in steps[1]["observation"]
    # one command per step: the first call ran on the graph, the second did not
    assert steps[2]["observation"].startswith("Node 101.\nTitle: Backpropagation in deep networks")
    assert "Only the first of your 2 tool calls was run" in steps[2]["observation"]
    assert "101 has" not in steps[2]["observation"]
    assert "not in the label set" in steps[3]["observation"]
    assert out["answer"] == "Neural Networks" and out["ended_by"] == "answer"
