"""Node-classification data: a text citation graph plus its train / val / test parts.

``load_node_data(source, split, seed=...)`` is the one entry point the node
classifier, the GraphAgent tools and the evals share, so all of them agree on
which nodes are training nodes.

Sources: ``"cora"``, ``"citeseer"`` (:mod:`graphreason.tools.core.loaders.linqs_text`), or a path
to a folder in OGB's node-property layout (:mod:`graphreason.tools.core.loaders.ogb_nodes`).

Splits:

* ``public`` - Cora: Planetoid's 140 / 500 / 1,000 (:func:`graphreason.tools.core.loaders.planetoid.public_split`).
  CiteSeer: the data root holds ReaGAN's 3,186-paper text set, not the Planetoid
  copy whose public split is fixed, so the same recipe is drawn with a seed
  (20 papers per class / 500 / 1,000, :func:`stratified_split`). OGB: the folder's own split.
* ``random`` - seeded 60 / 20 / 20 over all nodes, for any source.
* ``given`` - OGB only: ``split/<scheme>/`` (``given:<scheme>`` picks one when a folder has several).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from graphreason.tools.core.errors import GraphError
from graphreason.tools.core.loaders.linqs_text import TextGraph, load_text_graph
from graphreason.tools.core.node_ids import bare_id, find_id

NAMED_SOURCES = ("cora", "citeseer")
SPLITS = ("public", "random", "given")


class NodeDataError(GraphError):
    """Unknown source, split or node id for node-classification data."""


@dataclass
class NodeData:
    """One dataset ready for node classification; node ``i`` is ``graph.ids[i]``."""

    name: str
    graph: TextGraph
    parts: dict[str, np.ndarray]  # "train" / "val" / "test" -> node positions
    split: str
    _position: dict[str, int] = field(default_factory=dict, repr=False)
    _neighbours: list[list[int]] | None = field(default=None, repr=False)
    _sets: dict[str, set[int]] | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        self._position = {node: i for i, node in enumerate(self.graph.ids)}

    @property
    def labels(self) -> list[str]:
        """The label vocabulary (sorted)."""
        return self.graph.classes

    def has_node(self, node_id: str) -> bool:
        return find_id(node_id, self._position) is not None

    def position(self, node_id: str) -> int:
        """The node's row in the graph's arrays; a :class:`NodeDataError` names the id form."""
        key = find_id(node_id, self._position)
        if key is None:
            raise NodeDataError(
                f"{self.name} has no node {node_id!r}: ids are {self.id_form()}, "
                f"e.g. {self.graph.ids[0]!r} ({self.graph.num_nodes:,} nodes)."
            )
        return self._position[key]

    def id_form(self) -> str:
        """How this dataset's node ids look, for error messages and prompts."""
        if self.name == "cora":
            return "LINQS paper ids"
        if self.name == "citeseer":
            return f"paper numbers 0 to {self.graph.num_nodes - 1}"
        return f"node indices 0 to {self.graph.num_nodes - 1}"

    def title(self, node_id: str) -> str:
        """The node's title ("" when the dataset has none)."""
        titles = self.graph.titles
        return titles[self.position(node_id)] if titles is not None else ""

    def text(self, node_id: str) -> str:
        """Title + abstract (or the dataset's node text; "" when it has none)."""
        texts = self.graph.texts
        return texts[self.position(node_id)] if texts is not None else ""

    def label(self, node_id: str) -> str:
        """The gold label name (whatever part the node is in: callers decide what to show)."""
        return self.graph.labels[self.position(node_id)]

    def part(self, node_id: str) -> str | None:
        """``"train"``, ``"val"``, ``"test"``, or None for a node in no part."""
        position = self.position(node_id)
        if self._sets is None:
            self._sets = {name: set(idx.tolist()) for name, idx in self.parts.items()}
        return next((name for name, members in self._sets.items() if position in members), None)

    def neighbors(self, node_id: str) -> list[str]:
        """Ids of the nodes linked to ``node_id`` in either direction, in node order, each once."""
        if self._neighbours is None:
            near: list[set[int]] = [set() for _ in range(self.graph.num_nodes)]
            for a, b in self.graph.edges.T.tolist():
                if a != b:
                    near[a].add(b)
                    near[b].add(a)
            self._neighbours = [sorted(s) for s in near]
        return [self.graph.ids[i] for i in self._neighbours[self.position(node_id)]]

    def ids_of(self, part: str) -> list[str]:
        """Node ids of one part."""
        if part not in self.parts:
            raise NodeDataError(f"no part {part!r}; parts are {', '.join(self.parts)}")
        return [self.graph.ids[i] for i in self.parts[part]]


