"""Execute every gold toolx call of Graph-ToolFormer's graph_properties prompts.

Each ``prompts_train`` line is ``Input: ... Output: ... Reasoning Result: ...``;
the Output holds one or more ``[GR(GL("gpr", {"<graph>"}), "toolx:<fn>", args)]``
calls and the Reasoning Result their values, joined by `` <||> `` when there
are several. This script rebuilds each graph (:mod:`graphreason.tools.toolformer.loaders.gpr`), runs
the call through :mod:`graphreason.tools.toolformer.toolx` and compares with the gold value: numbers
to 1e-6, dicts as mappings, lists in order.

Multi-call records: the gold values are not always in the calls' text order
(ChatGPT placed the calls, the values come from the original statement), so a
record whose values match only under another pairing is counted as *matched
after reordering*; ``--strict`` counts those as mismatches instead.

    python benchmarks/toolformer_gpr_gold.py [--parser auto|toolformer|regex] [--strict]
        [--avg-convention networkx|paper] [--path FILE] [--show N]

``--parser auto`` uses the project's call parser
(``graphreason.tools.toolformer.calls.parse``) when it imports, else a regex of this file.
"""

from __future__ import annotations

import argparse
import ast
import itertools
import math
import re
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a script from anywhere

from graphreason.settings import data_root  # noqa: E402
from graphreason.tools.core.errors import GraphError  # noqa: E402
from graphreason.tools.toolformer import toolx  # noqa: E402
from graphreason.tools.toolformer.loaders.gpr import gpr_graph  # noqa: E402

PROMPTS = Path("Graph_Toolformer/prompt/graph_properties/prompts_train")
RECORD = re.compile(r"^Input: (?P<input>.*?) Output: (?P<output>.*) Reasoning Result: (?P<result>.*)$")
GOLD_SEPARATOR = " <||> "
TOLERANCE = 1e-6

# the regex fallback: exactly the one GL form graph_properties uses
_REGEX_CALL = re.compile(
    r'\[\s*GR\(\s*GL\(\s*"gpr"\s*,\s*\{\s*"(?P<graph>[^"]+)"\s*\}\s*\)\s*,\s*"(?P<func>[^"]+)"'
    r'(?P<args>(?:\s*,\s*"?[^",()\]]*"?)*)\s*\)\s*(?:-->?\s*\w+)?\s*\]'
)


@dataclass(frozen=True)
class GoldCall:
    graph: str
    func: str
    args: tuple[str, ...] = ()


@dataclass
class Outcome:
    """One record's verdict: ``ok`` (text order), ``reordered``, ``mismatch`` or ``error``."""

    line: int
    calls: list[GoldCall]
    gold: list[object]
    got: list[object]
    verdict: str
    detail: str = ""
    per_call: list[bool] = field(default_factory=list)


def regex_calls(output: str) -> list[GoldCall]:
    calls = []
    for m in _REGEX_CALL.finditer(output):
        args = tuple(a.strip().strip('"') for a in m.group("args").split(",") if a.strip())
        calls.append(GoldCall(m.group("graph"), m.group("func"), args))
    return calls


def parser_calls(output: str) -> list[GoldCall]:
    """Gold calls read with the project's Graph-ToolFormer parser."""
    from graphreason.tools.toolformer.calls import ast as t
    from graphreason.tools.toolformer.calls.parse import parse_text

    def text_of(expr: object) -> str:
        if isinstance(expr, t.NodeRef):
            return expr.id
        if isinstance(expr, (t.Str, t.Name, t.Bool)):
            return str(expr.value)
        if isinstance(expr, t.Number):
            return expr.text
        raise ValueError(f"unexpected argument {expr!r}")

    calls = []
    for bracket in parse_text(output).brackets:
        for call in bracket.calls:
            loader, func, *rest = call.args
            _, instance = loader.args  # GL("gpr", {"name"})
            graph = instance.items[0] if isinstance(instance, t.SetOf) else instance
            calls.append(GoldCall(text_of(graph), text_of(func), tuple(text_of(a) for a in rest)))
    return calls


def pick_parser(name: str) -> tuple[str, Callable[[str], list[GoldCall]]]:
    if name == "regex":
        return "regex", regex_calls
    try:
        import graphreason.tools.toolformer.calls.parse  # noqa: F401
    except ImportError:
        if name == "toolformer":
            raise
        return "regex", regex_calls
    return "toolformer", parser_calls


def gold_value(text: str) -> object:
    """``'{0: 2, 1: 3}.'`` -> dict, ``'4.'`` -> 4, ``'[5, 6].'`` -> list; unreadable text stays a string."""
    text = text.strip()
    for candidate in (text, text.removesuffix(".")):
        try:
            return ast.literal_eval(candidate)
        except (ValueError, SyntaxError):
            continue
    return text


def same(got: object, gold: object) -> bool:
    if isinstance(got, bool) or isinstance(gold, bool):
        return got == gold
    if isinstance(got, (int, float)) and isinstance(gold, (int, float)):
        if math.isinf(got) or math.isinf(gold):
            return got == gold
        return abs(got - gold) <= TOLERANCE
    if isinstance(got, dict) and isinstance(gold, dict):
        return got.keys() == gold.keys() and all(same(got[k], gold[k]) for k in got)
    if isinstance(got, list) and isinstance(gold, list):
        return len(got) == len(gold) and all(same(a, b) for a, b in zip(got, gold, strict=True))
    return got == gold


