"""Last.fm (HetRec 2011) as a graph of three node types: users, artists and tags.

Files (``lastfm-hetrec2011/``, tab-separated with a header line): ``artists.dat``
(``id, name, url, pictureURL``; UTF-8), ``tags.dat`` (``tagID, tagValue``; Latin-1),
``user_artists.dat`` (``userID, artistID, weight``), ``user_friends.dat``
(``userID, friendID``) and ``user_taggedartists.dat`` (``userID, artistID, tagID, day,
month, year``).

Node ids carry their type's letter: ``u2`` (feature ``name`` = ``user 2``), ``a51``
(``name``: the artist), ``t13`` (``name``: the tag). Relations: ``listened`` (user ->
artist) / ``listened_by``; ``friend`` (user -> user, as the file lists it); ``tagged``
(artist -> tag, each pair once over all users) / ``tag_of``. Listening counts, tagging
users and dates have no place in the graph and are dropped.

Last.fm is an unseen graph (:data:`~graphreason.tools.core.loaders.UNSEEN_GRAPHS`):
it is for evaluation only, never training data.
"""

from __future__ import annotations

from pathlib import Path

from graphreason.settings import dataset_dir
from graphreason.tools.core.errors import GraphFileError
from graphreason.tools.core.store import GraphStore

DATASET = "lastfm-hetrec2011"


def load_lastfm(root: str | Path | None = None) -> GraphStore:
    """Last.fm as a directed graph of ``user``, ``artist`` and ``tag`` nodes (see the module's docstring)."""
    folder = Path(root).expanduser() if root is not None else dataset_dir(DATASET)
    store = GraphStore(name="last-fm", directed=True, text_keys={"user": "name", "artist": "name", "tag": "name"})
    for row in _rows(folder / "artists.dat", 2):
        store.add_node(f"a{row[0]}", "artist", {"name": row[1].strip()})
    for row in _rows(folder / "tags.dat", 2, encoding="latin-1"):
        store.add_node(f"t{row[0]}", "tag", {"name": row[1].strip()})
    users: set[str] = set()
    listens = _rows(folder / "user_artists.dat", 2)
    friends = _rows(folder / "user_friends.dat", 2)
    users.update(row[0] for row in listens)
    users.update(user for row in friends for user in row[:2])
    for user in sorted(users, key=int):
        store.add_node(f"u{user}", "user", {"name": f"user {user}"})
    unknown = sorted({row[1] for row in listens if f"a{row[1]}" not in store})
    if unknown:
        raise GraphFileError(f"user_artists.dat names {len(unknown)} artists missing from artists.dat, e.g. {unknown[:5]}")
    for user, artist, *_ in listens:
        store.add_edge(f"u{user}", f"a{artist}", "listened", reverse_relation="listened_by")
    for user, friend, *_ in friends:
        store.add_edge(f"u{user}", f"u{friend}", "friend")
    tagged: set[tuple[str, str]] = set()
    for _, artist, tag, *_ in _rows(folder / "user_taggedartists.dat", 3):
        pair = (f"a{artist}", f"t{tag}")
        if pair in tagged or pair[0] not in store or pair[1] not in store:
            continue  # tags of artists missing from artists.dat are dropped with them
        tagged.add(pair)
        store.add_edge(*pair, "tagged", reverse_relation="tag_of")
    store.description = (
        f"Last.fm (HetRec 2011): {len(store):,} nodes of types user, artist and tag. Neighbor types: listened "
        "(user -> artist) and listened_by, friend (user -> user), tagged (artist -> tag) and tag_of. "
        "Every node has the feature name."
    )
    return store


def _rows(path: Path, width: int, encoding: str = "utf-8") -> list[list[str]]:
    """The file's rows after its header, each with at least ``width`` fields."""
    if not path.is_file():
        raise GraphFileError(f"Last.fm file {path} not found")
    with path.open(encoding=encoding) as fh:
        lines = fh.read().splitlines()[1:]
    rows = [line.split("\t") for line in lines if line.strip()]
    short = [number for number, row in enumerate(rows, 2) if len(row) < width]
    if short:
        raise GraphFileError(f"{path} line {short[0]}: expected {width} tab-separated fields or more")
    return rows
