"""Checking a master-designed algorithm before its answer is trusted.

The code comes from a model, so it is untrusted twice over: it may be unsafe
(the sandbox refuses or stops it) and it may be wrong. Before it runs on the
question's graph it runs on small check graphs (a path, then random graphs of
the same kind: directed or not, weighted or not) and its answers are judged by,
in order of preference:

* ``oracle`` - an independent brute force for the question's task
  (:mod:`graphreason.tools.gar.sandbox.oracles`);
* ``brute_force`` - the model's own sequential ``brute_force`` function, run in
  the sandbox too (two implementations that must agree);
* ``smoke`` - nothing to compare with: it only has to run cleanly.
"""

from __future__ import annotations

import math
import random
import re
from dataclasses import dataclass
from typing import Any

import networkx as nx

from graphreason.tools.gar.graph_text import ParsedProblem
from graphreason.tools.gar.sandbox import SandboxResult, run_designed
from graphreason.tools.gar.sandbox.check import CheckReport, OracleError, sample_graphs, validate_designed
from graphreason.tools.gar.sandbox.oracles import ORACLE_PARAMS, oracle_for
from graphreason.tools.gar.sandbox.run import adjacency_of

NODE_PARAMS = ("source", "target", "node", "start")
_BLOCK = re.compile(r"```[ \t]*(?:python|py)?[ \t]*\n(.*?)```", re.S | re.I)
# appended to the design so that only its brute_force runs (later definitions win)
_BRUTE_HARNESS = """

def init(node, neighbors, params):
    return None

def send(node, state, neighbors):
    return []

def update(node, state, messages):
    return state

def result(states, params):
    return brute_force(params["adjacency"], params)
"""


def extract_code(reply: str) -> str:
    """The Python source in a model reply: its fenced blocks joined, else the text from the first ``def``."""
    blocks = [b.strip("\n") for b in _BLOCK.findall(reply)]
    if blocks:
        return "\n\n".join(blocks).strip() + "\n"
    unclosed = re.search(r"```[ \t]*(?:python|py)?[ \t]*\n(.*)", reply, re.S | re.I)  # cut off mid-block
    text = unclosed.group(1) if unclosed else reply
    first = re.search(r"^(?:#.*\n)*def\s", text, re.M)
    return text[first.start() :].strip() + "\n" if first else ""


def same_answer(got: Any, want: Any) -> bool:
    """Equal answers, with numbers within a relative 1e-6 and yes/no words read as booleans."""
    got, want = _as_bool(got), _as_bool(want)
    if isinstance(got, bool) or isinstance(want, bool):
        return got is want
    if isinstance(got, int | float) and isinstance(want, int | float):
        try:
            return math.isclose(got, want, rel_tol=1e-6, abs_tol=1e-9)
        except OverflowError:  # an int too large for a float: only exact equality can hold
            return got == want
    if isinstance(got, list | tuple) and isinstance(want, list | tuple):
        return len(got) == len(want) and all(same_answer(a, b) for a, b in zip(got, want, strict=True))
    if isinstance(got, set | frozenset) and isinstance(want, set | frozenset):
        return got == want
    if isinstance(got, dict) and isinstance(want, dict):
        return got.keys() == want.keys() and all(same_answer(got[k], want[k]) for k in got)
    return got == want


def _as_bool(value: Any) -> Any:
    if isinstance(value, str) and value.strip().lower().rstrip(".") in ("yes", "true", "no", "false"):
        return value.strip().lower().rstrip(".") in ("yes", "true")
    return value


def sandbox_params(graph: nx.Graph, params: dict[str, Any]) -> dict[str, Any]:
    """The question's parameters plus ``weights`` / ``node_weights`` read off ``graph`` (both directions if undirected)."""
    out = dict(params)
    weights = {}
    for u, v, data in graph.edges(data=True):
        if "weight" in data:
            weights[(u, v)] = data["weight"]
            if not graph.is_directed():
                weights[(v, u)] = data["weight"]
    if weights:
        out["weights"] = weights
    node_weights = {v: data["weight"] for v, data in graph.nodes(data=True) if "weight" in data}
    if node_weights:
        out["node_weights"] = node_weights
    return out


