"""GAR's question reading in linear time: every rule fed adversarial repetitions at 10k, 100k and 2M characters.

For each repeated phrase (the words the task rules and the graph-text patterns start
or end with), ``detect_task`` and ``parse_graph_problem`` read the text; the time per
character must stay flat as the text grows (a backtracking rule shows as a ratio that
grows with the size). Prints the worst phrases per size and the growth of the worst
time per character from 10k to 2M; writes ``benchmarks/results/gar_parse_linear.json``.

    python benchmarks/bench_gar_parse_linear.py [--sizes 10000 100000 2000000]

Target: a 2M-character question read in 5 s or less; the time per character at 2M at
most 3 times the one at 10k.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from record import write_result  # noqa: E402

from graphreason.tools.gar.graph_text.parse import parse_graph_problem  # noqa: E402
from graphreason.tools.gar.graph_text.tasks import detect_task  # noqa: E402
from tests.tools.gar.graph_text.adversarial import PHRASES, repeated  # noqa: E402


def read_time(text: str) -> float:
    start = time.perf_counter()
    detect_task(text)
    try:
        parse_graph_problem(text)
    except ValueError:  # most of these texts are not graph problems: refusing them is the answer
        pass
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000, 2_000_000])
    args = parser.parse_args()
    rows = []
    for size in args.sizes:
        for phrase in PHRASES:
            seconds = read_time(repeated(phrase, size))
            rows.append({"size": size, "phrase": phrase, "seconds": round(seconds, 4)})
        worst = sorted((r for r in rows if r["size"] == size), key=lambda r: -r["seconds"])[:3]
        print(f"{size:>9,} chars: worst " + ", ".join(f"{r['phrase']!r} {r['seconds']:.3f} s" for r in worst))
    per_char = {
        size: max(r["seconds"] for r in rows if r["size"] == size) / size for size in args.sizes
    }
    growth = per_char[max(args.sizes)] / per_char[min(args.sizes)]
    print(f"worst time per character, {max(args.sizes):,} against {min(args.sizes):,}: x{growth:.2f}")
    write_result("gar_parse_linear", {"rows": rows, "worst_per_char_growth": round(growth, 2),
                                      "worst_seconds_at_largest": max(r["seconds"] for r in rows)})


if __name__ == "__main__":
    main()
