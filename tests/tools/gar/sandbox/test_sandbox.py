"""The sandbox for designed vertex algorithms: static check, limits, reference check."""

from __future__ import annotations

import pytest

from graphreason.tools.gar.sandbox import SandboxViolation, run_designed, validate_source
from graphreason.tools.gar.sandbox.check import sample_graphs, validate_against_reference
from graphreason.tools.gar.sandbox.run import _run_child
from graphreason.workflows.gar.design.prompts import EXAMPLE_DESIGN

# the hop-count design the GAR design prompt shows the master, run here as it is shown
BFS = EXAMPLE_DESIGN

CONNECTIVITY = """
def init(node, neighbors, params):
    return node == params["source"]

def send(node, state, neighbors):
    return {n: True for n in neighbors} if state else {}

def update(node, state, messages):
    return state or any(messages)

def result(states, params):
    return states[params["target"]]
"""

# "small graphs never need more than two rounds" - wrong on any path longer than two hops
CONNECTIVITY_STOPS_EARLY = (
    CONNECTIVITY
    + """
def terminate(round, changed_count):
    return round >= 2
"""
)

PATH = {0: [1], 1: [0, 2], 2: [1, 3], 3: [2], 4: []}


def designed(init_body: str) -> str:
    """A valid algorithm whose init() runs ``init_body`` first (for the attacks)."""
    return f"""
def init(node, neighbors, params):
{init_body}
    return 0

def send(node, state, neighbors):
    return []

def update(node, state, messages):
    return state

def result(states, params):
    return sum(states.values())

def deeper(x):
    return deeper(x + 1)
"""


# --------------------------------------------------------------------------- correct runs
def test_bfs_runs_in_the_sandbox_and_returns_distances():
    result = run_designed(BFS, PATH, {"source": 0})
    assert result.status == "ok"
    assert result.answer == {0: 0, 1: 1, 2: 2, 3: 3}
    assert result.rounds == 4  # three waves, then a round where nothing changed


def test_messages_may_only_go_to_neighbours():
    source = CONNECTIVITY.replace("{n: True for n in neighbors}", "{4: True}")
    result = run_designed(source, PATH, {"source": 0, "target": 3})
    assert result.status == "error"
    assert "not one of its neighbours" in result.message


def test_never_settling_algorithm_hits_the_round_cap():
    source = BFS.replace("return state if best is None else min(state, best)", "return state + 1")
    result = run_designed(source, PATH, {"source": 0}, max_rounds=7)
    assert result.status == "round_cap"
    assert result.rounds == 7


def test_correct_algorithms_pass_the_reference_check():
    bfs = validate_against_reference(BFS, "bfs_levels", n_graphs=5, seed=3)
    assert bfs.passed, bfs.message
    assert bfs.graphs_checked == 5
    conn = validate_against_reference(CONNECTIVITY, "connectivity", n_graphs=5, seed=3)
    assert conn.passed, conn.message


def test_subtly_wrong_algorithm_is_caught_with_a_counterexample():
    report = validate_against_reference(CONNECTIVITY_STOPS_EARLY, "connectivity", n_graphs=5, seed=3)
    assert not report.passed
    bad = report.counterexample
    assert bad is not None and bad.run.status == "ok"
    assert bad.expected is True and bad.got is False
    assert bad.params["target"] in bad.adjacency
    assert "expected True" in report.message


def test_sample_graphs_start_with_a_path_then_random_sizes_in_range():
    graphs = sample_graphs(6, (4, 8), seed=1, directed=False)
    assert len(graphs) == 6
    assert sorted(d for _, d in graphs[0].degree()) == [1, 1] + [2] * 6
    assert all(4 <= len(g) <= 8 for g in graphs)


