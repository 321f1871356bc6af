"""Edge-list datasets for GAR's library algorithms: which engine runs them, and the compiled engine's reader.

``engine="auto"`` sends a dataset to Spark when it is not a local CSV file or
when the file is larger than :data:`AUTO_SPARK_BYTES` (a CSV edge takes about
20 bytes on disk and, merged and mirrored, about 100 bytes in the compiled
engine's arrays); otherwise the compiled engine reads it into memory. The
compiled reader takes CSV only (Parquet needs the Spark engine here).
"""

from __future__ import annotations

import csv
import gzip
import os
from typing import Any

import numpy as np

from graphreason.tools.gar.vertex.graph import VertexGraph, VertexProgramError

AUTO_SPARK_BYTES = 1 << 30  # 1 GiB of CSV: some 5*10^7 edges, several GB of arrays in the compiled engine
ENGINES = ("auto", "compiled", "spark")


class DatasetMemoryError(VertexProgramError):
    """The compiled engine ran out of memory on a dataset (the message names ``--engine spark``)."""


def choose_engine(path: str, engine: str = "auto", fmt: str | None = None) -> tuple[str, str]:
    """(engine, why) for an edge dataset at ``path``."""
    from graphreason.tools.gar.spark.edges import check_path, dataset_format, is_local

    if engine not in ENGINES:
        raise VertexProgramError(f"unknown engine {engine!r}; use one of {', '.join(ENGINES)}")
    check_path(path)
    kind = dataset_format(path, fmt)
    if engine != "auto":
        return engine, "asked for"
    if not is_local(path):
        return "spark", "the dataset is on a remote filesystem"
    if kind != "csv":
        return "spark", "the compiled reader takes CSV only"
    local = path[len("file://"):] if path.startswith("file://") else path
    size = os.path.getsize(local) if os.path.isfile(local) else _folder_size(local)
    if size > AUTO_SPARK_BYTES:
        return "spark", f"the dataset ({size / 2**30:.1f} GiB) is larger than {AUTO_SPARK_BYTES / 2**30:.0f} GiB"
    return "compiled", f"a local CSV of {size / 2**20:.1f} MiB fits in memory"


def _folder_size(folder: str) -> int:
    return sum(os.path.getsize(os.path.join(root, f)) for root, _, files in os.walk(folder) for f in files)


