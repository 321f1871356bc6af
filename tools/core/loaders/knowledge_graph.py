"""WN18 (WordNet) and FB15k (Freebase) as triple arrays named in Graph-ToolFormer's vocabulary.

Graph-ToolFormer's knowledge-graph prompts name WordNet entities by NLTK
synset (``entity#state.v.01``), Freebase entities by mid (``entity#/m/0gs9p``)
and relations by their dataset name (``_hypernym``,
``/music/group_member/instruments_played``). The OpenKE files under the data
root number everything from 0, so this module turns them into one
:class:`KnowledgeGraph`: entity and relation names indexed by those numbers,
and ``(head, relation, tail)`` id arrays per split.

* **WordNet** (``kg-wn18/``): OpenKE ``train2id`` / ``valid2id`` / ``test2id``
  (141,442 / 5,000 / 5,000 triples; 40,943 entities, 18 relations). Entity
  names come from ``DERIVED_wn18_entity2synset.tsv`` (OpenKE id -> synset
  name); the 8-digit WordNet offsets of ``entity2id`` are kept as aliases.
* **Freebase** (``kg-fb15k/``): FB15k's own training split (483,142 triples)
  is not in the data root. The training triples are FB15k-237's train split
  (272,115, read in place from the ConvE tarball; FB15k-237 is a subset of
  FB15k, and its train split is disjoint from FB15k's test split) together
  with FB15k's validation split (50,000), which carries most of FB15k's 1,345
  relation types that FB15k-237 dropped (the prompts use many of them).
  Validation is therefore empty; the test split is FB15k's own (59,071).

Triple files store ``head tail relation``; the arrays here are ``head,
relation, tail`` (column order of :data:`COLUMNS`).
"""

from __future__ import annotations

import tarfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from graphreason.settings import dataset_dir
from graphreason.tools.core.errors import GraphFileError

WORDNET_DIR = "kg-wn18"
FREEBASE_DIR = "kg-fb15k"
COLUMNS = ("head", "relation", "tail")
FB15K_237_TARBALL = "fb15k-237_conve/FB15k-237.tar.gz"


@dataclass
class KnowledgeGraph:
    """Entity / relation names and ``(head, relation, tail)`` id triples per split."""

    name: str
    entities: list[str]
    relations: list[str]
    train: np.ndarray
    valid: np.ndarray
    test: np.ndarray
    source: str = ""  # one line: which files the splits came from
    aliases: dict[str, int] = field(default_factory=dict)  # other spellings of entity names -> id

    def __post_init__(self) -> None:
        self.entity_index = {name: i for i, name in enumerate(self.entities)}
        self.relation_index = {name: i for i, name in enumerate(self.relations)}

    @property
    def num_entities(self) -> int:
        return len(self.entities)

    @property
    def num_relations(self) -> int:
        return len(self.relations)

    def all_triples(self) -> np.ndarray:
        """Every known triple (train, valid and test), as filtered ranking needs."""
        return np.concatenate([self.train, self.valid, self.test])

    def entity_id(self, name: str) -> int | None:
        """Id of an entity name or alias, or None."""
        found = self.entity_index.get(name)
        return found if found is not None else self.aliases.get(name)

    def relation_id(self, name: str) -> int | None:
        return self.relation_index.get(name)

    def restricted(self, entity_ids: Iterable[int]) -> KnowledgeGraph:
        """The sub-graph on ``entity_ids``: their triples only, entities renumbered, relations kept.

        Small slices of a real graph for quick experiments and tests.
        """
        keep = np.zeros(self.num_entities, dtype=bool)
        keep[np.fromiter(entity_ids, dtype=np.int64)] = True
        new_id = np.cumsum(keep) - 1

        def part(triples: np.ndarray) -> np.ndarray:
            inside = triples[keep[triples[:, 0]] & keep[triples[:, 2]]]
            return np.stack([new_id[inside[:, 0]], inside[:, 1], new_id[inside[:, 2]]], axis=1)

        old = np.flatnonzero(keep)
        position = {int(o): i for i, o in enumerate(old)}
        return KnowledgeGraph(
            name=self.name,
            entities=[self.entities[i] for i in old],
            relations=list(self.relations),
            train=part(self.train),
            valid=part(self.valid),
            test=part(self.test),
            source=f"{self.source}; restricted to {len(old):,} entities",
            aliases={a: position[i] for a, i in self.aliases.items() if i in position},
        )


