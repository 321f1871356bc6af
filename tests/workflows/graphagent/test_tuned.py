"""The tuned agent: its default switch, the prompts it is trained on, and the teacher's data (masks, no unseen graph)."""

from __future__ import annotations

import json

import pytest

from graphreason.tools.graphagent.actions import NodeEnvironment
from graphreason.tools.graphagent.constraint import AgentReply
from graphreason.workflows.graphagent import GraphAgentContext, resources, solve
from graphreason.workflows.graphagent import decide as decide_module
from graphreason.workflows.graphagent import experience as experience_module
from graphreason.workflows.graphagent import summarise as summarise_module
from graphreason.workflows.graphagent.parsing import read_reply
from graphreason.workflows.graphagent.trajectories import (
    answer_reply,
    build_records,
    held_out_nodes,
    known_labels,
    teacher_episode,
)
from graphreason.workflows.graphagent.tuned import TUNED_SPEC, tuned_prompt
from tests.workflows.graphagent.fixtures import GOLD, IDS, install, tiny_data

TEST_NODES = {"107", "108"}  # the tiny dataset's test part


def test_the_embedded_model_decides_with_the_tuned_agent_by_default() -> None:
    assert GraphAgentContext().tuned_spec == TUNED_SPEC == "local:smollm2-135m-graphagent"
    assert GraphAgentContext(agent_model="local:smollm2-135m").tuned_spec == TUNED_SPEC
    assert GraphAgentContext(tuned_agent=False).tuned_spec is None  # --no-tuned-agent: the plain model
    assert GraphAgentContext(agent_model=TUNED_SPEC, tuned_agent=False).tuned_spec == TUNED_SPEC  # named: used
    assert GraphAgentContext(agent_model="openai:gpt-4o-mini").tuned_spec is None  # endpoints get the paper's
    tuned, plain = GraphAgentContext(), GraphAgentContext(tuned_agent=False)
    assert not tuned.llm_summaries and not tuned.replays_lessons  # as in its training
    assert plain.llm_summaries and plain.replays_lessons


def _env(graph_tool: bool) -> NodeEnvironment:
    install()
    return resources.environment(GraphAgentContext(dataset="tiny", graph_tool=graph_tool, embedding_model="hash"))


@pytest.mark.parametrize("mode", ["faithful", "tool"])
def test_the_workflow_sends_the_tuned_agent_exactly_the_teachers_prompts(mode, monkeypatch) -> None:
    """A real run with the tuned agent, its model calls answered by the teacher: same prompts, one call each."""
    node = "104"  # a validation node with neighbours
    pairs = teacher_episode(_env(mode == "tool"), node, mode)
    calls: list[tuple[str, object, object]] = []

    def tuned_model(context, prompt, max_tokens, grammar=None, model=None):
        calls.append((prompt, model, grammar))
        return pairs[len(calls) - 1][1], {"llm_calls": 1}

    def no_call(*args, **kwargs):
        raise AssertionError("the tuned agent's run made a model call besides its decisions")

    monkeypatch.setattr(decide_module, "ask", tuned_model)
    monkeypatch.setattr(summarise_module, "ask", no_call)
    monkeypatch.setattr(experience_module, "ask", no_call)
    context = GraphAgentContext(dataset="tiny", embedding_model="hash", graph_tool=mode == "tool", tool_guard=False)
    out = solve(node, context)
    assert [prompt for prompt, _, _ in calls] == [prompt for prompt, _ in pairs]
    assert all(model == TUNED_SPEC for _, model, _ in calls)
    grammars = [grammar for _, _, grammar in calls]
    assert all(isinstance(g, AgentReply) and not g.reasoning and not g.plan for g in grammars)
    assert out["answer"] == out["gold"] == GOLD[IDS.index(node)] and out["ended_by"] == "answer"


def test_tuned_prompt_bounds_each_memory_line() -> None:
    long_line = "step 1: get_features(1) -> " + "word " * 500
    prompt = tuned_prompt(node="1", title="T", dataset="d", labels=["a", "b"], commands=["answer"],
                          memory=[long_line], step=2, max_steps=6)
    assert len(prompt.split()) < 120 and prompt.endswith("Decision 2 of 6. Reply with one JSON command.")
    assert "(nothing yet)" in tuned_prompt(node="1", title="", dataset="d", labels=["a"], commands=["answer"],
                                            memory=[], step=1, max_steps=6)


def test_teacher_replies_parse_to_the_gold_and_say_only_what_was_observed() -> None:
    env = _env(graph_tool=True)
    for node in ("101", "104", "106"):
        for mode in ("faithful", "tool"):
            pairs = teacher_episode(env, node, mode)
            commands = [json.loads(written)["command"]["name"] for _, written in pairs]
            assert commands == ["get_features", "get_neighbors", "answer"]
            last = read_reply(pairs[-1][1], commands=["get_features", "get_neighbors", "answer"], labels=env.labels,
                              target=node)
            assert last.valid and last.label == env.gold(node)
            thought = json.loads(pairs[-1][1])["thoughts"]["text"]
            counts = known_labels(env.get_neighbors(node))
            for label, n in counts.items():
                assert f"{label} x{n}" in thought
            assert ("Graph model:" in thought) == (mode == "tool")
    assert known_labels("Node 1 has 3 neighbours. Known labels of its neighbours (training nodes): A x2, B C x1.") == {
        "A": 2, "B C": 1}
    assert known_labels("Node 1 has 3 neighbours. None of its neighbours has a known label.") == {}
    reason = json.loads(answer_reply("A", {"A": 2, "B": 1}, None))["command"]["args"]["reason"]
    assert reason == "2 of 3 labelled neighbours are A"


def test_records_hold_no_test_node_and_keep_held_out_nodes_for_validation() -> None:
    env = _env(graph_tool=True)
    held = held_out_nodes(env, seed=0, n=1)
    train, validation, info = build_records(env, seed=0, held_out=1, navigation_share=1.0)
    assert {r.node for r in train} | {r.node for r in validation} == {"101", "102", "103", "104", "105", "106"}
    assert not ({r.node for r in train} | {r.node for r in validation}) & TEST_NODES
    assert {r.node for r in validation} == set(held) and not {r.node for r in train} & set(held)
    assert info["held_out_nodes"] == held and info["nodes"] == 6
    answers_only, _, _ = build_records(env, seed=0, held_out=1, navigation_share=0.0)
    assert {r.step for r in answers_only} == {3} and len(answers_only) == 2 * 5  # two modes, five nodes
    assert {r.mode for r in build_records(env, modes=["faithful"], held_out=1)[0]} == {"faithful"}


def test_the_unseen_graph_is_never_trained_on() -> None:
    data = tiny_data()
    data.name = "CiteSeer"
    with pytest.raises(ValueError, match="unseen graph"):
        build_records(NodeEnvironment(data))
    with pytest.raises(ValueError, match="mode must be one of"):
        teacher_episode(_env(graph_tool=False), "101", "guess")
    with pytest.raises(ValueError, match="navigation_share"):
        build_records(_env(graph_tool=False), navigation_share=2.0)
