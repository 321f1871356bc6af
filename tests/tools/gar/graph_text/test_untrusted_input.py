"""Untrusted graph input: a few bytes cannot ask for gigabytes, and every refusal is a GraphTextError.

Three kinds of finding are pinned here: memory blow-ups from stated node counts
(checked against ``GRAPHREASON_MAX_NODES`` before anything is allocated), the
parsers' "only GraphTextError" contract (odd numbers, odd JSON values), and
inputs that used to be read *wrongly* without a word (infinite weights,
``"directed": "false"``).
"""

from __future__ import annotations

import json
import tracemalloc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp

from graphreason.settings import DEFAULT_MAX_NODES, max_nodes
from graphreason.tools.gar.graph_text import GraphTextError, load_structured_graph, parse_graph_problem
from graphreason.tools.gar.graph_text.problem import RangeNames

LIMIT = f"the limit is {DEFAULT_MAX_NODES} \\(set GRAPHREASON_MAX_NODES to raise it\\)"
EDGES = "and the edges are: (1,2) (2,3)."


@contextmanager
def peak_mb() -> Iterator[dict[str, float]]:
    """Peak Python + numpy allocation (MB) inside the block (numpy reports to tracemalloc)."""
    out: dict[str, float] = {}
    tracemalloc.start()
    try:
        yield out
    finally:
        out["peak"] = tracemalloc.get_traced_memory()[1] / 1e6
        tracemalloc.stop()


def refused_cheaply(read: Callable[[], Any], match: str) -> None:
    """``read()`` raises a GraphTextError matching ``match`` having allocated (almost) nothing."""
    with peak_mb() as mem, pytest.raises(GraphTextError, match=match):
        read()
    assert mem["peak"] < 20, f"{mem['peak']:.0f} MB allocated before refusing"


# ---------------------------------------------------------------------- the setting
def test_the_node_limit_is_a_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GRAPHREASON_MAX_NODES", raising=False)
    assert max_nodes() == DEFAULT_MAX_NODES == 5_000_000
    monkeypatch.setenv("GRAPHREASON_MAX_NODES", "12")
    assert max_nodes() == 12
    with pytest.raises(GraphTextError, match=r"says 13 nodes; the limit is 12"):
        parse_graph_problem(f"The nodes are numbered from 0 to 12, {EDGES}")
    assert parse_graph_problem(f"The nodes are numbered from 0 to 11, {EDGES}").n_nodes == 12
    with pytest.raises(GraphTextError, match="the limit is 12"):
        load_structured_graph({"edges": [[0, 12]]})
    monkeypatch.setenv("GRAPHREASON_MAX_NODES", "lots")
    with pytest.raises(ValueError, match="GRAPHREASON_MAX_NODES must be a positive integer"):
        max_nodes()


# ---------------------------------------------------------------------- memory: text
@pytest.mark.parametrize(
    ("text", "match"),
    [
        # finding 2: "numbered from 1 to 10^8" built 10^8 name strings (3.4 GB, then MemoryError)
        (
            f"The nodes are numbered from 1 to 100000000, {EDGES}",
            r"numbered from 1 to 100000000\) says 100000000 nodes",
        ),
        # finding 3: numpy was asked for 74.5 GiB
        (f"The nodes are numbered from 0 to 9999999999, {EDGES}", "says 10000000000 nodes"),
        (f"The graph has 100000000 nodes, {EDGES}", "says 100000000 nodes"),
        (
            "In a directed graph the edges are 0->1, 1->99999999.",
            r"largest node id 99999999\) says 100000000 nodes",
        ),
        (
            "There are 100000000 job applicants numbered from 0 to 99999999, and 1 jobs numbered from 0 to 0. "
            "Applicant 0 is interested in job 0.",
            r"100000000 applicants and 1 jobs\) says 100000001 nodes",
        ),
    ],
)
def test_texts_stating_too_many_nodes_are_refused_before_allocating(text: str, match: str) -> None:
    refused_cheaply(lambda: parse_graph_problem(text), f"{match}; {LIMIT}")