def problem_graph(problem: ParsedProblem) -> nx.Graph:
    """The question's graph as networkx, with node weights as the ``weight`` node attribute."""
    graph = problem.to_networkx()
    for node, weight in problem.node_weights.items():
        graph.nodes[node]["weight"] = weight
    return graph


@dataclass(frozen=True)
class DesignCheck:
    """How a design fared on the check graphs: ``judge`` says what its answers were compared with."""

    passed: bool
    judge: str  # oracle | brute_force | smoke
    graphs_checked: int
    message: str


class _CheckGraphs:
    """Check graphs shaped like the question's graph, and parameters like the question's."""

    def __init__(self, problem: ParsedProblem, params: dict[str, Any], task: str | None) -> None:
        self.problem, self.params = problem, params
        self.node_keys = [k for k in params if k in NODE_PARAMS] or list(ORACLE_PARAMS.get(task or "", ()))

    def graphs(self, count: int, seed: int) -> list[nx.Graph]:
        graphs = sample_graphs(count, (4, 8), seed, self.problem.directed)
        rng = random.Random(seed)
        for g in graphs:
            if self.problem.weighted:
                for u, v in g.edges:
                    g.edges[u, v]["weight"] = rng.randint(1, 9)
            if self.problem.node_weights:
                for v in g.nodes:
                    g.nodes[v]["weight"] = rng.randint(1, 9)
        return graphs

    def params_for(self, g: nx.Graph, rng: random.Random) -> dict[str, Any]:
        nodes = sorted(g.nodes)
        params = {k: v for k, v in self.params.items() if k not in NODE_PARAMS}
        params.update({k: rng.choice(nodes) for k in self.node_keys})
        return sandbox_params(g, params)


def _brute_force(source: str, cpu_seconds: float):
    harness = source + _BRUTE_HARNESS

    def expected(g: nx.Graph, params: dict[str, Any]) -> Any:
        run = run_designed(harness, adjacency_of(g), {**params, "adjacency": adjacency_of(g)}, max_rounds=0,
                           cpu_seconds=cpu_seconds)  # fmt: skip
        if run.status not in ("ok", "round_cap"):  # zero rounds are asked for: round_cap is the normal end
            raise OracleError(f"your brute_force failed: {run.status} - {run.message}")
        return run.answer

    return expected


def check_design(
    source: str,
    problem: ParsedProblem,
    params: dict[str, Any],
    task: str | None,
    *,
    n_graphs: int = 6,
    cpu_seconds: float = 2.0,
    seed: int = 0,
) -> DesignCheck:
    """Run the design on ``n_graphs`` small graphs like the question's and judge its answers (see module doc)."""
    shape = _CheckGraphs(problem, params, task)
    oracle = oracle_for(task)
    if oracle is not None:
        judge, expected = "oracle", oracle
    elif re.search(r"^def\s+brute_force\s*\(", source, re.M):
        judge, expected = "brute_force", _brute_force(source, cpu_seconds)
    else:
        judge, expected = "smoke", lambda g, p: None
    report: CheckReport = validate_designed(
        source,
        shape.graphs(n_graphs, seed),
        shape.params_for,
        expected=expected,
        judge=(lambda g, p, got, want: True)
        if judge == "smoke"
        else (lambda g, p, got, want: same_answer(got, want)),
        seed=seed,
        cpu_seconds=cpu_seconds,
    )
    return DesignCheck(report.passed, judge, report.graphs_checked, report.message)


def run_on_problem(
    source: str, problem: ParsedProblem, params: dict[str, Any], *, cpu_seconds: float, memory_mb: int
) -> SandboxResult:
    """Run the design on the question's own graph in the sandbox."""
    graph = problem_graph(problem)
    return run_designed(
        source,
        adjacency_of(graph),
        sandbox_params(graph, params),
        cpu_seconds=cpu_seconds,
        memory_mb=memory_mb,
    )
