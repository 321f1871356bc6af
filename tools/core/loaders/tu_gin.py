"""MUTAG, PTC, PROTEINS and NCI1 in the GIN / DGCNN text format, as arrays.

Files: ``tu-graph-classification/gin_format/<NAME>/<NAME>.txt`` and
``<NAME>/10fold_idx/{train,test}_idx-<k>.txt`` (k = 1..10). The text file
starts with the number of graphs; each graph is a line ``n label`` and then
one line per node, ``tag m nbr_1 .. nbr_m`` (neighbours numbered from 0 inside
the graph), optionally followed by continuous attributes (none of these four
datasets has any). Fold files list graph positions (0-based, file order); the
DGCNN folds drop the remainder, so MUTAG's ten test folds cover 180 of 188
graphs.

Graph ``i`` is the ``i``-th block of the file, and its label is kept as written
(MUTAG uses 0 and 2, the others 0 and 1): Graph-ToolFormer's prompts number
molecules the same way (``instance#0`` is the first block) and their gold
labels are these values (checked on every ``prompts_train`` record).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from graphreason.settings import dataset_dir
from graphreason.tools.core.errors import GraphFileError

DATASET = "tu-graph-classification"
# prompt / hub name -> folder name in gin_format
FOLDERS = {"mutag": "MUTAG", "ptc": "PTC", "proteins": "PROTEINS", "nci1": "NCI1"}


@dataclass
class GraphSet:
    """Many small graphs stored flat: node ``v`` belongs to graph ``node_graph[v]``."""

    name: str
    labels: np.ndarray  # int64 [graphs], as written in the file
    tags: np.ndarray  # int64 [nodes], discrete node label
    node_graph: np.ndarray  # int64 [nodes]
    edges: np.ndarray  # int64 [2, directed edges], global node positions, both directions

    @property
    def num_graphs(self) -> int:
        return len(self.labels)

    @property
    def classes(self) -> list[int]:
        """Label values, sorted; a class index is a position in this list."""
        return sorted({int(v) for v in self.labels})

    @property
    def tag_values(self) -> list[int]:
        return sorted({int(v) for v in self.tags})

    def num_edges(self) -> int:
        """Undirected edges (each is listed by both its ends)."""
        return self.edges.shape[1] // 2


def gin_folder(name: str, root: str | Path | None = None) -> Path:
    key = name.strip().lower()
    if key not in FOLDERS:
        raise GraphFileError(f"no GIN-format dataset {name!r}; known: {', '.join(FOLDERS)}")
    base = Path(root).expanduser() if root is not None else dataset_dir(DATASET)
    for folder in (base / "gin_format" / FOLDERS[key], base / FOLDERS[key]):
        if folder.is_dir():
            return folder
    raise GraphFileError(f"no {FOLDERS[key]} folder under {base} (expected gin_format/{FOLDERS[key]})")


def load_gin_dataset(name: str, root: str | Path | None = None) -> GraphSet:
    """Read ``<NAME>.txt`` of one dataset (see the module docstring for the format)."""
    folder = gin_folder(name, root)
    path = folder / f"{folder.name}.txt"
    if not path.is_file():
        raise GraphFileError(f"GIN-format file {path} not found")
    lines = path.read_text().split("\n")
    try:
        return _parse(name.strip().lower(), lines)
    except (ValueError, IndexError) as err:
        raise GraphFileError(f"{path} is not in the GIN text format: {err}") from err


def _parse(name: str, lines: list[str]) -> GraphSet:
    cursor = 0

    def next_fields() -> list[int]:
        nonlocal cursor
        while not lines[cursor].strip():
            cursor += 1
        cursor += 1
        words = lines[cursor - 1].split()
        try:
            return list(map(int, words))
        except ValueError:  # continuous node attributes follow the neighbours; they are not used
            return [int(float(v)) for v in words]

    (count,) = next_fields()
    labels, tags, node_graph, sources, targets = [], [], [], [], []
    for graph in range(count):
        size, label = next_fields()
        base = len(tags)
        labels.append(label)
        for local in range(size):
            fields = next_fields()
            tag, degree = fields[0], fields[1]
            neighbours = fields[2 : 2 + degree]
            if len(neighbours) != degree or any(not 0 <= n < size for n in neighbours):
                raise ValueError(f"graph {graph} node {local}: bad neighbour list {fields}")
            tags.append(tag)
            node_graph.append(graph)
            sources += [base + local] * degree
            targets += [base + n for n in neighbours]
    return GraphSet(
        name=name,
        labels=np.array(labels, dtype=np.int64),
        tags=np.array(tags, dtype=np.int64),
        node_graph=np.array(node_graph, dtype=np.int64),
        edges=np.array([sources, targets], dtype=np.int64).reshape(2, -1),
    )


def load_folds(name: str, root: str | Path | None = None) -> list[tuple[np.ndarray, np.ndarray]]:
    """The ten ``(train, test)`` graph-position arrays of ``10fold_idx`` (fold 1 first)."""
    folder = gin_folder(name, root) / "10fold_idx"
    folds = []
    for k in range(1, 11):
        parts = []
        for part in ("train", "test"):
            path = folder / f"{part}_idx-{k}.txt"
            if not path.is_file():
                raise GraphFileError(f"fold file {path} not found")
            parts.append(np.array([int(v) for v in path.read_text().split()], dtype=np.int64))
        folds.append((parts[0], parts[1]))
    return folds
