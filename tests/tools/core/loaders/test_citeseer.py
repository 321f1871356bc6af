"""CiteSeer as the agents' graph: counts from the shared data, undirected links, and clear errors for bad files."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from graphreason.tools.core.errors import GraphFileError
from graphreason.tools.core.loaders import load_graph
from graphreason.tools.core.loaders.citeseer import LINK, distinct_links, load_citeseer, read_citeseer
from graphreason.tools.core.store import GraphStore
from tests.conftest import require_data


@pytest.fixture(scope="module")
def citeseer() -> GraphStore:
    return load_citeseer(require_data("cora-citeseer-text"))


@pytest.mark.data
def test_counts_labels_and_one_undirected_relation(citeseer: GraphStore) -> None:
    assert len(citeseer) == 3186 and set(citeseer.node_types()) == {"paper"} and not citeseer.directed
    # 4,277 lines in citeseer.cites; 52 pairs are written in both orders, which leaves 4,225 links
    assert citeseer.num_edges == 4225 and citeseer.relations() == [LINK]
    assert sum(citeseer.degree(n, LINK) for n in citeseer.nodes()) == 2 * 4225
    labels = Counter(citeseer.feature(n, "label") for n in citeseer.nodes())
    assert labels == {
        "Databases": 699, "Information Retrieval": 646, "Machine Learning": 572, "Agents": 560,
        "Human-Computer Interaction": 501, "Artificial Intelligence": 208,
    }  # fmt: skip
    assert citeseer.feature("0", "title") == "Argument in Multi-Agent Systems"  # node_info's paper 1
    assert sum(1 for n in citeseer.nodes() if not citeseer.feature(n, "title")) == 93
    assert "in either direction" in citeseer.description and "Machine Learning" in citeseer.description


@pytest.mark.data
def test_a_link_is_seen_from_both_ends_and_by_name(citeseer: GraphStore) -> None:
    assert "1552" in citeseer.neighbors("642", LINK) and "642" in citeseer.neighbors("1552", LINK)
    assert load_graph("citeseer").num_edges == citeseer.num_edges


def test_links_written_in_both_orders_count_once() -> None:
    assert distinct_links([("1", "2"), ("2", "1"), ("2", "3"), ("1", "2")]) == [("1", "2"), ("2", "3")]


def _write(folder: Path, *, data: str = "paper_id,label\n0,ML\n1,DB\n", cites: str = "0 1\n") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "data.csv").write_text(data)
    (folder / "label_info.csv").write_text("Label,text attribute\nML,Machine Learning\nDB,Databases\n")
    (folder / "node_info.csv").write_text('paper_id,title,abs\n1,First paper,"An abstract."\n2,Second paper,nan\n')
    (folder / "citeseer.cites").write_text(cites)
    return folder


def test_a_small_copy_loads_with_readable_labels(tmp_path: Path) -> None:
    graph = load_citeseer(_write(tmp_path / "citeseer"))
    assert graph.features("0") == {"paper_id": "0", "title": "First paper", "abstract": "An abstract.",
                                   "label": "Machine Learning"}
    assert graph.feature("1", "abstract") == "" and graph.neighbors("1", LINK) == ["0"]
    assert load_citeseer(tmp_path).num_edges == 1  # the parent folder works too


def test_bad_files_are_one_clear_error(tmp_path: Path) -> None:
    with pytest.raises(GraphFileError, match="no CiteSeer data.csv and citeseer.cites"):
        read_citeseer(tmp_path / "empty")
    with pytest.raises(GraphFileError, match="names 1 unknown paper ids"):
        read_citeseer(_write(tmp_path / "unknown", cites="0 7\n"))
    with pytest.raises(GraphFileError, match="paper_id,label with both set"):
        read_citeseer(_write(tmp_path / "unlabelled", data="paper_id,label\n0,\n1,DB\n"))
    with pytest.raises(GraphFileError, match="expected two paper ids"):
        read_citeseer(_write(tmp_path / "three", cites="0 1 2\n"))
