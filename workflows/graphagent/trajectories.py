"""Teacher trajectories for the tuned agent: each decision of a fixed policy, prompted as the workflow prompts it.

The teacher classifies a node the way the paper's practices describe: start
from the long-term memory (the label recall line: the labels of the labelled
nodes most like this one), read the node (``get_features``), look at its
neighbours and their public labels (``get_neighbors``), then answer. The
faithful teacher answers the label its memory supports most (recalled counts
plus labelled-neighbour counts, :func:`evidence_label`), not the gold label: a
rule that reads only what is in the prompt carries to a graph with another
label set, where what a Cora label's name means does not. Half of its episodes
(``rename_share``) run under permuted label names, so the names cannot be
learnt as topics. It runs on labelled nodes of the training and validation
parts only: never on test nodes, and never on CiteSeer, the graph the tuned
agent is evaluated on unseen (:data:`UNSEEN`). Two modes, as the workflow
runs them:

* ``faithful``: no graph model; the commands are get_features, get_neighbors, answer;
* ``tool``: the graph model's prediction is the first memory line (``tool_first``)
  and predict_label is offered too.

Each decision is one record: the prompt is :func:`~graphreason.workflows.graphagent.tuned.tuned_prompt`
over the short-term memory the workflow would hold at that point (memory lines
written by the workflow's own helpers, checked against a real run in the
tests), the output is the reply in the exact JSON the reply grammar accepts
(checked here for every record). Replies stay short and true to what was
observed: the answer's thought quotes the recalled and the neighbours' known
label counts (or says there are none) and the graph model's label in tool
mode, where the teacher answers the gold label.

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
from graphreason.tools.graphagent.recall import RECALL_K
from graphreason.tools.graphagent.registry import ANSWER, FEATURES, NEIGHBOURS
from graphreason.workflows.graphagent.common import step_line
from graphreason.workflows.graphagent.context import GraphAgentContext
from graphreason.workflows.graphagent.experience import recalled_line
from graphreason.workflows.graphagent.start import given_line
from graphreason.workflows.graphagent.summarise import kept_observation
from graphreason.workflows.graphagent.tuned import tuned_grammar, tuned_prompt

UNSEEN = tuple(sorted(UNSEEN_GRAPHS))  # never trained on: the tuned agent is evaluated on them as unseen graphs
MODES = ("faithful", "tool")
PARTS = ("train", "val")  # the labelled parts a teacher may run on (never "test")
VALIDATION_NODES = 100
MAX_STEPS = 6  # the workflow's default T_max, which the prompts show
THOUGHT_CHARS = 120  # the reply grammar's longest text field
RENAMINGS = 6  # label-name permutations a renamed teacher episode draws from

_KNOWN = re.compile(r"Known labels of its neighbours \(training nodes\): ([^.]*)\.")
_RECALLED = re.compile(r"Labels of the \d+ labelled nodes most like [^:]*: ([^.]*)\. Closest")


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
    return _label_counts(_KNOWN, neighbours_observation)


def _label_counts(pattern: re.Pattern[str], observation: str) -> dict[str, int]:
    """``Label x2, Other x1`` as the pattern's first group finds it in ``observation``, as counts."""
    found = pattern.search(observation)
    counts: dict[str, int] = {}
    for part in (found.group(1).split(", ") if found else []):
        label, _, n = part.rpartition(" x")
        if label and n.isdigit():
            counts[label] = int(n)
    return counts


def answer_reply(gold: str, counts: dict[str, int], prediction: tuple[str, float] | None) -> str:
    """The tool-mode teacher's answer: the gold label, with a thought and a reason that only say what was observed."""
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
    return _answer(thought, gold, reason)


def recalled_labels(recall_observation: str) -> dict[str, int]:
    """The recalled label counts as :func:`~graphreason.tools.graphagent.recall.recall_text` wrote them."""
    return _label_counts(_RECALLED, recall_observation)


def evidence_label(recalled: dict[str, int], neighbours: dict[str, int]) -> str | None:
    """The label the memory supports most: recalled plus labelled-neighbour counts; ties go to the first recalled.

    None when the memory holds no label at all.
    """
    order = list(dict.fromkeys([*recalled, *neighbours]))
    if not order:
        return None
    return max(order, key=lambda label: (recalled.get(label, 0) + neighbours.get(label, 0), -order.index(label)))


def evidence_reply(recalled: dict[str, int], neighbours: dict[str, int], fallback: str) -> tuple[str, str]:
    """The faithful teacher's answer and its reply: the label its memory supports most (``fallback`` if none)."""
    label = evidence_label(recalled, neighbours) or fallback
    thought = []
    if recalled:
        thought.append("Similar labelled nodes: " + ", ".join(f"{k} x{n}" for k, n in recalled.items()) + ".")
    thought.append(
        "Known neighbour labels: " + ", ".join(f"{k} x{n}" for k, n in neighbours.items()) + "."
        if neighbours else "No neighbour label is known."
    )
    parts = []
    if recalled.get(label):
        parts.append(f"{recalled[label]} of {sum(recalled.values())} similar labelled nodes")
    if neighbours.get(label):
        parts.append(f"{neighbours[label]} of {sum(neighbours.values())} labelled neighbours")
    reason = f"{' and '.join(parts)} are {label}" if parts else f"its title and content are about {label}"
    return label, _answer(thought, label, reason)


