"""User-item interactions for the BPR recommender, and its leave-last-out split.

Two implicit-feedback datasets from the data root, read as flat arrays (no
graph store: the recommender only needs who interacted with what, and when):

* **MovieLens-100K** (``movielens-100k/u.data``: ``user item rating timestamp``):
  100,000 ratings by 943 users of 1,682 movies. The value is the 1-5 star
  rating, the time the rating's Unix timestamp.
* **Last.FM HetRec 2011** (``lastfm-hetrec2011/user_artists.dat``:
  ``userID artistID weight``): 92,834 user-artist pairs, 1,892 users, 17,632
  artists. The value is the listening count. The file has no time; the only
  dates in the dataset are those of tag assignments
  (``user_taggedartists.dat``: ``user artist tag day month year``; the readme's
  ``user_taggedartists-timestamps.dat`` is not in the data root). A listened
  pair's time is the date the user first tagged that artist; 20,665 pairs
  have one, the rest have none (NaN).

:func:`leave_last_out` holds out each user's latest interaction. Ties on the
time (MovieLens stamps to the second, but 415 users rated several movies in
their last second; Last.FM dates are mostly the first of a month) and users
without any dated interaction (68 on Last.FM) are settled by a seeded random
draw, so the split is the same on every run and machine. Users with a single
interaction keep it for training and get no test item (8 on Last.FM).

Ids stay the dataset's own (``"3"``); the recommender adds the ``u``/``i``
prefixes that Graph-ToolFormer's prompts use.
"""

from __future__ import annotations

import calendar
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from graphreason.settings import dataset_dir
from graphreason.tools.core.errors import GraphFileError

FOLDERS = {"movielens": "movielens-100k", "last-fm": "lastfm-hetrec2011"}


@dataclass(frozen=True)
class Interactions:
    """One dataset's interactions as parallel arrays over rows.

    ``user`` / ``item`` index ``user_ids`` / ``item_ids`` (the dataset's own ids,
    numerically sorted); ``value`` is the rating or listening count and ``time``
    the Unix time of the interaction, NaN where the data has none.
    """

    name: str
    user_ids: list[str]
    item_ids: list[str]
    user: np.ndarray
    item: np.ndarray
    value: np.ndarray
    time: np.ndarray
    value_name: str

    @property
    def num_users(self) -> int:
        return len(self.user_ids)

    @property
    def num_items(self) -> int:
        return len(self.item_ids)

    def __len__(self) -> int:
        return int(self.user.shape[0])

    def head(self, users: int) -> Interactions:
        """The interactions of the first ``users`` users only, items re-indexed (for small runs)."""
        keep = self.user < users
        items, item = np.unique(self.item[keep], return_inverse=True)
        return Interactions(
            name=self.name,
            user_ids=self.user_ids[:users],
            item_ids=[self.item_ids[i] for i in items],
            user=self.user[keep],
            item=item.astype(np.int64),
            value=self.value[keep],
            time=self.time[keep],
            value_name=self.value_name,
        )


@dataclass(frozen=True)
class Split:
    """Row indices of the training interactions and one held-out (user, item) per test user."""

    train: np.ndarray
    test_user: np.ndarray
    test_item: np.ndarray
    dated: int  # test items chosen by time; the others were drawn at random

    @property
    def drawn(self) -> int:
        return int(self.test_user.shape[0]) - self.dated


def load_interactions(name: str, root: str | Path | None = None) -> Interactions:
    """``"movielens"`` or ``"last-fm"`` from the data root (or from ``root``, the dataset's folder)."""
    loaders = {"movielens": load_movielens_ratings, "last-fm": load_lastfm_listens}
    if name not in loaders:
        raise ValueError(f"no interaction data named {name!r}; known: {', '.join(loaders)}")
    return loaders[name](root)