def test_a_million_node_range_from_1_is_read_without_a_million_names() -> None:
    text = "The nodes are numbered from 1 to 1000000, and the edges are: (1,2) (999999,1000000). Path from node 1 to node 2?"
    with peak_mb() as mem:
        p = parse_graph_problem(text)
    assert mem["peak"] < 20  # no eager name strings, no million-alternative regex
    assert p.n_nodes == 1_000_000 and p.edges == [(0, 1, None), (999_998, 999_999, None)]
    assert isinstance(p.node_names, RangeNames) and len(p.node_names) == 1_000_000
    assert p.label(0) == "1" and p.label(999_999) == "1000000" and p.node_id("1000000") == 999_999
    assert p.params == {"source": 0, "target": 1}
    with pytest.raises(GraphTextError, match="no node is called '0'; names: 1, 2, 3"):
        p.node_id("0")
    assert parse_graph_problem(f"The nodes are numbered from 0 to 999999, {EDGES}").node_names is None


def test_a_matching_text_with_a_million_applicants_builds_no_name_per_applicant() -> None:
    """Each listed applicant used to be a name string *and* an alternative in a regex (2,000: 13 s)."""
    text = (
        "There are 1000000 job applicants numbered from 0 to 999999, and 2 jobs numbered from 0 to 1. "
        "Applicant 0 is interested in job 1. Applicant 999999 is interested in job 0, job 1."
    )
    with peak_mb() as mem:
        p = parse_graph_problem(text)
    assert mem["peak"] < 20
    assert p.n_nodes == 1_000_002 and p.params == {"n_applicants": 1_000_000, "n_jobs": 2}
    assert p.edges == [(0, 1_000_001, None), (999_999, 1_000_000, None), (999_999, 1_000_001, None)]
    assert p.label(999_999) == "applicant 999999" and p.label(1_000_000) == "job 0"
    assert p.node_id("job 1") == 1_000_001 and p.node_id("applicant 7") == 7


def test_one_based_names_still_behave_like_a_dict() -> None:
    p = parse_graph_problem("The web pages are numbered from 1 to 3. Links: 1 -> 2, 2 -> 3.")
    assert p.node_names == {0: "1", 1: "2", 2: "3"} and dict(p.node_names) == {0: "1", 1: "2", 2: "3"}
    assert p.to_dict()["node_names"] == {"0": "1", "1": "2", "2": "3"}
    with pytest.raises(GraphTextError, match="not in its node list: Alice"):
        parse_graph_problem("The nodes are numbered from 1 to 3. Alice and Bob are friends. (1,2)")


# ---------------------------------------------------------------------- memory: structured
def _edge_file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "g.txt"
    path.write_text(text)
    return path


@pytest.mark.parametrize(
    ("make", "match"),
    [
        # finding 1: 80 bytes of dict allocated list(range(30_000_000)) (3 GB)
        (lambda: {"edges": [[0, 1]], "n_nodes": 30_000_000}, "'n_nodes' says 30000000 nodes"),
        (lambda: {"edges": [[0, 10**12]]}, r"largest node id 1000000000000\) says 1000000000001"),
        (lambda: {"edges": [[0, 10**30]]}, "largest node id"),
        (lambda: {"edges": np.array([[0, 10**12]])}, r"edge array \(largest node id 1000000000000\)"),
        (lambda: {"edges": np.array([[0.0, 1e300]])}, "edge array"),
        (lambda: np.array([[0, 2**63]], dtype=np.uint64), "edge array"),
        (lambda: {"edges": np.array([[0, 1]]), "n_nodes": 10**9}, "'n_nodes' says 1000000000"),
        (lambda: {"edges": np.array([[0, 1]]), "nodes": [0, 10**10]}, "largest node id is 10000000000"),
        (lambda: {"edges": [], "nodes": range(10**9)}, "'nodes' list says 1000000000"),
        (lambda: {"edges": [[0, 1]] * 10_001 + [[0, 10**12]]}, "largest node id 1000000000000"),
        (lambda: sp.coo_matrix((10**9, 10**9)), "adjacency matrix says 1000000000"),
    ],
)
def test_structured_graphs_with_too_many_nodes_are_refused_before_allocating(make, match: str) -> None:
    data = make()
    refused_cheaply(lambda: load_structured_graph(data), f"{match}.*{LIMIT}")


def test_the_to_dict_round_trip_is_held_to_the_limit_too() -> None:
    data = parse_graph_problem(f"The nodes are numbered from 0 to 3, {EDGES}").to_dict()
    assert load_structured_graph(data).n_nodes == 4
    refused_cheaply(lambda: load_structured_graph({**data, "n_nodes": 10**8}), LIMIT)


