"""Human review of actions: Counselor and GraphAgent pause before an action and run the human's edit."""

from __future__ import annotations

from pathlib import Path

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command

from graphreason.workflows.counselor import CounselorContext
from graphreason.workflows.counselor import solve as counselor_solve
from graphreason.workflows.counselor.graph import build_graph as counselor_graph
from graphreason.workflows.graphagent.graph import build_graph as graphagent_graph
from graphreason.workflows.kit.review import NEEDS_CHECKPOINTER
from graphreason.workflows.models.scripted import ScriptedChatModel
from tests.workflows.graphagent.fixtures import context as graphagent_context
from tests.workflows.graphagent.fixtures import reply

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "mini_academic.json"
QUESTION = "Who wrote the paper Sparse coding of natural images?"


def counselor_context(**settings) -> CounselorContext:
    model = ScriptedChatModel(script=["Plan 1: look it up", "Thought 1: search", "Action 1: Retrieve[Sparse coding]",
                                      "Plan 2: answer", "Thought 2: done", "Action 2: Finish[Bruno Olshausen]",
                                      "[yes]"])
    return CounselorContext(graph=str(FIXTURE), embedding_model="hash", reasoner_model=model, max_steps=2,
                            max_reflections=0, **settings)


@pytest.fixture(autouse=True)
def _cache(tmp_path, monkeypatch):
    monkeypatch.setenv("GRAPHREASON_CACHE", str(tmp_path / "cache"))


def test_counselor_pauses_before_the_action_and_runs_the_edited_one() -> None:
    graph = counselor_graph(checkpointer=InMemorySaver())
    context = counselor_context(review_actions=True)
    thread = {"configurable": {"thread_id": "review-1"}}
    paused = graph.invoke({"question": QUESTION}, config=thread, context=context)
    (pending,) = paused["__interrupt__"]
    assert pending.value["proposed"] == "Retrieve[Sparse coding]" and pending.value["step"] == 1
    assert "resume with true" in pending.value["how"]
    assert graph.get_state(thread).next == ("review",)  # nothing ran yet
    out = graph.invoke(Command(resume="Finish[Ada Lovelace]"), config=thread, context=context)
    (trial,) = out["trials"]
    step = trial["steps"][0]
    assert step["action"] == "Finish[Ada Lovelace]" and step["edited"] is True
    assert out["answer"] == "Ada Lovelace"  # the human's action ran, not the model's Retrieve
    assert out["messages"][-1].content == "Ada Lovelace"


def test_counselor_runs_the_proposed_action_when_resumed_with_true() -> None:
    graph = counselor_graph(checkpointer=InMemorySaver())
    context = counselor_context(review_actions=True)
    thread = {"configurable": {"thread_id": "review-2"}}
    graph.invoke({"question": QUESTION}, config=thread, context=context)
    graph.invoke(Command(resume=True), config=thread, context=context)  # step 1 runs; step 2 pauses
    out = graph.invoke(Command(resume=True), config=thread, context=context)
    first = out["trials"][0]["steps"][0]
    assert first["action"] == "Retrieve[Sparse coding]" and "edited" not in first


def test_a_bad_edit_is_a_clear_error_and_review_needs_a_checkpointer() -> None:
    graph = counselor_graph(checkpointer=InMemorySaver())
    context = counselor_context(review_actions=True)
    thread = {"configurable": {"thread_id": "review-3"}}
    graph.invoke({"question": QUESTION}, config=thread, context=context)
    with pytest.raises(ValueError, match="an edited Action must be a non-empty string"):
        graph.invoke(Command(resume=7), config=thread, context=context)
    with pytest.raises(ValueError, match="review_actions pauses the run for a human"):
        counselor_solve(QUESTION, counselor_context(review_actions=True))
    assert "checkpointer" in NEEDS_CHECKPOINTER
    assert counselor_solve(QUESTION, counselor_context())["trials"]  # off: no pause, as before


def test_graphagent_pauses_before_the_command_and_reads_the_edit_as_a_reply() -> None:
    graph = graphagent_graph(checkpointer=InMemorySaver())
    context = graphagent_context(reply("get_features", {"node_id": "107"}), graph_tool=False, review_actions=True)
    thread = {"configurable": {"thread_id": "review-4"}}
    paused = graph.invoke({"node": "107"}, config=thread, context=context)
    (pending,) = paused["__interrupt__"]
    assert pending.value["proposed"]["command"] == "get_features"
    edit = {"command": "answer", "args": {"label": "Theory", "reason": "a person knows this paper"}}
    out = graph.invoke(Command(resume=edit), config=thread, context=context)
    assert out["answer"] == "Theory" and out["ended_by"] == "answer"
    assert out["steps"][-1].get("edited") is True
