"""What the announced first-use steps take with an empty cache: the figures their estimates must match.

Three kinds of one-time work announce a duration before they start (``graphreason: first use: ...``):

* converting the embedded model's GGUF file into the cache on its first start;
* training each graph model of Graph-ToolFormer on each of its datasets (``graphreason train all --json``
  in a child process with an empty ``GRAPHREASON_CACHE``; the ``seconds`` of each report, fit and
  feature building included);
* distilling the static word-piece table of the ``minilm-static`` embedder.

Writes ``benchmarks/results/first_use.json``; ``tests/runtime/test_first_use.py`` checks every announced
estimate against it (within a factor of 2). Run it on a quiet machine.

    python benchmarks/first_use.py [--skip-convert] [--skip-models] [--skip-distil]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from record import write_result  # noqa: E402

_CONVERT = """
import json, time
from graphreason.llm.engine.cpu_threads import apply_thread_choice
from graphreason.llm.engine.local_smollm import ensure_converted
apply_thread_choice()  # what load_engine does first
started = time.perf_counter()
folder, converted = ensure_converted()
assert converted, "the cache already held the converted model"
print(json.dumps({"seconds": round(time.perf_counter() - started, 2)}))
"""

_DISTIL = """
import json, sys, time
from graphreason.tools.core.retrieval.embedders import minilm_path
from graphreason.tools.core.retrieval.static import static_table
folder = minilm_path()
started = time.perf_counter()
static_table(folder)
print(json.dumps({"seconds": round(time.perf_counter() - started, 2)}))
"""


def _child(args: list[str], cache: Path) -> str:
    env = {**os.environ, "GRAPHREASON_CACHE": str(cache)}
    return subprocess.run([sys.executable, *args], env=env, check=True, capture_output=True, text=True).stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skip-convert", action="store_true", help="leave the model conversion out")
    parser.add_argument("--skip-models", action="store_true", help="leave the graph models out")
    parser.add_argument("--skip-distil", action="store_true", help="leave the static table out")
    args = parser.parse_args()
    figures: dict[str, object] = {}
    with tempfile.TemporaryDirectory(prefix="first-use-") as tmp:
        if not args.skip_convert:
            convert = json.loads(_child(["-c", _CONVERT], Path(tmp) / "convert").strip().splitlines()[-1])
            figures["model_conversion_seconds"] = convert["seconds"]
            print(f"embedded model conversion: {convert['seconds']:.1f} s")
        if not args.skip_distil:
            distil = json.loads(_child(["-c", _DISTIL], Path(tmp) / "distil").strip().splitlines()[-1])
            figures["static_table_seconds"] = distil["seconds"]
            print(f"static word-piece table: {distil['seconds']:.1f} s")
        if not args.skip_models:
            started = time.perf_counter()
            out = _child(["-m", "graphreason.cli", "train", "all", "--json", "--no-progress"], Path(tmp) / "models")
            reports = json.loads(out[out.index("[") :])
            seconds = {f"{r['domain']}/{r['dataset']}": round(r["seconds"], 1) for r in reports}
            for pair, value in seconds.items():
                print(f"{pair:24s} {value:8.1f} s")
            figures["train_seconds"] = seconds
            figures["train_all_wall_seconds"] = round(time.perf_counter() - started, 1)
    write_result("first_use", figures)


if __name__ == "__main__":
    main()