def execute(call: GoldCall, avg_convention: str = "networkx") -> object:
    kwargs = {"convention": avg_convention} if toolx.function_key(call.func) == "avg_path_length" else {}
    return toolx.call(call.func, gpr_graph(call.graph), *call.args, **kwargs)


def check_record(
    line: int, output: str, result: str, read_calls: Callable[[str], list[GoldCall]], avg_convention: str
) -> Outcome:
    gold = [gold_value(part) for part in result.split(GOLD_SEPARATOR)]
    try:
        calls = read_calls(output)
    except (ValueError, TypeError, AttributeError) as exc:  # a call shape this check does not know
        return Outcome(line, [], gold, [], "error", f"unreadable call: {exc}")
    if not calls:
        return Outcome(line, calls, gold, [], "error", "no call found in the Output")
    try:
        got = [execute(c, avg_convention) for c in calls]
    except GraphError as exc:
        return Outcome(line, calls, gold, [], "error", f"{type(exc).__name__}: {exc}")
    if len(gold) != len(calls):
        return Outcome(line, calls, gold, got, "mismatch", f"{len(calls)} calls but {len(gold)} gold values")
    per_call = [same(a, b) for a, b in zip(got, gold, strict=True)]
    if all(per_call):
        return Outcome(line, calls, gold, got, "ok", per_call=per_call)
    for order in itertools.permutations(range(len(gold))):
        if all(same(got[i], gold[j]) for i, j in enumerate(order)):
            return Outcome(line, calls, gold, got, "reordered", f"gold order {order}", [True] * len(calls))
    return Outcome(line, calls, gold, got, "mismatch", per_call=per_call)


def run(
    path: Path | None = None, parser: str = "auto", avg_convention: str = "networkx"
) -> tuple[str, list[Outcome]]:
    """Check every record of ``path`` (default: the data root's graph_properties prompts_train)."""
    path = path or data_root() / PROMPTS
    parser_name, read_calls = pick_parser(parser)
    outcomes = []
    with open(path, encoding="utf-8") as handle:
        for number, raw in enumerate(handle, start=1):
            match = RECORD.match(raw.rstrip("\n"))
            if not match:
                outcomes.append(
                    Outcome(number, [], [], [], "error", "not an Input/Output/Reasoning Result line")
                )
                continue
            outcomes.append(
                check_record(number, match["output"], match["result"], read_calls, avg_convention)
            )
    return parser_name, outcomes


def accuracy(outcomes: list[Outcome], strict: bool = False) -> float:
    good = {"ok"} if strict else {"ok", "reordered"}
    return sum(o.verdict in good for o in outcomes) / max(len(outcomes), 1)


def per_function(outcomes: list[Outcome], strict: bool = False) -> dict[str, tuple[int, int]]:
    """function -> (calls right, calls checked), counting each call of each record."""
    right: Counter[str] = Counter()
    total: Counter[str] = Counter()
    for o in outcomes:
        for i, call in enumerate(o.calls):
            key = _key(call.func)
            total[key] += 1
            fine = o.verdict == "ok" or (o.verdict == "reordered" and not strict)
            right[key] += fine or (o.verdict == "mismatch" and i < len(o.per_call) and o.per_call[i])
    return {k: (right[k], total[k]) for k in sorted(total)}


def _key(func: str) -> str:
    try:
        return toolx.function_key(func)
    except GraphError:
        return func


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--parser", choices=("auto", "toolformer", "regex"), default="auto")
    ap.add_argument("--avg-convention", choices=("networkx", "paper"), default="networkx")
    ap.add_argument("--strict", action="store_true", help="gold values must follow the calls' text order")
    ap.add_argument(
        "--path", type=Path, default=None, help="a prompts file (default: graph_properties train)"
    )
    ap.add_argument("--show", type=int, default=20, help="mismatches to print")
    args = ap.parse_args(argv)

    parser_name, outcomes = run(args.path, args.parser, args.avg_convention)
    verdicts = Counter(o.verdict for o in outcomes)
    print(f"records: {len(outcomes)}  parser: {parser_name}  avg convention: {args.avg_convention}")
    print("verdicts: " + ", ".join(f"{k} {v}" for k, v in sorted(verdicts.items())))
    print(f"\n{'function':18} {'right':>6} {'calls':>6} {'acc':>8}")
    for func, (good, total) in per_function(outcomes, args.strict).items():
        print(f"{func:18} {good:6d} {total:6d} {good / total:8.2%}")
    calls_total = sum(len(o.calls) for o in outcomes)
    calls_right = sum(g for g, _ in per_function(outcomes, args.strict).values())
    print(f"{'all calls':18} {calls_right:6d} {calls_total:6d} {calls_right / max(calls_total, 1):8.2%}")
    print(
        f"records fully right: {accuracy(outcomes, args.strict):.2%}"
        + (" (strict order)" if args.strict else "")
    )
    bad = [
        o
        for o in outcomes
        if o.verdict in ({"mismatch", "error", "reordered"} if args.strict else {"mismatch", "error"})
    ]
    for o in bad[: args.show]:
        print(f"\nline {o.line}: {o.verdict} {o.detail}")
        for i, call in enumerate(o.calls):
            got = o.got[i] if i < len(o.got) else "-"
            gold = o.gold[i] if i < len(o.gold) else "-"
            print(f"  {call.graph} {call.func} {list(call.args)}: got {got!r} gold {gold!r}")
    if len(bad) > args.show:
        print(f"\n... {len(bad) - args.show} more")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
