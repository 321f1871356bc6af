"""Announcing a one-time cost before it starts: the CLI and the Python API print the same line.

Converting the embedded model, merging an adapter into it, embedding a graph's
texts and training a graph model happen on first use and are cached; each says
what it does, roughly how long it takes on 2 CPU cores (from measurements on
this project's machine, see the callers) and where the result is kept, on
stderr, before it starts.
"""

from __future__ import annotations

import sys
from pathlib import Path


def duration(seconds: float) -> str:
    """A rough duration: "about 40 s", "about 3 min"."""
    if seconds < 90:
        return f"about {max(5, round(seconds / 5) * 5):.0f} s"
    return f"about {round(seconds / 60):.0f} min"


def announce_first_use(what: str, estimate_s: float | None, where: str | Path) -> str:
    """Print (and return) the line announcing a one-time cost; ``estimate_s`` None when unknown."""
    how_long = f", {duration(estimate_s)} on 2 CPU cores" if estimate_s is not None else ""
    line = f"graphreason: first use: {what}{how_long}; once, then cached in {where}"
    print(line, file=sys.stderr, flush=True)
    return line
