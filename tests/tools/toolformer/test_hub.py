"""GL's data hub: dataset names, GPR instances, subsets, presence checks and path confinement.

Most tests run against a fake data root in tmp_path holding empty dataset
folders, so they need no shared data; one data test checks the real root.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from graphreason.tools.core.errors import GraphError
from graphreason.tools.toolformer import hub as graph_hub
from graphreason.tools.toolformer.hub import (
    DATASETS,
    DatasetAbsentError,
    GraphHubError,
    GraphPathError,
    LoadedGraph,
    UnknownDatasetError,
    load,
)
from graphreason.tools.toolformer.loaders.gpr import UnknownGPRGraphError, gpr_graph
from tests.conftest import require_data

PRESENT = [name for name, d in DATASETS.items() if d.folder]


@pytest.fixture
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A data root with an (empty) folder for every stored dataset, and a folder outside it."""
    data = tmp_path / "data"
    for d in DATASETS.values():
        if d.folder:
            (data / d.folder).mkdir(parents=True, exist_ok=True)
    (data / "tu-graph-classification" / "tu_raw" / "PTC_MR").mkdir(parents=True)
    (data / "notes").mkdir()
    (tmp_path / "outside").mkdir()
    monkeypatch.setenv("GRAPHREASON_DATA_ROOT", str(data))
    return data


def test_gpr_instance_arrives_in_any_container(root: Path) -> None:
    for instance in ({"diamond_graph"}, ["diamond_graph"], ("diamond_graph",), "diamond_graph", "Diamond"):
        loaded = load("gpr", instance)
        assert loaded.dataset == "gpr" and loaded.instance == "diamond_graph"
        assert loaded.graph is gpr_graph("diamond_graph") and loaded.graph.number_of_nodes() == 4
        assert loaded.folder is None


def test_gpr_without_an_instance_and_bad_instances(root: Path) -> None:
    assert load("gpr").graph is None
    assert load("gpr", "all graph instances").instance is None
    with pytest.raises(GraphHubError, match="exactly one"):
        load("gpr", {"diamond_graph", "bull_graph"})
    with pytest.raises(UnknownGPRGraphError, match="wheel_graph"):
        load("gpr", {"karate_club"})


def test_subsets_by_position_and_keyword(root: Path) -> None:
    loaded = load("Cora", "all nodes", "all related links")
    assert (loaded.dataset, loaded.node_subset, loaded.link_subset) == (
        "cora",
        "all nodes",
        "all related links",
    )
    assert loaded.graph is None and loaded.folder == root / "cora-citeseer-text" / "cora"
    picked = load("movielens", {"u2", "u1"}, [("u1", "i3")])
    assert picked.node_subset == ("u1", "u2") and picked.link_subset == (("u1", "i3"),)
    assert load("wordnet", **{"node-subset": "all nodes"}).node_subset == "all nodes"
    assert load("gpr", {"bull_graph"}, "all nodes").node_subset == "all nodes"
    with pytest.raises(GraphHubError, match="at most a node subset"):
        load("cora", "a", "b", "c")
    with pytest.raises(GraphHubError, match="does not take colour"):
        load("cora", colour="red")
    with pytest.raises(GraphHubError, match="no instances"):
        load("cora", instance="x")


def test_loaded_graph_is_frozen(root: Path) -> None:
    loaded = load("gpr", {"bull_graph"})
    assert isinstance(loaded, LoadedGraph)
    with pytest.raises(dataclasses.FrozenInstanceError):
        loaded.dataset = "cora"  # type: ignore[misc]
    assert loaded == load("gpr", "bull graph")


@pytest.mark.parametrize(
    ("spelling", "canonical"),
    [
        ("last-fm", "last-fm"),
        ("lastfm", "last-fm"),
        ("last_fm", "last-fm"),
        ("Last.FM", "last-fm"),
        ("Cora", "cora"),
        ("movielens", "movielens"),
        ("MovieLens-100K", "movielens"),
        ("movielens-dataset", "movielens"),
        ("wordnet", "wordnet"),
        ("WN18", "wordnet"),
        ("freebase", "freebase"),
        ("fb15k", "freebase"),
        ("NCI1", "nci1"),
        ("PTC_MR", "ptc"),
        ("kg-wn18", "wordnet"),
    ],
)
def test_name_variants(root: Path, spelling: str, canonical: str) -> None:
    assert load(spelling).dataset == canonical


