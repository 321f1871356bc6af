"""WN18RR and FB15k-237 as typed graphs for the agents, read from the shared data (counts checked)."""

from __future__ import annotations

from collections import Counter

import pytest

from graphreason.tools.core.loaders import load_graph
from graphreason.tools.core.loaders.knowledge_graphs import (
    WORDNET_REVERSE,
    load_fb15k237,
    load_wn18rr,
    relation_labels,
)
from graphreason.tools.core.store import GraphStore
from tests.conftest import require_data

pytestmark = [pytest.mark.data, pytest.mark.heavy]

HYPERNYMS = 37_221  # `_hypernym` lines of the three WN18RR_text splits (34,796 of them in train)


@pytest.fixture(scope="module")
def wn18rr() -> GraphStore:
    return load_wn18rr(require_data("kg-wn18"))


@pytest.fixture(scope="module")
def fb15k() -> GraphStore:
    return load_fb15k237(require_data("kg-fb15k"))


def test_wn18rr_holds_every_triple_with_named_synsets(wn18rr: GraphStore) -> None:
    assert (len(wn18rr), wn18rr.num_edges) == (40_943, 93_003)  # 86,835 + 3,034 + 3,134 triples
    assert Counter(edge.relation for edge in wn18rr.edges())["hypernym"] == HYPERNYMS
    node = "00260881"
    assert wn18rr.features(node) == {"name": "land_reform.n.01", "lemma": "land reform", "part_of_speech": "noun"}
    assert "00260622" in wn18rr.neighbors(node, "hypernym")  # reform.n.01
    assert node in wn18rr.neighbors("00260622", "hyponym")  # the reverse label
    assert set(wn18rr.relations()) == set(WORDNET_REVERSE) | set(WORDNET_REVERSE.values())
    names = [wn18rr.text(n) for n in wn18rr.nodes()]
    assert len(set(names)) == len(names)  # a synset name names one node
    assert set(wn18rr.type_features()) == {"synset"}
    assert {wn18rr.feature(n, "part_of_speech") for n in wn18rr.nodes()} == {"noun", "verb", "adjective", "adverb"}


def test_fb15k237_holds_every_triple_with_names_and_short_relation_labels(fb15k: GraphStore) -> None:
    assert (len(fb15k), fb15k.num_edges) == (14_541, 310_116)  # 272,115 + 17,535 + 20,466 triples
    assert fb15k.features("/m/027rn") == {"name": "Dominican Republic", "description": "country in the Caribbean"}
    labels = {edge.relation for edge in fb15k.edges()}
    assert len(labels) == 237 and "nationality" in labels and "form_of_government" in labels
    assert all(f"{label}_of" in fb15k.relations() for label in labels)
    named = sum(1 for n in fb15k.nodes() if fb15k.features(n).get("name"))
    assert named / len(fb15k) > 0.99


def test_relation_labels_add_parts_only_where_paths_end_alike() -> None:
    paths = ["/people/person/nationality", "/film/film/country", "/location/location/country", "/a/b.c/d/country"]
    labels = relation_labels(paths)
    assert labels["/people/person/nationality"] == "nationality"
    assert labels["/film/film/country"] == "film_country" and labels["/location/location/country"] == "location_country"
    assert labels["/a/b.c/d/country"] == "d_country"
    assert len(set(labels.values())) == len(paths)


def test_both_load_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    from graphreason.tools.core import loaders

    assert loaders.KNOWN_GRAPHS["wn18rr"] is load_wn18rr and loaders.KNOWN_GRAPHS["fb15k-237"] is load_fb15k237
    monkeypatch.setitem(loaders.KNOWN_GRAPHS, "fb15k-237", lambda: GraphStore(name="fb15k-237"))
    assert load_graph("FB15k-237").name == "fb15k-237"  # names are read case-blind


def test_last_fm_has_users_artists_and_tags_as_the_files_list_them() -> None:
    """Counts read from the raw files here, independently of the loader."""
    import csv

    from graphreason.tools.core.loaders.lastfm import load_lastfm

    folder = require_data("lastfm-hetrec2011")

    def rows(name: str, encoding: str = "utf-8") -> list[list[str]]:
        with (folder / name).open(encoding=encoding, newline="") as fh:
            return list(csv.reader(fh, delimiter="\t", quoting=csv.QUOTE_NONE))[1:]

    listens, friends = rows("user_artists.dat"), rows("user_friends.dat")
    pairs = {(r[1], r[2]) for r in rows("user_taggedartists.dat")}
    artists = {r[0] for r in rows("artists.dat")}
    store = load_lastfm(folder)
    users = {r[0] for r in listens} | {u for r in friends for u in r[:2]}
    assert len(store) == len(users) + len(artists) + len(rows("tags.dat", "latin-1"))
    kept = {p for p in pairs if p[0] in artists}
    assert store.num_edges == len(listens) + len(friends) + len(kept)
    assert store.schema() == {
        "artist": {"listened_by": ["user"], "tagged": ["tag"]},
        "tag": {"tag_of": ["artist"]},
        "user": {"friend": ["user"], "listened": ["artist"]},
    }
    user, artist = f"u{listens[0][0]}", f"a{listens[0][1]}"
    assert artist in store.neighbors(user, "listened") and user in store.neighbors(artist, "listened_by")
    assert store.text(user) == f"user {listens[0][0]}" and store.text("a1") == "MALICE MIZER"
    assert load_graph("last-fm").name == "last-fm"
