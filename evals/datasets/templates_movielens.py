"""MovieLens 100K question templates, with golds computed from the raw files.

Parsed here with the standard library, separately from
:mod:`tools.loaders.movielens`: ``u.item`` (latin-1, ``|``-separated, 19 genre
flags in ``u.genre`` order), ``u.user`` and ``u.data`` (tab-separated ratings).
Node ids in actions follow the loader's scheme: ``u12`` for users.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from evals.datasets.answer_rules import format_number, sorted_items, unique_mode
from evals.datasets.template_base import Draft, Template, normalise, safe_names
from tools.config import dataset_dir

MAX_LIST = 15
MAX_OBSERVED = 40
MAX_RATERS = 60  # raters listed by an action for a per-user aggregate


@dataclass
class RawMovieLens:
    """MovieLens as plain dicts keyed by the numeric ids in the files (strings)."""

    titles: dict[str, str]
    release: dict[str, str]
    genres: dict[str, list[str]]
    ages: dict[str, int]
    occupations: dict[str, str]
    ratings: dict[tuple[str, str], int]  # (user, movie) -> stars
    by_movie: dict[str, dict[str, int]]  # movie -> user -> stars
    by_user: dict[str, dict[str, int]]  # user -> movie -> stars

    def subjects(self, kind: str) -> list[str]:
        if kind == "movie":
            return [m for m in safe_names(self.titles, min_words=1) if self.titles[m] != "unknown"]
        return sorted(self.ages, key=int)


def read_raw_movielens(root: str | Path | None = None) -> RawMovieLens:
    """Parse the raw MovieLens 100K files (default: the shared data folder)."""
    folder = Path(root) if root is not None else dataset_dir("movielens-100k")
    genre_names = [line.split("|")[0] for line in _lines(folder / "u.genre")]
    titles, release, genres = {}, {}, {}
    for line in _lines(folder / "u.item", "latin-1"):
        fields = line.split("|")
        mid = fields[0]
        titles[mid], release[mid] = normalise(fields[1]), fields[2]
        genres[mid] = [g for g, flag in zip(genre_names, fields[5:], strict=True) if flag == "1"]
    ages, occupations = {}, {}
    for line in _lines(folder / "u.user"):
        uid, age, _gender, occupation, _zip = line.split("|")
        ages[uid], occupations[uid] = int(age), occupation
    ratings: dict[tuple[str, str], int] = {}
    by_movie: dict[str, dict[str, int]] = {m: {} for m in titles}
    by_user: dict[str, dict[str, int]] = {u: {} for u in ages}
    for line in _lines(folder / "u.data"):
        user, movie, stars, _ts = line.split("\t")
        ratings[user, movie] = by_movie[movie][user] = by_user[user][movie] = int(stars)
    return RawMovieLens(titles, release, genres, ages, occupations, ratings, by_movie, by_user)


def _lines(path: Path, encoding: str = "utf-8") -> list[str]:
    with path.open(encoding=encoding) as fh:
        return [line.rstrip("\r\n") for line in fh if line.strip()]


def _q(title: str) -> str:
    return f'"{title}"'


def movie_genres(raw: RawMovieLens, mid: str) -> Draft | None:
    if not raw.genres[mid] or raw.genres[mid] == ["unknown"]:
        return None
    title = raw.titles[mid]
    return Draft(
        f"Which genres does the movie {_q(title)} belong to?",
        sorted_items(raw.genres[mid]),
        f"Feature[Retrieve[{title}], genres]",
        title,
        f"m{mid}",
    )


def movie_release_date(raw: RawMovieLens, mid: str) -> Draft | None:
    if not raw.release[mid]:
        return None
    title = raw.titles[mid]
    return Draft(
        f"On what date was the movie {_q(title)} released?",
        raw.release[mid],
        f"Feature[Retrieve[{title}], release_date]",
        title,
        f"m{mid}",
    )


def movie_rating_count(raw: RawMovieLens, mid: str) -> Draft | None:
    title = raw.titles[mid]
    return Draft(
        f"How many users rated the movie {_q(title)}?",
        str(len(raw.by_movie[mid])),
        f"Degree[Retrieve[{title}], rated_by]",
        title,
        f"m{mid}",
    )


def user_occupation(raw: RawMovieLens, uid: str) -> Draft | None:
    return Draft(
        f"What is the occupation of user u{uid}?",
        raw.occupations[uid],
        f"Feature[u{uid}, occupation]",
        f"u{uid}",
        f"u{uid}",
    )


def _user_movies(raw: RawMovieLens, uid: str, stars: int) -> list[str]:
    return [m for m, s in raw.by_user[uid].items() if s == stars]


def user_five_star_movies(raw: RawMovieLens, uid: str) -> Draft | None:
    movies = _user_movies(raw, uid, 5)
    if not 1 <= len(movies) <= MAX_LIST:
        return None
    return Draft(
        f"Which movies did user u{uid} rate with 5 stars?",
        sorted_items(raw.titles[m] for m in movies),
        f"Feature[Neighbour[u{uid}, rated_5], title]",
        f"u{uid}",
        f"u{uid}",
    )


def movie_mean_rating(raw: RawMovieLens, mid: str) -> Draft | None:
    stars = list(raw.by_movie[mid].values())
    if len(stars) < 2:
        return None
    title = raw.titles[mid]
    calls = ", ".join(f"Degree[Retrieve[{title}], rated_{k}_by]" for k in range(1, 6))
    return Draft(
        f"What is the average star rating (1 to 5) that users gave the movie {_q(title)}?",
        format_number(sum(stars) / len(stars)),
        calls,
        title,
        f"m{mid}",
        {"star_counts": [stars.count(k) for k in range(1, 6)]},
    )


def raters_mean_age(raw: RawMovieLens, mid: str) -> Draft | None:
    raters = raw.by_movie[mid]
    if not 2 <= len(raters) <= MAX_OBSERVED:
        return None
    title = raw.titles[mid]
    return Draft(
        f"What is the average age of the users who rated the movie {_q(title)}?",
        format_number(sum(raw.ages[u] for u in raters) / len(raters)),
        f"Feature[Neighbour[Retrieve[{title}], rated_by], age]",
        title,
        f"m{mid}",
    )


def user_one_star_genres(raw: RawMovieLens, uid: str) -> Draft | None:
    movies = _user_movies(raw, uid, 1)
    genres = sorted_items(g for m in movies for g in raw.genres[m])
    if not 1 <= len(movies) <= MAX_OBSERVED or not 1 <= len(genres) <= MAX_LIST:
        return None
    return Draft(
        f"Which genres appear among the movies that user u{uid} rated with 1 star?",
        genres,
        f"Feature[Neighbour[u{uid}, rated_1], genres]",
        f"u{uid}",
        f"u{uid}",
    )


def user_most_rated_favourite(raw: RawMovieLens, uid: str) -> Draft | None:
    movies = _user_movies(raw, uid, 5)
    if not 2 <= len(movies) <= MAX_LIST:
        return None
    counts = {m: len(raw.by_movie[m]) for m in movies}
    top = max(counts.values())
    leaders = [m for m, c in counts.items() if c == top]
    if len(leaders) != 1:
        return None
    inner = f"Neighbour[u{uid}, rated_5]"
    return Draft(
        f"Of the movies user u{uid} rated with 5 stars, which one has been rated by the most users?",
        raw.titles[leaders[0]],
        f"Feature[{inner}, title], Degree[{inner}, rated_by]",
        f"u{uid}",
        f"u{uid}",
        {"winning_count": top},
    )


def raters_top_occupation(raw: RawMovieLens, mid: str) -> Draft | None:
    raters = raw.by_movie[mid]
    if not 3 <= len(raters) <= MAX_RATERS:
        return None
    mode = unique_mode(raw.occupations[u] for u in raters)
    if mode is None:
        return None
    title = raw.titles[mid]
    return Draft(
        f"What is the most common occupation among the users who rated the movie {_q(title)}?",
        mode,
        f"Feature[Neighbour[Retrieve[{title}], rated_by], occupation]",
        title,
        f"m{mid}",
        {"occupation_counts": dict(Counter(raw.occupations[u] for u in raters))},
    )


def user_favourite_genre(raw: RawMovieLens, uid: str) -> Draft | None:
    movies = _user_movies(raw, uid, 5)
    if not 3 <= len(movies) <= MAX_LIST:
        return None
    mode = unique_mode(g for m in movies for g in raw.genres[m])
    if mode is None:
        return None
    return Draft(
        f"Judging by the movies user u{uid} rated with 5 stars, which genre does this user like most?",
        mode,
        f"Feature[Neighbour[u{uid}, rated_5], genres]",
        f"u{uid}",
        f"u{uid}",
    )


MOVIELENS_TEMPLATES: tuple[Template, ...] = (
    Template("movie_genres", "easy", "list", "movie", movie_genres, "feature lookup (list value)"),
    Template("movie_release_date", "easy", "value", "movie", movie_release_date, "feature lookup"),
    Template("movie_rating_count", "easy", "value", "movie", movie_rating_count, "degree"),
    Template("user_occupation", "easy", "value", "user", user_occupation, "feature lookup by id"),
    Template("user_five_star_movies", "easy", "list", "user", user_five_star_movies, "one-hop neighbours"),
    Template(
        "movie_mean_rating", "medium", "weighted_mean", "movie", movie_mean_rating, "degrees + arithmetic"
    ),
    Template("raters_mean_age", "medium", "mean", "movie", raters_mean_age, "hop + average"),
    Template("user_one_star_genres", "medium", "list", "user", user_one_star_genres, "hop + feature union"),
    Template(
        "user_most_rated_favourite", "medium", "argmax", "user", user_most_rated_favourite, "hop + compare"
    ),
    Template(
        "raters_top_occupation", "hard", "most_common", "movie", raters_top_occupation, "neighbourhood vote"
    ),
    Template(
        "user_favourite_genre", "hard", "most_common", "user", user_favourite_genre, "preference induction"
    ),
)
