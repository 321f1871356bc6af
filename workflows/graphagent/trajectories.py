"""Teacher trajectories for the tuned agent: each decision of a fixed policy, prompted as the workflow prompts it.

The teacher classifies a node the way the paper's practices describe: read the
node (``get_features``), look at its neighbours and their public labels
(``get_neighbors``), then answer. It answers with the gold label, so it is run
on labelled nodes of the training and validation parts only: never on test
nodes, and never on CiteSeer, the graph the tuned agent is evaluated on unseen
(:data:`UNSEEN`). Two modes, as the workflow runs them:

* ``faithful``: no graph model; the commands are get_features, get_neighbors, answer;
* ``tool``: the graph model's prediction is the first memory line (``tool_first``)
  and predict_label is offered too.

Each decision is one record: the prompt is :func:`~graphreason.workflows.graphagent.tuned.tuned_prompt`
over the short-term memory the workflow would hold at that point (memory lines
written by the workflow's own helpers, checked against a real run in the
tests), the output is the reply in the exact JSON the reply grammar accepts
(checked here for every record). Replies stay short and true to what was
observed: the answer's thought quotes the neighbours' known label counts (or
says there are none) and the graph model's label in tool mode.

Validation: :data:`VALIDATION_NODES` nodes of the validation part, drawn with a
seed, are held out of training; their records give the validation loss.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from graphreason.tools.core.loaders import UNSEEN_GRAPHS
from graphreason.tools.graphagent.actions import NodeEnvironment
from graphreason.tools.graphagent.registry import ANSWER, FEATURES, NEIGHBOURS
from graphreason.workflows.graphagent.common import step_line
from graphreason.workflows.graphagent.context import GraphAgentContext
from graphreason.workflows.graphagent.start import given_line
from graphreason.workflows.graphagent.summarise import kept_observation
from graphreason.workflows.graphagent.tuned import tuned_grammar, tuned_prompt

UNSEEN = tuple(sorted(UNSEEN_GRAPHS))  # never trained on: the tuned agent is evaluated on them as unseen graphs
MODES = ("faithful", "tool")
PARTS = ("train", "val")  # the labelled parts a teacher may run on (never "test")
VALIDATION_NODES = 100
MAX_STEPS = 6  # the workflow's default T_max, which the prompts show
THOUGHT_CHARS = 120  # the reply grammar's longest text field

_KNOWN = re.compile(r"Known labels of its neighbours \(training nodes\): ([^.]*)\.")


@dataclass(frozen=True)
class AgentRecord:
    """One teacher decision: the tuned prompt (``input``) and the reply (``output``)."""

    dataset: str
    index: int
    input: str
    output: str
    node: str
    mode: str
    step: int


def reply(text: str, command: str, args: dict[str, str]) -> str:
    """A reply in the tuned agent's JSON form (thoughts: text, criticism, speak; then the command)."""
    return json.dumps(
        {"thoughts": {"text": _plain(text), "criticism": "", "speak": ""}, "command": {"name": command, "args": args}},
        ensure_ascii=False,
    )


def _plain(text: str) -> str:
    """One line without quotes or backslashes, at most the grammar's field length."""
    return " ".join(text.replace('"', "'").replace("\\", "/").split())[:THOUGHT_CHARS]


def known_labels(neighbours_observation: str) -> dict[str, int]:
    """The neighbours' public label counts as get_neighbors wrote them (``{}`` when none are known)."""
    found = _KNOWN.search(neighbours_observation)
    counts: dict[str, int] = {}
    for part in (found.group(1).split(", ") if found else []):
        label, _, n = part.rpartition(" x")
        if label and n.isdigit():
            counts[label] = int(n)
    return counts


def answer_reply(gold: str, counts: dict[str, int], prediction: tuple[str, float] | None) -> str:
    """The teacher's answer: the gold label, with a thought and a reason that only say what was observed."""
    thought = []
    if prediction is not None:
        thought.append(f"Graph model: {prediction[0]} {prediction[1]:.2f}.")
    if counts:
        thought.append("Known neighbour labels: " + ", ".join(f"{k} x{n}" for k, n in counts.items()) + ".")
    else:
        thought.append("No neighbour label is known.")
    total = sum(counts.values())
    if counts.get(gold):
        reason = f"{counts[gold]} of {total} labelled neighbours are {gold}"
    elif prediction is not None and prediction[0] == gold:
        reason = f"the graph model predicts {gold}"
    else:
        reason = f"its title and content are about {gold}"
    return json.dumps(
        {
            "thoughts": {"text": _plain(" ".join(thought)), "criticism": "", "speak": ""},
            "command": {"name": ANSWER.name, "args": {"label": gold, "reason": _plain(reason)}},
        },
        ensure_ascii=False,
    )


