"""The Planetoid public split of Cora, carried over to LINQS paper ids.

The standard semi-supervised benchmark (Yang et al. 2016; Kipf & Welling 2017)
uses Planetoid's files: 140 training nodes (20 per class), 500 validation and
1,000 test nodes. Those files hold only feature rows, labels and an adjacency
list, in an order of their own and without paper ids. Their rows are the same
binary word vectors as LINQS ``cora.content``, so each LINQS paper is matched
to the Planetoid node with the identical row. 2,692 distinct rows cover the
2,708 papers; the 27 papers that share a row with another (11 groups, each of
one class) are told apart by their citations, matched against Planetoid's
adjacency list. Papers that share both row and neighbours are interchangeable,
so any pairing gives the same problem.

Planetoid node order (as PyG builds it): ``allx`` rows are nodes 0..1707, the
``tx`` rows go to the positions listed in ``test.index``; training is 0..139,
validation 140..639, test the ``test.index`` positions.
"""

from __future__ import annotations

import pickle
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from graphreason.settings import dataset_dir
from graphreason.tools.core.errors import GraphFileError
from graphreason.tools.core.loaders.linqs_text import TextGraph

DATASET = "planetoid"
TRAIN, VALIDATION = range(0, 140), range(140, 640)


@dataclass
class Split:
    """Node positions (in the :class:`TextGraph`'s order) of each part."""

    train: np.ndarray
    val: np.ndarray
    test: np.ndarray


class _ScipyUnpickler(pickle.Unpickler):
    """Planetoid pickles name ``scipy.sparse.csr``, a module path SciPy is retiring."""

    def find_class(self, module: str, name: str):
        if module.startswith("scipy.sparse."):
            module = "scipy.sparse"
        return super().find_class(module, name)


def _read(folder: Path, name: str, part: str):
    path = folder / f"ind.{name}.{part}"
    if not path.is_file():
        raise GraphFileError(f"Planetoid file {path} not found")
    with path.open("rb") as fh:
        return _ScipyUnpickler(fh, encoding="latin1").load()


def read_planetoid(
    name: str = "cora", root: str | Path | None = None
) -> tuple[np.ndarray, dict[int, list[int]], np.ndarray]:
    """``(features [n, d] int8, adjacency lists, test positions)`` in PyG's Planetoid order."""
    folder = Path(root).expanduser() if root is not None else dataset_dir(DATASET)
    allx, tx, graph = (_read(folder, name, part) for part in ("allx", "tx", "graph"))
    index_path = folder / f"ind.{name}.test.index"
    if not index_path.is_file():
        raise GraphFileError(f"Planetoid file {index_path} not found")
    test = np.array([int(line) for line in index_path.read_text().split()], dtype=np.int64)
    features = np.zeros((max(len(graph), int(test.max()) + 1), allx.shape[1]), dtype=np.int8)
    features[: allx.shape[0]] = allx.toarray()
    features[test] = tx.toarray()
    return features, {int(k): [int(v) for v in vs] for k, vs in graph.items()}, np.sort(test)


def public_split(graph: TextGraph, root: str | Path | None = None) -> Split:
    """Planetoid's 140 / 500 / 1,000 split of ``graph`` (Cora), matched by word vectors."""
    features, adjacency, test = read_planetoid(graph.name, root)
    if features.shape != graph.features.shape:
        raise GraphFileError(
            f"Planetoid {graph.name} has {features.shape} features, the text graph {graph.features.shape}"
        )
    to_planetoid = align(graph, features, adjacency)
    back = np.empty(len(to_planetoid), dtype=np.int64)
    back[to_planetoid] = np.arange(len(to_planetoid))
    return Split(train=back[list(TRAIN)], val=back[list(VALIDATION)], test=back[test])


def align(graph: TextGraph, features: np.ndarray, adjacency: dict[int, list[int]]) -> np.ndarray:
    """``mapping[i]`` = the Planetoid node of ``graph``'s node ``i`` (a bijection)."""
    ours: dict[bytes, list[int]] = defaultdict(list)
    theirs: dict[bytes, list[int]] = defaultdict(list)
    for i, row in enumerate(graph.features.astype(np.int8)):
        ours[row.tobytes()].append(i)
    for j, row in enumerate(features):
        theirs[row.tobytes()].append(j)
    if {k: len(v) for k, v in ours.items()} != {k: len(v) for k, v in theirs.items()}:
        raise GraphFileError(f"Planetoid {graph.name} rows are not the text graph's rows; cannot align")
    mapping = np.full(graph.num_nodes, -1, dtype=np.int64)
    for key, nodes in ours.items():
        if len(nodes) == 1:
            mapping[nodes[0]] = theirs[key][0]
    neighbours: dict[int, set[int]] = defaultdict(set)
    for a, b in graph.edges.T.tolist():
        neighbours[a].add(b)
        neighbours[b].add(a)
    for key, nodes in ours.items():
        if len(nodes) > 1:
            _pair_by_neighbours(nodes, theirs[key], mapping, neighbours, adjacency)
    return mapping


def _pair_by_neighbours(
    nodes: list[int],
    candidates: list[int],
    mapping: np.ndarray,
    neighbours: dict[int, set[int]],
    adjacency: dict[int, list[int]],
) -> None:
    """Pair same-row nodes greedily, best neighbourhood overlap first (ties: file order)."""
    scores = []
    for a in nodes:
        mapped = {int(mapping[n]) for n in neighbours[a] if mapping[n] >= 0}
        for c in candidates:
            scores.append((-len(mapped & set(adjacency.get(c, ()))), a, c))
    used_nodes: set[int] = set()
    used_candidates: set[int] = set()
    for _, a, c in sorted(scores):
        if a not in used_nodes and c not in used_candidates:
            mapping[a] = c
            used_nodes.add(a)
            used_candidates.add(c)
