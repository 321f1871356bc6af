"""Seeded fuzzing of the three untrusted-input readers: each input is read or refused with GraphTextError.

``parse_graph_problem`` (problem text), ``load_structured_graph`` (JSON-like
dicts) and ``graph_from_reply`` (a model's reply) promise to raise nothing but
:class:`GraphTextError`. The inputs are generated from a fixed seed, so a
failure is reproducible: the assertion message shows the inputs that broke the
promise. A result that was read is also exported (``to_dict``) and read back,
since that round trip is how runs are resumed.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from graphreason.tools.gar.graph_text import (
    GraphTextError,
    ParsedProblem,
    load_structured_graph,
    parse_graph_problem,
)
from graphreason.workflows.gar.llm_parse import graph_from_reply

SEED = 20240611
N_TEXTS = 2500
N_DICTS = 3000
N_REPLIES = 1500

BASE_TEXTS = [
    "Determine whether or not there is a cycle in an undirected graph. In an undirected graph, (i,j) means that "
    "node i and node j are connected with an undirected edge. Q: The nodes are numbered from 0 to 5, and the "
    "edges are: (0, 4) (0, 3) (1, 4) (3, 4). Is there a cycle in this graph?",
    "In a directed graph, (i->j,k) means that node i and node j are connected with an directed edge from node i "
    "to node j with weight k. Q: The nodes are numbered from 0 to 4, and the edges are: (0->3,2) (1->4,6) "
    "(3->4,10) (0->1,1). What is the maximum flow from node 0 to node 4?",
    "In an undirected graph, the nodes are numbered from 0 to 3, and the edges are:\nan edge between node 0 and "
    "node 1 with weight 2,\nan edge between node 1 and node 2 with weight 1,\nan edge between node 2 and node 3 "
    "with weight 4.\nQ: Give the shortest path from node 0 to node 3.",
    "The web pages are numbered from 1 to 5. Links: 1 -> 2, 2 -> 3 -> 4, 5 -> 1. What are the top 2 pages?",
    "G describes a friendship graph among James, Robert, John, and Michael.\nJames and Robert are friends.\n"
    "Robert and John are friends.\nQ: How many friends does Michael have?",
    "There are 2 job applicants numbered from 0 to 1, and 2 jobs numbered from 0 to 1. Applicant 0 is interested "
    "in job 1. Applicant 1 is interested in job 0, job 1.",
    "Find the maximum sum of the weights of three interconnected nodes. In an undirected graph, [i, k] means that "
    "node i has the weight k. Q: The nodes are numbered from 0 to 3, weights of nodes are: [0, 10] [1, 1] [2, 5] "
    "[3, 4], and the edges are: (0, 1) (1, 2) (0, 2) (2, 3).",
    "node 0 is connected to nodes 1, 2 (weight 3), 4.\nnode 2: [0.5, 1e3]\n3: 1, 4\nThe graph has 5 nodes.",
    "The nodes of subgraph G' are numbered from a to c, and the edges are: (a->b) (b->c). Is G' in G?",
]
WEIRD_NUMBERS = [
    "99999999999999999999999", "9" * 5000, "1e999", "-1e999", "²", "①", "٣", "３", "0" * 30 + "1",
    "-0", "nan", "inf", "1.5", "-7", "100000000", "9999999999", "99999", "",
]  # fmt: skip
TOKENS = [
    "->", "<->", "→", " numbered from ", " to ", ",", "Q:", "\nA:", "node ", " with weight ", " means ", "?",
    "\n", " " * 40, "\t\n \n", " among ", " and ", " are friends", " applicants ", " jobs ", " top ", "(", ")",
    "[", "]", " undirected ", " directed ", " has ", " nodes", ":", "((((((((", "]]]]]]", " is connected to ",
    " edge between node ", " from node ", "Applicant ",
]  # fmt: skip


def mutate_text(rng: random.Random, text: str) -> str:
    """A few random damaging edits: odd numbers, inserted tokens, deep brackets, cuts, repeats."""
    for _ in range(rng.randint(1, 4)):
        op = rng.randrange(7)
        if op == 0:  # replace one number with an odd one
            digits = [i for i, ch in enumerate(text) if ch.isdigit()]
            if digits:
                i = rng.choice(digits)
                j = i
                while j < len(text) and text[j].isdigit():
                    j += 1
                text = text[:i] + rng.choice(WEIRD_NUMBERS) + text[j:]
        elif op == 1:
            i = rng.randrange(len(text) + 1)
            text = text[:i] + rng.choice(TOKENS) + text[i:]
        elif op == 2:
            i = rng.randrange(len(text) + 1)
            depth = rng.choice([5, 50, 500])
            text = (
                text[:i]
                + rng.choice("([{") * depth
                + rng.choice(WEIRD_NUMBERS)
                + rng.choice(")]}") * depth
                + text[i:]
            )
        elif op == 3 and text:
            text = text[: rng.randrange(len(text))]  # truncated
        elif op == 4 and text:
            i = rng.randrange(len(text))
            text = text[:i] + text[i + 1 :]
        elif op == 5 and text:
            i = rng.randrange(len(text))
            j = min(len(text), i + rng.randint(1, 40))
            text = text[:j] + text[i:j] * rng.randint(1, 20) + text[j:]
        else:
            text = text.replace(
                rng.choice(["directed", "undirected", "0", "1"]), rng.choice(WEIRD_NUMBERS[:8]), 1
            )
    return text


KEYS = [
    "edges", "links", "nodes", "n_nodes", "directed", "params", "node_weights", "node_names", "source", "target",
    "weight", "id", "pattern", "stated_n_nodes", "u", "v", "w", "capacity", "name", "title", "start", "node", "k",
]  # fmt: skip


def random_scalar(rng: random.Random) -> Any:
    return rng.choice([
        0, 1, 2, 3, -1, -3, 10**12, 10**30, 2**63, 10**400, True, False, None, 0.5, 2.0, float("nan"), float("inf"),
        -float("inf"), 1e308, "", "a", "b", "3", "²", "①", "heavy", "false", "no", "yes", "1e999", "Infinity",
        "9" * 40, " 2 ",
    ])  # fmt: skip


def random_value(rng: random.Random, depth: int = 0) -> Any:
    roll = rng.random()
    if depth >= 3 or roll < 0.55:
        return random_scalar(rng)
    if roll < 0.8:
        return [random_value(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    return {rng.choice(KEYS): random_value(rng, depth + 1) for _ in range(rng.randint(0, 4))}


def random_edge(rng: random.Random) -> Any:
    roll = rng.random()
    ends = [
        rng.choice([0, 1, 2, 3, "a", "b"]) if rng.random() < 0.75 else random_value(rng, 2) for _ in range(2)
    ]
    if roll < 0.45:
        return ends
    if roll < 0.7:
        return [*ends, rng.choice([1, 2.5, "3"]) if rng.random() < 0.6 else random_scalar(rng)]
    if roll < 0.85:
        return {"source": ends[0], "target": ends[1], "weight": random_scalar(rng)}
    return random_value(rng, 1)


PLAUSIBLE: dict[str, list[Any]] = {  # mostly sound values, so that inputs get past the first check
    "directed": [True, False, "false", "yes", "Undirected", 0, 1],
    "n_nodes": [4, 10, "6", 10**9, 2.0],
    "node_weights": [{0: 1.5}, {"a": 2}, {"1": "3"}, {0: float("nan")}],
    "node_names": [{"0": "x"}, {0: "y", "1": "z"}, {"9": "far"}],
    "stated_n_nodes": [4, None, "4"],
    "params": [{"source": 0, "target": 1}, {"source": "a"}, {"node": 7}, {"k": 2},
               {"pattern": {"edges": [["x", "y"]]}}],
}  # fmt: skip


def random_graph_dict(rng: random.Random) -> dict[str, Any]:
    """Mostly graph-shaped dicts with a few bad values; sometimes anything at all."""
    data: dict[str, Any] = {}
    roll = rng.random()
    if roll < 0.75:
        data["edges"] = [random_edge(rng) for _ in range(rng.randint(0, 6))]
    elif roll < 0.85:
        data["edges"] = random_value(rng, 1)
    elif roll < 0.95:
        data["edges"] = np.array(
            rng.choice([[[0, 1], [1, 2]], [[0, 1, 2.0]], [[0, 10**12]], [[0.5, 1]], [[0, 1, np.nan]]])
        )
    for key in rng.sample(KEYS[1:], rng.randint(0, 4)):
        if key in PLAUSIBLE and rng.random() < 0.6:
            data[key] = rng.choice(PLAUSIBLE[key])
        elif key == "nodes" and rng.random() < 0.5:
            data[key] = [rng.choice([0, 1, 2, 3, "a", "b", {"id": 0, "weight": 2}, {"id": "a", "name": "A"}])
                         for _ in range(rng.randint(0, 4))]  # fmt: skip
        elif key == "params" and rng.random() < 0.5:
            data[key] = {rng.choice(["source", "target", "node", "k", "pattern"]): random_value(rng, 2)}
        else:
            data[key] = random_value(rng, 1)
    return data


def random_reply(rng: random.Random) -> str:
    """A model's reply: mostly a plausible graph over the texts' words, some of it damaged."""
    graph: dict[str, Any] = {}
    words = ["a", "b", 0, 1, 2, 3, "3", "²", "Towns"]
    if rng.random() < 0.9:
        graph["edges"] = [
            [
                rng.choice(words),
                rng.choice(words),
                *([rng.choice([1, 2.5, "4"])] if rng.random() < 0.3 else []),
            ]
            if rng.random() < 0.85
            else random_edge(rng)
            for _ in range(rng.randint(0, 5))
        ]
    for key in rng.sample(["nodes", "directed", "n_nodes", "weight"], rng.randint(0, 2)):
        graph[key] = random_value(rng, 1)
    if rng.random() < 0.3:
        graph["directed"] = rng.choice([True, False, "no", "yes", "0", 1, "sideways"])
    if rng.random() < 0.8:
        body = json.dumps(graph, default=str)  # NaN/Infinity are written as JSON's extensions
    else:
        body = repr(graph)  # a Python literal: read by ast.literal_eval
    cut = rng.random()
    if cut < 0.1:
        body = body[: rng.randrange(len(body) + 1)]
    return rng.choice(["", "Here is the graph:\n", "```json\n"]) + body + rng.choice(["", "\n```", " Done."])


REPLY_TEXTS = [
    "Towns a, b and 3 are linked: a meets b, b meets 3, and 0 and 1 and 2 are there too.",
    "Towns a and b, and the places 0, 1, 2, 3 and ² are on the map.",
    "A network of 5 nodes: 0 talks to 1, a and b, 1 talks to 3.",
    "The nodes are numbered from 0 to 99999999. a b 0 1 2 3",
    "The nodes are numbered from 0 to 20000. 0 1 2 3 a b",
    "A network of " + "9" * 30 + " nodes: 0 1 2 3 a b",
]


def check(read: Callable[[Any], Any], inputs: list[Any]) -> list[str]:
    """Reads every input; returns a description of each that raised something else than GraphTextError."""
    broken = []
    for item in inputs:
        try:
            read(item)
        except GraphTextError:
            continue
        except Exception as exc:  # noqa: BLE001 - the point is to catch whatever escapes
            broken.append(f"{type(exc).__name__}: {exc} <- {item!r:.300}")
    return broken


def read_text(text: str) -> ParsedProblem:
    problem = parse_graph_problem(text)
    problem.describe()
    try:  # the resume round trip must hold for every text that was read
        back = load_structured_graph(problem.to_dict())
    except GraphTextError as exc:
        raise AssertionError(f"the to_dict() round trip was refused: {exc}") from exc
    assert (back.n_nodes, list(back.edges)) == (problem.n_nodes, list(problem.edges))
    assert dict(back.node_names or {}) == dict(problem.node_names or {})
    return back


def read_dict(data: dict[str, Any]) -> ParsedProblem:
    problem = load_structured_graph(data)
    assert isinstance(problem, ParsedProblem)
    return problem


def read_reply(pair: tuple[str, str]) -> dict[str, Any]:
    graph = graph_from_reply(*pair)
    assert isinstance(graph, dict)
    load_structured_graph(graph)  # what the workflow does next
    return graph


def test_text_parser_raises_only_graph_text_errors() -> None:
    rng = random.Random(SEED)
    texts = [mutate_text(rng, rng.choice(BASE_TEXTS)) for _ in range(N_TEXTS)]
    broken = check(read_text, texts)
    assert not broken, f"{len(broken)} of {len(texts)} texts broke the contract:\n" + "\n".join(broken[:10])


def test_structured_loader_raises_only_graph_text_errors() -> None:
    rng = random.Random(SEED + 1)
    dicts = [random_graph_dict(rng) for _ in range(N_DICTS)]
    broken = check(read_dict, dicts)
    assert not broken, f"{len(broken)} of {len(dicts)} dicts broke the contract:\n" + "\n".join(broken[:10])


def test_reply_reader_raises_only_graph_text_errors() -> None:
    rng = random.Random(SEED + 2)
    pairs = [(random_reply(rng), rng.choice(REPLY_TEXTS)) for _ in range(N_REPLIES)]
    broken = check(read_reply, pairs)
    assert not broken, f"{len(broken)} of {len(pairs)} replies broke the contract:\n" + "\n".join(broken[:10])


def test_the_fuzzing_reads_some_inputs_too() -> None:
    """The generators are not so destructive that every input is refused (that would test little)."""
    rng = random.Random(SEED)
    texts = [mutate_text(rng, rng.choice(BASE_TEXTS)) for _ in range(200)]
    read = 0
    for text in texts:
        try:
            read_text(text)
            read += 1
        except GraphTextError:
            pass
    assert read > 20


PATHOLOGICAL_12KB = {
    "whitespace run": "(0,1)" + " " * 12_000 + "x",
    "newline run": "(0,1)" + "\n" * 12_000 + "(1,2)",
    "one long sentence of pairs": "G describes a graph among A and B. "
    + ", ".join(["A and B are friends"] * 570),
    "one long sentence of edges": " ".join(["an edge between node 0 and node 1,"] * 350),
    "open brackets": "(" * 12_000,
    "nested brackets": "(" * 6_000 + "0,1" + ")" * 6_000,
    "square brackets": "[" * 6_000 + "]" * 6_000,
    "digits": "1" * 12_000,
    "arrow chain": "1->" * 4_000 + "2",
    "among": "among " * 2_000,
    "numbered": "numbered from 1 to " * 630,
    "adjacency": "node 0 is connected to nodes " + ", ".join(["1"] * 4_000),
    "features": "node 1: [" + ",".join(["1e999"] * 2_000) + "]",
    "tuples": " ".join(["(0,1,1e999)"] * 1_000),
}


@pytest.mark.parametrize("name", sorted(PATHOLOGICAL_12KB))
def test_12kb_pathological_texts_finish(name: str) -> None:
    """Inputs shaped to trigger regex backtracking; a quadratic path would make this file crawl."""
    text = PATHOLOGICAL_12KB[name]
    assert 11_000 <= len(text) <= 13_000
    try:
        parse_graph_problem(text)
    except GraphTextError:
        pass