def load_knowledge_graph(name: str, root: str | Path | None = None) -> KnowledgeGraph:
    """``"wordnet"`` (WN18) or ``"freebase"`` (FB15k); ``root`` overrides the dataset folder."""
    key = name.strip().lower()
    if key in ("wordnet", "wn18"):
        return load_wordnet(root)
    if key in ("freebase", "fb15k"):
        return load_freebase(root)
    raise GraphFileError(f"unknown knowledge graph {name!r}; known: wordnet, freebase")


def load_wordnet(root: str | Path | None = None) -> KnowledgeGraph:
    """WN18 with NLTK synset names (see the module docstring)."""
    folder = Path(root).expanduser() if root is not None else dataset_dir(WORDNET_DIR)
    openke = folder / "openke"
    offsets = _names(openke / "entity2id.txt")
    relations = _names(openke / "relation2id.txt")
    synsets = _synset_names(folder / "DERIVED_wn18_entity2synset.tsv", len(offsets))
    splits = [
        _id_triples(openke / f"{split}2id.txt", len(offsets), len(relations))
        for split in ("train", "valid", "test")
    ]
    return KnowledgeGraph(
        name="wordnet",
        entities=synsets,
        relations=relations,
        train=splits[0],
        valid=splits[1],
        test=splits[2],
        source="WN18 (OpenKE train2id / valid2id / test2id); names from DERIVED_wn18_entity2synset.tsv",
        aliases={offset: i for i, offset in enumerate(offsets)},
    )


def load_freebase(root: str | Path | None = None) -> KnowledgeGraph:
    """FB15k entities and relations; train = FB15k-237 train + FB15k valid, test = FB15k test."""
    folder = Path(root).expanduser() if root is not None else dataset_dir(FREEBASE_DIR)
    openke = folder / "openke_partial"
    entities = _names(openke / "entity2id.txt")
    relations = _names(openke / "relation2id.txt")
    valid = _id_triples(openke / "valid2id.txt", len(entities), len(relations))
    test = _id_triples(openke / "test2id.txt", len(entities), len(relations))
    fb237 = _fb15k_237_train(folder / FB15K_237_TARBALL, entities, relations)
    train = np.unique(np.concatenate([fb237, valid]), axis=0)
    return KnowledgeGraph(
        name="freebase",
        entities=entities,
        relations=relations,
        train=train,
        valid=np.zeros((0, 3), dtype=np.int64),
        test=test,
        source=(
            f"train: FB15k-237 train ({len(fb237):,}) + FB15k valid ({len(valid):,}) = {len(train):,} "
            f"triples (FB15k's own train split is not in the data root); test: FB15k test ({len(test):,})"
        ),
    )


# ---------------------------------------------------------------------- file readers
def _lines(path: Path) -> list[str]:
    try:
        return path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise GraphFileError(f"cannot read {path}: {exc}") from exc


def _names(path: Path) -> list[str]:
    """An OpenKE ``name<TAB>id`` file (first line = count) as the list of names by id."""
    lines = _lines(path)
    count = _count(path, lines)
    names: list[str | None] = [None] * count
    for number, line in enumerate(lines[1:], 2):
        parts = line.split("\t")
        if len(parts) != 2 or not parts[1].strip().isdigit() or int(parts[1]) >= count:
            raise GraphFileError(
                f"{path} line {number}: expected 'name<TAB>id' with id < {count}, got {line!r}"
            )
        names[int(parts[1])] = parts[0].strip()
    missing = [i for i, name in enumerate(names) if name is None]
    if missing:
        raise GraphFileError(f"{path}: ids {missing[:5]} have no name")
    return names  # type: ignore[return-value]  # every slot was checked above


