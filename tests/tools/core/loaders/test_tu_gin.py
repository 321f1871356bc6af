"""The GIN-format TU datasets: counts, folds, and the prompts' instance numbering and labels."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from graphreason.tools.core.errors import GraphFileError
from graphreason.tools.core.loaders.tu_gin import load_folds, load_gin_dataset
from graphreason.tools.graph_models.prompt_golds import prompt_golds
from tests.conftest import require_data

COUNTS = {  # graphs, nodes, undirected edges, label values
    "mutag": (188, 3371, 3721, [0, 2]),
    "ptc": (344, 8792, 8931, [0, 1]),
    "proteins": (1113, 43471, 81044, [0, 1]),
    "nci1": (4110, 122747, 132753, [0, 1]),
}


@pytest.mark.data
@pytest.mark.parametrize("name", list(COUNTS))
def test_counts_and_prompt_labels(name: str) -> None:
    graphs = load_gin_dataset(name, require_data("tu-graph-classification"))
    assert (graphs.num_graphs, len(graphs.tags), graphs.num_edges(), graphs.classes) == COUNTS[name]
    require_data("Graph_Toolformer")
    golds = prompt_golds(name)
    # instance#N is the N-th graph of the file (from 0) and the gold is its label as written
    assert all(int(graphs.labels[int(node)]) == int(gold) for node, gold in golds)


@pytest.mark.data
def test_mutag_folds() -> None:
    folds = load_folds("mutag", require_data("tu-graph-classification"))
    assert len(folds) == 10 and (len(folds[0][0]), len(folds[0][1])) == (170, 18)
    assert all(not set(train) & set(test) for train, test in folds)
    assert len(np.unique(np.concatenate([test for _, test in folds]))) == 180  # DGCNN drops the remainder


def test_malformed_file_is_a_graph_file_error(tmp_path: Path) -> None:
    folder = tmp_path / "gin_format" / "MUTAG"
    folder.mkdir(parents=True)
    (folder / "MUTAG.txt").write_text("1\n2 0\n1 1 1\n1 1 5\n")  # neighbour 5 of a 2-node graph
    with pytest.raises(GraphFileError, match="bad neighbour list"):
        load_gin_dataset("mutag", tmp_path)
    with pytest.raises(GraphFileError, match="known: mutag, ptc, proteins, nci1"):
        load_gin_dataset("enzymes", tmp_path)