def test_edge_file_headers_are_held_to_the_limit(tmp_path: Path) -> None:
    path = _edge_file(tmp_path, "100000000 1\n0 1\n")
    refused_cheaply(
        lambda: load_structured_graph(path), f"'n m' header of g.txt says 100000000 nodes; {LIMIT}"
    )
    path = _edge_file(tmp_path, "0 1\n1 99999999999999999999\n")
    refused_cheaply(lambda: load_structured_graph(path), LIMIT)


def test_a_million_nodes_are_still_accepted() -> None:
    assert load_structured_graph({"edges": [[0, 1]], "n_nodes": 10**6}).n_nodes == 10**6
    assert load_structured_graph({"edges": np.array([[0, 999_999]])}).n_nodes == 10**6


# ---------------------------------------------------------------------- "only GraphTextError": text
@pytest.mark.parametrize(
    ("text", "match"),
    [
        # finding 4: OverflowError
        ("The nodes are numbered from 0 to 3, and the edges are: (0,99999999999999999999999).", "too large"),
        ("In a directed graph the edges are: 0 -> " + "9" * 5000 + ".", "too large"),
        ("The graph has " + "9" * 5000 + " nodes, and the edges are: (0,1).", "too large"),
        (
            "In a directed graph the edges are 0->1. Which are the top " + "9" * 5000 + " nodes?",
            "top-k.*too large",
        ),
        (
            "The nodes are numbered from 0 to 3: (0,1). Shortest path from node 0 to node 99999999999999999999?",
            "too large",
        ),
        # finding 5: ValueError ("²".isdigit() is True, int("²") fails)
        (
            "The nodes are numbered from 0 to ², and the edges are: (0,1).",
            "could not understand the node numbering",
        ),
        (
            "The nodes are numbered from ① to 3, and the edges are: (0,1).",
            "could not understand the node numbering",
        ),
        # finding 8: non-finite weights were read as inf
        (
            "The nodes are numbered from 0 to 2, and the edges are: (0,1,1e999) (1,2,3).",
            r"edge \(0, 1\): weight '1e999' is not a finite number \(too large for a float\)",
        ),
        (
            "The nodes are numbered from 1 to 3, and the edges are: (1,2,3) (2,3,-1e999).",
            r"edge \(2, 3\): weight '-1e999' is not a finite number",
        ),
        (
            "In a directed graph: an edge from node 0 to node 1 with weight 1e400.",
            r"edge \(0, 1\): weight '1e400' is not a finite number",
        ),
        (
            "In an undirected graph, [i, k] means that node i has the weight k. The nodes are numbered from 0 to 1, "
            "weights of nodes are: [0, 1e999] [1, 2], and the edges are: (0, 1).",
            "node 0: weight '1e999' is not a finite number",
        ),
        (
            "node 0: [1, 1e999]\nnode 1: [0, 1]\nThe edges are (0,1).",
            "node 0: feature value '1e999' is not a finite",
        ),
    ],
)
def test_odd_numbers_in_text_are_graph_text_errors(text: str, match: str) -> None:
    with pytest.raises(GraphTextError, match=match):
        parse_graph_problem(text)


def test_unicode_decimal_digits_are_still_numbers() -> None:
    p = parse_graph_problem("The nodes are numbered from ٠ to ٢, and the edges are: (٠,١) (١,٢).")
    assert p.n_nodes == 3 and p.edges == [(0, 1, None), (1, 2, None)]


def test_long_whitespace_runs_do_not_change_the_reading() -> None:
    p = parse_graph_problem(
        "The nodes are numbered from 0 to 2,"
        + " " * 5000
        + "and the edges are:\n"
        + "\n" * 200
        + "(0,1) (1,2)."
    )
    assert p.edges == [(0, 1, None), (1, 2, None)] and p.unparsed == []


def test_node_id_lookups_refuse_odd_numbers_cleanly() -> None:
    p = parse_graph_problem(f"The nodes are numbered from 0 to 3, {EDGES}")
    for label in ("²", "9" * 5000, "-1", 4):
        with pytest.raises(GraphTextError, match="not in the graph"):
            p.node_id(label)


