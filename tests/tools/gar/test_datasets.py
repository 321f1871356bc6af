"""Edge datasets without Spark: the engine choice, the compiled CSV reader, answers in the dataset's ids."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from graphreason.tools.gar import datasets
from graphreason.tools.gar.datasets import choose_engine, identity_labels, read_edge_csv, relabel
from graphreason.tools.gar.spark.edges import EdgeDatasetError
from graphreason.tools.gar.vertex import VertexProgramError, get_algorithm, run


def write(path: Path, text: str) -> str:
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_auto_sends_only_what_cannot_be_read_here_to_spark(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    small = write(tmp_path / "e.csv", "src,dst\n1,2\n")
    assert choose_engine(small)[0] == "compiled"
    assert choose_engine(small, "spark") == ("spark", "asked for")
    parquet = tmp_path / "e.parquet"
    parquet.mkdir()
    assert choose_engine(str(parquet)) == ("spark", "the compiled reader takes CSV only")
    assert choose_engine("s3a://lake/edges") == ("spark", "the dataset is on a remote filesystem")
    monkeypatch.setattr(datasets, "memory_available", lambda: (100, "the container's memory limit of 100 bytes"))
    engine, why = choose_engine(small)  # 12 bytes of CSV need about 22 x 12 bytes
    assert engine == "spark" and why == (
        "reading the 12 bytes CSV would need about 264 bytes of memory; 100 bytes is available "
        "(the container's memory limit of 100 bytes)"
    )
    with pytest.raises(EdgeDatasetError, match="no edge dataset at"):
        choose_engine(str(tmp_path / "missing.csv"))
    with pytest.raises(VertexProgramError, match="unknown engine 'gpu'"):
        choose_engine(small, "gpu")


def test_the_csv_reader_numbers_ids_in_sorted_order_and_keeps_them_as_labels(tmp_path: Path) -> None:
    path = write(tmp_path / "e.csv", "src,dst,weight\n30,10,2\n10,20,1\n20,30,7\n30,10,1\n")
    graph = read_edge_csv(path, directed=True)
    assert graph.labels == [10, 20, 30]
    assert graph.num_arcs == 3  # the parallel arc 30->10 merged to the lighter one
    result = run(get_algorithm("shortest_path"), graph, {"source": 2, "target": 1})  # 30 -> 10 -> 20
    assert result.answer == 2
    named = relabel("shortest_path", result.output, graph.labels)
    assert named["path"] == [30, 10, 20] and "dataset ids" in named["text"]
    gz = tmp_path / "e.csv.gz"
    gz.write_bytes(gzip.compress(b"src,dst\nb,a\na,c\n"))
    words = read_edge_csv(str(gz))
    assert words.labels == ["a", "b", "c"] and not identity_labels(words.labels)
    assert identity_labels([0, 1, 2])


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("src,target\n1,2\n", r"no column\(s\) dst; its columns are: src, target"),
        ("src,dst,weight\n1,2,heavy\n", r"line 2 .* the weight 'heavy' is not a number"),
        ("src,dst,weight\n1,2,inf\n", "not a finite number"),
        ("src,dst\n1,\n", "line 2 .* has an empty src or dst"),
        ("src,dst,weight\n1,2\n", "line 2 .* has 2 fields; the header has 3"),
        ("src,dst\n", "has no edges"),
        ("", "is empty"),
    ],
)
def test_bad_csv_rows_get_one_clear_error(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(EdgeDatasetError, match=message):
        read_edge_csv(write(tmp_path / "e.csv", text))


def test_relabel_renames_every_node_valued_part_of_an_answer() -> None:
    labels = ["a", "b", "c"]
    out = relabel("connected_components", {"answer": 2, "components": [[0, 1], [2]], "component_of_node": [0, 1]}, labels)
    assert out["components"] == [["a", "b"], ["c"]] and out["component_of_node"] == ["a", "b"] and out["answer"] == 2
    ranked = relabel("pagerank", {"answer": [2, 0], "labels": [2, 0]}, labels)
    assert ranked["answer"] == ["c", "a"] and ranked["labels"] == ["c", "a"]
    assert relabel("degree", {"answer": [1, 2, 1]}, labels)["answer"] == {"a": 1, "b": 2, "c": 1}
    hops = relabel("neighbourhood", {"answer": [1, 2], "by_hop": {1: [1], 2: [2]}}, labels)
    assert hops["answer"] == ["b", "c"] and hops["by_hop"] == {1: ["b"], 2: ["c"]}
    assert relabel("bfs_levels", {"answer": {0: 0, 2: 1}}, labels)["answer"] == {"a": 0, "c": 1}


def test_graphreason_vertex_reads_node_parameters_as_dataset_ids(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    import json

    from graphreason.cli.main import main

    path = write(tmp_path / "e.csv", "src,dst,weight\n10,20,1\n20,30,1\n10,30,5\n")
    assert main(["vertex", "--edges", path, "--algorithm", "shortest_path", "--param", "source=10",
                 "--param", "target=30", "--json"]) == 0  # fmt: skip
    out = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert out["engine"] == "compiled" and out["answer"] == 2 and "[10, 20, 30]" in out["text"]
    assert main(["vertex", "--edges", path, "--algorithm", "bfs_levels", "--param", "source=99"]) != 0
    assert "error: the source 99 is not a node of" in capsys.readouterr().err


def test_the_compiled_reader_refuses_a_file_it_would_run_out_of_memory_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write(tmp_path / "e.csv", "src,dst\n1,2\n2,3\n")
    monkeypatch.setattr(datasets, "memory_available", lambda: (50, "the process's address-space limit of 2.0 GiB"))
    with pytest.raises(datasets.DatasetMemoryError, match=r"would need about 352 bytes .* only 50 bytes is available "
                       r"\(the process's address-space limit of 2.0 GiB\); run it with --engine spark"):
        read_edge_csv(path)
    gz = tmp_path / "e.csv.gz"
    gz.write_bytes(gzip.compress(b"src,dst\n" + b"1,2\n" * 500))
    assert datasets._text_bytes(str(gz)) == 2008  # from the gzip trailer, not the compressed size
    monkeypatch.setattr(datasets, "memory_available", lambda: (10**9, "the machine's available memory"))
    assert read_edge_csv(path).num_nodes == 3


def test_memory_available_reads_this_machine() -> None:
    have, limit = datasets.memory_available()
    assert have is None or (have > 0 and limit)
