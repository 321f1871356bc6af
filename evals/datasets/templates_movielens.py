"""MovieLens 100K question templates, with golds computed from the raw files.

Parsed here with the standard library, separately from
:mod:`graphreason.tools.core.loaders.movielens`: ``u.item`` (latin-1, ``|``-separated, 19 genre
flags in ``u.genre`` order), ``u.user`` and ``u.data`` (tab-separated ratings).
Node ids in actions follow the loader's scheme: ``u12`` for users.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from graphreason.evals.datasets import template_base as tpl
from graphreason.evals.datasets.answer_rules import format_number, sorted_items
from graphreason.settings import dataset_dir

MAX_RATERS = 60  # raters listed by an action for a per-user aggregate


@dataclass
class RawMovieLens:
    """MovieLens as plain dicts keyed by the numeric ids in the files (strings).

    Hops: ``rated_by`` (movie -> users), ``rated_K`` (user -> movies rated K stars).
    """

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
            return [m for m in tpl.safe_names(self.titles, min_words=1) if self.titles[m] != "unknown"]
        return sorted(self.ages, key=int)

    def subject(self, kind: str, sid: str) -> tpl.Subject:
        return (
            tpl.Subject.titled(self.titles[sid], f"m{sid}")
            if kind == "movie"
            else tpl.Subject.by_id(f"u{sid}")
        )

    def neighbours(self, sid: str, hop: str) -> dict[str, int] | list[str]:
        if hop == "rated_by":
            return self.by_movie[sid]
        stars = int(hop.removeprefix("rated_"))
        return [m for m, s in self.by_user[sid].items() if s == stars]

    def feature(self, nid: str, name: str) -> object:
        table: dict[str, dict] = {
            "title": self.titles,
            "release_date": self.release,
            "genres": self.genres,
            "age": self.ages,
            "occupation": self.occupations,
        }
        return table[name][nid]


def read_raw_movielens(root: str | Path | None = None) -> RawMovieLens:
    """Parse the raw MovieLens 100K files (default: the shared data folder)."""
    folder = Path(root) if root is not None else dataset_dir("movielens-100k")
    genre_names = [line.split("|")[0] for line in tpl.read_lines(folder / "u.genre")]
    titles, release, genres = {}, {}, {}
    for line in tpl.read_lines(folder / "u.item", "latin-1"):
        fields = line.split("|")
        mid = fields[0]
        titles[mid], release[mid] = tpl.normalise(fields[1]), fields[2]
        genres[mid] = [g for g, flag in zip(genre_names, fields[5:], strict=True) if flag == "1"]
    ages, occupations = {}, {}
    for line in tpl.read_lines(folder / "u.user"):
        uid, age, _gender, occupation, _zip = line.split("|")
        ages[uid], occupations[uid] = int(age), occupation
    ratings: dict[tuple[str, str], int] = {}
    by_movie: dict[str, dict[str, int]] = {m: {} for m in titles}
    by_user: dict[str, dict[str, int]] = {u: {} for u in ages}
    for line in tpl.read_lines(folder / "u.data"):
        user, movie, stars, _ts = line.split("\t")
        ratings[user, movie] = by_movie[movie][user] = by_user[user][movie] = int(stars)
    return RawMovieLens(titles, release, genres, ages, occupations, ratings, by_movie, by_user)


def movie_genres(raw: RawMovieLens, mid: str) -> tpl.Draft | None:
    if not raw.genres[mid] or raw.genres[mid] == ["unknown"]:
        return None
    return raw.subject("movie", mid).draft(
        "Which genres does the movie {s} belong to?", sorted_items(raw.genres[mid]), "Feature[{ref}, genres]"
    )


def movie_mean_rating(raw: RawMovieLens, mid: str) -> tpl.Draft | None:
    stars = list(raw.by_movie[mid].values())
    if len(stars) < 2:
        return None
    return raw.subject("movie", mid).draft(
        "What is the average star rating (1 to 5) that users gave the movie {s}?",
        format_number(sum(stars) / len(stars)),
        ", ".join(f"Degree[{{ref}}, rated_{k}_by]" for k in range(1, 6)),
        star_counts=[stars.count(k) for k in range(1, 6)],
    )


def raters_mean_age(raw: RawMovieLens, mid: str) -> tpl.Draft | None:
    raters = raw.by_movie[mid]
    if not tpl.within(raters, 2, tpl.MAX_OBSERVED):
        return None
    return raw.subject("movie", mid).draft(
        "What is the average age of the users who rated the movie {s}?",
        format_number(sum(raw.ages[u] for u in raters) / len(raters)),
        "Feature[Neighbour[{ref}, rated_by], age]",
    )


def user_one_star_genres(raw: RawMovieLens, uid: str) -> tpl.Draft | None:
    movies = raw.neighbours(uid, "rated_1")
    genres = sorted_items(g for m in movies for g in raw.genres[m])
    if not tpl.within(movies, 1, tpl.MAX_OBSERVED) or not tpl.within(genres, 1, tpl.MAX_LIST):
        return None
    return raw.subject("user", uid).draft(
        "Which genres appear among the movies that user {s} rated with 1 star?",
        genres,
        "Feature[Neighbour[{ref}, rated_1], genres]",
    )


MOVIE, USER = tpl.Kinds("movie"), tpl.Kinds("user")

MOVIELENS_TEMPLATES: tuple[tpl.Template, ...] = (
    MOVIE.own("movie_genres", "easy", "list", movie_genres, "feature lookup (list value)"),
    MOVIE.lookup("movie_release_date", "On what date was the movie {s} released?", "release_date"),
    MOVIE.degree("movie_rating_count", "How many users rated the movie {s}?", "rated_by"),
    USER.lookup(
        "user_occupation", "What is the occupation of user {s}?", "occupation", "feature lookup by id"
    ),
    USER.neighbour_titles("user_five_star_movies", "Which movies did user {s} rate with 5 stars?", "rated_5"),
    MOVIE.own("movie_mean_rating", "medium", "weighted_mean", movie_mean_rating, "degrees + arithmetic"),
    MOVIE.own("raters_mean_age", "medium", "mean", raters_mean_age, "hop + average"),
    USER.own("user_one_star_genres", "medium", "list", user_one_star_genres, "hop + feature union"),
    USER.top_neighbour(
        "user_most_rated_favourite",
        "Of the movies user {s} rated with 5 stars, which one has been rated by the most users?",
        "rated_5",
        "rated_by",
        (2, tpl.MAX_LIST),
    ),
    MOVIE.neighbourhood_vote(
        "raters_top_occupation",
        "What is the most common occupation among the users who rated the movie {s}?",
        "rated_by",
        "occupation",
        (3, MAX_RATERS),
        counts_key="occupation_counts",
    ),
    USER.neighbourhood_vote(
        "user_favourite_genre",
        "Judging by the movies user {s} rated with 5 stars, which genre does this user like most?",
        "rated_5",
        "genres",
        (3, tpl.MAX_LIST),
        description="preference induction",
    ),
)
