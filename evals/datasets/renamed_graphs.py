"""Training graphs under other schemas: the same nodes and arcs, with node types, relations and features renamed.

A model that reads names off the prompt's graph line answers on any schema; one that
remembers ``cites`` answers only on Cora. Program questions
(:mod:`graphreason.evals.datasets.program_questions`) over renamed copies of the training
graphs teach the first: the questions, the reference actions and the graph line all use the
copy's names, so the only way to write the right call is to copy it from the graph line.

Each copy is declared here once by its name and written as a ``graph.json`` under a work
folder (:func:`write_renamed`), which the workflow then loads like any graph file. A node's name
feature (``title``, ``name``) keeps its name, as a ``graph.json`` file carries no other. The names
avoid the held-out graphs' own schemas (Wikispeedia's ``links_to`` / ``linked_from``) and
never come from an unseen graph. Relation renamings apply to whole name parts, so
``rated`` -> ``bought`` also renames ``rated_4_by`` to ``bought_4_by``.

:data:`EVALUATION_RENAMINGS` go the other way: copies of an unseen graph under a schema no graph of the project uses
(Last.fm as items, users and tags that ``likes``, ``has_tag``, ``follows``), to measure how a model answers on a
graph and a schema it never saw. They are for evaluation only: a copy is written under a folder named after its
unseen graph (``<folder>/last-fm/last-fm-items/graph.json``), so the training data builder refuses its path, and
:func:`~graphreason.evals.datasets.program_questions.check_trainable` refuses its name.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from graphreason.tools.core.loaders import UNSEEN_GRAPHS, load_graph, save_graph_json
from graphreason.tools.core.store import GraphStore


@dataclass(frozen=True)
class Renaming:
    """A copy of ``base`` with ``types``, ``relations`` and ``features`` renamed (names not listed keep theirs)."""

    base: str
    types: dict[str, str] = field(default_factory=dict)
    relations: dict[str, str] = field(default_factory=dict)
    features: dict[str, str] = field(default_factory=dict)

    def relation(self, name: str) -> str:
        """``name`` renamed: whole, or by its first ``_``-separated parts (``rated_4_by`` -> ``bought_4_by``)."""
        for old in sorted(self.relations, key=len, reverse=True):
            if name == old or name.startswith(old + "_"):
                return self.relations[old] + name[len(old) :]
        return name


RENAMINGS: dict[str, Renaming] = {
    "cora-articles": Renaming(
        "cora",
        types={"paper": "article"},
        relations={"cites": "references", "cited_by": "referenced_by"},
        features={"label": "field"},
    ),
    "cora-notes": Renaming(
        "cora",
        types={"paper": "note"},
        relations={"cites": "mentions", "cited_by": "mentioned_by"},
        features={"label": "topic", "abstract": "body"},
    ),
    "movielens-shop": Renaming(
        "movielens",
        types={"movie": "product", "user": "customer", "genre": "department"},
        relations={"rated": "bought", "has_genre": "sold_in", "genre_of": "sells"},
        features={"genres": "departments", "occupation": "job", "release_date": "launched"},
    ),
    "movielens-library": Renaming(
        "movielens",
        types={"movie": "book", "user": "reader", "genre": "shelf"},
        relations={"rated": "borrowed", "has_genre": "on_shelf", "genre_of": "holds"},
        features={"genres": "shelves", "imdb_url": "catalogue_url", "release_date": "published"},
    ),
    "cora-web": Renaming(
        "cora",
        types={"paper": "page"},
        relations={"cites": "hyperlinks", "cited_by": "hyperlinked_by"},
        features={"label": "category", "abstract": "content"},
    ),
    "movielens-catalogue": Renaming(
        "movielens",
        types={"movie": "item", "user": "member", "genre": "category"},
        relations={"rated": "reviewed", "has_genre": "in_category", "genre_of": "category_of"},
        features={"genres": "categories", "occupation": "profession", "release_date": "added"},
    ),
}


# Copies of an unseen graph under a schema of their own: for evaluation only (never training data). ``last-fm-items``
# was written, with its relations' phrases in the question lexicon, after search's rules and before any question of it
# was asked. Its first measurement (commit 1fe4107 with this copy added, the five trainable families, 6 questions per
# shape, seed 0: 51/54 = 94.4) came before any rule read its failures; rules were then fitted to them (a relation
# named with a leading "has" is written by its other words: "tags" for ``has_tag``; "fans" for a liking relation), so
# later figures of it are not first measurements.
EVALUATION_RENAMINGS: dict[str, Renaming] = {
    "last-fm-items": Renaming(
        "last-fm",
        types={"artist": "item"},
        relations={"listened": "likes", "listened_by": "liked_by", "tagged": "has_tag", "tag_of": "tag_on",
                   "friend": "follows"},  # fmt: skip
    ),
}


def renamed_store(name: str, base: GraphStore | None = None) -> GraphStore:
    """The copy ``name`` of :data:`RENAMINGS` or :data:`EVALUATION_RENAMINGS` in memory (``base``: the loaded base
    graph, else loaded by name)."""
    spec = RENAMINGS.get(name) or EVALUATION_RENAMINGS.get(name)
    if spec is None:
        known = ", ".join([*RENAMINGS, *EVALUATION_RENAMINGS])
        raise ValueError(f"unknown renamed graph {name!r}; choose one of {known}")
    if spec.base.lower() in UNSEEN_GRAPHS and name not in EVALUATION_RENAMINGS:
        raise ValueError(f"{spec.base} is an unseen graph: no copy of it is made for training")
    source = base if base is not None else load_graph(spec.base)
    renamed_keys = sorted(set(source.text_keys.values()) & set(spec.features))
    if renamed_keys:  # graph.json keeps no text keys: a loader finds them among the usual names (title, name, ...)
        raise ValueError(f"{name} renames the name feature {renamed_keys[0]!r}, which a graph.json copy cannot keep")
    text_keys = {spec.types.get(t, t): k for t, k in source.text_keys.items()}
    copy = GraphStore(name=name, directed=True, text_keys=text_keys)
    for node in source.nodes():
        features = {spec.features.get(k, k): v for k, v in source.features(node).items()}
        node_type = source.node_type(node)
        copy.add_node(node, spec.types.get(node_type, node_type), features)
    for node in source.nodes():  # every arc as the source holds it, reverse labels included
        for relation in source.relations(node, "out"):
            for other in source.neighbors(node, relation, direction="out"):
                copy.add_edge(node, other, spec.relation(relation))
    return copy


def write_renamed(name: str, folder: str | Path) -> str:
    """Write the copy ``name`` to ``folder/<name>/graph.json`` (an evaluation copy to ``folder/<its unseen
    graph>/<name>/graph.json``); returns that path (a graph spec)."""
    return str(save_graph_json(renamed_store(name), _copy_folder(name, folder) / "graph.json"))


def _copy_folder(name: str, folder: str | Path) -> Path:
    evaluation = EVALUATION_RENAMINGS.get(name)
    return Path(folder) / evaluation.base / name if evaluation is not None else Path(folder) / name


def renamed_graph_spec(spec: str, folder: str | Path) -> str:
    """``spec`` itself, or where ``spec`` names a renamed copy (``last-fm-items``), the path of its ``graph.json``
    under ``folder``, written there unless an earlier call wrote it."""
    if spec not in RENAMINGS and spec not in EVALUATION_RENAMINGS:
        return spec
    path = _copy_folder(spec, folder) / "graph.json"
    return str(path) if path.is_file() else write_renamed(spec, folder)