# --------------------------------------------------------------------------- attacks at run time
@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ("    while True:\n        pass", "timeout", "CPU-time limit"),
        ("    x = [0] * 10**10", "memory", "out of memory"),
        ("    x = [0]\n    while True:\n        x = x + x", "memory", "out of memory"),
        ("    raise ValueError('boom')", "error", "ValueError: boom"),
        ("    x = 1 / (node - node)", "error", "ZeroDivisionError"),
        ("    deeper(0)", "error", "RecursionError"),
    ],
    ids=["infinite-loop", "huge-list", "doubling-list", "raise", "zero-division", "recursion"],
)
def test_attacks_are_stopped_and_reported(body, status, words):
    # Memory attacks get a generous CPU budget and a small memory cap so the memory
    # limit is always the one that binds, however slow the machine copying lists is.
    cpu, memory = (20, 128) if status == "memory" else (1, 512)
    # A wall clock far beyond the CPU budget: on a loaded machine 1 s of CPU can take
    # many seconds, and the CPU limit is the one under test (the wall clock has its own test).
    result = run_designed(designed(body), PATH, {}, cpu_seconds=cpu, memory_mb=memory, wall_seconds=120)
    assert result.status == status, result.message
    assert words in result.message
    assert result.answer is None


def test_wall_clock_limit_kills_the_child():
    result = run_designed(
        designed("    while True:\n        pass"), PATH, {}, cpu_seconds=30, wall_seconds=0.5
    )
    assert result.status == "timeout"
    assert "wall-clock" in result.message


def test_error_names_the_part_round_node_and_line():
    source = BFS.replace("for n in neighbors]", "for n in neighbors[5]]")
    line = next(i for i, text in enumerate(source.splitlines(), 1) if "neighbors[5]" in text)
    result = run_designed(source, PATH, {"source": 0})
    assert result.status == "error"
    assert f"send() in round 1 at node 0 (line {line}): IndexError" in result.message


def test_builtins_are_restricted_even_without_the_static_check():
    for body, words in [("    __import__('os')", "NameError"), ("    import os", "ImportError"),
                        ("    open('/etc/passwd')", "NameError")]:  # fmt: skip
        request = {"source": designed(body), "graph": [[0, []]], "params": {"$dict": []}, "max_rounds": 2,
                   "cpu_seconds": 1, "memory_mb": 256}  # fmt: skip
        result = _run_child(request, wall_seconds=5)
        assert result.status == "error" and words in result.message, (body, result)


# --------------------------------------------------------------------------- static check
@pytest.mark.parametrize(
    ("snippet", "construct"),
    [
        ("    import os", "`Import`"),
        ("    from os import path", "`ImportFrom`"),
        ("    __import__('os')", "`__import__`"),
        ("    open('/etc/passwd')", "`open`"),
        ("    eval('1')", "`eval`"),
        ("    getattr(node, 'x')", "`getattr`"),
        ("    x = ().__class__", "`.__class__`"),
        ("    x = (y for y in neighbors).gi_frame", "`.gi_frame`"),
        ("    x = '{0.__class__}'.format(node)", "`.format`"),
        ("    global g", "`Global`"),
        ("    with node:\n        pass", "`With`"),
        ("    class A:\n        pass", "`ClassDef`"),
        ("    yield 1", "`Yield`"),
        ("    x = __builtins__", "`__builtins__`"),
        ("    mystery(1)", "`mystery`"),
        ("    x = [print]", "`print`"),
        ("    x = [min][0](1)", "computed expression"),
    ],
)
def test_static_violations_are_caught_before_running(snippet, construct):
    with pytest.raises(SandboxViolation) as caught:
        validate_source(designed(snippet))
    assert construct in str(caught.value)
    assert "line 3" in str(caught.value)
    result = run_designed(designed(snippet), PATH, {})
    assert result.status == "violation" and result.rounds == 0


def test_missing_parts_and_bad_signatures_are_refused():
    with pytest.raises(SandboxViolation, match="must define update"):
        validate_source(BFS.replace("def update(", "def updates("))
    with pytest.raises(SandboxViolation, match="send\\(\\) takes 3"):
        validate_source(BFS.replace("def send(node, state, neighbors)", "def send(node)"))
    with pytest.raises(SandboxViolation, match="top level"):
        validate_source(BFS + "\nfor i in range(3):\n    pass\n")
    with pytest.raises(SandboxViolation, match="not valid Python"):
        validate_source("def init(:\n")


def test_allowed_constructs_pass():
    helpers = """
INF = float("inf")

def best_of(values):
    try:
        return min(v for v in values if v is not None)
    except ValueError:
        return INF
"""
    checked = validate_source(helpers + CONNECTIVITY_STOPS_EARLY)
    assert checked.parts == ("init", "result", "send", "terminate", "update")