def load_movielens_ratings(root: str | Path | None = None) -> Interactions:
    """MovieLens-100K's ratings (``u.data``)."""
    path = _folder("movielens", root) / "u.data"
    rows = _read_rows(path, 4, header=False)
    users, items, values, times = zip(*rows, strict=True)
    return _build("movielens", users, items, [float(v) for v in values], [float(t) for t in times], "rating")


def load_lastfm_listens(root: str | Path | None = None) -> Interactions:
    """Last.FM HetRec 2011's listening counts, dated by the user's first tag of the artist."""
    folder = _folder("last-fm", root)
    rows = _read_rows(folder / "user_artists.dat", 3, header=True)
    first_tag: dict[tuple[str, str], float] = {}
    dates: dict[tuple[str, str, str], float] = {}  # a few thousand distinct dates over 186,479 rows
    for user, artist, _tag, day, month, year in _read_rows(folder / "user_taggedartists.dat", 6, header=True):
        when = dates.get((year, month, day))
        if when is None:
            when = dates[(year, month, day)] = float(
                calendar.timegm((int(year), int(month), int(day), 0, 0, 0))
            )
        key = (user, artist)
        if when < first_tag.get(key, np.inf):
            first_tag[key] = when
    users, items, values = zip(*rows, strict=True)
    times = [first_tag.get((u, i), np.nan) for u, i in zip(users, items, strict=True)]
    return _build("last-fm", users, items, [float(v) for v in values], times, "listening count")


def leave_last_out(data: Interactions, seed: int = 0) -> Split:
    """Hold out each user's latest interaction (see the module docstring for ties and undated users)."""
    rng = np.random.default_rng(seed)
    # order rows by user, then time (undated rows first, as if oldest), then a random key for ties
    dated = ~np.isnan(data.time)
    time = np.where(dated, data.time, -np.inf)
    order = np.lexsort((rng.random(len(data)), time, data.user))
    counts = np.bincount(data.user, minlength=data.num_users)
    last = np.cumsum(counts) - 1  # position of each user's last row in `order`
    testable = counts >= 2
    held = order[last[testable]]
    train = np.ones(len(data), dtype=bool)
    train[held] = False
    return Split(
        train=np.flatnonzero(train),
        test_user=data.user[held],
        test_item=data.item[held],
        dated=int(dated[held].sum()),
    )


# ---------------------------------------------------------------------- helpers
def _folder(name: str, root: str | Path | None) -> Path:
    return Path(root).expanduser() if root is not None else dataset_dir(FOLDERS[name])


def _read_rows(path: Path, width: int, *, header: bool) -> list[list[str]]:
    if not path.exists():
        raise GraphFileError(f"{path} not found (the interaction data is read from the data root)")
    rows = []
    with path.open(encoding="utf-8") as handle:
        if header:
            next(handle, None)
        for number, line in enumerate(handle, 2 if header else 1):
            if not line.strip():
                continue
            row = line.split()
            if len(row) != width:
                raise GraphFileError(f"{path}:{number}: expected {width} fields, got {len(row)}")
            if not "".join(row).isdigit():  # every field of these files is a whole number
                raise GraphFileError(f"{path}:{number}: expected whole numbers, got {line.strip()!r}")
            rows.append(row)
    return rows


def _build(
    name: str,
    users: tuple[str, ...],
    items: tuple[str, ...],
    values: list[float],
    times: list[float],
    value_name: str,
) -> Interactions:
    user_ids, user = _index(users)
    item_ids, item = _index(items)
    return Interactions(
        name=name,
        user_ids=user_ids,
        item_ids=item_ids,
        user=user,
        item=item,
        value=np.asarray(values, dtype=np.float64),
        time=np.asarray(times, dtype=np.float64),
        value_name=value_name,
    )


def _index(raw: tuple[str, ...]) -> tuple[list[str], np.ndarray]:
    """Numerically sorted distinct ids and each row's position among them."""
    ids = sorted(set(raw), key=int)
    position = {v: k for k, v in enumerate(ids)}
    return ids, np.fromiter((position[v] for v in raw), dtype=np.int64, count=len(raw))
