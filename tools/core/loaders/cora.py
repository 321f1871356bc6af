"""Cora with paper text: 2,708 machine-learning papers and their citations.

Files (``cora-citeseer-text/cora/``):

* ``node_info.csv`` - ``paper_id,title,abstract`` (titles carry stray spaces and
  newlines; 317 abstracts are empty);
* ``cora_text_graph_complete.jsonl`` - ``{paper_id, label, ...}``; if it is
  missing the labels come from ``cora.content`` inside ``cora.tgz``;
* ``cora.cites`` - LINQS format ``<cited> <citing>``. The README says a line
  ``paper1 paper2`` is the link ``paper2 -> paper1``: the *second* id cites the
  *first*. Getting this backwards swaps every "cites" and "cited by" answer.

Each line becomes one directed edge ``citing -cites-> cited`` with the reverse
label ``cited_by`` (5,429 lines, no duplicates or self-loops).

This module is the one reader of Cora's files: :func:`load_cora` builds the
:class:`~graphreason.tools.core.store.GraphStore` the agents' graph tools use,
and :mod:`graphreason.tools.core.loaders.linqs_text` builds the node classifiers'
arrays from the same readers (:func:`read_node_info`, :func:`read_citations`,
:func:`content_lines`).
"""

from __future__ import annotations

import csv
import tarfile
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

from graphreason.settings import dataset_dir
from graphreason.tools.core.errors import GraphFileError
from graphreason.tools.core.jsonl import read_jsonl
from graphreason.tools.core.store import GraphStore

DATASET = "cora-citeseer-text"


def normalise_text(text: str | None) -> str:
    """Collapse runs of whitespace (incl. newlines) to one space; ``nan``/None become ``""``."""
    clean = " ".join((text or "").split())
    return "" if clean.lower() == "nan" else clean


def readable_label(label: str) -> str:
    """``Neural_Networks`` -> ``Neural Networks`` (how answers are written)."""
    return label.replace("_", " ").strip()


def cora_folder(root: str | Path | None = None, marker: str = "node_info.csv") -> Path:
    """The folder holding Cora's files (found by its ``marker`` file): ``root`` itself or its ``cora`` subfolder."""
    base = Path(root).expanduser() if root is not None else dataset_dir(DATASET)
    for folder in (base, base / "cora"):
        if (folder / marker).is_file():
            return folder
    raise GraphFileError(f"no Cora {marker} in {base} or {base / 'cora'}")


def load_cora(root: str | Path | None = None) -> GraphStore:
    """Cora as a directed ``paper`` graph with ``cites`` / ``cited_by`` relations.

    Node id: the LINQS ``paper_id`` as a string. Features: ``paper_id``,
    ``title``, ``abstract``, ``label`` (research area, underscores as spaces).
    """
    folder = cora_folder(root)
    labels = _read_labels(folder)
    store = GraphStore(name="cora", directed=True, text_keys={"paper": "title"})
    for pid, title, abstract in read_node_info(folder / "node_info.csv"):
        store.add_node(
            pid,
            "paper",
            {"paper_id": pid, "title": title, "abstract": abstract, "label": readable_label(labels.get(pid, ""))},
        )
    unknown: list[str] = []
    for citing, cited in read_citations(folder / "cora.cites"):
        unknown += [p for p in (cited, citing) if p not in store]
        store.add_edge(citing, cited, "cites", reverse_relation="cited_by")
    if unknown:
        raise GraphFileError(
            f"cora.cites names {len(unknown)} paper ids missing from node_info.csv, e.g. {unknown[:5]}"
        )
    store.description = cora_description(store)
    return store


def cora_description(store: GraphStore) -> str:
    """Graph definition for prompts (node type, features, relations, label set)."""
    areas = sorted({store.feature(n, "label") for n in store.nodes("paper")} - {""})
    return (
        f"Cora is a citation graph of {len(store):,} machine-learning papers linked by {store.num_edges:,} "
        "directed citations. There is one node type, paper, with features: paper_id, title, abstract and "
        f"label (the paper's research area, one of: {', '.join(areas)}). Neighbor types: cites "
        "(the papers this paper cites) and cited_by (the papers that cite this paper)."
    )


