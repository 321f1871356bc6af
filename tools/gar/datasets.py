"""Edge-list datasets for GAR's library algorithms: which engine runs them, and the compiled engine's reader.

``engine="auto"`` sends a dataset to Spark when it is not a local CSV file or
when reading it would need more memory than this process may still take
(:func:`memory_available`: the machine's available memory, the process's
address-space limit and its cgroup's limit, whichever is least); otherwise the
compiled engine reads it into memory. The compiled reader takes CSV only
(Parquet needs the Spark engine here) and refuses, before reading, a file it
would run out of memory on, with a message that names ``--engine spark``.
"""

from __future__ import annotations

import csv
import gzip
import os
from typing import Any

import numpy as np

from graphreason.tools.gar.vertex.graph import VertexGraph, VertexProgramError

# Peak memory of the compiled engine per byte of CSV it reads, with the run: calibrated on the peak
# memory (RSS) that benchmarks/bench_gar_spark.py prints for shortest path at 10^6 and 10^7 edges.
COMPILED_BYTES_PER_CSV_BYTE = 22
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
    size = _text_bytes(local) if os.path.isfile(local) else _folder_size(local)
    fits, need, have, limit = compiled_fit(size)
    if not fits:
        return "spark", (
            f"reading the {_size(size)} CSV would need about {_size(need)} of memory; {_size(have)} is available ({limit})"
        )
    room = f" of the {_size(have)} available" if have is not None else ""
    return "compiled", f"a local CSV of {_size(size)} needs about {_size(need)}{room}"


def _folder_size(folder: str) -> int:
    return sum(os.path.getsize(os.path.join(root, f)) for root, _, files in os.walk(folder) for f in files)


def _text_bytes(local: str) -> int:
    """The bytes of CSV text in a local file; a gzip file's come from its trailer, which holds them mod 4 GiB.

    Past 4 GiB of text the trailer's count is taken up to the least value with that remainder that is not
    below the compressed size (a floor: CSV compresses, so its text is larger than its gzip file).
    """
    size = os.path.getsize(local)
    if local.endswith(".gz") and size >= 4:
        with open(local, "rb") as handle:
            handle.seek(-4, os.SEEK_END)
            text = int.from_bytes(handle.read(4), "little")
        while size >= 1 << 20 and text < size:  # a small file may be shorter as text than compressed
            text += 1 << 32
        return text
    return size


def _size(n: float) -> str:
    for unit in ("bytes", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return f"{n:.0f} {unit}" if unit == "bytes" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} TiB"  # pragma: no cover


def compiled_memory_needed(csv_bytes: int) -> int:
    """About how many bytes the compiled engine takes to read and run a CSV edge list of ``csv_bytes``."""
    return COMPILED_BYTES_PER_CSV_BYTE * csv_bytes


def memory_available() -> tuple[int | None, str]:
    """(bytes this process may still allocate, what sets that), or (None, why unknown).

    The least of: the machine's ``MemAvailable``; the room left under the
    process's address-space limit (``ulimit -v``); the room left under its
    cgroup's ``memory.max`` (a container's limit).
    """
    found: list[tuple[int, str]] = []
    meminfo = _read_numbers("/proc/meminfo", "MemAvailable:")
    if meminfo is not None:
        found.append((meminfo * 1024, "the machine's available memory"))
    try:
        import resource

        soft, _ = resource.getrlimit(resource.RLIMIT_AS)
        if soft != resource.RLIM_INFINITY:
            used = (_read_numbers("/proc/self/status", "VmSize:") or 0) * 1024
            found.append((max(0, soft - used), f"the process's address-space limit of {_size(soft)}"))
    except (ImportError, OSError, ValueError):
        pass
    cap = _read_text("/sys/fs/cgroup/memory.max")
    if cap is not None and cap.isdigit():
        current = _read_text("/sys/fs/cgroup/memory.current")
        used = int(current) if current is not None and current.isdigit() else 0
        found.append((max(0, int(cap) - used), f"the container's memory limit of {_size(int(cap))}"))
    if not found:
        return None, "unknown on this system"
    return min(found)


def _read_text(path: str) -> str | None:
    try:
        with open(path, encoding="ascii") as handle:
            return handle.read().strip()
    except OSError:
        return None


def _read_numbers(path: str, key: str) -> int | None:
    """The first number on the line of ``path`` that starts with ``key`` (``/proc`` files, in KiB)."""
    text = _read_text(path)
    for line in (text or "").splitlines():
        if line.startswith(key):
            parts = line.split()
            return int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else None
    return None


def compiled_fit(csv_bytes: int) -> tuple[bool, int, int | None, str]:
    """(fits, bytes needed, bytes available or None when unknown, what limits them) for the compiled engine
    reading ``csv_bytes`` of CSV: the one rule behind ``auto`` and the reader's refusal."""
    need = compiled_memory_needed(csv_bytes)
    have, limit = memory_available()
    return have is None or need <= have, need, have, limit


def check_compiled_fits(path: str, size: int) -> None:
    """Refuse, before reading, a CSV the compiled engine would run out of memory on (names ``--engine spark``)."""
    fits, need, have, limit = compiled_fit(size)
    if not fits:
        raise DatasetMemoryError(
            f"the compiled engine would need about {_size(need)} of memory for {path!r} ({_size(size)} of CSV), "
            f"but only {_size(have)} is available ({limit}); run it with --engine spark"
        )


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
    if os.path.isfile(local):
        check_compiled_fits(path, _text_bytes(local))
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
    if isinstance(out.get("edge_flows"), list):
        out["edge_flows"] = [(_plain(labels[int(u)]), _plain(labels[int(v)]), f) for u, v, f in out["edge_flows"]]
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