def _answer(thought: list[str], label: str, reason: str) -> str:
    return json.dumps(
        {
            "thoughts": {"text": _plain(" ".join(thought)), "criticism": "", "speak": ""},
            "command": {"name": ANSWER.name, "args": {"label": label, "reason": _plain(reason)}},
        },
        ensure_ascii=False,
    )


def teacher_episode(
    env: NodeEnvironment, node: str, mode: str, max_steps: int = MAX_STEPS, recall_k: int = RECALL_K
) -> list[tuple[str, str]]:
    """The (prompt, reply) pairs of one teacher episode on ``node`` in ``mode``.

    With a label recall attached to ``env`` (and ``recall_k`` > 0) the episode starts from the recall line,
    as a run of the tuned agent does, and the faithful teacher answers the label its memory supports
    most (:func:`evidence_reply`); otherwise, and in tool mode, it answers the gold label.
    """
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
    recalled: dict[str, int] | None = None
    if env.recall is not None and recall_k > 0:
        observation = env.recalled(node, recall_k)
        recalled = recalled_labels(observation)
        memory.append(recalled_line(observation))
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
    if recalled is not None and not tool:
        _, written = evidence_reply(recalled, counts, env.gold(node))
    else:
        written = answer_reply(env.gold(node), counts, prediction)
    pairs.append((prompt(len(plan) + 1), written))
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
    rename_share: float = 0.0,
    renamings: int = RENAMINGS,
    recall_k: int = RECALL_K,
) -> tuple[list[AgentRecord], list[AgentRecord], dict[str, Any]]:
    """``(train, validation, info)`` records from the labelled training and validation nodes of ``env``.

    Every answer decision is kept; the two reading decisions (always the same
    commands) of only ``navigation_share`` of the episodes, drawn with the seed.
    ``rename_share`` of the faithful episodes (drawn with the seed) run under one of ``renamings``
    seeded permutations of the label names, so the answer can only come from the memory's evidence,
    never from what a label's name means (the tuned agent meets other label sets on unseen graphs).
    """
    if env.name.strip().lower() in UNSEEN:
        raise ValueError(f"{env.name} is the unseen graph: the tuned agent is never trained on it")
    if not 0.0 <= navigation_share <= 1.0:
        raise ValueError(f"navigation_share must be in [0, 1], got {navigation_share}")
    if not 0.0 <= rename_share <= 1.0:
        raise ValueError(f"rename_share must be in [0, 1], got {rename_share}")
    validation_nodes = set(held_out_nodes(env, seed, held_out))
    nodes = sorted(
        {env.ids[int(i)] for part in PARTS for i in env.data.parts.get(part, [])}, key=lambda n: (len(n), n)
    )
    test = {env.ids[int(i)] for i in env.data.parts.get("test", [])}
    if test & set(nodes):
        raise AssertionError("a test node is in the training or validation part")
    rng = random.Random(seed)
    renamed = renamed_environments(env, renamings, seed) if rename_share > 0 else []
    train: list[AgentRecord] = []
    validation: list[AgentRecord] = []
    agreed = {"train": [0, 0], "validation": [0, 0]}  # the faithful teacher's answers that are the gold label
    renamed_episodes = 0
    for mode in modes:
        for node in nodes:
            episode_env = env
            if renamed and mode == "faithful" and rng.random() < rename_share:
                episode_env = renamed[rng.randrange(len(renamed))]
                renamed_episodes += 1
            pairs = teacher_episode(episode_env, node, mode, recall_k=recall_k)
            if mode == "faithful":
                tally = agreed["validation" if node in validation_nodes else "train"]
                tally[0] += _answered(pairs[-1][1]) == episode_env.gold(node)
                tally[1] += 1
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
        "teacher": "evidence (recalled and labelled-neighbour label counts)" if env.recall and recall_k else "gold label",
        "recall_k": recall_k if env.recall else 0,
        "rename_share": rename_share,
        "renamed_episodes": renamed_episodes,
        "teacher_gold_agreement": {
            part: round(100 * right / total, 1) for part, (right, total) in agreed.items() if total
        },
    }
    return train, validation, info


def renamed_environments(env: NodeEnvironment, count: int, seed: int) -> list[NodeEnvironment]:
    """``count`` copies of ``env`` whose label names are seeded permutations (none the identity)."""
    labels = [str(label) for label in env.data.graph.classes]
    rng = random.Random(f"rename-{seed}")
    out = []
    while len(out) < count and len(labels) > 1:
        shuffled = labels[:]
        rng.shuffle(shuffled)
        if shuffled == labels:
            continue
        copy = NodeEnvironment(env.data, None, show_train_labels=env.show_train_labels,
                               label_names=dict(zip(labels, shuffled, strict=True)))
        copy.recall = env.recall
        out.append(copy)
    return out


def _answered(reply_text: str) -> str:
    return str(json.loads(reply_text)["command"]["args"].get("label", ""))
