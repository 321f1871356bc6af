"""Seeded malformed inputs for the call-language parser, and the check each must pass.

Inputs are mutations of real-looking outputs (truncation, deleted or duplicated
brackets, quotes and parentheses, inserted random characters, splices), random
printable and control characters, deep nesting and ~100 KB texts. The check
(:func:`check`) holds the parser to its contract: ``parse_text`` never raises
and reads its own printed output back identically; ``parse_call`` and
``parse_bracket`` raise nothing but :class:`ToolformerSyntaxError`. Shared by
the fuzz test and ``benchmarks/bench_toolformer_parse.py``.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

from graphreason.tools.toolformer.calls.ast import Document
from graphreason.tools.toolformer.calls.errors import ToolformerSyntaxError
from graphreason.tools.toolformer.calls.parse import CALL_START, parse_bracket, parse_call, parse_text_spans
from graphreason.tools.toolformer.calls.printer import print_bracket, print_call, print_document

# outputs in the shapes the prompt files use (written for the tests, not copied)
SEEDS = [
    'In the cora network, paper #12 has a topic of [GR(GL("cora"), "graph_bert:topic", paper#12)-->r].',
    'The order of the wheel graph is [GR(GL("gpr", {"wheel_graph"}), "toolx:order")-->r].',
    'The distance from node #1 to node #3 is [GR(GL("gpr", {"path_graph"}), "toolx:shortest_path", "node#1", "node#3")-->r].',
    'Nodes [GR(GL("gpr", {"bull_graph"}), "toolx:center")-->r] have eccentricity [GR(GL("gpr", {"bull_graph"}), "toolx:eccentricity")].',
    'Via relation #/film/film/genre, entity#/m/0abc leads to [GR(GL("freebase"), "transe:tail_entity", entity#/m/0abc, relation#/film/film/genre)-->r].',
    "The relation between entity #dog.n.01 and entity #canine.n.02 is "
    '[GR(GL("wordnet"), "transe:relation", entity#dog.n.01, entity#canine.n.02)-->r].',
    'Instance #7 in mutag has function [GR(GL("mutag"), "seg_bert:molecule_function", instance#7)-->r].',
    'User #u5 rates movie #i9 at [GR(GL("movielens"), "bpr:recommendation", user#u5, movie#i9)-->r].',
    'The top 10 items for user #A1B2 are [GR(GL("amazon"), "bpr:topk_recommendation", user#A1B2, 10)-->r].',
    'Users #user/123 and #bob share [GR(GL("foursquare"), "kmeans:common_community_check", user#user/123, user#bob)-->r].',
    'The [GL("water-graph", {"Oxygen", Hydrogen}, {("Oxygen", "Hydrogen"), (Oxygen, Hydrogen)}, {})] water molecule.',
    '[GL(file-path:"./graphs/lollipop", is-directed:False) --> G_l] then [GR(G_l, "toolx:order") -> r], see [1] and [TBR].',
    "[f1(a), f2(b)] and [gl(entity:/m/027rn, relation:_hyponym)] and [[2, 4], [2]].",
]

# the brackets and calls inside them, so the strict parsers also see near-valid input
BRACKETS = [
    m.group() for seed in SEEDS for m in re.finditer(r"\[[^\]]*\]", seed) if CALL_START.match(m.group())
]
CALLS = [re.sub(r"\s*--?>\s*\w+\s*$", "", b[1:-1]).strip() for b in BRACKETS]
POOL = SEEDS + BRACKETS + CALLS

STRUCTURE = '[](){}",#:->'
NOISE = STRUCTURE + " \n\t\x00\x7f\u00e9\u2028\ud800\U0001f600\\'abcXYZ019_"


def _mutate(rng: random.Random, text: str, pool: list[str]) -> str:
    op = rng.randrange(9)
    n = len(text)
    i = rng.randrange(n + 1)
    if op == 0:  # truncate
        return text[:i]
    spots = [k for k, c in enumerate(text) if c in STRUCTURE] or [0]
    k = rng.choice(spots)
    if op == 1:  # delete a bracket, quote, paren ...
        return text[:k] + text[k + 1 :]
    if op == 2:  # duplicate one
        return text[: k + 1] + text[k:]
    if op == 3:  # insert random characters
        return text[:i] + "".join(rng.choice(NOISE) for _ in range(rng.randint(1, 4))) + text[i:]
    if op == 4:  # replace a character with a random code point
        return text[:i] + chr(rng.randrange(0x110000)) + text[i + 1 :]
    if op == 5:  # splice two outputs
        other = rng.choice(pool)
        return text[:i] + other[rng.randrange(len(other) + 1) :]
    if op == 6:  # swap a structural character for another
        return text[:k] + rng.choice(STRUCTURE) + text[k + 1 :]
    if op == 7:  # repeat a chunk
        j = rng.randrange(i, n + 1)
        return text[:j] + text[i:j] * rng.randint(2, 5) + text[j:]
    return text[:i] + text[rng.randrange(i, n + 1) :]  # cut out a chunk


def _deep(rng: random.Random) -> str:
    depth = rng.choice([63, 64, 65, 200, 3000])
    opener, closer = rng.choice([("f(", ")"), ("{", "}"), ("(", ")"), ("f({(", ")})")])
    body = (
        "[GR("
        + opener * depth
        + "x"
        + closer * (depth if rng.random() < 0.5 else rng.randrange(depth))
        + ")-->r]"
    )
    return body if rng.random() < 0.5 else body[: rng.randrange(len(body))]


def _huge(rng: random.Random, pool: list[str], size: int = 100_000) -> str:
    seed = rng.choice(pool) + " "
    text = (seed * (size // len(seed) + 1))[:size]
    for _ in range(20):
        text = _mutate(rng, text, pool)
    return text


def malformed_inputs(
    count: int, seed: int = 0, huge: int = 4, pool: list[str] | None = None
) -> Iterator[str]:
    """``count`` inputs: mostly 1-3 mutations of a text from ``pool`` (default :data:`POOL`), some
    random noise, deep nesting, and ``huge`` 100 KB texts."""
    pool = pool or POOL
    rng = random.Random(seed)
    for index in range(count):
        if index < huge:
            yield _huge(rng, pool)
            continue
        roll = rng.random()
        if roll < 0.03:
            yield _deep(rng)
        elif roll < 0.08:
            yield "".join(rng.choice(NOISE) for _ in range(rng.randint(0, 80)))
        else:
            text = rng.choice(pool)
            for _ in range(rng.randint(1, 3)):
                text = _mutate(rng, text, pool)
            yield text


def check(text: str) -> tuple[bool, bool]:
    """Hold the parsers to their contract on one input; returns (call parsed, bracket parsed).

    Raises AssertionError on a broken contract; any other exception escaping is a crash.
    """
    spans = parse_text_spans(text)
    assert "".join(text[a:b] for a, b, _ in spans) == text, "segments do not tile the text"
    document = Document(tuple(s for _, _, s in spans))
    assert [s for _, _, s in parse_text_spans(print_document(document))] == list(document.segments)
    results = []
    for strict, printer in ((parse_call, print_call), (parse_bracket, print_bracket)):
        try:
            tree = strict(text)
        except ToolformerSyntaxError as error:
            assert 0 <= error.position <= len(text) and error.expected
            results.append(False)
            continue
        assert strict(printer(tree)) == tree
        results.append(True)
    return results[0], results[1]
