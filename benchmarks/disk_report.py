"""Disk after first use: the cache and the virtual environment, folder by folder.

By default it reports the cache in use (``GRAPHREASON_CACHE`` or the default) and ``.venv``.
With ``--fresh`` it first runs, in an empty temporary cache, ``graphreason demo`` and the
README's four first examples (one per method), so the figures are what a new user's
machine holds after them:

    python benchmarks/disk_report.py --fresh

Target: the cache holds 0.7 GB or less after ``make demo`` and the four README examples.
Writes ``benchmarks/results/disk.json``.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from record import write_result  # noqa: E402

from graphreason.settings import cache_root  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
CLI = str(Path(sys.executable).with_name("graphreason"))
# the README's first example of each method, as written there
EXAMPLES = [
    ["demo"],
    ["run", "gar", "--question", "Determine whether two nodes are connected in an undirected graph. Q: The nodes "
     "are numbered from 0 to 4, and the edges are: (0,1) (1,2) (3,4). Is there a path between node 0 and node 2?"],
    ["run", "toolformer", "--text", "What is the diameter of the lollipop graph?"],
    ["run", "counselor", "--graph", "cora", "--question",
     'What is the research area of the paper titled "Learning Default Concepts"?'],
    ["run", "graphagent", "--node", "31336"],
]


def size(path: Path) -> int:
    """Bytes of the files under ``path`` (links not followed)."""
    if path.is_file():
        return path.stat().st_size
    total = 0
    for folder, _, files in os.walk(path):
        for name in files:
            file = Path(folder) / name
            if not file.is_symlink():
                total += file.stat().st_size
    return total


def breakdown(root: Path, depth: int = 2) -> dict[str, int]:
    """Bytes per entry ``depth`` levels below ``root`` (relative paths), largest first."""
    found: dict[str, int] = {}
    if not root.exists():
        return found
    for entry in root.iterdir():
        if depth > 1 and entry.is_dir():
            inner = breakdown(entry, depth - 1)
            found.update({f"{entry.name}/{k}": v for k, v in inner.items()} or {entry.name: 0})
        else:
            found[entry.name] = size(entry)
    return dict(sorted(found.items(), key=lambda kv: -kv[1]))


def run_examples(cache: Path) -> list[dict]:
    env = {**os.environ, "GRAPHREASON_CACHE": str(cache)}
    runs = []
    for args in EXAMPLES:
        start = time.perf_counter()
        done = subprocess.run([CLI, *args], env=env, cwd=ROOT, capture_output=True, text=True, check=False)
        runs.append({"command": "graphreason " + " ".join(args[:2]), "exit": done.returncode,
                     "seconds": round(time.perf_counter() - start, 1)})
        print(f"  graphreason {' '.join(args[:2])}: exit {done.returncode} in {runs[-1]['seconds']} s", flush=True)
        if done.returncode:
            print(done.stderr[-2000:], file=sys.stderr)
    return runs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--fresh", action="store_true", help="run the demo and the README examples in an empty cache first")
    args = parser.parse_args()
    figures: dict = {}
    with tempfile.TemporaryDirectory(prefix="disk-report-") as tmp:
        cache = Path(tmp) if args.fresh else cache_root()
        if args.fresh:
            print(f"running the demo and the README's four examples in {cache}", flush=True)
            figures["runs"] = run_examples(cache)
        figures["cache_bytes"] = size(cache) if cache.exists() else 0
        figures["cache"] = breakdown(cache)
        figures["venv_bytes"] = size(ROOT / ".venv")
        figures["fresh"] = args.fresh
    gb = 1e9
    print(f"cache: {figures['cache_bytes'] / gb:.2f} GB")
    for name, count in figures["cache"].items():
        print(f"  {count / 1e6:9.1f} MB  {name}")
    print(f".venv: {figures['venv_bytes'] / gb:.2f} GB")
    write_result("disk", figures)


if __name__ == "__main__":
    main()
