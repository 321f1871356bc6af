"""Cora, MovieLens 100K and Wikispeedia loaded from the shared data (counts checked)."""

from __future__ import annotations

import csv
from collections import Counter

import pytest

from graphreason.tools.core.loaders import load_graph
from graphreason.tools.core.loaders.cora import load_cora, read_content_labels
from graphreason.tools.core.loaders.movielens import load_movielens
from graphreason.tools.core.loaders.wikispeedia import load_wikispeedia
from graphreason.tools.core.store import GraphStore
from tests.conftest import require_data

pytestmark = pytest.mark.data


@pytest.fixture(scope="module")
def cora() -> GraphStore:
    return load_cora(require_data("cora-citeseer-text"))


@pytest.fixture(scope="module")
def movielens() -> GraphStore:
    return load_movielens(require_data("movielens-100k"))


@pytest.fixture(scope="module")
def wikispeedia() -> GraphStore:
    return load_wikispeedia(require_data("wikispeedia-web-graph"))


def relation_counts(graph: GraphStore) -> Counter:
    return Counter(edge.relation for edge in graph.edges())


# ---------------------------------------------------------------------- Cora
def test_cora_counts(cora: GraphStore) -> None:
    assert len(cora) == 2708 and set(cora.node_types()) == {"paper"}
    # 5,429 lines in cora.cites = 5,429 directed citations; 151 pairs cite each other,
    # which leaves 5,278 undirected links (the edge count of Planetoid/PyG Cora).
    assert relation_counts(cora) == {"cites": 5429}
    pairs = {frozenset((e.src, e.dst)) for e in cora.edges()}
    assert len(pairs) == 5278
    assert sum(cora.degree(n, "cites") for n in cora.nodes()) == 5429
    assert sum(cora.degree(n, "cited_by") for n in cora.nodes()) == 5429
    assert Counter(cora.feature(n, "label") for n in cora.nodes())["Neural Networks"] == 818
    assert len({cora.feature(n, "label") for n in cora.nodes()}) == 7


def test_cora_citation_direction_follows_the_linqs_readme(cora: GraphStore) -> None:
    readme = (require_data("cora-citeseer-text") / "cora" / "README.linqs").read_text(encoding="utf-8")
    assert '"paper1 paper2" then the link is "paper2->paper1"' in readme
    # The first line of cora.cites is "35 1033": paper 1033 cites paper 35.
    first = (require_data("cora-citeseer-text") / "cora" / "cora.cites").read_text().split("\n")[0].split()
    assert first == ["35", "1033"]
    assert "35" in cora.neighbors("1033", "cites")
    assert "1033" in cora.neighbors("35", "cited_by")
    assert "1033" not in cora.neighbors("35", "cites")
    assert cora.degree("35", "cited_by") == 166  # paper 35 is Cora's most cited paper


def test_cora_titles_are_normalised_and_labels_agree_with_linqs(cora: GraphStore) -> None:
    titles = [cora.feature(n, "title") for n in cora.nodes()]
    assert not any("\n" in t or "  " in t or t != t.strip() for t in titles)
    folder = require_data("cora-citeseer-text") / "cora"
    with (folder / "node_info.csv").open(encoding="utf-8", newline="") as fh:
        raw = {row["paper_id"]: row["title"] for row in csv.DictReader(fh)}
    assert raw["31336"].endswith("  \n") and cora.feature("31336", "title") == (
        "The megaprior heuristic for discovering protein sequence patterns"
    )
    linqs = read_content_labels(folder / "cora.tgz")
    assert all(cora.feature(n, "label") == linqs[n].replace("_", " ") for n in cora.nodes())
    assert sum(1 for n in cora.nodes() if cora.feature(n, "abstract") == "") == 317


# ---------------------------------------------------------------------- MovieLens
def test_movielens_counts(movielens: GraphStore) -> None:
    types = Counter(movielens.node_type(n) for n in movielens.nodes())
    assert types == {"user": 943, "movie": 1682, "genre": 19}
    counts = relation_counts(movielens)
    assert counts["rated"] == 100_000
    assert [counts[f"rated_{k}"] for k in range(1, 6)] == [6110, 11370, 27145, 34174, 21201]
    assert counts["has_genre"] == 2893
    stars = Counter(e.attrs["rating"] for e in movielens.edges() if e.relation == "rated")
    assert sum(stars.values()) == 100_000 and set(stars) == {1, 2, 3, 4, 5}


def test_movielens_nodes_and_relations(movielens: GraphStore) -> None:
    assert movielens.features("u1") == {
        "name": "user 1",
        "age": 24,
        "gender": "M",
        "occupation": "technician",
        "zip": "85711",
    }
    assert movielens.feature("m1", "title") == "Toy Story (1995)"
    assert movielens.feature("m1", "genres") == ["Animation", "Children's", "Comedy"]
    assert movielens.neighbors("m1", "has_genre") == ["g:Animation", "g:Children's", "g:Comedy"]
    assert movielens.degree("m50", "rated_by") == 583  # Star Wars (1977), the most rated movie
    assert sum(movielens.degree("m50", f"rated_{k}_by") for k in range(1, 6)) == 583
    assert "m50" in movielens.neighbors("u1", "rated")
    assert movielens.text("u12") == "user 12" and movielens.text("g:Drama") == "Drama"
    assert movielens.degree("g:Drama", "genre_of") == 725


# ---------------------------------------------------------------------- Wikispeedia
def test_wikispeedia_counts_and_decoding(wikispeedia: GraphStore) -> None:
    assert len(wikispeedia) == 4604 and relation_counts(wikispeedia) == {"links_to": 119_882}
    linked = sum(1 for n in wikispeedia.nodes() if wikispeedia.degree(n, direction="any") > 0)
    assert linked == 4592
    assert wikispeedia.feature("Áedán_mac_Gabráin", "title") == "Áedán mac Gabráin"
    assert "Bede" in wikispeedia.neighbors("Áedán_mac_Gabráin", "links_to")
    assert "Áedán_mac_Gabráin" in wikispeedia.neighbors("Bede", "linked_from")
    assert wikispeedia.feature("Åland", "categories") == [
        "Countries",
        "Geography/European Geography/European Countries",
    ]


# ---------------------------------------------------------------------- by name
def test_load_graph_by_name_uses_the_data_root(cora: GraphStore) -> None:
    require_data("cora-citeseer-text")
    again = load_graph("Cora")
    assert again.fingerprint() == cora.fingerprint()
