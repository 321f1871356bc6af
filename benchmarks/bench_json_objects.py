"""Time ``json_objects`` (the GAR master's reply reader) on hostile replies of 12 KB and 120 KB.

The former implementation scanned from every ``{`` to its match (or to the end of
the text), so unclosed braces cost O(n^2): 12 KB of ``{`` took seconds. The
current one pairs braces in one pass with a stack and bounds the parse work.
The former one is timed only at the small size unless ``--slow`` is given.

    python benchmarks/bench_json_objects.py [--slow]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a script from anywhere
from graphreason.tools.core.lenient_json import json_objects  # noqa: E402
from tests.tools.core.test_lenient_json import reference_json_objects  # noqa: E402  (the former implementation)

FAMILIES: dict[str, Callable[[int], str]] = {
    "unclosed braces": lambda n: "{" * n,
    "unclosed objects": lambda n: ('{"a":' * (n // 5))[:n],
    "one long unclosed": lambda n: "{" + "x" * (n - 1),
    "alternating": lambda n: "{}" * (n // 2),
    "deep garbage": lambda n: "{x" * (n // 4) + "}" * (n // 4),
    "normal reply": lambda n: ('{"algorithm": "pagerank", "params": {"top_k": 3}} ' * (n // 50))[:n],
}


def seconds(fn: Callable[[str], object], text: str) -> float:
    start = time.perf_counter()
    fn(text)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--slow", action="store_true", help="also time the former version at 120 KB")
    args = parser.parse_args()
    print(f"{'family':<20}{'chars':>9}{'before (s)':>14}{'after (s)':>12}")
    for name, make in FAMILIES.items():
        for size in (12_000, 120_000):
            text = make(size)
            before = "skipped"
            if size <= 12_000 or args.slow:
                before = f"{seconds(reference_json_objects, text):.3f}"
            print(f"{name:<20}{len(text):>9}{before:>14}{seconds(json_objects, text):>12.4f}")


if __name__ == "__main__":
    main()
