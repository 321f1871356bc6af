"""MovieLens 100K as a user-movie-genre graph.

Files (``movielens-100k/``): ``u.user`` (``id|age|gender|occupation|zip``),
``u.item`` (``id|title|release|video release|imdb url|19 genre flags``, latin-1),
``u.genre`` (``name|index``) and ``u.data`` (``user<TAB>item<TAB>rating<TAB>timestamp``).

Nodes: users ``u{n}``, movies ``m{n}``, genres ``g:{name}``. Relations:

* ``rated`` (user -> movie) / ``rated_by`` (movie -> user), with ``rating`` and
  ``timestamp`` edge attributes - the 100,000 ratings;
* ``rated_{k}`` / ``rated_{k}_by`` for k = 1..5: the same ratings split by star
  value. Node functions only see node features and labelled neighbours, so
  these labels are how an agent can ask "which movies did u12 rate 5?";
* ``has_genre`` (movie -> genre) / ``genre_of`` (genre -> movie).
"""

from __future__ import annotations

from pathlib import Path

from graphreason.settings import dataset_dir
from graphreason.tools.core.errors import GraphFileError
from graphreason.tools.core.store import GraphStore

DATASET = "movielens-100k"
STARS = (1, 2, 3, 4, 5)


def load_movielens(root: str | Path | None = None) -> GraphStore:
    """MovieLens 100K as a directed graph (see the module docstring for the schema)."""
    folder = Path(root).expanduser() if root is not None else dataset_dir(DATASET)
    store = GraphStore(
        name="movielens",
        directed=True,
        text_keys={"user": "name", "movie": "title", "genre": "name"},
    )
    genres = [row[0] for row in _rows(folder / "u.genre", "|") if row[0]]
    for genre in genres:
        store.add_node(f"g:{genre}", "genre", {"name": genre})

    users_file, items_file, data_file = folder / "u.user", folder / "u.item", folder / "u.data"
    for number, row in enumerate(_rows(users_file, "|"), 1):
        _expect(row, 5, users_file, number)
        uid, age, gender, occupation, zipcode = row
        store.add_node(
            f"u{uid}",
            "user",
            {
                "name": f"user {uid}",
                "age": int(age),
                "gender": gender,
                "occupation": occupation,
                "zip": zipcode,
            },
        )

    for number, row in enumerate(_rows(items_file, "|", encoding="latin-1"), 1):
        _expect(row, 5 + len(genres), items_file, number)
        mid, title, release, _video, url = row[:5]
        movie_genres = [g for g, flag in zip(genres, row[5:], strict=True) if flag == "1"]
        node = store.add_node(
            f"m{mid}",
            "movie",
            {
                "title": " ".join(title.split()),
                "release_date": release,
                "genres": movie_genres,
                "imdb_url": url,
            },
        )
        for genre in movie_genres:
            store.add_edge(node, f"g:{genre}", "has_genre", reverse_relation="genre_of")

    for number, row in enumerate(_rows(data_file, "\t"), 1):
        _expect(row, 4, data_file, number)
        user, movie, rating, timestamp = f"u{row[0]}", f"m{row[1]}", int(row[2]), int(row[3])
        if user not in store or movie not in store:
            raise GraphFileError(f"{data_file} line {number}: unknown user or movie in {row}")
        store.add_edge(user, movie, "rated", reverse_relation="rated_by", rating=rating, timestamp=timestamp)
        store.add_edge(user, movie, f"rated_{rating}", reverse_relation=f"rated_{rating}_by")
    store.description = movielens_description(store, genres)
    return store


def movielens_description(store: GraphStore, genres: list[str]) -> str:
    """Graph definition for prompts."""
    users = sum(1 for _ in store.nodes("user"))
    movies = sum(1 for _ in store.nodes("movie"))
    ratings = sum(1 for e in store.edges() if e.relation == "rated")
    return (
        f"MovieLens 100K: {users} users, {movies} movies and {len(genres)} genres, with {ratings:,} ratings "
        "(1 to 5 stars). Node types: user (id like u12; features: name, age, gender, occupation, zip), "
        "movie (id like m50; features: title, release_date, genres, imdb_url) and genre (id like g:Comedy; "
        "feature: name). Neighbor types: rated (user -> movies the user rated), rated_by (movie -> users who "
        "rated it), rated_1 ... rated_5 (user -> movies the user rated with that many stars), rated_1_by ... "
        "rated_5_by (movie -> users who gave it that many stars), has_genre (movie -> its genres), "
        "genre_of (genre -> its movies)."
    )


def _rows(path: Path, sep: str, encoding: str = "utf-8") -> list[list[str]]:
    if not path.is_file():
        raise GraphFileError(f"MovieLens file {path} not found")
    with path.open(encoding=encoding) as fh:
        return [line.rstrip("\r\n").split(sep) for line in fh if line.strip()]


def _expect(row: list[str], width: int, path: Path, number: int) -> None:
    if len(row) != width:
        raise GraphFileError(f"{path} line {number}: expected {width} fields, found {len(row)}")