def normalise_node_id(node_id: object) -> str:
    """``"paper#106590"`` / ``"#106590"`` / ``" 106590 "`` / ``106590`` -> ``"106590"`` (:func:`bare_id`)."""
    return bare_id(node_id)


def source_key(source: str | Path) -> str:
    """``"Cora"`` -> ``"cora"``; a folder -> its resolved path (the cache key of a source)."""
    if isinstance(source, str) and source.strip().lower() in NAMED_SOURCES:
        return source.strip().lower()
    path = Path(source).expanduser()
    if not path.is_dir():
        raise NodeDataError(
            f"unknown node dataset {str(source)!r}: use {', '.join(NAMED_SOURCES)} "
            "or the path of an OGB node-property folder (e.g. .../ogbn_arxiv)"
        )
    return str(path.resolve())


def load_node_data(source: str | Path, split: str = "public", *, seed: int = 0) -> NodeData:
    """The dataset ``source`` with its ``split`` parts (see the module docstring).

    Results are shared per (source, split, seed) within a process: treat them as read-only.
    """
    return _load(source_key(source), split.strip().lower(), seed)


@lru_cache(maxsize=4)
def _read(key: str) -> tuple[TextGraph, Any]:
    """The graph of a source (and, for an OGB folder, its splits), read once per process."""
    if key in NAMED_SOURCES:
        return load_text_graph(key), None
    from graphreason.tools.core.loaders.ogb_nodes import load_ogb_nodes

    nodes = load_ogb_nodes(key)
    return nodes.graph, nodes


@lru_cache(maxsize=16)
def _load(key: str, split: str, seed: int) -> NodeData:
    graph, nodes = _read(key)
    given: dict[str, np.ndarray] | None = None
    if nodes is not None:
        scheme = split.partition(":")[2] or None
        given = nodes.split(scheme) if split.startswith("given") or split == "public" else None
    name = graph.name
    if split == "random":
        return NodeData(name, graph, random_split(graph.num_nodes, seed=seed), "random")
    if given is not None:
        return NodeData(name, graph, given, "given")
    if split == "public" and key == "cora":
        from graphreason.tools.core.loaders.planetoid import public_split

        parts = public_split(graph)
        return NodeData(name, graph, {"train": parts.train, "val": parts.val, "test": parts.test}, "public")
    if split == "public" and key == "citeseer":
        return NodeData(name, graph, stratified_split(graph.label_index(), seed=seed), "public")
    known = "public, random" if key in NAMED_SOURCES else "given (= public), given:<scheme>, random"
    raise NodeDataError(f"unknown split {split!r} for {name}; use {known}")


def random_split(
    count: int, *, seed: int = 0, shares: tuple[float, float] = (0.6, 0.2)
) -> dict[str, np.ndarray]:
    """Seeded ``60 / 20 / 20`` (by default) train / val / test over all ``count`` nodes."""
    order = np.random.default_rng(seed).permutation(count)
    train_end = int(round(shares[0] * count))
    val_end = train_end + int(round(shares[1] * count))
    return {
        "train": np.sort(order[:train_end]),
        "val": np.sort(order[train_end:val_end]),
        "test": np.sort(order[val_end:]),
    }


def stratified_split(
    classes: np.ndarray, *, seed: int = 0, per_class: int = 20, val: int = 500, test: int = 1000
) -> dict[str, np.ndarray]:
    """``per_class`` training nodes of each class, then ``val`` and ``test`` nodes drawn from the rest."""
    rng = np.random.default_rng(seed)
    train = np.concatenate(
        [rng.choice(np.flatnonzero(classes == c), per_class, replace=False) for c in np.unique(classes)]
    )
    rest = rng.permutation(np.setdiff1d(np.arange(len(classes)), train))
    return {"train": np.sort(train), "val": np.sort(rest[:val]), "test": np.sort(rest[val : val + test])}
