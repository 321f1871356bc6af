"""Seeded random call-language trees, and a "messy" printer that spells them the
many ways the grammar allows (extra spaces and newlines, ``->``, ``node #4``,
``key : value``), for the round-trip and fuzz tests and the benchmarks."""

from __future__ import annotations

import random

from graphreason.tools.toolformer.calls.ast import (
    Bool,
    Bracket,
    Call,
    Document,
    Expr,
    Keyword,
    Name,
    NodeRef,
    Number,
    Placeholder,
    Segment,
    SetOf,
    Str,
    Text,
    TupleOf,
)
from graphreason.tools.toolformer.calls.parse import CALL_START, PLACEHOLDER, classify_bare, quoted_value
from graphreason.tools.toolformer.calls.printer import print_expr

FUNCS = ["GR", "GL", "gl", "gr", "f", "graph-bert", "topk_recommendation", "_x", "F2"]
KEYS = ["file-path", "is-directed", "entity", "relation", "k", "node_subset"]
KINDS = ["", "paper", "node", "user", "Paper", "entity", "relation", "instance", "x-y_2"]
TARGETS = [None, None, "r", "R", "G_l", "g2", "10"]
ID_CHARS = "abcXYZ0123456789/._'-#>"
STR_CHARS = "abc XYZ09:_-#./'&,(){}"
NAME_CHARS = "abcXYZ09_-/.'>"
TEXT_CHARS = "abc XYZ 09.,;!?#'\"()[]{}:-\n"


def _word(rng: random.Random, chars: str, low: int = 1, high: int = 8) -> str:
    return "".join(rng.choice(chars) for _ in range(rng.randint(low, high)))


def random_str(rng: random.Random) -> Str | NodeRef:
    return quoted_value(_word(rng, STR_CHARS, 0, 12))  # "node#5" comes back as a quoted NodeRef


def random_node_ref(rng: random.Random) -> NodeRef:
    node_id = rng.choice("abcXYZ0123456789/._'-") + _word(rng, ID_CHARS, 0, 10)
    return NodeRef(rng.choice(KINDS), node_id, quoted=rng.random() < 0.3)


def random_name(rng: random.Random) -> Name:
    while True:
        value = " ".join(_word(rng, NAME_CHARS) for _ in range(rng.choice([1, 1, 1, 2, 3])))
        if classify_bare(value) == Name(value):  # not a number or a bool
            return Name(value)


def random_number(rng: random.Random) -> Number:
    forms = [
        lambda: str(rng.randint(0, 10**6)),
        lambda: str(-rng.randint(1, 999)),
        lambda: f"{rng.random():.5f}",
        lambda: f"{rng.randint(1, 9)}e-{rng.randint(1, 9)}",
        lambda: "." + str(rng.randint(0, 99)),
    ]
    return Number(rng.choice(forms)())


def random_expr(rng: random.Random, depth: int = 0) -> Expr:
    leaf = depth >= 4 or rng.random() < 0.55
    makers = [random_str, random_node_ref, random_name, random_number, lambda r: Bool(r.random() < 0.5)]
    if leaf:
        return rng.choice(makers)(rng)
    kind = rng.choice(["call", "set", "tuple"])
    if kind == "call":
        return random_call(rng, depth + 1)
    items = tuple(random_expr(rng, depth + 1) for _ in range(rng.randint(0, 3)))
    return SetOf(items) if kind == "set" else TupleOf(items)


def random_call(rng: random.Random, depth: int = 0) -> Call:
    args = tuple(random_expr(rng, depth) for _ in range(rng.randint(0, 3)))
    keys = rng.sample(KEYS, rng.choice([0, 0, 1, 2]))
    return Call(rng.choice(FUNCS), args, tuple(Keyword(k, random_expr(rng, depth)) for k in keys))


def random_bracket(rng: random.Random) -> Bracket:
    return Bracket(tuple(random_call(rng) for _ in range(rng.choice([1, 1, 1, 2, 3]))), rng.choice(TARGETS))


def random_text(rng: random.Random) -> Text:
    value = _word(rng, TEXT_CHARS, 1, 30)
    # plain text must not itself hold a call or a placeholder
    while CALL_START.search(value) or PLACEHOLDER in value:
        value = value.replace("[", "(")
    return Text(value)


def random_document(rng: random.Random) -> Document:
    segments: list[Segment] = []
    for _ in range(rng.randint(0, 6)):
        if segments and isinstance(segments[-1], Text) or rng.random() < 0.5:
            segments.append(random_bracket(rng) if rng.random() < 0.8 else Placeholder())
        else:
            segments.append(random_text(rng))
    return Document(tuple(segments))


# ---- the messy printer: same tree, non-canonical spelling ----


def _ws(rng: random.Random) -> str:
    return rng.choice(["", "", "", " ", "  ", "\n", " \t"])


def messy_expr(rng: random.Random, value: Expr) -> str:
    if isinstance(value, Call):
        return messy_call(rng, value)
    if isinstance(value, NodeRef):
        sep = "#" if not value.kind else _ws(rng).replace("\n", " ") + "#" + _ws(rng).replace("\n", " ")
        text = f"{value.kind}{sep}{value.id}"
        return f'"{text}"' if value.quoted else text
    if isinstance(value, Name):
        return value.value.replace(" ", rng.choice([" ", "  ", " \n "]))
    if isinstance(value, Bool):
        return rng.choice([str(value.value), str(value.value).lower(), str(value.value).upper()])
    if isinstance(value, SetOf | TupleOf):
        start, end = ("{", "}") if isinstance(value, SetOf) else ("(", ")")
        inner = ",".join(_ws(rng) + messy_expr(rng, v) + _ws(rng) for v in value.items)
        return start + _ws(rng) + inner + _ws(rng) + end
    return print_expr(value)


def messy_call(rng: random.Random, call: Call, space_before_paren: bool = True) -> str:
    parts = [messy_expr(rng, a) for a in call.args]
    parts += [f"{k.key}{_ws(rng)}:{_ws(rng)}{messy_expr(rng, k.value)}" for k in call.keywords]
    gap = _ws(rng) if space_before_paren else ""
    return f"{call.func}{gap}({_ws(rng)}" + ",".join(_ws(rng) + p + _ws(rng) for p in parts) + f"{_ws(rng)})"


def messy_bracket(rng: random.Random, bracket: Bracket, in_text: bool = False) -> str:
    # in running text the first call's name must touch its "(" to be seen as a call
    calls = [messy_call(rng, c, space_before_paren=not in_text or i > 0) for i, c in enumerate(bracket.calls)]
    body = ("," + _ws(rng)).join(calls)
    arrow = (
        "" if bracket.target is None else f"{_ws(rng)}{rng.choice(['-->', '->'])}{_ws(rng)}{bracket.target}"
    )
    return f"[{_ws(rng)}{body}{arrow}{_ws(rng)}]"


def messy_document(rng: random.Random, document: Document) -> str:
    out = []
    for segment in document.segments:
        if isinstance(segment, Bracket):
            out.append(messy_bracket(rng, segment, in_text=True))
        elif isinstance(segment, Placeholder):
            out.append(PLACEHOLDER)
        else:
            out.append(segment.value)
    return "".join(out)
