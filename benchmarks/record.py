"""Result files of the benchmarks: every figure a benchmark prints is also written with how it was made.

``write_result(name, figures)`` writes ``benchmarks/results/<name>.json`` with the date,
the commit (and whether the tree had uncommitted changes), the machine (CPU model,
cores, memory), the load average before the run and the command line, beside the
figures. Docs and tests read these files instead of copying numbers.
"""

from __future__ import annotations

import datetime as _dt
import json
import os
import platform
import subprocess
import sys
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).resolve().parent / "results"
_LOAD_AT_START = os.getloadavg()


def _git(*args: str) -> str:
    try:
        return subprocess.run(
            ["git", *args], cwd=RESULTS.parent, capture_output=True, text=True, timeout=10, check=False
        ).stdout.strip()
    except OSError:
        return ""


def machine() -> dict[str, Any]:
    """CPU model, logical cores and memory of this machine."""
    model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError):
        memory = 0
    return {
        "cpu": model or platform.processor(), "cores": os.cpu_count(), "memory_gib": round(memory / 2**30, 1),
        "python": platform.python_version(),
    }


def write_result(name: str, figures: dict[str, Any], measured: str | None = None) -> Path:
    """Write ``figures`` with their provenance to ``benchmarks/results/<name>.json``; returns the path.

    ``measured``: the commit the figures were measured on where that is not this checkout as it is at the end (a
    clone of a committed HEAD taken at the start, which has no uncommitted changes whatever this tree has since)."""
    RESULTS.mkdir(parents=True, exist_ok=True)
    record = {
        "benchmark": name,
        "date": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
        "commit": measured or _git("rev-parse", "--short", "HEAD"),
        "uncommitted_changes": False if measured else bool(_git("status", "--porcelain", "--untracked-files=no")),
        "machine": machine(),
        "load_average_at_start": [round(x, 2) for x in _LOAD_AT_START],
        "command": " ".join([Path(sys.executable).name, *sys.argv]),
        "figures": figures,
    }
    path = RESULTS / f"{name}.json"
    path.write_text(json.dumps(record, indent=2) + "\n")
    print(f"wrote {path.relative_to(RESULTS.parent.parent)}")
    return path
