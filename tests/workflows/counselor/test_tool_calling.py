"""Graph Counselor's tool-calling setting: text by default (nothing bound), native refused for models without tools."""

from __future__ import annotations

from pathlib import Path

import pytest

from graphreason.tools.counselor.resources import get_graph_functions
from graphreason.workflows.counselor import CounselorContext, solve
from graphreason.workflows.counselor.execution import bracket_form, run_tool_calls
from graphreason.workflows.kit.native import NativeToolsError
from graphreason.workflows.models.scripted import ScriptedChatModel

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "mini_academic.json"


@pytest.fixture(autouse=True)
def _cache(tmp_path, monkeypatch):
    monkeypatch.setenv("GRAPHREASON_CACHE", str(tmp_path / "cache"))


def test_text_is_the_default_and_the_action_is_parsed_text() -> None:
    model = ScriptedChatModel(script=["Thought 1: read it", "Action 1: Feature[p2, label]",
                                      "Thought 2: done", "Action 2: Finish[Vision]"])
    ctx = CounselorContext(graph=str(FIXTURE), embedding_model="hash", reasoner_model=model,
                           mode="no_reflection", use_planner=False)
    assert ctx.tool_calling == "text"
    out = solve("What is the label of p2?", ctx)
    assert out["answer"] == "Vision" and model.bound_tools == []
    assert out["trials"][0]["steps"][0]["observation"] == "The label feature of p2 are: Vision."
    assert "tool_calls" not in out["trials"][0]["steps"][0]


@pytest.mark.parametrize("model", ["local", "scripted:replies.json"])
def test_native_mode_is_refused_for_models_without_tools(model: str) -> None:
    with pytest.raises(NativeToolsError, match=r"tool_calling='native'.*reasoner_model"):
        CounselorContext(reasoner_model=model, tool_calling="native")


def test_native_mode_is_refused_for_a_scripted_object_but_not_in_base_mode() -> None:
    with pytest.raises(NativeToolsError, match="ScriptedChatModel"):
        CounselorContext(reasoner_model=ScriptedChatModel(script=[]), tool_calling="native")
    assert CounselorContext(mode="base", tool_calling="native").tool_calling == "native"  # no graph calls to make


def test_native_calls_run_as_their_tools_under_the_text_path_rules() -> None:
    functions = get_graph_functions(str(FIXTURE), "hash")
    call = {"name": "neighbour", "args": {"node": "p1", "relation": "cites"}, "id": "c1"}
    assert bracket_form(functions, call) == "Neighbour[p1, cites]"
    assert run_tool_calls([call], functions, allow_compound=True) == (
        "The cites neighbors of p1 are: ['p2', 'p3'].", True, None
    )
    finish = {"name": "finish", "args": {"answer": "Vision"}, "id": "c2"}
    assert run_tool_calls([finish], functions, allow_compound=True) == ("Answer is Vision", True, "Vision")
    text, ok, answer = run_tool_calls([call, finish], functions, allow_compound=True)
    assert not ok and answer is None and "Finish must be the only call" in text
    text, ok, _ = run_tool_calls([{"name": "shortest_path", "args": {}, "id": "c3"}], functions, allow_compound=True)
    assert not ok and "There is no tool 'shortest_path'" in text and "feature" in text
    text, ok, _ = run_tool_calls([{"name": "feature", "args": {"node": "p1"}, "id": "c4"}], functions,
                                 allow_compound=True)
    assert not ok and "Invalid arguments for feature" in text
    text, ok, _ = run_tool_calls([{"name": "finish", "args": {"answer": "answer"}, "id": "c5"}], functions,
                                 allow_compound=True)
    assert not ok and "placeholder" in text
