"""OGB node-property folders (ogbn-arxiv, ogbn-products) read from disk into a :class:`TextGraph`.

A folder as OGB's download unpacks it (``ogbn_arxiv/``, ``ogbn_products/``)::

    raw/edge.csv.gz          "src,dst" per line, node indices (no header)
    raw/node-feat.csv.gz     one row of floats per node (no header)
    raw/node-label.csv.gz    one class index per node (no header)
    raw/num-node-list.csv.gz the node count (optional; checked when present)
    split/<scheme>/{train,valid,test}.csv.gz   node indices (no header); arxiv: time, products: sales_ranking
    mapping/labelidx2<...>.csv.gz  "label idx,<name>" with a header: the class names (optional)
    mapping/nodeidx2paperid.csv.gz "node idx,paper id" with a header (arxiv, optional)

Text is not part of OGB's download; two optional files add it:

* ``titleabs.tsv`` / ``titleabs.tsv.gz`` (in the folder or ``mapping/``): OGB's arxiv
  text file, ``paper id <tab> title <tab> abstract``, joined through ``nodeidx2paperid``.
  Lines whose first field is not a number (the file's header and trailer) are skipped.
* ``node-text.csv`` / ``node-text.csv.gz``: ``node_idx,title,content`` with a header,
  for any dataset (products has no official text file; a user can write this one).

Node ids are the node indices as strings (``"0"`` .. ``"N-1"``). The edges are
kept as the file states them. Any missing required file is reported, all at once,
with the layout expected.
"""

from __future__ import annotations

import csv
import gzip
import io
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from graphreason.tools.core.errors import GraphFileError
from graphreason.tools.core.loaders.cora import normalise_text
from graphreason.tools.core.loaders.linqs_text import TextGraph
from graphreason.tools.core.policy import confine_file

REQUIRED = ("raw/edge.csv.gz", "raw/node-feat.csv.gz", "raw/node-label.csv.gz")
PARTS = {"train": "train", "val": "valid", "test": "test"}  # our part name -> OGB file stem
LAYOUT = (
    "an OGB node-property folder holds raw/edge.csv.gz, raw/node-feat.csv.gz, raw/node-label.csv.gz "
    "and split/<scheme>/{train,valid,test}.csv.gz (as unpacked from ogbn-arxiv.zip / ogbn-products.zip)"
)
_ARXIV_CATEGORY = re.compile(r"^arxiv\s+cs\s+(\w+)$", re.IGNORECASE)


class OgbFormatError(GraphFileError):
    """A folder is not (or not entirely) in OGB's node-property layout."""


@dataclass
class OgbNodes:
    """One OGB node-property dataset: the graph and every split scheme the folder holds."""

    graph: TextGraph
    splits: dict[str, dict[str, np.ndarray]]  # scheme -> {"train" | "val" | "test": node indices}
    folder: Path

    def split(self, scheme: str | None = None) -> dict[str, np.ndarray]:
        """The parts of ``scheme``; without one, the folder's only scheme."""
        if scheme is None:
            if len(self.splits) != 1:
                raise OgbFormatError(
                    f"{self.folder} has split schemes {sorted(self.splits)}; name one of them"
                )
            return next(iter(self.splits.values()))
        if scheme not in self.splits:
            raise OgbFormatError(f"{self.folder} has no split {scheme!r}; it has {sorted(self.splits)}")
        return self.splits[scheme]


def dataset_name(folder: Path) -> str:
    """``ogbn_arxiv`` -> ``ogbn-arxiv`` (how OGB names the dataset)."""
    return folder.resolve().name.lower().replace("_", "-")


def load_ogb_nodes(folder: str | Path, *, progress: bool = False) -> OgbNodes:
    """Read an OGB node-property folder (see the module docstring)."""
    root = Path(folder).expanduser()
    if not root.is_dir():
        raise OgbFormatError(f"OGB folder {root} does not exist; {LAYOUT}")
    missing = [name for name in REQUIRED if not (root / name).is_file()]
    schemes = _split_schemes(root)
    if not schemes:
        missing.append("split/<scheme>/{train,valid,test}.csv.gz")
    if missing:
        raise OgbFormatError(f"{root} is missing {', '.join(missing)}; {LAYOUT}")
    if progress:
        print(f"reading OGB folder {root}", file=sys.stderr)
    labels_raw = _numbers(root / "raw/node-label.csv.gz", np.float64).reshape(-1)
    if np.isnan(labels_raw).any():
        raise OgbFormatError(f"{root / 'raw/node-label.csv.gz'}: some nodes have no label; all must have one")
    count = len(labels_raw)
    _check_count(root, count)
    features = _numbers(root / "raw/node-feat.csv.gz", np.float32)
    if features.shape[0] != count:
        raise OgbFormatError(
            f"{root}: node-feat.csv.gz has {features.shape[0]} rows, node-label.csv.gz {count}"
        )
    edges = _numbers(root / "raw/edge.csv.gz", np.int64)
    if edges.size and edges.shape[1] != 2:
        raise OgbFormatError(f"{root / 'raw/edge.csv.gz'}: expected 'src,dst' lines")
    edges = edges.reshape(-1, 2).T.copy()
    _check_range(root / "raw/edge.csv.gz", edges, count)
    names = _label_names(root)
    labels = [names.get(int(c), f"class {int(c)}") for c in labels_raw]
    ids = [str(i) for i in range(count)]
    titles, texts = _texts(root, count)
    graph = TextGraph(dataset_name(root), ids, labels, features, edges, texts, titles)
    splits = {scheme: _read_split(root / "split" / scheme, count) for scheme in schemes}
    return OgbNodes(graph, splits, root)


