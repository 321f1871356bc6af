"""GraphAgent's reply format as a decoding constraint: what it lets through, what it stops, and where."""

from __future__ import annotations

import json
import random

import pytest

from graphreason.tools.graphagent.constraint import MAX_FIELD_CHARS, AgentReply

LABELS = ["Case_Based", "Genetic_Algorithms", "Neural_Networks", "Theory"]
ALL = ["get_features", "get_neighbors", "predict_label", "analyze_label", "answer"]


def reply(name: str, args: dict, *, reasoning: bool = True, plan: bool = True, text: str = "I read it") -> str:
    thoughts = {"text": text}
    if reasoning:
        thoughts["reasoning"] = "the abstract is about learning"
    if plan:
        thoughts["plan"] = "- answer"
    thoughts.update(criticism="be brief", speak="answering")
    return json.dumps({"thoughts": thoughts, "command": {"name": name, "args": args}})


VALID = [
    reply("get_features", {"node_id": 31336}),
    reply("get_neighbors", {"node_id": "31336"}),
    reply("predict_label", {"node_id": "paper#12"}),
    reply("analyze_label", {"node_id": 7}),
    *(reply("answer", {"label": label, "reason": "its neighbours say so"}) for label in LABELS),
]


@pytest.mark.parametrize("text", VALID)
def test_replies_in_the_format_pass_and_every_prefix_is_viable(text: str) -> None:
    grammar = AgentReply(ALL, LABELS)
    assert grammar.complete(text)
    assert all(grammar.viable(text[:cut]) for cut in range(len(text) + 1))
    assert not any(grammar.complete(text[:cut]) for cut in range(len(text)))  # no early end


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("Sure! Here is the JSON", "prose before the object"),
        ("```json\n{", "a code fence"),
        ('{"thoughts": {"text": "a"b', "a quote inside a thought"),
        ('{"thoughts": {"text": "line\n', "a line break inside a thought"),
        ('{"thoughts": {"text": "' + "x" * (MAX_FIELD_CHARS + 1), "a thought over the length limit"),
        ('{"command": {', "the keys out of order"),
        (reply("get_neighbours", {"node_id": 1})[:-20], "a command that does not exist"),
        (reply("answer", {"label": "Robotics", "reason": "r"})[:-15], "a label outside the label set"),
        (reply("answer", {"label": "theory", "reason": "r"})[:-15], "a label in another spelling"),
        (reply("get_features", {"node": 1})[:-3], "an argument under another key"),
    ],
)
def test_what_a_reply_may_not_write_is_not_viable(text: str, why: str) -> None:
    assert not AgentReply(ALL, LABELS).viable(text), why


def test_only_the_offered_commands_and_enabled_fields_are_allowed() -> None:
    faithful = AgentReply(["get_features", "get_neighbors", "answer"], LABELS, reasoning=False, plan=False)
    assert faithful.complete(reply("get_neighbors", {"node_id": 5}, reasoning=False, plan=False))
    assert not faithful.viable(reply("predict_label", {"node_id": 5}, reasoning=False, plan=False)[:-10])
    assert not faithful.viable(reply("answer", {"label": "Theory", "reason": "r"})[:40])  # has "reasoning"


def test_seeded_random_replies_in_the_format_all_pass() -> None:
    rng = random.Random(7)
    words = "the paper node label neural theory cites learning - evidence neighbours".split()
    grammar = AgentReply(ALL, LABELS)
    for _ in range(200):
        name = rng.choice(ALL)
        args = (
            {"label": rng.choice(LABELS), "reason": " ".join(rng.choices(words, k=rng.randint(0, 12)))[:MAX_FIELD_CHARS]}
            if name == "answer"
            else {"node_id": rng.choice([rng.randint(0, 10**6), str(rng.randint(0, 10**6)), "paper#3"])}
        )
        text = reply(name, args, text=" ".join(rng.choices(words, k=rng.randint(0, 20)))[:MAX_FIELD_CHARS])
        assert grammar.complete(text), text


def test_a_grammar_needs_commands_and_labels() -> None:
    with pytest.raises(ValueError, match="command"):
        AgentReply([], LABELS)
    with pytest.raises(ValueError, match="label"):
        AgentReply(ALL, [])
