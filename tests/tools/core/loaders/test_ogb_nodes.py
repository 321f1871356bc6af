"""OGB node-property folders: the real file layout, label names, texts, splits, and clear errors."""

from __future__ import annotations

import gzip
from pathlib import Path

import numpy as np
import pytest

from graphreason.tools.core.loaders.ogb_nodes import OgbFormatError, load_ogb_nodes
from tests.tools.core.loaders.ogb_fixture import write_ogb_folder


def test_arxiv_layout_reads_graph_labels_texts_and_split(tmp_path: Path) -> None:
    nodes = load_ogb_nodes(write_ogb_folder(tmp_path, "arxiv", nodes=40))
    graph = nodes.graph
    assert graph.name == "ogbn-arxiv" and graph.ids[:3] == ["0", "1", "2"] and graph.num_nodes == 40
    assert graph.features.shape == (40, 4) and graph.features.dtype == np.float32
    assert graph.edges.shape == (2, 40) and graph.edges[:, 0].tolist() == [0, 1]  # as the file states them
    assert graph.classes == ["cs.DB", "cs.RO"] and graph.labels[0] == "cs.RO"  # "arxiv cs ro" -> cs.RO
    # titleabs.tsv is keyed by paper id; its header line is skipped
    assert graph.titles is not None and graph.titles[3] == "Paper 3 on robots walking"
    assert graph.texts is not None and graph.texts[3] == "Paper 3 on robots walking We study robots walking."
    split = nodes.split()  # the only scheme, "time"
    assert sorted(nodes.splits) == ["time"] and [len(split[p]) for p in ("train", "val", "test")] == [
        20,
        10,
        10,
    ]
    assert len(set(np.concatenate(list(split.values())).tolist())) == 40


def test_products_layout_with_a_user_node_text_file(tmp_path: Path) -> None:
    nodes = load_ogb_nodes(write_ogb_folder(tmp_path, "products", nodes=10))
    assert nodes.graph.name == "ogbn-products" and nodes.graph.classes == ["Books", "Toys & Games"]
    assert nodes.graph.titles is not None and nodes.graph.titles[0] == "Item 0, robots walking"
    assert nodes.graph.texts is not None and nodes.graph.texts[9].endswith("A product about database queries")
    assert set(nodes.split("sales_ranking")) == {"train", "val", "test"}
    with pytest.raises(OgbFormatError, match=r"no split 'time'.*sales_ranking"):
        nodes.split("time")


def test_folder_without_texts_or_label_names_still_loads(tmp_path: Path) -> None:
    folder = write_ogb_folder(tmp_path, "arxiv", nodes=6)
    (folder / "titleabs.tsv").unlink()
    (folder / "mapping/labelidx2arxivcategeory.csv.gz").unlink()
    graph = load_ogb_nodes(folder).graph
    assert graph.texts is None and graph.titles is None and graph.classes == ["class 0", "class 1"]


def test_missing_files_are_all_named_with_the_expected_layout(tmp_path: Path) -> None:
    folder = write_ogb_folder(tmp_path, "arxiv", nodes=6)
    (folder / "raw/edge.csv.gz").unlink()
    (folder / "split/time/valid.csv.gz").unlink()
    with pytest.raises(
        OgbFormatError, match=r"missing raw/edge\.csv\.gz, split/<scheme>.*node-property folder holds"
    ):
        load_ogb_nodes(folder)
    with pytest.raises(OgbFormatError, match="does not exist"):
        load_ogb_nodes(tmp_path / "nowhere")


@pytest.mark.parametrize(
    ("path", "lines", "message"),
    [
        ("raw/num-node-list.csv.gz", ["7"], "states 7 nodes"),
        ("raw/edge.csv.gz", ["0,1", "2,99"], r"node index 99 outside 0\.\.5"),
        ("raw/node-feat.csv.gz", ["1,2", "3,oops"], "not headerless comma-separated numbers"),
        ("raw/node-label.csv.gz", ["0", "1", "nan", "0", "1", "0"], "some nodes have no label"),
        ("split/time/test.csv.gz", ["6"], r"node index 6 outside"),
    ],
)
def test_inconsistent_files_are_refused_with_the_file_named(
    tmp_path: Path, path: str, lines: list[str], message: str
) -> None:
    folder = write_ogb_folder(tmp_path, "arxiv", nodes=6)
    with gzip.open(folder / path, "wt") as fh:
        fh.write("\n".join(lines) + "\n")
    with pytest.raises(OgbFormatError, match=message):
        load_ogb_nodes(folder)


def test_titleabs_without_the_paper_id_mapping_is_refused(tmp_path: Path) -> None:
    folder = write_ogb_folder(tmp_path, "arxiv", nodes=6)
    (folder / "mapping/nodeidx2paperid.csv.gz").unlink()
    with pytest.raises(OgbFormatError, match="nodeidx2paperid"):
        load_ogb_nodes(folder)
