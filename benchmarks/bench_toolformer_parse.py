"""Throughput of the Graph-ToolFormer call parser, and how its time grows.

1. Real outputs: every ``Output:`` field of the shipped prompt files (when the
   data root has them) through ``parse_text``, ``print_document`` and
   ``calls_of``: records/s and MB/s.
2. Degenerate texts at doubling sizes up to 100 KB (unclosed calls, strings
   holding ``]``, deep braces, bare ``[`` runs, many siblings in one bracket,
   a valid text of many calls): best-of-3 time of ``parse_text``. A ratio near 2
   between consecutive sizes means linear time.
3. ``--fuzz N``: the fuzz test's contract (see tests/tools/toolformer/calls/
   fuzz_inputs.py) over N seeded malformed inputs, mutating the test's seed
   texts plus 5,000 real outputs when the data is there; reports crashes and time.

    python benchmarks/bench_toolformer_parse.py [--fuzz 100000] [--max-chars 100000]

Timings on a shared machine are noisy; compare ratios, not single numbers.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a script from anywhere
from graphreason.settings import DataMissingError
from graphreason.tools.toolformer.calls.errors import ToolformerSyntaxError
from graphreason.tools.toolformer.calls.normalize import calls_of
from graphreason.tools.toolformer.calls.parse import parse_text
from graphreason.tools.toolformer.calls.printer import print_document
from graphreason.tools.toolformer.loaders.prompts import iter_prompt_files, read_prompts
from tests.tools.toolformer.calls.fuzz_inputs import POOL, SEEDS, check, malformed_inputs  # noqa: E402


def _fill(unit: str) -> Callable[[int], str]:
    return lambda n: (unit * (n // len(unit) + 1))[:n]


FAMILIES: dict[str, Callable[[int], str]] = {
    "valid text, many calls": _fill(SEEDS[0] + " "),
    "unclosed calls [f(": _fill("[f("),
    'strings holding ] [f("]': _fill('[f("]'),
    "deep braces [f({{{": lambda n: "[f(" + "{" * (n - 3),
    "bare [ runs": _fill("["),
    "[TBR] runs": _fill("[TBR]"),
    "siblings [f(a), g(b), ...": lambda n: "[" + _fill("g(b), ")(n - 6) + "h()]",
    "long unquoted phrase": lambda n: "[f(" + _fill("word ")(n - 5) + ")]",
}


def best_of(fn: Callable[[], object], repeat: int = 3) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def load_outputs() -> list[str]:
    try:
        return [r.output for _, path in iter_prompt_files() for r in read_prompts(path, problems=[])]
    except DataMissingError as error:
        print(f"real outputs: skipped ({error})")
        return []


def real_outputs(outputs: list[str]) -> None:
    if not outputs:
        return
    size_mb = sum(len(o.encode("utf-8")) for o in outputs) / 1e6
    documents = [parse_text(o) for o in outputs]
    print(f"real outputs: {len(outputs)} records, {size_mb:.2f} MB")
    for label, fn in (
        ("parse_text", lambda: [parse_text(o) for o in outputs]),
        ("print_document", lambda: [print_document(d) for d in documents]),
        ("calls_of (normalize)", lambda: [calls_of(d) for d in documents]),
    ):
        seconds = best_of(fn)
        print(
            f"  {label:<22} {seconds:7.3f} s  {len(outputs) / seconds:10,.0f} records/s  {size_mb / seconds:6.2f} MB/s"
        )


def growth(max_chars: int) -> None:
    sizes = [max_chars // 8, max_chars // 4, max_chars // 2, max_chars]
    print(f"\nparse_text on degenerate texts, best of 3 (seconds; ratio to the half size): {sizes}")
    for name, make in FAMILIES.items():
        cells, previous = [], None
        for n in sizes:
            text = make(n)
            seconds = best_of(lambda text=text: parse_text(text))
            ratio = f" x{seconds / previous:.1f}" if previous else ""
            cells.append(f"{seconds:.4f}{ratio}")
            previous = max(seconds, 1e-9)
        print(f"  {name:<28} " + "  ".join(f"{c:<14}" for c in cells))


def fuzz(count: int, outputs: list[str]) -> None:
    # mutate the real outputs too (a seeded sample) when the data root has them
    pool = POOL + random.Random(0).sample(outputs, min(len(outputs), 5000))
    start = time.perf_counter()
    crashes = strict = 0
    for text in malformed_inputs(count, seed=4242, huge=max(4, count // 2000), pool=pool):
        try:
            call_ok, bracket_ok = check(text)
            strict += call_ok or bracket_ok
        except ToolformerSyntaxError:
            crashes += 1  # check() catches these itself; reaching here means parse_text raised one
        except Exception as error:  # noqa: BLE001 - a crash is what we count
            crashes += 1
            print(f"  crash: {type(error).__name__}: {str(error)[:200]} on {text[:120]!r}")
    elapsed = time.perf_counter() - start
    print(
        f"\nfuzz: {count} inputs ({len(pool)} texts to mutate), {crashes} crashes, {strict} strictly valid, {elapsed:.1f} s"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--fuzz", type=int, default=0, help="also run the fuzz contract over this many inputs")
    ap.add_argument("--max-chars", type=int, default=100_000)
    args = ap.parse_args()
    outputs = load_outputs()
    real_outputs(outputs)
    growth(args.max_chars)
    if args.fuzz:
        fuzz(args.fuzz, outputs)


if __name__ == "__main__":
    main()
