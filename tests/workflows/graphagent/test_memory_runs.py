"""Long-term memory in runs: experience collection, retrieval, replayed lessons cached per episode; the guard's calibration."""

from __future__ import annotations

import pytest

from graphreason.workflows.graphagent import collect_experience, solve, stream_solve
from graphreason.workflows.graphagent.guard import calibrate, judge_override
from graphreason.workflows.graphagent.resources import forget_stores
from tests.workflows.graphagent.fixtures import context, reply


@pytest.fixture(autouse=True)
def empty_stores():
    forget_stores()
    yield
    forget_stores()


def answers(*labels: str) -> list[str]:
    return [reply("answer", {"label": label, "reason": "r"}) for label in labels]


def test_collection_stores_episodes_and_runs_replay_their_lessons(tmp_path) -> None:
    path = tmp_path / "experience.db"
    collector = context(*answers("Neural Networks", "Theory", "Theory"), graph_tool=False)
    stats = collect_experience(collector, store_path=path)
    assert (stats["nodes"], stats["added"], stats["successes"]) == (3, 3, 2)  # training nodes 101-103
    assert stats["episodes_in_store"] == 3 and stats["accuracy"] == pytest.approx(2 / 3)
    again = collect_experience(context(graph_tool=False), store_path=path)  # resumable: nothing to run
    assert again["already_stored"] == 3 and again["added"] == 0

    forget_stores()  # a new process: the episodes come back from the file
    run = context("lesson one", "lesson two", *answers("Neural Networks"),
                  graph_tool=False, long_term=True, top_k=2, experience_path=str(path))
    out = solve("107", run)
    assert len(out["lessons"]) == 2 and {item["lesson"] for item in out["lessons"]} == {"lesson one", "lesson two"}
    assert out["lessons"][0]["episode"].startswith("tiny:")
    decision_prompt = run.agent_model.calls[2][0].content
    assert "Here are 2 lessons" in decision_prompt and "lesson one" in decision_prompt
    replay_prompt = run.agent_model.calls[0][0].content
    assert "message history of one" in replay_prompt and "the true label was" in replay_prompt

    cached = context(*answers("Neural Networks"), graph_tool=False, long_term=True, top_k=2,
                     experience_path=str(path))
    out = solve("107", cached)  # the lessons are read back: one LLM call, the decision
    assert out["usage"]["llm_calls"] == 1 and len(out["lessons"]) == 2


def test_a_node_never_retrieves_its_own_episode() -> None:
    collect_experience(context(*answers("Neural Networks"), graph_tool=False), nodes=["101"])
    out = solve("101", context(*answers("Neural Networks"), graph_tool=False, long_term=True))
    assert out["lessons"] == [] and out["trace"][1]["note"].startswith("no past episode")


def test_empty_store_runs_without_lessons() -> None:
    out = solve("107", context(*answers("Neural Networks"), graph_tool=False, long_term=True))
    assert out["lessons"] == [] and out["usage"]["llm_calls"] == 1


def test_collection_limit_and_bad_nodes() -> None:
    stats = collect_experience(context(*answers("Theory"), graph_tool=False), nodes=["nope", "103", "102"], limit=2)
    assert stats["added"] == 1 and stats["errors"][0]["node"] == "nope" and stats["successes"] == 1


def test_calibration_bounds_the_accuracy_an_override_can_cost() -> None:
    confidences = [0.99, 0.9, 0.8, 0.6, 0.55, 0.5, 0.4, 0.3, 0.95, 0.7]
    correct = [True, True, True, True, False, True, False, False, True, True]
    none_at_risk = calibrate(confidences, correct, 0.0)
    assert none_at_risk.threshold == 0.5  # the least confident right answer: below it the model is always wrong
    one_at_risk = calibrate(confidences, correct, 0.1)
    assert one_at_risk.threshold == 0.6 and one_at_risk.unsure_accuracy == pytest.approx(1 / 4)
    assert calibrate([], [], 0.01).val_nodes == 0
    assert judge_override("A", {"A": 0.6, "B": 0.4}, none_at_risk)[0]  # agreeing is always fine
    assert not judge_override("B", {"A": 0.6, "B": 0.4}, none_at_risk)[0]
    assert judge_override("B", {"A": 0.45, "B": 0.4, "C": 0.15}, none_at_risk)[0]
    assert not judge_override("C", {"A": 0.45, "B": 0.4, "C": 0.15}, none_at_risk)[0]
    assert judge_override("C", {"A": 0.45, "B": 0.4, "C": 0.15}, none_at_risk, top=0)[0]


def test_lessons_are_streamed() -> None:
    collect_experience(context(*answers("Theory"), graph_tool=False), nodes=["103"])
    events: list[dict] = []
    out = stream_solve("105", context("Check the theory papers first.", *answers("Theory"), graph_tool=False,
                                      long_term=True), on_event=events.append)
    assert [e["event"] for e in events] == ["lesson", "decide", "answer"]
    assert events[0]["text"] == "Check the theory papers first." and events[0]["success"] is True
    assert out["lessons"][0]["episode"] == "tiny:103"