def read_edge_csv(path: str, *, directed: bool = False, parallel: str = "min") -> VertexGraph:
    """A local CSV edge list (header ``src,dst[,weight]``) as the compiled engine's graph.

    Nodes are numbered in sorted id order, as the Spark reader numbers them, and keep
    their ids as labels. Bad rows get one clear error naming the line.
    """
    from graphreason.tools.gar.spark.edges import EdgeDatasetError

    local = path[len("file://"):] if path.startswith("file://") else path
    if os.path.isdir(local):
        raise EdgeDatasetError(f"{path!r} is a folder; the compiled engine reads one CSV file (use --engine spark)")
    opener: Any = gzip.open if local.endswith(".gz") else open
    try:
        with opener(local, "rt", encoding="utf-8", newline="") as handle:
            reader = csv.reader(handle, delimiter="\t" if local.endswith((".tsv", ".tsv.gz")) else ",")
            header = next(reader, None)
            if header is None:
                raise EdgeDatasetError(f"the edge dataset {path!r} is empty")
            header = [h.strip() for h in header]
            missing = [c for c in ("src", "dst") if c not in header]
            if missing:
                raise EdgeDatasetError(
                    f"the edge dataset {path!r} has no column(s) {', '.join(missing)}; its columns are: "
                    f"{', '.join(header)} (it needs src, dst and optionally weight)"
                )
            i_src, i_dst = header.index("src"), header.index("dst")
            i_w = header.index("weight") if "weight" in header else None
            src, dst, weight = [], [], []
            for line, row in enumerate(reader, start=2):
                if not row:
                    continue
                try:
                    u, v = row[i_src].strip(), row[i_dst].strip()
                    w = row[i_w].strip() if i_w is not None else "1"
                except IndexError:
                    raise EdgeDatasetError(f"line {line} of {path!r} has {len(row)} fields; the header has {len(header)}") from None
                if not u or not v:
                    raise EdgeDatasetError(f"line {line} of {path!r} has an empty src or dst")
                try:
                    value = float(w)
                except ValueError:
                    raise EdgeDatasetError(f"line {line} of {path!r}: the weight {w!r} is not a number") from None
                if not np.isfinite(value):
                    raise EdgeDatasetError(f"line {line} of {path!r}: the weight {w!r} is not a finite number")
                src.append(u)
                dst.append(v)
                weight.append(value)
    except MemoryError:
        raise DatasetMemoryError(
            f"the compiled engine ran out of memory reading {path!r}; run it with --engine spark"
        ) from None
    if not src:
        raise EdgeDatasetError(f"the edge dataset {path!r} has no edges")
    try:
        ids: list[Any] = [int(x) for x in (*src, *dst)]
        numeric = True
    except ValueError:
        ids, numeric = [*src, *dst], False
    try:
        labels, index = np.unique(np.array(ids, dtype=np.int64 if numeric else object), return_inverse=True)
        m = len(src)
        edges = np.column_stack([index[:m], index[m:], np.array(weight)])
        return VertexGraph.from_edges(
            int(labels.size), edges, directed=directed, parallel=parallel,  # type: ignore[arg-type]
            labels=labels.tolist(),
        )
    except MemoryError:
        raise DatasetMemoryError(
            f"the compiled engine ran out of memory building the graph of {path!r}; run it with --engine spark"
        ) from None


_NODE_LISTS = ("path", "component_of_node", "unremovable", "unplaced")


def relabel(name: str, output: dict[str, Any], labels: Any) -> dict[str, Any]:
    """The structured answer in the dataset's own node ids; the text restated with them.

    ``labels[i]`` is the dataset id of node ``i``. The Result parts word their text
    with node numbers; on a dataset whose ids are not ``0 .. n-1`` those numbers are
    the engine's own, so the text is replaced by a plain statement of the relabelled answer.
    """
    out = dict(output)

    def ids(nodes: Any) -> list[Any]:
        return [_plain(labels[int(v)]) for v in nodes]

    answer = out.get("answer")
    kind_nodes = name in ("neighbourhood", "topological_sort", "pagerank")
    if isinstance(answer, dict):
        out["answer"] = {_plain(labels[int(k)]): v for k, v in answer.items()}
    elif kind_nodes and isinstance(answer, list):
        out["answer"] = ids(answer)
    elif name == "degree" and isinstance(answer, list):
        out["answer"] = {_plain(labels[i]): v for i, v in enumerate(answer)}
    for key in _NODE_LISTS:
        if isinstance(out.get(key), list):
            out[key] = ids(out[key])
    if isinstance(out.get("components"), list):
        out["components"] = [ids(c) for c in out["components"]]
    if isinstance(out.get("by_hop"), dict):
        out["by_hop"] = {h: ids(v) for h, v in out["by_hop"].items()}
    if isinstance(out.get("labels"), list):
        out["labels"] = list(out["answer"]) if name == "pagerank" else out["labels"]
    shown = out["answer"]
    if isinstance(shown, dict | list) and len(shown) > 20:
        shown = f"{type(shown).__name__} of {len(shown)} entries"
    extra = f"; path {out['path']}" if out.get("path") else ""
    out["text"] = f"{name} on {len(labels)} nodes (dataset ids): answer {shown}{extra}."
    return out


def identity_labels(labels: Any) -> bool:
    """Whether ``labels`` are exactly ``0 .. n-1`` (answers then need no renaming)."""
    return all(isinstance(x, int | np.integer) and int(x) == i for i, x in enumerate(labels))


def _plain(value: Any) -> Any:
    return value.item() if isinstance(value, np.generic) else value
