"""How parsing time of hostile model replies grows with their length (issue 7 §4).

For each family of degenerate text (unclosed braces, unclosed nested calls, many
sibling calls, long blank runs after a label, a deep JSON plan) the best of a few
runs of ``parse_action`` (through ``run_action``) and ``clean_line`` is timed at
doubling sizes. Linear parsing shows a ratio near 2 between consecutive sizes;
the quadratic parser it replaced showed ~4 (12 KB of ``{`` took 8.8 s).

    python benchmarks/bench_action_parsing.py [--max-chars 16000]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from functools import partial

from graphreason.tools.core.store import GraphStore
from graphreason.tools.counselor.calls import run_action
from graphreason.tools.counselor.functions import GraphFunctions
from graphreason.workflows.counselor.parsing import clean_line

FAMILIES: dict[str, Callable[[int], str]] = {
    "unclosed braces": lambda n: "{" * n,
    "unclosed calls": lambda n: ("Feature[1, " * (n // 11))[:n],
    "sibling calls": lambda n: ("Feature[1, title], " * (n // 19))[:n],
    "label + blanks": lambda n: "Plan" + " " * n + "x",
    "json plan": lambda n: '{"plan": "' + "a" * n + '"',
}


def best_of(fn: Callable[[], object], repeat: int = 3) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-chars", type=int, default=16_000)
    args = parser.parse_args()
    store = GraphStore("bench", text_keys={"paper": "title"})
    store.add_node("1", "paper", {"title": "A paper"})
    functions = GraphFunctions(store)
    sizes = []
    n = 1000
    while n <= args.max_chars:
        sizes.append(n)
        n *= 2
    print(f"{'family':18} {'target':11} " + " ".join(f"{s:>9}" for s in sizes) + "   (ms)")
    for name, make in FAMILIES.items():
        for target, fn in (
            ("run_action", lambda t: run_action(t, functions)),
            ("clean_line", lambda t: clean_line(t, "plan")),
        ):
            row = [best_of(partial(fn, make(s))) * 1000 for s in sizes]  # text built outside the timing
            print(f"{name:18} {target:11} " + " ".join(f"{ms:9.2f}" for ms in row))


if __name__ == "__main__":
    main()
