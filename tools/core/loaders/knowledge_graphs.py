"""Two knowledge graphs as typed graphs for the agents: WN18RR (WordNet synsets) and FB15k-237 (Freebase).

**WN18RR** (``kg-wn18/villmow_text/``): the 93,003 triples of its three splits, in both their offset
form (``WN18RR_original``) and their synset-name form (``WN18RR_text``), which are line-aligned. Node
type ``synset``; id: the WordNet offset (``00260881``); features ``name`` (the synset,
``land_reform.n.01``, unique), ``lemma`` (``land reform``) and ``part_of_speech`` (noun, verb,
adjective, adverb). Relations: the 11 WN18RR relations without their leading ``_`` (``hypernym``,
``has_part``, ...), each with a reverse label (``hyponym``, ``part_of``, ...; ``<name>_of`` where WordNet
has no name for it).

**FB15k-237** (``kg-fb15k/fb15k-237_conve/FB15k-237.tar.gz``, names from
``kg-fb15k/villmow/entity2wikidata.json``): 310,116 triples of its three splits over 14,541 entities.
Node type ``entity``; id: the Freebase mid (``/m/027rn``); features ``name`` (the Wikidata label) and
``description``, where the name file has the entity. Relations: each Freebase relation path by its
last part (``/people/person/nationality`` -> ``nationality``; the parts before it are added, one at a
time, where two paths end alike), with ``<name>_of`` as its reverse label.

Both graphs carry every triple of their splits: the agents read facts, they do not predict links.
"""

from __future__ import annotations

import json
import tarfile
from collections import Counter
from pathlib import Path

from graphreason.settings import dataset_dir
from graphreason.tools.core.errors import GraphFileError
from graphreason.tools.core.store import GraphStore

SPLITS = ("train", "valid", "test")
POS = {"n": "noun", "v": "verb", "a": "adjective", "s": "adjective", "r": "adverb"}
# WordNet's own names for the reverse of a relation; the others read "<relation>_of"
WORDNET_REVERSE = {
    "hypernym": "hyponym",
    "instance_hypernym": "instance_hyponym",
    "member_meronym": "member_holonym",
    "has_part": "part_of",
    "synset_domain_topic_of": "has_synset_domain_topic",
    "member_of_domain_usage": "has_member_of_domain_usage",
    "member_of_domain_region": "has_member_of_domain_region",
    "derivationally_related_form": "derivationally_related_form",
    "also_see": "also_see",
    "verb_group": "verb_group",
    "similar_to": "similar_to",
}


def _rows(path: Path) -> list[list[str]]:
    if not path.is_file():
        raise GraphFileError(f"knowledge-graph file {path} not found")
    with path.open(encoding="utf-8") as fh:
        return [line.rstrip("\r\n").split("\t") for line in fh if line.strip()]


def load_wn18rr(root: str | Path | None = None) -> GraphStore:
    """WN18RR as a directed ``synset`` graph (see the module docstring)."""
    folder = (Path(root).expanduser() if root is not None else dataset_dir("kg-wn18")) / "villmow_text"
    store = GraphStore(name="wn18rr", directed=True, text_keys={"synset": "name"})
    for split in SPLITS:
        offsets = _rows(folder / "WN18RR_original" / f"{split}.txt")
        names = _rows(folder / "WN18RR_text" / f"{split}.txt")
        if len(offsets) != len(names):
            raise GraphFileError(f"WN18RR {split}: {len(offsets)} offset triples but {len(names)} named ones")
        for number, (by_offset, by_name) in enumerate(zip(offsets, names, strict=True), 1):
            if len(by_offset) != 3 or len(by_name) != 3 or by_offset[1] != by_name[1]:
                raise GraphFileError(f"WN18RR {split} line {number}: the two forms disagree: {by_offset} / {by_name}")
            for offset, synset in ((by_offset[0], by_name[0]), (by_offset[2], by_name[2])):
                if offset not in store:
                    lemma, pos, _ = synset.rsplit(".", 2)
                    store.add_node(offset, "synset", {"name": synset, "lemma": lemma.replace("_", " "),
                                                      "part_of_speech": POS.get(pos, pos)})  # fmt: skip
            relation = by_offset[1].lstrip("_")
            store.add_edge(by_offset[0], by_offset[2], relation, reverse_relation=WORDNET_REVERSE.get(relation, f"{relation}_of"))
    store.description = (
        f"WN18RR: {len(store):,} WordNet synsets joined by {store.num_edges:,} directed relations. Node type: synset "
        "(features: name, the synset such as land_reform.n.01; lemma; part_of_speech). Neighbor types: "
        + ", ".join(store.relations())
        + "."
    )
    return store


def relation_labels(paths: list[str]) -> dict[str, str]:
    """A short label for each Freebase relation path: its last part, with as many parts before it as tell it apart."""
    words = {path: [p for p in path.replace(".", "/").split("/") if p] for path in paths}
    kept = dict.fromkeys(paths, 1)
    while True:
        labels = {path: "_".join(words[path][-kept[path]:]) for path in paths}
        counts = Counter(labels.values())
        clashing = [path for path in paths if counts[labels[path]] > 1 and kept[path] < len(words[path])]
        if not clashing:
            return labels
        for path in clashing:
            kept[path] += 1


def load_fb15k237(root: str | Path | None = None) -> GraphStore:
    """FB15k-237 as a directed ``entity`` graph with names (see the module docstring)."""
    folder = Path(root).expanduser() if root is not None else dataset_dir("kg-fb15k")
    archive = folder / "fb15k-237_conve" / "FB15k-237.tar.gz"
    names_file = folder / "villmow" / "entity2wikidata.json"
    for path in (archive, names_file):
        if not path.is_file():
            raise GraphFileError(f"FB15k-237 file {path} not found")
    triples: list[tuple[str, str, str]] = []
    with tarfile.open(archive, "r:gz") as tar:
        for split in SPLITS:
            member = tar.extractfile(f"{split}.txt")
            if member is None:
                raise GraphFileError(f"{archive} has no {split}.txt")
            for number, line in enumerate(member.read().decode("utf-8").splitlines(), 1):
                if not line.strip():
                    continue
                fields = line.strip().split("\t")
                if len(fields) != 3:
                    raise GraphFileError(f"{archive} {split}.txt line {number}: expected 3 fields, got {fields}")
                triples.append((fields[0], fields[1], fields[2]))
    names = json.loads(names_file.read_text(encoding="utf-8"))
    labels = relation_labels(sorted({r for _, r, _ in triples}))
    store = GraphStore(name="fb15k-237", directed=True, text_keys={"entity": "name"})
    for head, _, tail in triples:
        for mid in (head, tail):
            if mid not in store:
                known = names.get(mid) or {}
                features = {k: known[k2] for k, k2 in (("name", "label"), ("description", "description")) if known.get(k2)}
                store.add_node(mid, "entity", features)
    for head, relation, tail in triples:
        label = labels[relation]
        store.add_edge(head, tail, label, reverse_relation=f"{label}_of")
    store.description = (
        f"FB15k-237: {len(store):,} Freebase entities joined by {store.num_edges:,} facts over {len(labels)} relations. "
        "Node type: entity (id = the Freebase mid; features: name, description). Each relation also has a "
        "reverse label ending in _of (nationality / nationality_of)."
    )
    return store
