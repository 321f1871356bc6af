"""The one JSON-lines reader: every ``.jsonl`` file in the project (datasets, eval records) goes through it.

Blank lines are skipped; a line that is not JSON raises the caller's error type
with the file and line number (or, for files a crash may have torn, such as
eval records, is skipped).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, Any


def _lines(source: str | Path | IO[str]) -> Iterator[str]:
    if isinstance(source, (str, Path)):
        with Path(source).expanduser().open(encoding="utf-8-sig") as handle:
            yield from handle
    else:
        yield from source


def read_jsonl(
    source: str | Path | IO[str],
    *,
    error: type[Exception] = ValueError,
    skip_bad: bool = False,
    name: str | None = None,
) -> Iterator[tuple[int, Any]]:
    """``(line number, value)`` for each non-blank line of ``source`` (a path or an open text file).

    A line that is not JSON raises ``error`` naming the file (``name``, else the
    path) and line, or is skipped when ``skip_bad`` is set.
    """
    where = name or (str(source) if isinstance(source, (str, Path)) else getattr(source, "name", "<stream>"))
    for number, line in enumerate(_lines(source), 1):
        text = line.strip()
        if not text:
            continue
        try:
            yield number, json.loads(text)
        except (json.JSONDecodeError, RecursionError) as err:
            if skip_bad:
                continue
            detail = (
                f"{err.msg}, column {err.colno}"
                if isinstance(err, json.JSONDecodeError)
                else "nested too deep"
            )
            raise error(f"{where} line {number}: not valid JSON ({detail})") from err


def write_jsonl(path: str | Path, rows: Iterable[Any]) -> Path:
    """Write ``rows`` one JSON object per line (UTF-8, non-ASCII kept); returns the path."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    with target.open("w", encoding="utf-8") as handle:
        for row in rows:
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")
    return target