def _read_labels(folder: Path) -> dict[str, str]:
    jsonl = folder / "cora_text_graph_complete.jsonl"
    if jsonl.is_file():
        labels: dict[str, str] = {}
        with open_data_file(jsonl) as fh:
            for number, row in read_jsonl(fh, error=GraphFileError, name=str(jsonl)):
                try:
                    labels[str(row["paper_id"])] = str(row["label"])
                except (KeyError, TypeError) as err:
                    raise GraphFileError(
                        f"{jsonl} line {number}: expected JSON with paper_id and label ({err})"
                    ) from err
        return labels
    archive = folder / "cora.tgz"
    if not archive.is_file():
        raise GraphFileError(f"no Cora labels: neither {jsonl.name} nor cora.tgz in {folder}")
    return read_content_labels(archive)


def read_content_labels(archive: Path) -> dict[str, str]:
    """``paper_id -> class`` from the last column of ``cora/cora.content`` in the LINQS archive."""
    return {parts[0]: parts[-1] for parts in (line.split() for line in content_lines(archive))}


def content_lines(archive: Path) -> list[str]:
    """The non-blank lines of ``cora/cora.content`` (``<paper_id> <1,433 word flags> <class>``, tab-separated).

    They come from the LINQS archive ``cora.tgz``, in the file's order.
    """
    if not archive.is_file():
        raise GraphFileError(f"Cora archive {archive} not found (it holds cora.content)")
    with tarfile.open(archive) as tar:
        member = next((m for m in tar.getmembers() if m.name.endswith("cora.content")), None)
        handle = tar.extractfile(member) if member is not None else None
        if handle is None:
            raise GraphFileError(f"{archive} has no cora.content")
        text = handle.read().decode("utf-8")
    return [line for line in text.splitlines() if line.strip()]


def read_node_info(path: Path) -> Iterator[tuple[str, str, str]]:
    """``(paper_id, title, abstract)`` of each row of ``node_info.csv``, in file order, text normalised."""
    with open_data_file(path) as fh:
        reader = csv.DictReader(fh)
        missing = {"paper_id", "title", "abstract"} - set(reader.fieldnames or ())
        if missing:
            raise GraphFileError(f"{path}: expected the columns paper_id,title,abstract; missing {sorted(missing)}")
        for row in reader:
            yield (
                (row["paper_id"] or "").strip(),
                normalise_text(row["title"]),
                normalise_text(row["abstract"]),
            )


def read_citations(path: Path) -> list[tuple[str, str]]:
    """``(citing, cited)`` paper ids from a LINQS ``cora.cites`` file, whose lines read ``<cited> <citing>``."""
    return [(citing, cited) for cited, citing in read_id_pairs(path, form="'<cited> <citing>'")]


def read_id_pairs(path: Path, form: str = "two paper ids") -> list[tuple[str, str]]:
    """The two whitespace-separated ids of each non-blank line of an edge file, as written.

    ``form`` says what a line should hold, for the error a malformed line raises.
    """
    pairs: list[tuple[str, str]] = []
    with open_data_file(path) as fh:
        for number, line in enumerate(fh, 1):
            parts = line.split()
            if not parts:
                continue
            if len(parts) != 2:
                raise GraphFileError(f"{path} line {number}: expected {form}, got {line!r}")
            pairs.append((parts[0], parts[1]))
    return pairs


def open_data_file(path: Path) -> TextIO:
    """``path`` opened as UTF-8 text for the csv module; a clear error when it is missing."""
    if not path.is_file():
        raise GraphFileError(f"data file {path} not found")
    return path.open(encoding="utf-8", newline="")
