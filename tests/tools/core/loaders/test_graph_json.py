"""graph.json (GRBench / Graph-CoT format): loading, every error path, saving."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from graphreason.tools.core.errors import GraphFileError
from graphreason.tools.core.loaders.grbench import load_graph_json, save_graph_json
from graphreason.tools.core.store import GraphStore

# Two papers and two authors. Hand count: 4 nodes; arcs p1: cites p2, author a1, a2 (3);
# p2: cited_by p1, author a2 (2); a1: paper p1 (1); a2: paper p1, p2 (2) -> 8 arcs.
MINI = {
    "paper_nodes": {
        "p1": {
            "features": {"title": "Graph reasoning with agents", "year": 2024},
            "neighbors": {"cites": ["p2"], "author": ["a1", "a2"]},
        },
        "p2": {
            "features": {"title": "Sparse retrieval", "year": 2020},
            "neighbors": {"cited_by": ["p1"], "author": ["a2"]},
        },
    },
    "author_nodes": {
        "a1": {"features": {"name": "Ada Lovelace"}, "neighbors": {"paper": ["p1"]}},
        "a2": {"features": {"name": "Bo Chen"}, "neighbors": {"paper": ["p1", "p2"]}},
    },
}


def write(tmp_path: Path, data: object, name: str = "graph.json") -> Path:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def test_loads_types_features_and_arcs(tmp_path: Path) -> None:
    graph = load_graph_json(write(tmp_path, MINI))
    assert len(graph) == 4 and graph.num_edges == 8
    assert sorted(graph.nodes("paper")) == ["p1", "p2"] and sorted(graph.nodes("author")) == ["a1", "a2"]
    assert graph.text_keys == {"paper": "title", "author": "name"}
    assert graph.text("a2") == "Bo Chen" and graph.feature("p1", "year") == 2024
    assert graph.neighbors("p1", "author") == ["a1", "a2"]
    assert graph.neighbors("a2", "paper") == ["p1", "p2"]
    assert graph.degree("p2", "cited_by") == 1
    assert sorted(graph.relations()) == ["author", "cited_by", "cites", "paper"]
    assert graph.name == tmp_path.name  # named after the folder of a graph.json


def test_folder_holding_graph_json_and_text_key_override(tmp_path: Path) -> None:
    write(tmp_path, MINI)
    graph = load_graph_json(tmp_path, name="mini", text_keys={"paper": "year"})
    assert graph.name == "mini" and graph.text("p1") == "2024"


def test_numeric_neighbour_ids_become_strings(tmp_path: Path) -> None:
    data = {
        "item_nodes": {"1": {"features": {"name": "one"}, "neighbors": {"also": [2]}}, "2": {"features": {}}}
    }
    graph = load_graph_json(write(tmp_path, data))
    assert graph.neighbors("1", "also") == ["2"]
    assert graph.features("2") == {}


def test_text_key_prefers_name_then_title(tmp_path: Path) -> None:
    data = {"book_nodes": {"b": {"features": {"title": "Dune", "name": "dune-1965", "pages": 412}}}}
    assert load_graph_json(write(tmp_path, data)).text_keys == {"book": "name"}


# ---------------------------------------------------------------------- errors
def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(GraphFileError, match="not found"):
        load_graph_json(tmp_path / "nope.json")


def test_folder_without_graph_json(tmp_path: Path) -> None:
    with pytest.raises(GraphFileError, match="has no graph.json"):
        load_graph_json(tmp_path)


def test_invalid_json_reports_line_and_column(tmp_path: Path) -> None:
    path = write(tmp_path, '{\n  "paper_nodes": {,}\n}')  # the comma is column 19
    with pytest.raises(GraphFileError, match=r"not valid JSON: .* line 2, column 19"):
        load_graph_json(path)


def test_non_utf8_file(tmp_path: Path) -> None:
    path = tmp_path / "graph.json"
    path.write_bytes(b'{"paper_nodes": {"\xff": {}}}')
    with pytest.raises(GraphFileError, match="not UTF-8"):
        load_graph_json(path)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([1, 2], "found a list at the top level"),
        ({}, "found an empty object"),
        ({"papers": {}}, "must be '<type>_nodes'; found 'papers'"),
        ({"paper_nodes": []}, "'paper_nodes' must be an object mapping node id to node, found a list"),
        ({"paper_nodes": {"p": "x"}}, r"node 'p' in 'paper_nodes' must be an object .* found a string"),
        ({"paper_nodes": {"p": {"feature": {}}}}, "unexpected keys \\['feature'\\]"),
        ({"paper_nodes": {"p": {"features": [1]}}}, "'features' must be an object, found a list"),
        (
            {"paper_nodes": {"p": {"neighbors": ["q"]}}},
            "'neighbors' must be an object mapping neighbour type",
        ),
        (
            {"paper_nodes": {"p": {"neighbors": {"cites": "q"}}}},
            r"neighbors\['cites'\] must be a list of ids, found a string",
        ),
        ({"paper_nodes": {"p": {"neighbors": {"cites": [{"id": 1}]}}}}, "must hold plain ids"),
    ],
)
def test_wrong_shape_says_what_was_expected_and_found(tmp_path: Path, data: object, message: str) -> None:
    with pytest.raises(GraphFileError, match=message):
        load_graph_json(write(tmp_path, data))


def test_ids_shared_by_two_types(tmp_path: Path) -> None:
    data = {"paper_nodes": {"x1": {}, "x2": {}}, "author_nodes": {"x1": {}}}
    with pytest.raises(GraphFileError, match=r"unique across types.*1 id\(s\).*'x1' \(paper and author\)"):
        load_graph_json(write(tmp_path, data))


def dangling_graph() -> dict:
    return {
        "paper_nodes": {
            "p1": {"features": {"title": "A"}, "neighbors": {"cites": ["p2", "ghost1", "ghost2"]}},
            "p2": {"features": {"title": "B"}, "neighbors": {"cited_by": ["p1"], "author": ["ghost1"]}},
        }
    }


def test_dangling_neighbours_strict_reports_count_and_examples(tmp_path: Path) -> None:
    with pytest.raises(GraphFileError) as info:
        load_graph_json(write(tmp_path, dangling_graph()))
    text = str(info.value)
    assert "3 neighbour reference(s) to 2 id(s)" in text
    assert "'ghost1' (listed by 'p1' under 'cites')" in text and "strict=False" in text


def test_dangling_neighbours_lenient_keeps_untyped_nodes(tmp_path: Path) -> None:
    with pytest.warns(UserWarning, match="3 neighbour reference"):
        graph = load_graph_json(write(tmp_path, dangling_graph()), strict=False)
    assert len(graph) == 4
    assert graph.node_type("ghost1") == "node" and graph.features("ghost1") == {}
    assert graph.neighbors("p1", "cites") == ["p2", "ghost1", "ghost2"]


# ---------------------------------------------------------------------- saving
def adjacency(graph: GraphStore) -> dict:
    return {
        n: (graph.node_type(n), graph.features(n), {r: graph.neighbors(n, r) for r in graph.relations(n)})
        for n in graph.nodes()
    }


def test_save_then_load_gives_the_same_graph(tmp_path: Path) -> None:
    original = load_graph_json(write(tmp_path, MINI))
    out = save_graph_json(original, tmp_path / "copy" / "graph.json")
    assert json.loads(out.read_text(encoding="utf-8")) == MINI
    again = load_graph_json(out)
    assert adjacency(again) == adjacency(original) and again.num_edges == original.num_edges


def test_save_store_built_with_reverse_relations(tmp_path: Path) -> None:
    built = GraphStore("cites", directed=True, text_keys={"paper": "title"})
    for nid in "abc":
        built.add_node(nid, "paper", {"title": f"Paper {nid}"})
    built.add_edge("a", "b", "cites", reverse_relation="cited_by")
    built.add_edge("a", "c", "cites", reverse_relation="cited_by")
    (tmp_path / "exported").mkdir()
    path = save_graph_json(built, tmp_path / "exported")  # a folder gets graph.json inside
    assert path.name == "graph.json"
    loaded = load_graph_json(path)
    assert loaded.neighbors("a", "cites") == ["b", "c"]
    assert loaded.neighbors("c", "cited_by") == ["a"]
    assert loaded.text("b") == "Paper b"
