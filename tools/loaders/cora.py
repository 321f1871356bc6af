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
"""

from __future__ import annotations

import csv
import tarfile
from pathlib import Path

from tools.config import dataset_dir
from tools.errors import GraphFileError
from tools.jsonl import read_jsonl
from tools.store import GraphStore

DATASET = "cora-citeseer-text"


def normalise_text(text: str | None) -> str:
    """Collapse runs of whitespace (incl. newlines) to one space; ``nan``/None become ``""``."""
    clean = " ".join((text or "").split())
    return "" if clean.lower() == "nan" else clean


def readable_label(label: str) -> str:
    """``Neural_Networks`` -> ``Neural Networks`` (how answers are written)."""
    return label.replace("_", " ").strip()


def cora_folder(root: str | Path | None = None) -> Path:
    """The folder holding Cora's files: ``root`` itself or its ``cora`` subfolder."""
    base = Path(root).expanduser() if root is not None else dataset_dir(DATASET)
    for folder in (base, base / "cora"):
        if (folder / "node_info.csv").is_file():
            return folder
    raise GraphFileError(f"no Cora node_info.csv in {base} or {base / 'cora'}")


def load_cora(root: str | Path | None = None) -> GraphStore:
    """Cora as a directed ``paper`` graph with ``cites`` / ``cited_by`` relations.

    Node id: the LINQS ``paper_id`` as a string. Features: ``paper_id``,
    ``title``, ``abstract``, ``label`` (research area, underscores as spaces).
    """
    folder = cora_folder(root)
    labels = _read_labels(folder)
    store = GraphStore(name="cora", directed=True, text_keys={"paper": "title"})
    with _open(folder / "node_info.csv") as fh:
        for row in csv.DictReader(fh):
            pid = row["paper_id"].strip()
            store.add_node(
                pid,
                "paper",
                {
                    "paper_id": pid,
                    "title": normalise_text(row["title"]),
                    "abstract": normalise_text(row["abstract"]),
                    "label": readable_label(labels.get(pid, "")),
                },
            )
    unknown: list[str] = []
    with _open(folder / "cora.cites") as fh:
        for number, line in enumerate(fh, 1):
            parts = line.split()
            if not parts:
                continue
            if len(parts) != 2:
                raise GraphFileError(
                    f"{folder / 'cora.cites'} line {number}: expected '<cited> <citing>', got {line!r}"
                )
            cited, citing = parts
            unknown += [p for p in parts if p not in store]
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
        with _open(jsonl) as fh:
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
    with tarfile.open(archive) as tar:
        member = next((m for m in tar.getmembers() if m.name.endswith("cora.content")), None)
        if member is None:
            raise GraphFileError(f"{archive} has no cora.content")
        fh = tar.extractfile(member)
        assert fh is not None  # a regular file member always has data
        text = fh.read().decode("utf-8")
    return {parts[0]: parts[-1] for parts in (line.split() for line in text.splitlines()) if parts}


def _open(path: Path):
    if not path.is_file():
        raise GraphFileError(f"Cora file {path} not found")
    return path.open(encoding="utf-8", newline="")
