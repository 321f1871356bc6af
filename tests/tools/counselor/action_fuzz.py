"""Deterministic fuzzing of the Counselor's readers of model output.

Generates hostile and malformed Action / Plan texts from a fixed seed and runs
them through :func:`graphreason.tools.counselor.calls.parse_action`, :func:`graphreason.tools.counselor.calls.run_action`,
:func:`graphreason.workflows.counselor.parsing.clean_line` (which unwraps JSON plans),
``regularize_answer`` and ``parse_verdict``. A crash is any exception other
than the documented :class:`~graphreason.tools.counselor.calls.ActionParseError` from
``parse_action``, or a non-string result.

CI runs a couple of thousand cases (tests/tools/counselor/test_calls_fuzz.py); run many
more by hand, e.g. ``.venv/bin/python -m tests.tools.counselor.action_fuzz 20000``, which
prints the number of crashes and the slowest case.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from graphreason.tools.counselor.calls import ActionParseError, parse_action, run_action
from graphreason.tools.counselor.functions import GraphFunctions
from graphreason.workflows.counselor.parsing import clean_line, parse_verdict, regularize_answer

_NAMES = [
    "Feature",
    "Neighbour",
    "Degree",
    "Retrieve",
    "Finish",
    "neighbors",
    "Search",
    "Final Answer",
    "x",
    "Title",
]
_ATOMS = [
    "1",
    "2",
    "a1",
    "node 3",
    "#4",
    "title",
    "cites",
    "cited_by",
    "name",
    "Graph Agents",
    "answer",
    "",
    "1e999",
    "-0",
    "NaN",
    "²",
    "\u0000",
    "é",
    "None",
    "true",
    "9" * 5000,
    " " * 1000,
    "a" * 5000,
    "'",
    '"',
    "`",
]
_PUNCT = ["[", "]", "(", ")", "{", "}", ",", ";", " and ", ":", "\n", " ", "```json\n", "```", "**", "."]
_JSON_KEYS = ['"function"', '"name"', '"args"', '"arguments"', '"action"', '"command"', '"plan"', '"node"']
_LABELS = ["Action 1: ", "Plan 2: ", "Thought: ", "Action: ", "action 12) ", "Sure! Plan 1: ", ""]


def _call(rng: random.Random, depth: int) -> str:
    """A plausible (possibly broken) bracket call nesting up to ``depth`` levels."""
    name = rng.choice(_NAMES)
    if depth <= 0 or rng.random() < 0.4:
        inner = rng.choice(_ATOMS)
    else:
        inner = _call(rng, depth - 1)
    args = [inner] + [rng.choice(_ATOMS) for _ in range(rng.randrange(3))]
    open_, close = rng.choice([("[", "]"), ("(", ")"), ("[", ""), ("[", "]]"), ("{", "}")])
    return f"{name}{open_}{', '.join(args)}{close}"


def _json(rng: random.Random, depth: int) -> str:
    """A JSON-ish call object, sometimes truncated or nested absurdly."""
    if depth <= 0 or rng.random() < 0.3:
        value = rng.choice(
            ['"Feature"', '"1"', "12", "9" * rng.choice([5, 5000]), "1e999", "[]", "null", '"x"']
        )
    else:
        value = _json(rng, depth - 1)
    key = rng.choice(_JSON_KEYS)
    text = "{" + f"{key}: {value}, " + rng.choice(_JSON_KEYS) + ": [" + value + "]}"
    return text[: rng.randrange(len(text) + 1)] if rng.random() < 0.2 else text


def _mutate(rng: random.Random, text: str) -> str:
    chars = list(text)
    for _ in range(rng.randrange(1, 6)):
        where = rng.randrange(len(chars) + 1)
        roll = rng.random()
        if roll < 0.4 and chars:
            del chars[min(where, len(chars) - 1)]
        elif roll < 0.8:
            chars.insert(where, rng.choice(_PUNCT))
        else:
            chars.insert(where, rng.choice(_ATOMS))
    return "".join(chars)


def generate(rng: random.Random) -> str:
    """One fuzz case; a mix of structured, degenerate and mutated texts."""
    kind = rng.randrange(10)
    if kind == 0:  # deep bracket nesting, balanced or not (the RecursionError finding)
        depth = rng.choice([50, 250, 300, 1000, 5000])
        return rng.choice(["x[", "Feature[", "(", "Feature("]) * depth + "1" + "]" * rng.randrange(depth + 1)
    if kind == 1:  # deep or unclosed JSON (the quadratic / recursion findings)
        depth = rng.choice([10, 300, 2000, 12000])
        return (
            rng.choice(['{"a":', "[", "{", '{"plan": ']) * depth
            + rng.choice(["1", ""])
            + "}" * rng.randrange(3)
        )
    if kind == 2:  # long runs that regexes could backtrack on
        return (
            rng.choice(_LABELS)
            + rng.choice(["plan", "Action", "node", "a"])
            + " " * rng.choice([10, 5000])
            + rng.choice(["x", "#", ""])
        )
    if kind == 3:
        return _json(rng, rng.randrange(6))
    text = rng.choice(_LABELS) + _call(rng, rng.randrange(5))
    if kind in (4, 5):
        text = _mutate(rng, text)
    if kind == 6:
        text = "\n".join([rng.choice(_LABELS) + _call(rng, 2) for _ in range(rng.randrange(1, 4))])
    if kind == 7:
        text = "".join(rng.choice(_PUNCT + _ATOMS + _NAMES) for _ in range(rng.randrange(1, 60)))
    return text


@dataclass
class FuzzReport:
    """Outcome of a fuzz run: crashes (case, target, exception) and the slowest case."""

    cases: int = 0
    crashes: list[tuple[str, str, str]] = field(default_factory=list)
    max_seconds: float = 0.0
    slowest: str = ""


def _targets(functions: GraphFunctions) -> dict[str, Callable[[str], object]]:
    def parse(text: str) -> object:
        try:
            return parse_action(text)
        except ActionParseError as err:  # the documented failure; its message must be text
            return str(err)

    return {
        "parse_action": parse,
        "run_action": lambda t: run_action(t, functions).observation,
        "run_action_simple": lambda t: (
            run_action(t, functions, allow_compound=False, max_depth=2).observation
        ),
        "clean_line_plan": lambda t: clean_line(t, "plan"),
        "clean_line_action": lambda t: clean_line(t, "action"),
        "regularize_answer": regularize_answer,
        "parse_verdict": parse_verdict,
    }


def fuzz(functions: GraphFunctions, n: int, seed: int = 7) -> FuzzReport:
    """Run ``n`` generated cases through every target; never raises itself."""
    rng = random.Random(seed)
    report = FuzzReport()
    targets = _targets(functions)
    for _ in range(n):
        text = generate(rng)
        report.cases += 1
        for name, target in targets.items():
            start = time.perf_counter()
            try:
                out = target(text)
                if name != "parse_action" and not isinstance(out, str):
                    raise TypeError(f"returned {type(out).__name__}, not str")
            except BaseException as exc:  # noqa: BLE001 - counting crashes is the point
                report.crashes.append((text[:200], name, f"{type(exc).__name__}: {str(exc)[:200]}"))
            took = time.perf_counter() - start
            if took > report.max_seconds:
                report.max_seconds, report.slowest = took, f"{name}: {text[:80]!r} ({len(text)} chars)"
    return report


def main(argv: list[str]) -> int:
    from tests.tools.conftest import TitleRetriever, build_paper_graph

    n = int(argv[0]) if argv else 10_000
    store = build_paper_graph()
    start = time.perf_counter()
    report = fuzz(GraphFunctions(store, TitleRetriever(store)), n)
    print(f"cases={report.cases} crashes={len(report.crashes)} total={time.perf_counter() - start:.1f}s")
    print(f"max_seconds={report.max_seconds:.4f} slowest={report.slowest}")
    for crash in report.crashes[:10]:
        print("CRASH", crash)
    return 1 if report.crashes else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
