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
    evidence_label,
    evidence_reply,
    held_out_nodes,
    known_labels,
    recalled_labels,
    renamed_environments,
    teacher_episode,
)
from graphreason.workflows.graphagent.tuned import TUNED_SPEC, tuned_prompt
from tests.workflows.graphagent.fixtures import GOLD, IDS, LABELS, install, tiny_data

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
    assert tuned.recalls_labels and not plain.recalls_labels  # the tuned agent's long-term memory is recall
    assert not GraphAgentContext(long_term=False).recalls_labels and not GraphAgentContext(recall_k=0).recalls_labels


def _env(graph_tool: bool, recall: bool = False) -> NodeEnvironment:
    install()
    context = GraphAgentContext(dataset="tiny", graph_tool=graph_tool, embedding_model="hash")
    return resources.recall_environment(context) if recall else resources.environment(context)


@pytest.mark.parametrize("mode", ["faithful", "tool"])
def test_the_workflow_sends_the_tuned_agent_exactly_the_teachers_prompts(mode, monkeypatch) -> None:
    """A real run with the tuned agent, its model calls answered by the teacher: same prompts, one call each."""
    node = "104"  # a validation node with neighbours
    pairs = teacher_episode(_env(mode == "tool", recall=True), node, mode)  # the tuned agent recalls labels
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
    taught = json.loads(pairs[-1][1])["command"]["args"]["label"]
    assert out["answer"] == taught and out["ended_by"] == "answer"
    assert "step 0 (recalled): Labels of the " in pairs[0][0]  # the long-term memory line, before decision 1
    if mode == "tool":
        assert taught == out["gold"] == GOLD[IDS.index(node)]  # the tool-mode teacher answers the gold label


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


def test_the_faithful_teacher_answers_what_its_memory_supports_most() -> None:
    env = _env(graph_tool=False, recall=True)
    for node in ("101", "104", "106"):
        pairs = teacher_episode(env, node, "faithful")
        recalled = recalled_labels(pairs[0][0])
        # the tiny graph has three labelled (training) nodes; a training node never recalls itself
        assert sum(recalled.values()) == (2 if node == "101" else 3)
        counts = known_labels(env.get_neighbors(node))
        answer = json.loads(pairs[-1][1])["command"]["args"]
        assert answer["label"] == evidence_label(recalled, counts)
        assert "similar labelled nodes" in answer["reason"] or "labelled neighbours" in answer["reason"]
    # ties go to the label recalled first; neighbours add to the recalled counts
    assert evidence_label({"B": 2, "A": 2}, {}) == "B"
    assert evidence_label({"B": 2, "A": 1}, {"A": 2}) == "A"
    assert evidence_label({}, {"C": 1}) == "C" and evidence_label({}, {}) is None
    label, written = evidence_reply({}, {}, "Theory")  # no evidence at all: the fallback (the gold label)
    assert label == "Theory" and "title and content" in json.loads(written)["command"]["args"]["reason"]
    assert recalled_labels(
        "Labels of the 3 labelled nodes most like 5: Rule Learning x2, Theory x1. Closest: 7 [label: Theory]."
    ) == {"Rule Learning": 2, "Theory": 1}


def test_renamed_episodes_permute_the_label_names_everywhere() -> None:
    env = _env(graph_tool=False, recall=True)
    train, validation, info = build_records(
        env, modes=["faithful"], seed=0, held_out=1, navigation_share=1.0, rename_share=1.0
    )
    assert info["renamed_episodes"] == 6 and info["teacher"].startswith("evidence") and info["recall_k"] == 10
    assert set(info["teacher_gold_agreement"]) == {"train", "validation"}
    names = set(LABELS)
    renamed = 0
    for record in train + validation:
        shown = record.input.split("Labels: ", 1)[1].split("\n", 1)[0].split(", ")
        assert set(shown) == names  # a permutation of the same names
        renamed += shown != sorted(names)
        answer = json.loads(record.output)["command"]
        if answer["name"] == "answer":
            assert answer["args"]["label"] in names
    assert renamed == len(train) + len(validation)  # every episode ran under a permutation (none the identity)
    copies = renamed_environments(env, 3, seed=0)
    assert len(copies) == 3 and all(copy.recall is env.recall for copy in copies)
    node = "101"
    for copy in copies:
        mapping = copy.label_names
        assert copy.gold(node) == mapping[env.gold(node)]
        assert recalled_labels(copy.recalled(node)) == {
            mapping[label]: n for label, n in recalled_labels(env.recalled(node)).items()
        }
        assert known_labels(copy.get_neighbors(node)) == {
            mapping[label]: n for label, n in known_labels(env.get_neighbors(node)).items()
        }
    with pytest.raises(ValueError, match="rename_share"):
        build_records(env, rename_share=1.5)


def test_recall_by_words_needs_no_embedding_and_follows_the_word_features() -> None:
    install()
    context = GraphAgentContext(dataset="tiny", graph_tool=False, embedding_model="hash", recall_by="words")
    env = resources.recall_environment(context)
    assert env is not resources.environment(context) and resources.environment(context).recall is None
    assert env is resources.recall_environment(context)  # built once
    found = env.recall.recall("104", 1)[0]  # 104's words say Neural Networks; so do 101's
    assert found.label == "Neural Networks"
    data = tiny_data()
    data.graph.features = None
    data.name = data.graph.name = "bare"
    resources.provide("bare", data)
    with pytest.raises(resources.GraphAgentInputError, match="no word features"):
        resources.recall_environment(GraphAgentContext(dataset="bare", graph_tool=False, recall_by="words"))
