"""A tiny folder in OGB's node-property layout, written the way OGB writes its files.

Raw and split files are gzip csv without headers; mapping files have a header
(they are pandas ``to_csv`` output). Two layouts: ``arxiv`` (label names
``arxiv cs ..``, paper ids and a ``titleabs.tsv``) and ``products`` (a
``node-text.csv`` written by a user, a ``sales_ranking`` split).

The graph: two groups of nodes, 0..n/2-1 class 0 and the rest class 1, linked
in a ring inside each group; each node's features and text say its group, so a
classifier can learn it from a few training nodes.
"""

from __future__ import annotations

import gzip
from pathlib import Path

import numpy as np


def _write(path: Path, lines: list[str]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with gzip.open(path, "wt", encoding="utf-8") as fh:
        fh.write("".join(line + "\n" for line in lines))


def write_ogb_folder(root: Path, layout: str = "arxiv", nodes: int = 40, seed: int = 0) -> Path:
    """Write the fixture under ``root/ogbn_<layout>`` and return that folder."""
    folder = root / f"ogbn_{layout}"
    rng = np.random.default_rng(seed)
    half = nodes // 2
    labels = [0] * half + [1] * (nodes - half)
    edges = [(i, (i + 1) % half) for i in range(half)]
    edges += [(half + i, half + (i + 1) % (nodes - half)) for i in range(nodes - half)]
    features = rng.normal(size=(nodes, 4)) + np.array(
        [[2.0, 0, 0, 0] if c == 0 else [-2.0, 0, 0, 0] for c in labels]
    )
    _write(folder / "raw/edge.csv.gz", [f"{a},{b}" for a, b in edges])
    _write(folder / "raw/node-feat.csv.gz", [",".join(f"{v:.6f}" for v in row) for row in features])
    _write(folder / "raw/node-label.csv.gz", [str(c) for c in labels])
    _write(folder / "raw/num-node-list.csv.gz", [str(nodes)])
    _write(folder / "raw/num-edge-list.csv.gz", [str(len(edges))])
    order = rng.permutation(nodes)
    train, valid, test = order[: nodes // 2], order[nodes // 2 : 3 * nodes // 4], order[3 * nodes // 4 :]
    scheme = "time" if layout == "arxiv" else "sales_ranking"
    for name, part in (("train", train), ("valid", valid), ("test", test)):
        _write(folder / f"split/{scheme}/{name}.csv.gz", [str(int(i)) for i in sorted(part)])
    topics = ["robots walking", "database queries"]
    if layout == "arxiv":
        _write(
            folder / "mapping/labelidx2arxivcategeory.csv.gz",
            ["label idx,arxiv category", "0,arxiv cs ro", "1,arxiv cs db"],
        )
        _write(
            folder / "mapping/nodeidx2paperid.csv.gz",
            ["node idx,paper id"] + [f"{i},{9000 + i}" for i in range(nodes)],
        )
        rows = ["paper id\ttitle\tabstract"]  # the real file has a header line too
        rows += [f"{9000 + i}\tPaper {i} on {topics[c]}\tWe study {topics[c]}." for i, c in enumerate(labels)]
        (folder / "titleabs.tsv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    else:
        _write(
            folder / "mapping/labelidx2productcategory.csv.gz",
            ["label idx,product category", "0,Toys & Games", "1,Books"],
        )
        lines = ["node_idx,title,content"] + [
            f'{i},"Item {i}, {topics[c]}",A product about {topics[c]}' for i, c in enumerate(labels)
        ]
        (folder / "node-text.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder
