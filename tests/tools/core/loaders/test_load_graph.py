"""load_graph(spec): names, paths, folders, and the error for anything else."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from graphreason.tools.core.errors import GraphFileError
from graphreason.tools.core.loaders import KNOWN_GRAPHS, load_graph

TINY = {
    "node_nodes": {
        "a": {"features": {"name": "A"}, "neighbors": {"link": ["b"]}},
        "b": {"features": {"name": "B"}},
    }
}


def test_known_names() -> None:
    assert set(KNOWN_GRAPHS) == {"cora", "citeseer", "movielens", "wikispeedia", "wn18rr", "fb15k-237", "last-fm"}


def test_path_to_file_and_to_folder(tmp_path: Path) -> None:
    (tmp_path / "graph.json").write_text(json.dumps(TINY), encoding="utf-8")
    for spec in (str(tmp_path / "graph.json"), str(tmp_path), f"  {tmp_path}  "):
        graph = load_graph(spec)
        assert len(graph) == 2 and graph.neighbors("a", "link") == ["b"]


def test_unknown_name_lists_the_valid_names(tmp_path: Path) -> None:
    with pytest.raises(GraphFileError, match=r"unknown graph 'pubmed'.*cora, citeseer, movielens, wikispeedia"):
        load_graph("pubmed")
    with pytest.raises(GraphFileError, match="no file or folder exists"):
        load_graph(str(tmp_path / "missing" / "graph.json"))


def test_empty_spec() -> None:
    with pytest.raises(GraphFileError, match="empty graph spec; use one of cora"):
        load_graph("   ")


def test_folder_without_graph_json_is_a_graph_file_error(tmp_path: Path) -> None:
    with pytest.raises(GraphFileError, match="no graph.json"):
        load_graph(str(tmp_path))
