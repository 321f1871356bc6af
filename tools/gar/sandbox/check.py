"""Check a designed algorithm against the exact reference solver on small graphs.

The first test graph is always a path (the graph that needs the most rounds,
so a too-early stop shows up), the rest are seeded random graphs of varying
density (often disconnected). Each is run in the sandbox and the answer judged
by :func:`graphreason.tools.gar.vertex.reference.check_answer`; the first wrong answer or
failed run is returned as the counterexample.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import networkx as nx

from graphreason.tools.gar.sandbox.run import SandboxResult, adjacency_of, run_designed
from graphreason.tools.gar.sandbox.validate import SandboxViolation, validate_source
from graphreason.tools.gar.vertex.reference import check_answer, normalize_task, solve

ParamsFor = Callable[[nx.Graph, random.Random], dict[str, Any]]


@dataclass(frozen=True)
class Counterexample:
    """A graph on which the designed algorithm failed: what it said (or how it failed) vs the reference."""

    adjacency: dict[Any, list[Any]]
    params: dict[str, Any]
    expected: Any
    got: Any
    run: SandboxResult

    def describe(self) -> str:
        if not self.run.ok:
            return f"on {self.adjacency} with {self.params}: {self.run.status} - {self.run.message}"
        return f"on {self.adjacency} with {self.params}: got {self.got!r}, expected {self.expected!r}"


@dataclass
class CheckReport:
    """Result of :func:`validate_against_reference`; ``passed`` only if every graph was answered right."""

    passed: bool
    graphs_checked: int
    counterexample: Counterexample | None = None
    message: str = ""
    runs: list[SandboxResult] = field(default_factory=list)


def default_params(task: str, g: nx.Graph, rng: random.Random) -> dict[str, Any]:
    """Random parameters a task needs (source / target / node) for graph ``g``."""
    nodes = sorted(g.nodes)
    name = normalize_task(task)
    if name in ("connectivity", "shortest_path"):
        return {"source": rng.choice(nodes), "target": rng.choice(nodes)}
    if name == "bfs_levels":
        return {"source": rng.choice(nodes)}
    if name in ("degree", "neighbourhood"):
        return {"node": rng.choice(nodes)}
    return {}


def sample_graphs(n_graphs: int, sizes: tuple[int, int], seed: int, directed: bool) -> list[nx.Graph]:
    """A path on ``sizes[1]`` nodes, then random graphs with ``sizes[0]..sizes[1]`` nodes."""
    low, high = sizes
    if not 1 <= low <= high:
        raise ValueError(f"sizes must be (low, high) with 1 <= low <= high, got {sizes}")
    rng = random.Random(seed)
    kind = nx.DiGraph if directed else nx.Graph
    graphs = [nx.path_graph(high, create_using=kind)] if n_graphs > 0 else []
    while len(graphs) < n_graphs:
        n = rng.randint(low, high)
        graphs.append(
            nx.gnp_random_graph(n, rng.choice([0.15, 0.3, 0.5]), seed=rng.randrange(2**31), directed=directed)
        )
    return graphs


def validate_against_reference(
    source: str,
    task: str,
    n_graphs: int = 5,
    sizes: tuple[int, int] = (4, 8),
    seed: int = 0,
    *,
    directed: bool = False,
    params_for: ParamsFor | None = None,
    cpu_seconds: float = 2.0,
) -> CheckReport:
    """Run ``source`` on ``n_graphs`` small graphs and compare with the reference answer of ``task``.

    ``params_for(graph, rng)`` chooses each graph's parameters (default:
    :func:`default_params`). For the path graph the default picks its two ends.
    Stops at the first counterexample; a static violation fails at once.
    """
    name = normalize_task(task)
    if params_for is None:

        def params_for(g: nx.Graph, rng: random.Random) -> dict[str, Any]:
            params = default_params(name, g, rng)
            if len(g) and set(g.edges) == set(nx.path_graph(len(g), create_using=type(g)).edges):
                # the path: ask about its two ends, the longest wave
                params = {k: (0 if k in ("source", "node") else len(g) - 1) for k in params}
            return params

    return validate_designed(
        source,
        sample_graphs(n_graphs, sizes, seed, directed),
        params_for,
        expected=lambda g, params: solve(name, g, params),
        judge=lambda g, params, got, expected: check_answer(name, g, params, got),
        seed=seed,
        cpu_seconds=cpu_seconds,
    )


Expected = Callable[[nx.Graph, dict[str, Any]], Any]
Judge = Callable[[nx.Graph, dict[str, Any], Any, Any], bool]


def validate_designed(
    source: str,
    graphs: list[nx.Graph],
    params_for: ParamsFor,
    *,
    expected: Expected,
    judge: Judge,
    seed: int = 0,
    cpu_seconds: float = 2.0,
) -> CheckReport:
    """Run ``source`` on each graph and judge its answer against ``expected(graph, params)``.

    ``judge(graph, params, got, expected)`` decides whether an answer is right;
    ``expected`` may raise :class:`OracleError` when it cannot answer (a
    model-written brute force that failed), which fails the check with that
    message. Stops at the first counterexample; a static violation fails at once.
    """
    try:
        validate_source(source)
    except SandboxViolation as exc:
        return CheckReport(False, 0, message=f"refused before running: {exc}")
    rng = random.Random(seed + 1)
    runs: list[SandboxResult] = []
    for index, g in enumerate(graphs):
        params = params_for(g, rng)
        run = run_designed(source, adjacency_of(g), params, cpu_seconds=cpu_seconds)
        runs.append(run)
        try:
            want = expected(g, params)
        except OracleError as exc:
            return CheckReport(
                False, index + 1, message=f"no expected answer on graph {index + 1}: {exc}", runs=runs
            )
        if not run.ok or not _judged_right(judge, g, params, run.answer, want):
            bad = Counterexample(adjacency_of(g), params, want, run.answer, run)
            return CheckReport(False, index + 1, bad, f"wrong on graph {index + 1}: {bad.describe()}", runs)
    return CheckReport(True, len(runs), message=f"correct on all {len(runs)} graphs", runs=runs)


def _judged_right(judge: Judge, g: nx.Graph, params: dict[str, Any], got: Any, want: Any) -> bool:
    """``judge``'s verdict; an answer the judge cannot even compare (it raised) is a wrong answer."""
    try:
        return bool(judge(g, params, got, want))
    except Exception:  # the answer is model-made data: odd types, huge ints, NaN ...
        return False


class OracleError(RuntimeError):
    """The expected answer of a check graph could not be computed."""
