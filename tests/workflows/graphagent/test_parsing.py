"""The tolerant reply reader: what it reads, what it refuses with a correction, and that it never raises."""

from __future__ import annotations

import pytest

from graphreason.workflows.graphagent.parsing import label_mentions, labels_in, read_reply, resolve_label

LABELS = ["Neural Networks", "Rule Learning", "Theory"]
ALL = ["get_features", "get_neighbors", "predict_label", "answer"]


def read(text: str, commands: list[str] = ALL):
    return read_reply(text, commands=commands, labels=LABELS, target="107")


@pytest.mark.parametrize(
    "text",
    [
        '{"thoughts": {"text": "t"}, "command": {"name": "get_neighbors", "args": {"node_id": "31"}}}',
        '```json\n{"thoughts": {"text": "t"}, "command": {"name": "get_neighbors", "args": {"node_id": 31}}}\n```',
        'Sure! {"command": {"name": "get_neighbors", "args": {"node_id": "paper#31"}}} Hope it helps.',
        "{'thoughts': {'text': 't'}, 'command': {'name': 'get_neighbors', 'args': {'node_id': 31}}}",
        '{"thoughts": {"text": "t"}, "command": {"name": "get_neighbors", "args": {"node_id": "31"',  # cut off
        '{"command": {"name": "Get Neighbors", "args": "31"}}',
        '{"command": "get_neighbors", "args": {"node": 31}}',
        '{"command": "get_neighbors(31)"}',
        "I will call get_neighbors(31) now.",
        '{"command": {"name": "get_neighbors", "args": [31]}}',
    ],
)
def test_node_commands_are_read_in_many_shapes(text: str) -> None:
    decision = read(text)
    assert decision.valid, decision.problem
    assert (decision.command, decision.node) == ("get_neighbors", "31")


def test_missing_node_id_means_the_target() -> None:
    decision = read('{"command": {"name": "get_features", "args": {}}}')
    assert decision.valid and decision.node == "107"


@pytest.mark.parametrize(
    "label",
    ['"Theory"', "2", '"2"', '"theory"', '"2: Theory"', '"THEORY."', '"The paper is about Theory"'],
)
def test_answer_label_as_id_or_name(label: str) -> None:
    decision = read('{"command": {"name": "answer", "args": {"label": ' + label + ', "reason": "r"}}}')
    assert decision.valid and decision.label == "Theory" and decision.reason == "r"


def test_answer_bare_call_and_underscored_name() -> None:
    assert read("answer[Neural_Networks, because of its title]").label == "Neural Networks"
    assert read('{"command": {"name": "answer", "args": "rule learning"}}').label == "Rule Learning"


@pytest.mark.parametrize("name, hint", [("neighbors", "get_neighbors"), ("feature", "get_features")])
def test_illegal_names_are_corrected_not_run(name: str, hint: str) -> None:
    decision = read('{"command": {"name": "' + name + '", "args": {"node_id": 1}}}')
    assert not decision.valid and decision.command == name
    assert hint in decision.problem and "not a command" in decision.problem


def test_switched_off_command_is_refused() -> None:
    decision = read('{"command": {"name": "get_features", "args": {}}}', commands=["get_neighbors", "answer"])
    assert not decision.valid and "not available in this run" in decision.problem


@pytest.mark.parametrize("label", ['"Robotics"', "7", '""', "null", "true"])
def test_unknown_label_is_refused_with_the_label_set(label: str) -> None:
    decision = read('{"command": {"name": "answer", "args": {"label": ' + label + "}}}")
    assert not decision.valid and "0: Neural Networks; 1: Rule Learning; 2: Theory" in decision.problem


@pytest.mark.parametrize(
    "text",
    ["", "   ", "no json at all", "{" * 5000, "}" * 100 + "{", '{"thoughts": {"text": "only thinking"}}',
     '{"command": {"name": 5}}', '{"command": null}', "\x00\xff" * 100, "[1, 2, 3]"],
)
def test_garbage_never_raises_and_asks_for_json(text: str) -> None:
    decision = read(text)
    assert not decision.valid and decision.problem


def test_resolve_label_and_mentions() -> None:
    assert resolve_label(1.0, LABELS) == "Rule Learning" and resolve_label(-1, LABELS) is None
    assert resolve_label("Learning", LABELS) is None  # ambiguous words are no label
    assert labels_in("rather Theory than neural networks", LABELS) == ["Theory", "Neural Networks"]
    assert label_mentions("labels: Theory x3, Rule Learning x1; theory again", LABELS) == {
        "Theory": 4, "Rule Learning": 1
    }
