"""MovieLens-100K and Last.FM interactions (counts checked) and the leave-last-out split."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from graphreason.tools.core.errors import GraphFileError
from graphreason.tools.core.loaders.interactions import (
    Interactions,
    leave_last_out,
    load_interactions,
    load_lastfm_listens,
    load_movielens_ratings,
)
from tests.conftest import require_data


@pytest.fixture(scope="module")
def movielens() -> Interactions:
    return load_movielens_ratings(require_data("movielens-100k"))


@pytest.fixture(scope="module")
def lastfm() -> Interactions:
    return load_lastfm_listens(require_data("lastfm-hetrec2011"))


@pytest.mark.data
def test_movielens_counts(movielens: Interactions) -> None:
    assert (len(movielens), movielens.num_users, movielens.num_items) == (100_000, 943, 1_682)
    assert movielens.user_ids[:3] == ["1", "2", "3"] and movielens.item_ids[-1] == "1682"
    assert set(np.unique(movielens.value)) == {1.0, 2.0, 3.0, 4.0, 5.0}
    assert not np.isnan(movielens.time).any()  # every rating has a timestamp
    # first row of u.data: user 196 rated movie 242 three stars at 881250949
    assert movielens.user_ids[movielens.user[0]] == "196" and movielens.item_ids[movielens.item[0]] == "242"
    assert (movielens.value[0], movielens.time[0]) == (3.0, 881250949.0)


@pytest.mark.data
def test_lastfm_counts(lastfm: Interactions) -> None:
    assert (len(lastfm), lastfm.num_users, lastfm.num_items) == (92_834, 1_892, 17_632)
    assert lastfm.value_name == "listening count" and (lastfm.value > 0).all()
    dated = ~np.isnan(lastfm.time)
    assert int(dated.sum()) == 20_665  # listened pairs the user also tagged
    # user 2 first tagged artist 52 on 1 April 2009 (user_taggedartists.dat)
    row = np.flatnonzero(
        (lastfm.user == lastfm.user_ids.index("2")) & (lastfm.item == lastfm.item_ids.index("52"))
    )
    assert lastfm.time[row[0]] == 1238544000.0


@pytest.mark.data
@pytest.mark.parametrize(
    ("name", "test_users", "dated"), [("movielens", 943, 943), ("last-fm", 1_884, 1_816)]
)
def test_leave_last_out(
    name: str, test_users: int, dated: int, movielens: Interactions, lastfm: Interactions
) -> None:
    data = movielens if name == "movielens" else lastfm
    split = leave_last_out(data, seed=0)
    assert len(split.test_user) == test_users and split.dated == dated
    assert len(np.unique(split.test_user)) == test_users  # one held-out item per user
    counts = np.bincount(data.user, minlength=data.num_users)
    assert set(split.test_user.tolist()) == set(np.flatnonzero(counts >= 2).tolist())
    assert len(split.train) + test_users == len(data)
    train_pairs = set(zip(data.user[split.train].tolist(), data.item[split.train].tolist(), strict=True))
    test_pairs = set(zip(split.test_user.tolist(), split.test_item.tolist(), strict=True))
    assert not train_pairs & test_pairs
    # the held-out item is (one of) the user's latest: no dated training row of that user is later
    test_time = dict(zip(split.test_user.tolist(), _times(data, split), strict=True))
    train_time = data.time[split.train]
    later = [
        u
        for u, t in zip(data.user[split.train].tolist(), train_time.tolist(), strict=True)
        if u in test_time and not np.isnan(t) and (np.isnan(test_time[u]) or t > test_time[u])
    ]
    assert later == []
    again = leave_last_out(data, seed=0)
    assert np.array_equal(again.test_item, split.test_item)


def _times(data: Interactions, split) -> list[float]:
    key = data.user * data.num_items + data.item
    where = {k: r for r, k in enumerate(key.tolist())}
    return [
        float(data.time[where[u * data.num_items + i]])
        for u, i in zip(split.test_user, split.test_item, strict=True)
    ]


@pytest.mark.data
def test_head_keeps_first_users(movielens: Interactions) -> None:
    small = movielens.head(20)
    assert small.num_users == 20 and int(small.user.max()) == 19
    assert int(small.item.max()) == small.num_items - 1  # items re-indexed without gaps
    assert len(small) == int((movielens.user < 20).sum())
    assert {small.item_ids[i] for i in small.item} == {
        movielens.item_ids[i] for i in movielens.item[movielens.user < 20]
    }


def test_undated_users_get_a_seeded_draw() -> None:
    data = Interactions(
        name="toy",
        user_ids=["1", "2", "3"],
        item_ids=["10", "11", "12", "13"],
        user=np.array([0, 0, 0, 1, 1, 2]),
        item=np.array([0, 1, 2, 0, 3, 1]),
        value=np.ones(6),
        time=np.array([5.0, np.nan, 9.0, np.nan, np.nan, 1.0]),
        value_name="count",
    )
    split = leave_last_out(data, seed=3)
    held = dict(zip(split.test_user.tolist(), split.test_item.tolist(), strict=True))
    assert held[0] == 2  # latest dated row wins over undated ones
    assert held[1] in (0, 3) and 2 not in held  # undated user: a draw; single-row user: no test item
    assert (split.dated, split.drawn) == (1, 1)
    draws = {leave_last_out(data, seed=s).test_item[1] for s in range(20)}
    assert draws == {0, 3}  # the draw depends on the seed, both items occur


def test_bad_files(tmp_path: Path) -> None:
    (tmp_path / "u.data").write_text("1\t2\t3\t4\n1\t2\n")
    with pytest.raises(GraphFileError, match=r"u.data:2: expected 4 fields"):
        load_movielens_ratings(tmp_path)
    (tmp_path / "u.data").write_text("1\tx\t3\t4\n")
    with pytest.raises(GraphFileError, match="whole numbers"):
        load_movielens_ratings(tmp_path)
    with pytest.raises(GraphFileError, match="not found"):
        load_lastfm_listens(tmp_path)
    with pytest.raises(ValueError, match="known: movielens, last-fm"):
        load_interactions("amazon")