@pytest.mark.parametrize("name", ["pubmed", "PubMed", "amazon"])
def test_known_but_absent_datasets(root: Path, name: str) -> None:
    with pytest.raises(DatasetAbsentError, match="not in the data root"):
        load(name)


def test_missing_folder_is_reported(root: Path) -> None:
    (root / "kg-fb15k").rmdir()
    with pytest.raises(DatasetAbsentError, match="kg-fb15k"):
        load("freebase")
    (root / "social-foursquare-twitter" / "twitter").rmdir()
    with pytest.raises(DatasetAbsentError, match="social-foursquare-twitter/twitter"):
        load("twitter")
    assert load("foursquare").dataset == "foursquare"


@pytest.mark.parametrize("name", ["criminal-network-dataset", "facebook-social-network", "benzene ring", ""])
def test_unknown_names_list_the_known_datasets(root: Path, name: str) -> None:
    with pytest.raises(UnknownDatasetError) as info:
        load(name)
    assert isinstance(info.value, GraphError)
    assert "cora" in str(info.value) and "wordnet" in str(info.value)


def test_missing_or_odd_names(root: Path) -> None:
    for bad in (None, 42, {"cora"}, "   "):
        with pytest.raises(UnknownDatasetError, match="known datasets"):
            load(bad)  # type: ignore[arg-type]
    with pytest.raises(GraphHubError, match="file_path twice"):
        load(file_path="kg-wn18", **{"file-path": "kg-fb15k"})


def test_paths_inside_the_root_name_datasets(root: Path) -> None:
    assert load(file_path="kg-wn18").dataset == "wordnet"
    assert load(file_path="./movielens-100k/u.data").dataset == "movielens"
    assert load("cora-citeseer-text/citeseer").dataset == "citeseer"
    assert load(**{"file-path": "tu-graph-classification/tu_raw/PTC_MR"}).dataset == "ptc"
    with pytest.raises(GraphPathError, match="holds cora, citeseer"):
        load("cora-citeseer-text")
    with pytest.raises(GraphPathError, match="not a known dataset folder"):
        load(file_path="./graphs/lollipop")
    with pytest.raises(GraphPathError, match="exists but is not a known dataset folder"):
        load(file_path="notes")
    with pytest.raises(GraphHubError, match="give one of them"):
        load("cora", file_path="kg-wn18")


@pytest.mark.parametrize(
    "spec", ["..", "../outside", "kg-wn18/../../outside", "/etc/passwd", "~/secrets", "..\\outside"]
)
def test_paths_leaving_the_root_are_refused(root: Path, spec: str) -> None:
    with pytest.raises(GraphPathError, match="refused"):
        load(file_path=spec)


def test_absolute_path_to_the_root_itself_is_refused(root: Path) -> None:
    with pytest.raises(GraphPathError, match="refused"):
        load(file_path=str(root / "kg-wn18"))


def test_symlink_out_of_the_root_is_refused(root: Path, tmp_path: Path) -> None:
    (root / "escape").symlink_to(tmp_path / "outside", target_is_directory=True)
    (root / "wn-link").symlink_to(root / "kg-wn18", target_is_directory=True)
    with pytest.raises(GraphPathError, match="symlink"):
        load(file_path="escape")
    with pytest.raises(GraphPathError, match="symlink"):
        load("./escape/anything")
    assert load(file_path="wn-link").dataset == "wordnet"  # a link that stays inside is fine


@pytest.mark.data
def test_real_data_root_holds_every_present_dataset(monkeypatch: pytest.MonkeyPatch) -> None:
    for folder in {DATASETS[n].folder.split("/")[0] for n in PRESENT}:  # type: ignore[union-attr]
        require_data(folder)
    for name in PRESENT:
        loaded = graph_hub.load(name)
        assert loaded.dataset == name and loaded.folder is not None and loaded.folder.is_dir()
