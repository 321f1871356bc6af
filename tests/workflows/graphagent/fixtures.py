"""A tiny node dataset shaped like ``graphreason.tools.core.loaders.node_data.NodeData`` and a fake node classifier."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

import numpy as np

from graphreason.workflows.graphagent import GraphAgentContext, provide
from graphreason.workflows.models.scripted import ScriptedChatModel

LABELS = ["Neural Networks", "Rule Learning", "Theory"]
IDS = ["101", "102", "103", "104", "105", "106", "107", "108"]
GOLD = ["Neural Networks", "Rule Learning", "Theory", "Neural Networks", "Theory", "Neural Networks",
        "Neural Networks", "Rule Learning"]
TITLES = [
    "Backpropagation in deep networks", "Learning decision rules", "Bounds on learnability",
    "Recurrent networks for speech", "PAC learning theory", "Neural networks for vision",
    "Training neural networks with momentum", "",  # 108 has no title and no text
]


@dataclass
class TinyGraph:
    ids: list[str]
    labels: list[str]
    edges: np.ndarray
    texts: list[str]
    titles: list[str]
    name: str = "tiny"
    features: np.ndarray | None = None  # word flags: one column per label's word

    @property
    def classes(self) -> list[str]:
        return sorted(set(self.labels))


@dataclass
class TinyData:
    name: str
    graph: TinyGraph
    parts: dict[str, np.ndarray]
    split: str = "public"
    _position: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._position = {n: i for i, n in enumerate(self.graph.ids)}

    def title(self, node_id: str) -> str:
        return self.graph.titles[self._position[node_id]]

    def text(self, node_id: str) -> str:
        i = self._position[node_id]
        return f"{self.graph.titles[i]}. {self.graph.texts[i]}".strip(". ") if self.graph.titles[i] else ""


class FakeClassifier:
    """``predict`` from a fixed table: node -> probabilities."""

    def __init__(self, table: dict[str, dict[str, float]]) -> None:
        self.table = table
        self.labels = list(LABELS)
        self.metrics = {"val_accuracy": 0.67, "test_accuracy": 0.5}

    def predict(self, node_id: str) -> tuple[str, dict[str, float]]:
        probs = self.table[node_id]
        return max(probs, key=lambda k: probs[k]), dict(probs)


def probs(nn: float, rule: float, theory: float) -> dict[str, float]:
    return {"Neural Networks": nn, "Rule Learning": rule, "Theory": theory}


TOOL_TABLE = {
    "101": probs(0.9, 0.05, 0.05), "102": probs(0.1, 0.8, 0.1), "103": probs(0.1, 0.1, 0.8),
    # validation: right with 0.95 and 0.55, wrong with 0.5
    "104": probs(0.95, 0.03, 0.02), "105": probs(0.45, 0.0, 0.55), "106": probs(0.3, 0.5, 0.2),
    "107": probs(0.97, 0.02, 0.01),  # test node, confident
    "108": probs(0.4, 0.35, 0.25),  # test node, unsure
}


def tiny_data() -> TinyData:
    edges = np.array([[0, 0, 1, 3, 4, 5, 6, 6, 7], [3, 6, 7, 6, 2, 0, 5, 1, 6]])
    texts = [f"Abstract about {label.lower()} and more words." for label in GOLD]
    features = np.array([[label == name for name in LABELS] for label in GOLD], dtype=np.float32)
    graph = TinyGraph(IDS, GOLD, edges, texts, TITLES, features=features)
    parts = {"train": np.array([0, 1, 2]), "val": np.array([3, 4, 5]), "test": np.array([6, 7])}
    return TinyData("tiny", graph, parts)


def install() -> None:
    provide("tiny", tiny_data(), FakeClassifier(TOOL_TABLE))


def reply(command: str, args: dict | None = None, text: str = "thinking") -> str:
    return json.dumps({
        "thoughts": {"text": text, "reasoning": "r", "plan": "- p", "criticism": "c", "speak": "s"},
        "command": {"name": command, "args": args or {}},
    })


def context(*replies, **settings) -> GraphAgentContext:
    install()
    base = dict(dataset="tiny", embedding_model="hash", long_term=False)
    base.update(settings)
    return GraphAgentContext(agent_model=ScriptedChatModel(script=list(replies)), **base)
