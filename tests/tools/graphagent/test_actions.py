"""GraphAgent's node environment: bounded observations, lenient ids, only training labels shown, tools."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from graphreason.tools.graphagent.actions import MAX_NEIGHBOURS, NodeEnvironment, normalise_id


@dataclass
class Graph:
    ids: list[str]
    labels: list[str]
    edges: np.ndarray

    @property
    def classes(self) -> list[str]:
        return sorted(set(self.labels))


class Data:
    """A star: node 0 cited by 160 papers; nodes 1-10 are training nodes, the rest are not."""

    name = "star"

    def __init__(self) -> None:
        n = 161
        ids = [str(1000 + i) for i in range(n)]
        labels = ["Theory" if i % 2 else "Rule Learning" for i in range(n)]
        edges = np.array([list(range(1, n)), [0] * (n - 1)])
        self.graph = Graph(ids, labels, edges)
        self.parts = {"train": np.arange(1, 11), "val": np.arange(11, 20), "test": np.arange(20, n)}
        self._pos = {node: i for i, node in enumerate(ids)}

    def title(self, node_id: str) -> str:
        return "" if node_id == "1160" else f"Paper {node_id} on a rather long title " + "word " * 30

    def text(self, node_id: str) -> str:
        return "" if node_id == "1160" else self.title(node_id) + " abstract " * 500


class Classifier:
    labels = ["Rule Learning", "Theory"]

    def predict(self, node_id: str):
        if node_id == "1005":
            raise RuntimeError("no embedding")
        return "Theory", {"Theory": 0.7, "Rule Learning": 0.3}


def test_ids_are_read_leniently() -> None:
    for given in (1000, "1000", "paper#1000", "Node 1000", " '1000' ", "#1000", [1000], 1000.0):
        assert normalise_id(given) == "1000"


def test_a_hub_with_160_neighbours_gives_a_bounded_observation() -> None:
    env = NodeEnvironment(Data())
    text = env.get_neighbors("1000")
    assert text.startswith("Node 1000 has 160 neighbours.")
    assert len(text.split()) < 300 and text.count("\n- ") == MAX_NEIGHBOURS
    assert "(and 148 more not listed)" in text
    assert "Theory x5, Rule Learning x5" in text  # the ten training neighbours only
    listed = [line for line in text.splitlines() if line.startswith("- ")]
    assert all("[label:" in line for line in listed[:10]) and "[label:" not in listed[10]


def test_training_labels_can_be_hidden() -> None:
    text = NodeEnvironment(Data(), show_train_labels=False).get_neighbors("1000")
    assert "label" not in text.lower()


def test_features_are_bounded_and_a_node_without_text_says_so() -> None:
    env = NodeEnvironment(Data())
    assert len(env.get_features("paper#1001").split()) < 240
    assert "has no text" in env.get_features("1160")


def test_unknown_ids_and_missing_classifier_are_observations() -> None:
    env = NodeEnvironment(Data())
    for command in (env.get_features, env.get_neighbors):
        assert "There is no node '42'" in command("42") and "e.g." not in command("42")
    assert "not available" in env.predict_label("1000")


def test_predict_label_and_its_failures() -> None:
    env = NodeEnvironment(Data(), Classifier())
    assert env.predict_label(1000).startswith("Graph model prediction for node 1000: Theory (probability 0.70)")
    assert "could not classify" in env.predict_label("1005")


def test_the_node_commands_as_tools_run_on_the_environment() -> None:
    from graphreason.tools.core.registry import Registry
    from graphreason.tools.graphagent.registry import CommandContext, node_commands

    offered = Registry([e for e in node_commands() if e.name in ("get_neighbors", "get_features", "predict_label")])
    tools = {t.name: t for t in offered.as_tools(CommandContext(NodeEnvironment(Data(), Classifier())))}
    assert set(tools) == {"get_neighbors", "get_features", "predict_label"}
    assert tools["get_features"].invoke({"node_id": "1001"}).startswith("Node 1001.")
    assert tools["predict_label"].invoke({"node_id": "1000"}).startswith("Graph model prediction for node 1000")
