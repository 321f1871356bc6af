"""Foursquare and Twitter follow graphs (anonymised numeric ids) from the shared data."""

from __future__ import annotations

import pytest

from graphreason.tools.core.errors import GraphFileError
from graphreason.tools.core.loaders.social import load_social
from tests.conftest import require_data


@pytest.mark.data
@pytest.mark.parametrize(
    ("name", "edges", "users"), [("foursquare", 76_972, 5_313), ("twitter", 164_919, 5_120)]
)
def test_counts_match_the_ione_copy(name: str, edges: int, users: int) -> None:
    graph = load_social(name, require_data("social-foursquare-twitter"))
    assert (len(graph.edges), graph.num_users) == (edges, users)
    assert graph.edges.min() == 0 and graph.edges.max() == users - 1
    undirected = graph.undirected()
    assert undirected.number_of_nodes() == users
    assert undirected.number_of_edges() < edges  # mutual follows become one link


def test_bad_rows_and_names_are_refused(tmp_path) -> None:
    (tmp_path / "twitter").mkdir()
    (tmp_path / "twitter" / "following.number").write_text("0 1\n1 jack\n")
    with pytest.raises(GraphFileError, match="row 2"):
        load_social("twitter", tmp_path)
    with pytest.raises(GraphFileError, match="known: foursquare, twitter"):
        load_social("dblp", tmp_path)
