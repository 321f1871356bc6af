"""Seeded fuzz: 10,000 malformed inputs, no crash anywhere.

``parse_text`` must never raise and must read its own printed output back
identically; the strict parsers may raise only ToolformerSyntaxError. The time
is printed (run with ``-s``), not asserted; ``benchmarks/bench_toolformer_parse.py
--fuzz 100000`` runs the same check ten times longer.
"""

from __future__ import annotations

import time

from tests.tools.toolformer.calls.fuzz_inputs import check, malformed_inputs

COUNT = 10_000


def test_fuzz_malformed_inputs_never_crash():
    start = time.perf_counter()
    crashes: list[tuple[str, str]] = []
    strict_ok = 0
    for text in malformed_inputs(COUNT, seed=2023):
        try:
            call_ok, bracket_ok = check(text)
        except Exception as error:  # noqa: BLE001 - any escape is what this test hunts
            crashes.append((text[:200], f"{type(error).__name__}: {error}"[:300]))
            continue
        strict_ok += call_ok or bracket_ok
    elapsed = time.perf_counter() - start
    print(f"\nfuzz: {COUNT} inputs, {len(crashes)} crashes, {strict_ok} strictly valid, {elapsed:.2f} s")
    assert not crashes, crashes[:5]
    assert strict_ok < COUNT  # the inputs really are mostly malformed