# ---------------------------------------------------------------------- "only GraphTextError": structured
@pytest.mark.parametrize(
    ("data", "match"),
    [
        # finding 6
        ({"edges": [[[0], 1]]}, r"\[0\] is not a node label"),
        ({"edges": [[{}, 1]]}, r"\{\} is not a node label"),
        ({"edges": [[True, 1]]}, "True is not a node label"),
        ({"edges": [["a", float("nan")]]}, "nan is not a node label"),
        ({"edges": [[0, 1, "heavy"]]}, "the weight of edge .* must be a number, got 'heavy'"),
        ({"edges": [[0, 1, [2]]]}, r"must be a number, got \[2\]"),
        ({"edges": [[0, 1, True]]}, "must be a number, got True"),
        ({"edges": [[0, 1, 10**400]]}, "too large to be a weight"),
        ({"edges": [[0, 1]], "node_weights": {"0": 10**400}}, "too large to be a weight"),
        ({"edges": "oops"}, "'edges' must be a list, got str"),
        ({"edges": ["ab"]}, "cannot read the edge 'ab'"),
        ({"edges": 5}, "'edges' must be a list, got int"),
        ({"edges": [[0, 1]], "n_nodes": "many"}, "'n_nodes': 'many' is not a whole number"),
        ({"edges": [[0, 1]], "n_nodes": -3}, "'n_nodes' must be a non-negative integer, got -3"),
        ({"edges": [[0, 1]], "n_nodes": [3]}, "'n_nodes' must be a non-negative integer"),
        ({"nodes": 7, "edges": []}, "'nodes' must be a list, got int"),
        ({"nodes": [{"name": "no id"}], "edges": []}, "None is not a node label"),
        ({"nodes": [[1]], "edges": []}, r"\[1\] is not a node label"),
        ({"edges": [[0, 1]], "node_weights": {"0": "x"}}, "the weight of node '0' must be a number, got 'x'"),
        ({"edges": [[0, 1]], "node_weights": [1, 2]}, "'node_weights' must be an object"),
        (
            {"nodes": [{"id": "a", "weight": "heavy"}], "edges": [["a", "a"]]},
            "weight of node 'a' must be a number",
        ),
        ({"nodes": [{"id": "a", "name": ["x"]}], "edges": [["a", "a"]]}, "the name of node 'a' must be text"),
        ({"edges": [[0, 1]], "params": "source 0"}, "'params' must be an object"),
        ({"edges": [[0, 1]], "params": {"source": "zz"}}, "unknown node 'zz'"),
        ({"edges": [[0, 1]], "params": {"source": [0]}}, r"unknown node \[0\]"),
        ({"edges": [[0, 1]], "params": {"target": 7}}, r"parameters name nodes outside 0..1: target=7"),
        ({"nodes": ["a", "b"], "edges": [["a", "b"]], "params": {"source": "zz"}}, "unknown node 'zz'"),
        ({"nodes": ["a", "b"], "edges": [["a", "b"]], "params": {"source": {}}}, r"unknown node \{\}"),
        (
            {"edges": [[0, 1]], "n_nodes": 2, "node_names": {"x": "a"}},
            "a 'node_names' key: 'x' is not a whole number",
        ),
        ({"edges": [[0, 1]], "n_nodes": 2, "node_names": {"5": "a"}}, "ids outside 0..1: 5"),
        ({"edges": [["a", "b"]], "n_nodes": 2}, "edge endpoints must be node ids 0..1; got 'a'"),
        ({"edges": [[0, 1]], "stated_n_nodes": "x"}, "'stated_n_nodes'"),
        ({"edges": np.array([["a", "b"]])}, "an edge array must hold numbers"),
        ({"edges": np.array([[0, np.inf]])}, "node ids must be non-negative integers"),
        (
            {
                "edges": [[0, 1]],
                "params": {"pattern": {"edges": [[0, 1]], "params": {"pattern": {"edges": [[0, 1]]}}}},
            },
            "cannot hold another 'pattern'",
        ),
    ],
)
def test_malformed_dicts_are_graph_text_errors(data: dict, match: str) -> None:
    with pytest.raises(GraphTextError, match=match):
        load_structured_graph(data)


def test_numeric_strings_are_read_as_numbers() -> None:
    p = load_structured_graph(
        {"edges": [[0, 1, "3"], [1, 2, " 2.5 "]], "node_weights": {"1": "4"}, "directed": True}
    )
    assert list(p.edges) == [(0, 1, 3.0), (1, 2, 2.5)] and p.node_weights == {1: 4.0}
    assert load_structured_graph({"edges": [[0, 1]], "params": {"source": "1"}}).params == {"source": 1}


