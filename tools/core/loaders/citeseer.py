"""CiteSeer with paper text: 3,186 computer-science papers and their citation links.

Files (``cora-citeseer-text/citeseer/``, ReaGAN's text-attributed CiteSeer, not
the 3,312-paper LINQS release):

* ``data.csv`` - ``paper_id,label`` with ids 0..3185 and a short class code
  (``ML``, ``DB``, ...);
* ``label_info.csv`` - the code and its readable name (``ML`` ->
  ``Machine Learning``);
* ``node_info.csv`` - ``paper_id,title,abs`` where ``paper_id`` is the id of
  ``data.csv`` plus one (93 titles are empty);
* ``citeseer.cites`` - two ids a line (the pairs of ``graph.csv``). The files do
  not say which end cites which, and 52 pairs appear in both orders, so a
  line is an undirected *link*: 4,225 distinct links.

This module is the one reader of those files: :func:`load_citeseer` builds the
:class:`~graphreason.tools.core.store.GraphStore` the agents' graph tools use
(an undirected ``paper`` graph with the single relation ``linked``), and
:mod:`graphreason.tools.core.loaders.linqs_text` builds the node classifiers'
arrays from :func:`read_citeseer`.

CiteSeer is the project's unseen graph: models are evaluated on it, never
trained on it (see the trainers' guards).
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

from graphreason.settings import dataset_dir
from graphreason.tools.core.errors import GraphFileError
from graphreason.tools.core.loaders.cora import DATASET, normalise_text, open_data_file, read_id_pairs
from graphreason.tools.core.store import GraphStore

LINK = "linked"  # the one relation: a citation in either direction


@dataclass(frozen=True)
class CiteSeerFiles:
    """CiteSeer's files read as written: ids in ``data.csv`` order, one entry per paper."""

    ids: list[str]
    labels: list[str]  # the class code of each paper (``ML``)
    label_names: dict[str, str]  # code -> readable name
    titles: list[str]
    abstracts: list[str]
    pairs: list[tuple[str, str]]  # the id pairs of citeseer.cites, in file order


def citeseer_folder(root: str | Path | None = None) -> Path:
    """The folder holding CiteSeer's files: ``root`` itself or its ``citeseer`` subfolder."""
    base = Path(root).expanduser() if root is not None else dataset_dir(DATASET)
    for folder in (base, base / "citeseer"):
        if (folder / "data.csv").is_file() and (folder / "citeseer.cites").is_file():
            return folder
    raise GraphFileError(f"no CiteSeer data.csv and citeseer.cites in {base} or {base / 'citeseer'}")


def read_citeseer(root: str | Path | None = None) -> CiteSeerFiles:
    """Read CiteSeer's files; every paper must have a label, and every link must name known papers."""
    folder = citeseer_folder(root)
    with open_data_file(folder / "data.csv") as fh:
        rows = [((r.get("paper_id") or "").strip(), (r.get("label") or "").strip()) for r in csv.DictReader(fh)]
    ids = [pid for pid, _ in rows]
    labels = [label for _, label in rows]
    if not ids or any(not pid or not label for pid, label in rows):
        raise GraphFileError(f"{folder / 'data.csv'}: expected paper_id,label with both set on every row")
    position = {pid: i for i, pid in enumerate(ids)}
    titles, abstracts = [""] * len(ids), [""] * len(ids)
    with open_data_file(folder / "node_info.csv") as fh:
        for number, row in enumerate(csv.DictReader(fh), 2):
            try:
                node = str(int(row["paper_id"]) - 1)  # node_info numbers papers from 1
            except (KeyError, TypeError, ValueError) as err:
                raise GraphFileError(f"{folder / 'node_info.csv'} line {number}: no numeric paper_id") from err
            if node in position:
                titles[position[node]] = normalise_text(row.get("title"))
                abstracts[position[node]] = normalise_text(row.get("abs"))
    pairs = read_id_pairs(folder / "citeseer.cites")
    unknown = [node for pair in pairs for node in pair if node not in position]
    if unknown:
        raise GraphFileError(f"{folder / 'citeseer.cites'} names {len(unknown)} unknown paper ids, e.g. {unknown[:5]}")
    return CiteSeerFiles(ids, labels, _label_names(folder / "label_info.csv"), titles, abstracts, pairs)


def _label_names(path: Path) -> dict[str, str]:
    if not path.is_file():
        return {}
    with open_data_file(path) as fh:
        rows = list(csv.reader(fh))
    return {row[0].strip(): row[1].strip() for row in rows[1:] if len(row) >= 2 and row[0].strip()}


def distinct_links(pairs: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Each undirected link once, as first written (a pair seen in both orders counts once)."""
    seen: set[frozenset[str]] = set()
    links = []
    for a, b in pairs:
        key = frozenset((a, b))
        if key not in seen:
            seen.add(key)
            links.append((a, b))
    return links


def load_citeseer(root: str | Path | None = None) -> GraphStore:
    """CiteSeer as an undirected ``paper`` graph with the relation ``linked``.

    Node id: the ``data.csv`` id as a string (``"0"`` .. ``"3185"``). Features:
    ``paper_id``, ``title``, ``abstract``, ``label`` (the readable class name).
    """
    files = read_citeseer(root)
    store = GraphStore(name="citeseer", directed=False, text_keys={"paper": "title"})
    for pid, code, title, abstract in zip(files.ids, files.labels, files.titles, files.abstracts, strict=True):
        label = files.label_names.get(code, code)
        store.add_node(pid, "paper", {"paper_id": pid, "title": title, "abstract": abstract, "label": label})
    for a, b in distinct_links(files.pairs):
        store.add_edge(a, b, LINK)
    store.description = citeseer_description(store)
    return store


def citeseer_description(store: GraphStore) -> str:
    """Graph definition for prompts (node type, features, the relation, label set)."""
    areas = sorted({store.feature(n, "label") for n in store.nodes("paper")} - {""})
    return (
        f"CiteSeer is a citation graph of {len(store):,} computer-science papers joined by {store.num_edges:,} "
        "citation links whose direction is not recorded. There is one node type, paper, with features: paper_id, "
        f"title, abstract and label (the paper's research area, one of: {', '.join(areas)}). Neighbor type: "
        f"{LINK} (the papers joined to this paper by a citation, in either direction)."
    )
