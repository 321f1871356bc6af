"""The Cora loader on a hand-made five-paper copy of the Cora files (no shared data needed)."""

from __future__ import annotations

from pathlib import Path

import pytest

from graphreason.tools.core.errors import GraphFileError
from graphreason.tools.core.loaders.cora import load_cora
from tests.tools.core.loaders.tiny_cora import write_tiny_cora


def test_direction_counts_and_text(tmp_path: Path) -> None:
    graph = load_cora(write_tiny_cora(tmp_path).parent)  # the parent folder is accepted too
    assert len(graph) == 5 and graph.num_edges == 6
    assert graph.neighbors("4", "cites") == ["1", "2"]  # "1 4" and "2 4": paper 4 cites 1 and 2
    assert graph.neighbors("1", "cited_by") == ["2", "3", "4"]
    assert graph.neighbors("1", "cites") == []
    assert graph.degree("5", "cites") == 2 and graph.degree("5", "cited_by") == 0
    assert graph.feature("1", "title") == "Alpha graph learning methods"
    assert graph.feature("1", "label") == "Neural Networks"
    assert graph.feature("5", "abstract") == ""
    assert graph.feature("3", "paper_id") == "3" and graph.text("2") == "Beta kernel machines study"
    assert "Reinforcement Learning" in graph.describe() and "cited_by" in graph.describe()


def test_labels_fall_back_to_cora_content_in_the_archive(tmp_path: Path) -> None:
    graph = load_cora(write_tiny_cora(tmp_path, with_jsonl=False))
    assert [graph.feature(p, "label") for p in "12345"] == [
        "Neural Networks",
        "Theory",
        "Rule Learning",
        "Neural Networks",
        "Reinforcement Learning",
    ]


def test_missing_and_bad_files(tmp_path: Path) -> None:
    with pytest.raises(GraphFileError, match="no Cora node_info.csv"):
        load_cora(tmp_path)
    cora = write_tiny_cora(tmp_path / "a")
    (cora / "cora.cites").unlink()
    with pytest.raises(GraphFileError, match="cora.cites not found"):
        load_cora(cora)
    cora = write_tiny_cora(tmp_path / "b")
    (cora / "cora.cites").write_text("1\t9\n", encoding="utf-8")
    with pytest.raises(GraphFileError, match="1 paper ids missing from node_info.csv"):
        load_cora(cora)
    cora = write_tiny_cora(tmp_path / "c")
    (cora / "cora.cites").write_text("1 2 3\n", encoding="utf-8")
    with pytest.raises(GraphFileError, match="line 1: expected '<cited> <citing>'"):
        load_cora(cora)


def test_the_store_and_the_arrays_read_the_same_papers_and_citations(tmp_path: Path) -> None:
    from graphreason.tools.core.loaders.linqs_text import load_text_graph

    folder = write_tiny_cora(tmp_path)
    store, arrays = load_cora(folder), load_text_graph("cora", tmp_path)
    assert sorted(store.nodes()) == sorted(arrays.ids)
    citations = {(arrays.ids[a], arrays.ids[b]) for a, b in arrays.edges.T.tolist()}
    assert citations == {(e.src, e.dst) for e in store.edges()}  # both read "<cited> <citing>" as citing -> cited
    for i, pid in enumerate(arrays.ids):
        assert arrays.titles is not None and arrays.titles[i] == store.feature(pid, "title")
        assert arrays.labels[i] == store.feature(pid, "label")


def test_node_info_without_its_columns_is_refused(tmp_path: Path) -> None:
    cora = write_tiny_cora(tmp_path)
    (cora / "node_info.csv").write_text("id,name\n1,Alpha\n", encoding="utf-8")
    with pytest.raises(GraphFileError, match=r"expected the columns paper_id,title,abstract; missing \['abstract'"):
        load_cora(cora)