def test_unreadable_files_are_graph_text_errors(tmp_path: Path) -> None:
    latin = tmp_path / "latin.txt"
    latin.write_bytes(b"0 1\n1 2 \xe9\n")
    with pytest.raises(GraphTextError, match="cannot read"):
        load_structured_graph(latin)
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(GraphTextError, match="nested too deeply"):
        load_structured_graph(deep)
    with pytest.raises(GraphTextError, match="not found"):
        load_structured_graph("no\x00such.txt")
    with pytest.raises(GraphTextError, match="not found"):
        load_structured_graph("x" * 5000 + ".txt")
    query = tmp_path / "q.txt"
    query.write_text("3 1\n0 1\n0 ² " + "9" * 5000 + "\n")
    assert load_structured_graph(query).params["query"] == [0, "²", "9" * 5000]  # kept as text, no crash


# ---------------------------------------------------------------------- silent wrong results
@pytest.mark.parametrize(
    "data",
    [
        {"edges": [[0, 1, float("inf")]]},
        {"edges": [[0, 1, float("nan")]]},
        {"edges": [[0, 1, "Infinity"]]},
        json.loads('{"edges": [[0, 1, 1e999]]}'),
        json.loads('{"edges": [[0, 1, NaN]]}'),
        {"edges": [{"source": 0, "target": 1, "capacity": -float("inf")}]},
        {"edges": np.array([[0, 1, np.nan]])},
        {"edges": [[0, 1, 1.0]] + [[i, i + 1, 1.0] for i in range(1, 10_001)] + [[5, 7, float("nan")]]},
    ],
)
def test_non_finite_edge_weights_are_refused_naming_the_edge(data: dict) -> None:
    with pytest.raises(
        GraphTextError, match=r"(edge .*(weight|is)|weight of edge).*(inf|nan|Infinity|finite)"
    ):
        load_structured_graph(data)


def test_non_finite_weights_from_other_sources_are_refused(tmp_path: Path) -> None:
    with pytest.raises(GraphTextError, match=r"edge \(0, 1\) has weight inf"):
        load_structured_graph(_edge_file(tmp_path, "0 1 inf\n1 2 1\n"))
    with pytest.raises(GraphTextError, match="weight of node '0' is nan"):
        load_structured_graph({"edges": [[0, 1]], "node_weights": {"0": float("nan")}})
    with pytest.raises(GraphTextError, match="weight of node 'a' is inf"):
        load_structured_graph({"nodes": [{"id": "a", "weight": float("inf")}], "edges": [["a", "a"]]})
    g = nx.Graph()
    g.add_edge(0, 1, weight=float("inf"))
    with pytest.raises(GraphTextError, match=r"weight of edge \(0, 1\) is inf"):
        load_structured_graph(g)
    with pytest.raises(GraphTextError, match="has weight nan"):
        load_structured_graph(sp.csr_matrix(np.array([[0, np.nan], [np.nan, 0]])))


@pytest.mark.parametrize(
    ("value", "directed"),
    [
        # finding 9: bool("false") is True
        ("false", False), ("False", False), (" no ", False), ("0", False), (0, False), (False, False),
        ("undirected", False), ("true", True), ("YES", True), ("1", True), (1, True), (True, True),
        ("Directed", True), (np.bool_(False), False),
    ],
)  # fmt: skip
def test_directed_is_read_as_a_word_not_as_truthiness(value: Any, directed: bool) -> None:
    assert load_structured_graph({"edges": [[0, 1]], "directed": value}).directed is directed
    assert (
        load_structured_graph({"edges": [[1, 0]], "directed": not directed}, directed=value).directed
        is directed
    )


@pytest.mark.parametrize("value", ["maybe", 2, -1, [], {}, "", 0.5])
def test_an_unreadable_direction_is_refused(value: Any) -> None:
    with pytest.raises(GraphTextError, match="'directed' must be true or false"):
        load_structured_graph({"edges": [[0, 1]], "directed": value})


def test_long_whitespace_runs_and_long_sentences_are_read_in_linear_time():
    """Both used to be quadratic (50 KB of spaces took ~30 s); a regression would stall this test."""
    from graphreason.tools.gar.graph_text.scan import Doc, normalise

    assert normalise(" " * 50_000 + "0 --> 1") == " " * 50_000 + "0->1"
    text = "Say whether " + ", ".join(f"({i},{i + 1})" for i in range(5_000)) + " are all linked."
    doc = Doc(text)
    cut = text.index("whether") + len("whether")
    assert not doc.in_question(3) and doc.in_question(cut) and doc.in_question(len(text) - 2)
    assert all(doc.in_question(pos) for pos in range(cut, len(text), 7))