def _count(path: Path, lines: list[str]) -> int:
    if not lines or not lines[0].strip().isdigit():
        raise GraphFileError(f"{path}: the first line must be the number of rows")
    count = int(lines[0])
    if len(lines) - 1 != count:
        raise GraphFileError(f"{path}: header says {count} rows, the file has {len(lines) - 1}")
    return count


def _id_triples(path: Path, num_entities: int, num_relations: int) -> np.ndarray:
    """An OpenKE ``head tail relation`` file as an ``(n, 3)`` head, relation, tail array."""
    lines = _lines(path)
    count = _count(path, lines)
    try:
        raw = np.array([line.split() for line in lines[1:]], dtype=np.int64).reshape(count, 3)
    except ValueError as exc:
        raise GraphFileError(
            f"{path}: every row must be three integers 'head tail relation' ({exc})"
        ) from exc
    triples = raw[:, [0, 2, 1]]
    _check_ids(path, triples, num_entities, num_relations)
    return triples


def _check_ids(path: Path | str, triples: np.ndarray, num_entities: int, num_relations: int) -> None:
    if len(triples) and (
        triples.min() < 0 or triples[:, [0, 2]].max() >= num_entities or triples[:, 1].max() >= num_relations
    ):
        raise GraphFileError(f"{path}: ids out of range ({num_entities} entities, {num_relations} relations)")


def _synset_names(path: Path, count: int) -> list[str]:
    names: list[str | None] = [None] * count
    for number, line in enumerate(_lines(path)[1:], 2):
        parts = line.split("\t")
        if len(parts) < 3 or not parts[0].isdigit() or int(parts[0]) >= count:
            raise GraphFileError(f"{path} line {number}: expected 'openke_id<TAB>offset<TAB>synset_name ...'")
        names[int(parts[0])] = parts[2].strip()
    missing = [i for i, name in enumerate(names) if not name]
    if missing:
        raise GraphFileError(f"{path}: WN18 ids {missing[:5]} have no synset name")
    return names  # type: ignore[return-value]


def _fb15k_237_train(tarball: Path, entities: list[str], relations: list[str]) -> np.ndarray:
    """FB15k-237's ``train.txt`` (mid TSV, CRLF) read from the tarball without extracting it."""
    try:
        with tarfile.open(tarball, "r:gz") as archive:
            member = next((m for m in archive.getmembers() if Path(m.name).name == "train.txt"), None)
            handle = archive.extractfile(member) if member is not None else None
            if handle is None:
                raise GraphFileError(f"{tarball} holds no train.txt")
            text = handle.read().decode("utf-8")
    except (OSError, tarfile.TarError) as exc:
        raise GraphFileError(f"cannot read {tarball}: {exc}") from exc
    return _name_triples(tarball, text.splitlines(), entities, relations)


def _name_triples(where: Path, lines: Iterable[str], entities: list[str], relations: list[str]) -> np.ndarray:
    entity_ids = {name: i for i, name in enumerate(entities)}
    relation_ids = {name: i for i, name in enumerate(relations)}
    rows = []
    for number, line in enumerate(lines, 1):
        parts = line.strip().split("\t")
        if parts == [""]:
            continue
        if len(parts) != 3:
            raise GraphFileError(
                f"{where} line {number}: expected 'head<TAB>relation<TAB>tail', got {line!r}"
            )
        head, rel, tail = entity_ids.get(parts[0]), relation_ids.get(parts[1]), entity_ids.get(parts[2])
        if head is None or rel is None or tail is None:
            raise GraphFileError(f"{where} line {number}: {parts} names an entity or relation FB15k lacks")
        rows.append((head, rel, tail))
    return np.array(rows, dtype=np.int64).reshape(-1, 3)