def teacher_episode(env: NodeEnvironment, node: str, mode: str, max_steps: int = MAX_STEPS) -> list[tuple[str, str]]:
    """The (prompt, reply) pairs of one teacher episode on ``node`` in ``mode``."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
    labels = env.labels
    tool = mode == "tool"
    commands = GraphAgentContext(graph_tool=tool).commands()  # what a run of this mode offers
    memory: list[str] = []
    prediction: tuple[str, float] | None = None
    if tool:
        if env.classifier is None:
            raise ValueError("tool-mode episodes need the graph model (the environment has no classifier)")
        label, probabilities = env.classifier.predict(node)
        prediction = (str(label), float(probabilities.get(label, 0.0)))
        memory.append(given_line(node, env.predict_label(node)))
    title = env.title(node)

    def prompt(step: int) -> str:
        return tuned_prompt(
            node=node, title=title, dataset=env.name, labels=labels, commands=commands, memory=memory,
            step=step, max_steps=max_steps,
        )

    pairs = []
    observations = {}
    plan = [
        (FEATURES.name, "Read the paper first."),
        (NEIGHBOURS.name, "Check the labels of its neighbours next."),
    ]
    for step, (command, thought) in enumerate(plan, 1):
        pairs.append((prompt(step), reply(thought, command, {"node_id": node})))
        observation = getattr(env, command)(node)
        observations[command] = observation
        memory.append(step_line({
            "step": step, "valid": True, "command": command, "args": {"node_id": node},
            "summary": kept_observation(observation),
        }))
    counts = known_labels(observations[NEIGHBOURS.name])
    pairs.append((prompt(len(plan) + 1), answer_reply(env.gold(node), counts, prediction)))
    grammar = tuned_grammar(commands, labels)
    for _, written in pairs:
        if not grammar.complete(written):  # the reply must be one the decoding grammar lets the model write
            raise AssertionError(f"a teacher reply is outside the reply grammar: {written}")
    return pairs


def held_out_nodes(env: NodeEnvironment, seed: int = 0, n: int = VALIDATION_NODES) -> list[str]:
    """The validation-part nodes held out of training (seeded), in id order."""
    val = [env.ids[int(i)] for i in env.data.parts.get("val", [])]
    return sorted(random.Random(seed).sample(val, min(n, len(val))))


def build_records(
    env: NodeEnvironment,
    *,
    modes: Sequence[str] = MODES,
    seed: int = 0,
    navigation_share: float = 0.34,
    held_out: int = VALIDATION_NODES,
) -> tuple[list[AgentRecord], list[AgentRecord], dict[str, Any]]:
    """``(train, validation, info)`` records from the labelled training and validation nodes of ``env``.

    Every answer decision is kept; the two reading decisions (always the same
    commands) of only ``navigation_share`` of the episodes, drawn with the seed.
    """
    if env.name.strip().lower() in UNSEEN:
        raise ValueError(f"{env.name} is the unseen graph: the tuned agent is never trained on it")
    if not 0.0 <= navigation_share <= 1.0:
        raise ValueError(f"navigation_share must be in [0, 1], got {navigation_share}")
    validation_nodes = set(held_out_nodes(env, seed, held_out))
    nodes = sorted(
        {env.ids[int(i)] for part in PARTS for i in env.data.parts.get(part, [])}, key=lambda n: (len(n), n)
    )
    test = {env.ids[int(i)] for i in env.data.parts.get("test", [])}
    if test & set(nodes):
        raise AssertionError("a test node is in the training or validation part")
    rng = random.Random(seed)
    train: list[AgentRecord] = []
    validation: list[AgentRecord] = []
    for mode in modes:
        for node in nodes:
            pairs = teacher_episode(env, node, mode)
            keep_reading = rng.random() < navigation_share
            for step, (prompt, written) in enumerate(pairs, 1):
                if step < len(pairs) and not keep_reading and node not in validation_nodes:
                    continue
                target = validation if node in validation_nodes else train
                target.append(AgentRecord(env.name, len(train) + len(validation), prompt, written, node, mode, step))
    info = {
        "dataset": env.name,
        "modes": list(modes),
        "parts": list(PARTS),
        "nodes": len(nodes),
        "held_out_nodes": sorted(validation_nodes, key=lambda n: (len(n), n)),
        "navigation_share": navigation_share,
        "seed": seed,
    }
    return train, validation, info