# ---------------------------------------------------------------------- files
@contextmanager
def _text(path: Path) -> Iterator[io.TextIOBase]:
    """Open a ``.gz`` or plain text file for reading."""
    confine_file(path, path.name, what="data file")  # a server client's folder may hold a symlink leading out
    opener = gzip.open if path.suffix == ".gz" else open
    try:
        with opener(path, "rt", encoding="utf-8", newline="") as fh:
            yield fh
    except (OSError, EOFError, UnicodeDecodeError) as exc:
        raise OgbFormatError(f"cannot read {path}: {exc}") from exc


def _numbers(path: Path, dtype: type) -> np.ndarray:
    """A headerless comma-separated numeric file as a 2-d array (one row per line)."""
    with _text(path) as fh:
        try:
            values = np.loadtxt(fh, delimiter=",", dtype=dtype, ndmin=2)
        except ValueError as exc:
            raise OgbFormatError(f"{path}: not headerless comma-separated numbers ({exc})") from exc
    return values


def _check_count(root: Path, count: int) -> None:
    path = root / "raw/num-node-list.csv.gz"
    if path.is_file():
        stated = int(_numbers(path, np.int64).sum())
        if stated != count:
            raise OgbFormatError(f"{path} states {stated} nodes, node-label.csv.gz has {count}")


def _check_range(path: Path, indices: np.ndarray, count: int) -> None:
    if indices.size and (indices.min() < 0 or indices.max() >= count):
        raise OgbFormatError(f"{path}: node index {int(indices.max())} outside 0..{count - 1}")


def _split_schemes(root: Path) -> list[str]:
    folder = root / "split"
    if not folder.is_dir():
        return []
    return sorted(
        s.name for s in folder.iterdir() if all((s / f"{stem}.csv.gz").is_file() for stem in PARTS.values())
    )


def _read_split(folder: Path, count: int) -> dict[str, np.ndarray]:
    parts = {}
    for part, stem in PARTS.items():
        path = folder / f"{stem}.csv.gz"
        parts[part] = _numbers(path, np.int64).reshape(-1)
        _check_range(path, parts[part], count)
    return parts


def _label_names(root: Path) -> dict[int, str]:
    """``label idx -> name`` from ``mapping/labelidx2*.csv.gz``; arxiv's ``arxiv cs ai`` reads ``cs.AI``."""
    found = sorted((root / "mapping").glob("labelidx2*.csv*")) if (root / "mapping").is_dir() else []
    if not found:
        return {}
    names: dict[int, str] = {}
    with _text(found[0]) as fh:
        for row in csv.reader(fh):
            if len(row) >= 2 and row[0].strip().isdigit():
                name = row[1].strip()
                match = _ARXIV_CATEGORY.match(name)
                names[int(row[0])] = f"cs.{match.group(1).upper()}" if match else name
    return names


def _first_file(root: Path, *names: str) -> Path | None:
    for folder in (root, root / "mapping"):
        for name in names:
            if (folder / name).is_file():
                return folder / name
    return None


def _texts(root: Path, count: int) -> tuple[list[str] | None, list[str] | None]:
    """``(titles, title + text)`` from ``node-text.csv`` or arxiv's ``titleabs.tsv``; ``(None, None)`` without."""
    path = _first_file(root, "node-text.csv.gz", "node-text.csv")
    if path is not None:
        return _node_text(path, count)
    path = _first_file(root, "titleabs.tsv.gz", "titleabs.tsv")
    mapping = root / "mapping/nodeidx2paperid.csv.gz"
    if path is None:
        return None, None
    if not mapping.is_file():
        raise OgbFormatError(f"{path} is keyed by paper id, but {mapping} (node idx -> paper id) is missing")
    return _title_abstract(path, mapping, count)


def _node_text(path: Path, count: int) -> tuple[list[str], list[str]]:
    titles, texts = [""] * count, [""] * count
    with _text(path) as fh:
        reader = csv.DictReader(fh)
        if not {"node_idx", "title"} <= set(reader.fieldnames or ()):
            raise OgbFormatError(f"{path}: expected a header 'node_idx,title,content'")
        for row in reader:
            node = (row.get("node_idx") or "").strip()
            if not node.isdigit() or int(node) >= count:
                raise OgbFormatError(f"{path}: node_idx {node!r} is not a node index below {count}")
            title = normalise_text(row.get("title"))
            titles[int(node)] = title
            texts[int(node)] = f"{title} {normalise_text(row.get('content'))}".strip()
    return titles, texts


def _title_abstract(path: Path, mapping: Path, count: int) -> tuple[list[str], list[str]]:
    node_of: dict[str, int] = {}
    with _text(mapping) as fh:
        for row in csv.reader(fh):
            if len(row) >= 2 and row[0].strip().isdigit():
                node_of[row[1].strip()] = int(row[0])
    titles, texts = [""] * count, [""] * count
    csv.field_size_limit(1 << 24)
    with _text(path) as fh:
        for row in csv.reader(fh, delimiter="\t", quoting=csv.QUOTE_NONE):
            node = node_of.get(row[0].strip()) if row else None
            if node is None or node >= count:
                continue  # header, trailer, or a paper outside the dataset
            title = normalise_text(row[1] if len(row) > 1 else "")
            titles[node] = title
            texts[node] = f"{title} {normalise_text(row[2] if len(row) > 2 else '')}".strip()
    return titles, texts
