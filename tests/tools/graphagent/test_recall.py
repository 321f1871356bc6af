"""Label recall: the labelled nodes most like a node, by text and neighbourhood, never the node itself."""

from __future__ import annotations

import numpy as np
import pytest

from graphreason.tools.graphagent.actions import NodeEnvironment
from graphreason.tools.graphagent.recall import LabelRecall, Recalled, recall_counts, recall_text, smoothed
from tests.workflows.graphagent.fixtures import LABELS, tiny_data

IDS = ["a", "b", "c", "d", "e"]
# a and b point one way, c and d the other; e sits between them
VECTORS = np.array([[1, 0], [0.9, 0.1], [0, 1], [0.1, 0.9], [0.6, 0.5]], dtype=np.float32)


def _recall(known=(0, 1, 2, 3), neighbours=None) -> LabelRecall:
    neighbours = neighbours if neighbours is not None else [[], [], [], [], []]
    return LabelRecall(IDS, VECTORS, neighbours, known, ["X", "X", "Y", "Y", "Z"])


def test_the_most_similar_labelled_nodes_come_first_and_never_the_node_itself() -> None:
    recall = _recall()
    found = recall.recall("a", 3)
    assert [item.node for item in found] == ["b", "d", "c"]  # a itself is known but never recalled
    assert found[0].label == "X" and found[0].similarity > found[1].similarity
    assert [item.node for item in recall.recall("e", 10)] == ["b", "a", "d", "c"]  # e is unlabelled: never recalled
    assert recall.recall("a", 0) == [] and _recall(known=()).recall("a", 3) == []


def test_neighbours_pull_a_node_toward_their_side() -> None:
    # e alone is closest to a; joined to c and d it is closest to the Y side
    plain = _recall().recall("e", 1)[0]
    pulled = _recall(neighbours=[[], [], [4], [4], [2, 3]]).recall("e", 1)[0]
    assert plain.label == "X" and pulled.label == "Y"
    rows = smoothed(VECTORS, [[1], [0], [], [], []])
    assert np.allclose(np.linalg.norm(rows, axis=1), 1.0)
    assert np.allclose(smoothed(np.zeros((2, 2)), [[1], [0]]), 0.0)  # zero rows stay zero, no division error


def test_the_observation_counts_labels_most_first_then_names_the_closest() -> None:
    found = [Recalled("7", "Theory", 0.9), Recalled("8", "Rule Learning", 0.8), Recalled("9", "Rule Learning", 0.7)]
    assert list(recall_counts(found).most_common()) == [("Rule Learning", 2), ("Theory", 1)]
    text = recall_text("5", found, "A very long title about bounds on learnability in the limit")
    assert text.startswith("Labels of the 3 labelled nodes most like 5: Rule Learning x2, Theory x1. ")
    assert 'Closest: 7 "A very long title about bounds on learnability" [label: Theory].' in text
    assert recall_text("5", []) == "No labelled node is known to compare node 5 with."
    with pytest.raises(ValueError, match="one vector, neighbour list and label per node"):
        LabelRecall(IDS, VECTORS[:2], [[]] * 5, [0], ["X"] * 5)


def test_the_environment_recalls_only_public_labels_under_its_names() -> None:
    data = tiny_data()
    vectors = np.eye(len(data.graph.ids), dtype=np.float32) + 0.1
    env = NodeEnvironment(data)
    assert env.recalled("104") == "Label recall is not available in this run."
    env.attach_recall(vectors)
    text = env.recalled("104", 10)
    assert text.startswith("Labels of the 3 labelled nodes most like 104: ")  # the three training nodes only
    assert "no node" in env.recalled("999")
    hidden = NodeEnvironment(data, show_train_labels=False)
    hidden.attach_recall(vectors)
    assert hidden.recalled("104") == "No labelled node is known to compare node 104 with."
    names = dict(zip(LABELS, ["P", "Q", "R"], strict=True))
    renamed = NodeEnvironment(data, label_names=names)
    assert renamed.labels == ["P", "Q", "R"] and renamed.gold("101") == names[env.gold("101")]
    with pytest.raises(ValueError, match="rename every label"):
        NodeEnvironment(data, label_names={"Theory": "P"})
    with pytest.raises(ValueError, match="without a graph model"):
        NodeEnvironment(data, classifier=object(), label_names=names)
