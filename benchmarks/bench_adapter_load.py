"""First and later loads of the embedded model with each shipped adapter, and what they leave on disk.

Each load runs in its own process (as a CLI run would), against a cache that holds
only the converted base model at first: the first load of an adapter includes its
one-time work (today: measuring its int8 scales; before: writing a merged copy of
the model), the second is a later start. ``--code-root`` points at a link tree of
another checkout (``python -m tests.import_tree DIR`` run inside it) to measure that
version with the same procedure:

    python benchmarks/bench_adapter_load.py
    git worktree add /tmp/before <commit> && (cd /tmp/before && python -m tests.import_tree /tmp/before-tree)
    python benchmarks/bench_adapter_load.py --code-root /tmp/before-tree --label before

Writes ``benchmarks/results/adapter_load[-<label>].json``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from disk_report import size  # noqa: E402
from record import write_result  # noqa: E402

ADAPTERS = ("counselor", "graphagent", "toolformer")
CHILD = """
import json, sys, time
root = {root!r}
if root:  # measure another checkout: its link tree instead of the editable install
    sys.meta_path = [f for f in sys.meta_path if "editable" not in repr(f).lower()]
    sys.path.insert(0, root)
start = time.perf_counter()
from graphreason.llm.engine.local_smollm import load_engine
engine = load_engine(adapter={adapter!r})
print(json.dumps({{"seconds": time.perf_counter() - start, "load_seconds": engine.load_seconds,
                  "module": __import__("graphreason.llm.engine.adapter").llm.engine.adapter.__file__}}))
"""


def load(cache: Path, adapter: str | None, root: str) -> dict:
    env = {**os.environ, "GRAPHREASON_CACHE": str(cache)}
    done = subprocess.run(
        [sys.executable, "-c", CHILD.format(root=root, adapter=adapter)], env=env, capture_output=True, text=True,
        check=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--code-root", default="", help="a link tree of another checkout to measure instead")
    parser.add_argument("--label", default="", help="suffix of the result file, e.g. before")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-adapter-") as tmp:
        base_cache = Path(tmp) / "base"
        load(base_cache, None, args.code_root)  # converts the base model once
        base_bytes = size(base_cache)
        rows = []
        cache = Path(tmp) / "run"
        shutil.copytree(base_cache, cache)
        for adapter in ADAPTERS:
            first = load(cache, adapter, args.code_root)
            second = load(cache, adapter, args.code_root)
            rows.append({"adapter": adapter, "first_load_seconds": round(first["seconds"], 2),
                         "later_load_seconds": round(second["seconds"], 2)})
            print(f"  {adapter}: first load {first['seconds']:.1f} s, later {second['seconds']:.1f} s "
                  f"({first['module']})", flush=True)
        plain = load(cache, None, args.code_root)
        figures = {
            "rows": rows, "plain_load_seconds": round(plain["seconds"], 2), "base_cache_bytes": base_bytes,
            "cache_bytes_after_three_adapters": size(cache), "code_root": args.code_root or "this checkout",
        }
        print(f"  plain model: {plain['seconds']:.1f} s; cache {base_bytes / 1e6:.0f} MB with the base model, "
              f"{figures['cache_bytes_after_three_adapters'] / 1e6:.0f} MB after the three adapters")
    write_result("adapter_load" + (f"-{args.label}" if args.label else ""), figures)


if __name__ == "__main__":
    main()
