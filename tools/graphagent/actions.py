"""GraphAgent's environment: the commands an agent runs on a text-attributed graph, as bounded observations.

:class:`NodeEnvironment` wraps a node dataset (``graphreason.tools.core.loaders.node_data.NodeData``:
a :class:`~graphreason.tools.core.loaders.linqs_text.TextGraph` plus its train/val/test parts) and,
optionally, a node classifier (``TopicModel``: ``predict(node_id) -> (label,
{label: probability})``). Each command returns the text the agent observes:

* ``get_features(node_id)`` - the node's title and text, cut to
  :data:`MAX_TEXT_WORDS` words;
* ``get_neighbors(node_id)`` - how many neighbours the node has (edges taken
  as undirected: a citation either way), the label counts of those whose label
  is public (training part, when ``show_train_labels``), and at most
  :data:`MAX_NEIGHBOURS` of them with titles: labelled ones first, then the
  least-cited (the paper's "explore low degree nodes"). A node with 160
  neighbours gives the same few hundred words as one with 20;
* ``predict_label(node_id)`` - the classifier's label and its
  :data:`TOP_CLASSES` most probable classes;
* ``recalled(node_id, k)`` - not a command: the tuned agent's long-term memory,
  the labels of the ``k`` labelled nodes most like the node
  (:mod:`graphreason.tools.graphagent.recall`, once :meth:`NodeEnvironment.attach_recall` has run).

A teacher episode may run under renamed labels (``label_names``): every label the
environment shows (label set, gold, public labels) then carries its new name.

Validation and test labels are never shown. Nothing raises out of a command:
an unknown id, a node without text or a missing classifier is an observation
saying so (the agent's step still counts). Ids are read leniently:
``31336``, ``"paper#31336"``, ``"Node 31336"``, ``"#31336"`` name the same node.

:meth:`NodeEnvironment.as_tools` gives the commands as LangChain tools. The
commands are declared once, as registry entries, in
:mod:`graphreason.tools.graphagent.registry` (names, typed parameters,
descriptions); the tools are generated from those entries by
:meth:`graphreason.tools.core.registry.Registry.as_tools`, like every other
registry's, and their observation is the text of the method here.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from graphreason.tools.core.node_ids import bare_id, find_id
from graphreason.tools.graphagent.recall import RECALL_K, LabelRecall, Recalled, recall_text

if TYPE_CHECKING:
    pass

MAX_TEXT_WORDS = 180  # title + abstract of a Cora paper is ~120-250 words; the tail rarely changes the topic
MAX_NEIGHBOURS = 12
MAX_TITLE_WORDS = 14
TOP_CLASSES = 3


def normalise_id(node_id: Any) -> str:
    """``31336`` / ``"paper#31336"`` / ``"Node 31336"`` / ``" '31336' "`` -> ``"31336"``.

    The most stripped reading of :func:`graphreason.tools.core.node_ids.bare_id`.
    """
    return bare_id(node_id)


def clip(text: str, words: int) -> str:
    parts = text.split()
    return " ".join(parts[:words]) + (" ..." if len(parts) > words else "")


class NodeEnvironment:
    """The commands of one node dataset (and optionally its classifier), answering with bounded texts."""

    def __init__(
        self,
        data: Any,
        classifier: Any | None = None,
        *,
        show_train_labels: bool = True,
        label_names: Mapping[str, str] | None = None,
    ) -> None:
        if label_names is not None:
            if classifier is not None:
                raise ValueError("renamed labels are for teacher episodes without a graph model")
            if sorted(label_names) != sorted(map(str, data.graph.classes)) or len(set(label_names.values())) != len(
                label_names
            ):
                raise ValueError("label_names must rename every label of the dataset to a distinct name")
        self.data = data
        self.classifier = classifier
        self.show_train_labels = show_train_labels
        self.label_names = dict(label_names) if label_names else None
        graph = data.graph
        self.ids: list[str] = [str(i) for i in graph.ids]
        self._position = {node: i for i, node in enumerate(self.ids)}
        self._neighbours = _undirected_neighbours(np.asarray(graph.edges), len(self.ids))
        self._known = set(int(i) for i in np.asarray(data.parts.get("train", []))) if show_train_labels else set()
        self.recall: LabelRecall | None = None  # set by attach_recall

    def attach_recall(self, vectors: np.ndarray) -> LabelRecall:
        """Build the label recall (:mod:`~graphreason.tools.graphagent.recall`) over these text embeddings."""
        labels = [str(label) for label in self.data.graph.labels]
        self.recall = LabelRecall(self.ids, vectors, self._neighbours, sorted(self._known), labels)
        return self.recall

    def shown_name(self, label: Any) -> str:
        """A label as this environment shows it (renamed in a renamed-label teacher episode)."""
        return self.label_names.get(str(label), str(label)) if self.label_names else str(label)

    # -------------------------------------------------------------- lookups
    @property
    def name(self) -> str:
        return str(self.data.name)

    @property
    def labels(self) -> list[str]:
        """The dataset's label set (a label id is a position in it)."""
        return [self.shown_name(label) for label in self.data.graph.classes]

    def find(self, node_id: Any) -> str | None:
        """The dataset's id for ``node_id`` read leniently, or None when there is no such node."""
        return find_id(node_id, self._position)

    def title(self, node_id: str) -> str:
        return _clean(self.data.title(node_id))

    def text(self, node_id: str) -> str:
        return _clean(self.data.text(node_id))

    def gold(self, node_id: str) -> str:
        return self.shown_name(self.data.graph.labels[self._position[node_id]])

    def public_label(self, node_id: str) -> str | None:
        """The node's label when it may be shown (training part and ``show_train_labels``)."""
        position = self._position[node_id]
        return self.shown_name(self.data.graph.labels[position]) if position in self._known else None

    def neighbours(self, node_id: str) -> list[str]:
        return [self.ids[i] for i in self._neighbours[self._position[node_id]]]

    def unknown(self, node_id: Any) -> str:
        example = self.ids[0] if self.ids else "?"
        return (
            f"There is no node {str(node_id)[:60]!r} in {self.name}: ids look like {example!r} "
            f"({len(self.ids):,} nodes). Use the id of the target node or of one of its neighbours."
        )

    # -------------------------------------------------------------- commands
    def get_features(self, node_id: Any) -> str:
        """The node's title and text (bounded)."""
        node = self.find(node_id)
        if node is None:
            return self.unknown(node_id)
        title, text = self.title(node), self.text(node)
        if title and text.lower().startswith(title.lower()):
            text = text[len(title) :].strip(" .:-")
        if not title and not text:
            return f"Node {node} has no text (neither a title nor an abstract); use its neighbours instead."
        lines = [f"Node {node}.", f"Title: {clip(title, 3 * MAX_TITLE_WORDS) or '(none)'}"]
        lines.append(f"Content: {clip(text, MAX_TEXT_WORDS)}" if text else "Content: (no abstract)")
        return "\n".join(lines)

    def get_neighbors(self, node_id: Any) -> str:
        """The node's neighbours: count, public label counts, a bounded list with titles."""
        node = self.find(node_id)
        if node is None:
            return self.unknown(node_id)
        around = self.neighbours(node)
        if not around:
            return f"Node {node} has no neighbours (it cites no paper and no paper cites it)."
        labelled = {n: self.public_label(n) for n in around}
        degree = {n: len(self._neighbours[self._position[n]]) for n in around}
        # labelled neighbours first (the strongest evidence), then the least connected ones
        order = sorted(around, key=lambda n: (labelled[n] is None, degree[n], n))
        lines = [f"Node {node} has {len(around)} neighbour{'s' if len(around) != 1 else ''}."]
        counts = Counter(label for label in labelled.values() if label)
        if self.show_train_labels:
            if counts:
                shown = ", ".join(f"{label} x{n}" for label, n in counts.most_common())
                lines.append(f"Known labels of its neighbours (training nodes): {shown}.")
            else:
                lines.append("None of its neighbours has a known label.")
        listed = order[:MAX_NEIGHBOURS]
        for n in listed:
            label = f" [label: {labelled[n]}]" if labelled[n] else ""
            lines.append(f"- {n}: {clip(self.title(n), MAX_TITLE_WORDS) or '(no title)'}{label}")
        if len(around) > len(listed):
            lines.append(f"(and {len(around) - len(listed)} more not listed)")
        return "\n".join(lines)

    def recalled(self, node_id: Any, k: int = RECALL_K) -> str:
        """The labels of the ``k`` labelled nodes most like the node (the tuned agent's long-term memory)."""
        node = self.find(node_id)
        if node is None:
            return self.unknown(node_id)
        if self.recall is None:
            return "Label recall is not available in this run."
        found = [
            Recalled(item.node, self.shown_name(item.label), item.similarity) for item in self.recall.recall(node, k)
        ]
        return recall_text(node, found, self.title(found[0].node) if found else "")

    def predict_label(self, node_id: Any) -> str:
        """The classifier's prediction for the node and its most probable classes."""
        if self.classifier is None:
            return "predict_label is not available in this run (no graph model)."
        node = self.find(node_id)
        if node is None:
            return self.unknown(node_id)
        try:
            label, probabilities = self.classifier.predict(node)
        except Exception as exc:  # a classifier failure is an observation, not a crash
            return f"The graph model could not classify node {node}: {exc}"
        top = sorted(probabilities.items(), key=lambda pair: -pair[1])[:TOP_CLASSES]
        shown = ", ".join(f"{name} {p:.2f}" for name, p in top)
        return f"Graph model prediction for node {node}: {label} (probability {probabilities.get(label, 0.0):.2f}). Most probable: {shown}."


def _clean(text: Any) -> str:
    if text is None:
        return ""
    value = str(text).strip()
    return "" if value.lower() in {"nan", "none"} else " ".join(value.split())


def _undirected_neighbours(edges: np.ndarray, count: int) -> list[list[int]]:
    """Each node's neighbours (either edge direction), without itself or repeats, in ascending order."""
    out: list[set[int]] = [set() for _ in range(count)]
    if edges.size:
        for a, b in zip(edges[0].tolist(), edges[1].tolist(), strict=True):
            if a != b and 0 <= a < count and 0 <= b < count:
                out[a].add(b)
                out[b].add(a)
    return [sorted(s) for s in out]
