"""Bounded exact search for the NP-complete GraphInstruct tasks.

* :func:`hamiltonian_path` - depth-first search over bitmasks with pruning
  (degree and reachability of what is left, memo of dead states) and a
  Warnsdorff move order; exact when it finishes.
* :func:`subgraph_match` - networkx VF2 (monomorphism by default, the meaning
  GraphInstruct's "substructure" task uses: G' may map onto a subgraph of G
  with extra edges), with a step counter.

Both stop at a step or time budget and then say so (``status ==
"bound_exceeded"``) instead of guessing.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass
from typing import Any, Literal

from graphreason.runtime.cancel import check_cancelled
from graphreason.tools.gar.vertex.graph import VertexGraph, VertexProgramError

Status = Literal["found", "none", "bound_exceeded"]


class BoundExceededError(VertexProgramError):
    """An exact search gave up at its step or time budget, so the answer is unknown."""


class _OutOfBudget(Exception):
    pass


@dataclass(frozen=True)
class SearchResult:
    """Outcome of a bounded search: ``witness`` is the path / mapping when found."""

    status: Status
    witness: Any
    steps: int
    seconds: float

    @property
    def answer(self) -> bool:
        """Yes/no; raises :class:`BoundExceededError` when the search did not finish."""
        if self.status == "bound_exceeded":
            raise BoundExceededError(
                f"the exact search stopped at its budget after {self.steps} steps ({self.seconds:.1f} s); "
                "the answer is unknown - raise the budget to decide"
            )
        return self.status == "found"


def as_networkx(graph: Any) -> Any:
    """A networkx graph from a :class:`VertexGraph` or a networkx graph (returned as is)."""
    if isinstance(graph, VertexGraph):
        return graph.to_networkx()
    if hasattr(graph, "nodes") and hasattr(graph, "is_directed"):
        return graph
    raise VertexProgramError(f"expected a VertexGraph or a networkx graph, got {type(graph).__name__}")


class _Budget:
    def __init__(self, max_steps: int, seconds: float) -> None:
        self.max_steps, self.deadline, self.steps = max_steps, time.perf_counter() + seconds, 0

    def tick(self) -> None:
        self.steps += 1
        if self.steps > self.max_steps:
            raise _OutOfBudget
        if self.steps & 1023 == 0:  # every 1,024 steps of search: the clock, and whether the run was cancelled
            check_cancelled()
            if time.perf_counter() > self.deadline:
                raise _OutOfBudget


def _bits(mask: int):
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class _HamiltonSearch:
    """Depth-first search for a path through every node; nodes are bit positions."""

    def __init__(self, succ: list[int], pred: list[int], directed: bool, budget: _Budget) -> None:
        self.succ, self.pred, self.directed, self.budget = succ, pred, directed, budget
        self.n = len(succ)
        self.full = (1 << self.n) - 1
        self.dead: set[tuple[int, int]] = set()

    def hopeless(self, current: int, remaining: int) -> bool:
        """True when the unvisited nodes cannot be strung into one path starting after ``current``."""
        allowed = remaining | (1 << current)
        ends = 0
        for u in _bits(remaining):
            if self.directed:
                if not self.pred[u] & allowed:
                    return True
                last = not self.succ[u] & remaining
            else:
                links = (self.succ[u] & allowed).bit_count()
                if links == 0:
                    return True
                last = links == 1  # only the path's final node may have a single way in
            if last:
                ends += 1
                if ends > 1:
                    return True
        # every unvisited node must be reachable from the current one through unvisited nodes
        seen = frontier = 1 << current
        while frontier:
            step = 0
            for v in _bits(frontier):
                step |= self.succ[v]
            frontier = step & allowed & ~seen
            seen |= frontier
        return seen != allowed

    def extend(self, current: int, visited: int, path: list[int]) -> bool:
        self.budget.tick()
        remaining = self.full & ~visited
        if not remaining:
            return True
        if (current, visited) in self.dead or self.hopeless(current, remaining):
            return False
        options = list(_bits(self.succ[current] & remaining))
        # Warnsdorff: try the neighbour with the fewest onward moves first
        options.sort(key=lambda v: (self.succ[v] & remaining).bit_count())
        for v in options:
            path.append(v)
            if self.extend(v, visited | (1 << v), path):
                return True
            path.pop()
        if len(self.dead) < 2_000_000:
            self.dead.add((current, visited))
        return False


def hamiltonian_path(graph: Any, *, max_steps: int = 2_000_000, time_budget: float = 30.0) -> SearchResult:
    """Exact search for a Hamiltonian path (a path visiting every node once), within a budget.

    Works on undirected and directed graphs (a directed path follows arcs).
    Returns ``status`` "found" (``witness`` is the path), "none", or
    "bound_exceeded" when ``max_steps`` search steps or ``time_budget`` seconds ran out.
    """
    start = time.perf_counter()
    g = as_networkx(graph)
    nodes = list(g.nodes())
    n = len(nodes)
    if n == 0:
        raise VertexProgramError("the graph has no nodes")
    index = {v: i for i, v in enumerate(nodes)}
    succ, pred = [0] * n, [0] * n
    for u, v in g.edges():
        if u == v:
            continue  # a self-loop never helps a path
        a, b = index[u], index[v]
        succ[a] |= 1 << b
        pred[b] |= 1 << a
        if not g.is_directed():
            succ[b] |= 1 << a
            pred[a] |= 1 << b
    directed = g.is_directed()
    budget = _Budget(max_steps, time_budget)

    def done(status: Status, path: list[int] | None = None) -> SearchResult:
        witness = [nodes[i] for i in path] if path else None
        return SearchResult(status, witness, budget.steps, time.perf_counter() - start)

    if n == 1:
        return done("found", [0])
    if directed:
        sources = [i for i in range(n) if not pred[i]]
        sinks = [i for i in range(n) if not succ[i]]
        if len(sources) > 1 or len(sinks) > 1:
            return done("none")
        starts = sources or sorted(range(n), key=lambda i: succ[i].bit_count())
    else:
        degree = [succ[i].bit_count() for i in range(n)]
        if 0 in degree or sum(d == 1 for d in degree) > 2:
            return done("none")
        leaves = [i for i in range(n) if degree[i] == 1]
        # a path through a leaf ends there, and read backwards it starts there
        starts = leaves[:1] or sorted(range(n), key=lambda i: degree[i])
    search = _HamiltonSearch(succ, pred, directed, budget)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 4 * n + 200))
    try:
        for s in starts:
            path = [s]
            if search.extend(s, 1 << s, path):
                return done("found", path)
    except _OutOfBudget:
        return done("bound_exceeded")
    finally:
        sys.setrecursionlimit(limit)
    return done("none")


def _budgeted(base: type) -> type:
    class Budgeted(base):  # type: ignore[misc, valid-type]
        budget: _Budget

        def syntactic_feasibility(self, g1_node: Any, g2_node: Any) -> bool:
            self.budget.tick()
            return super().syntactic_feasibility(g1_node, g2_node)

    return Budgeted


def _vf2(g: Any, p: Any, induced: bool, budget: _Budget) -> dict | None:
    from networkx.algorithms.isomorphism import DiGraphMatcher, GraphMatcher

    matcher = _budgeted(DiGraphMatcher if g.is_directed() else GraphMatcher)(g, p)
    matcher.budget = budget
    found = matcher.subgraph_isomorphisms_iter() if induced else matcher.subgraph_monomorphisms_iter()
    return next(iter(found), None)


class _BitsetMatcher:
    """Backtracking over pattern nodes, most-constrained first, candidates as bitmask intersections."""

    def __init__(self, g: Any, p: Any, induced: bool, budget: _Budget) -> None:
        self.budget, self.induced = budget, induced
        self.gnodes, self.pnodes = list(g.nodes()), list(p.nodes())
        gi = {v: i for i, v in enumerate(self.gnodes)}
        self.succ, self.pred = [0] * len(self.gnodes), [0] * len(self.gnodes)
        g_loop = [False] * len(self.gnodes)
        for u, v in g.edges():
            a, b = gi[u], gi[v]
            g_loop[a] |= a == b
            self.succ[a] |= 1 << b
            self.pred[b] |= 1 << a
            if not g.is_directed():
                self.succ[b] |= 1 << a
                self.pred[a] |= 1 << b
        self.order = self._order(p)
        position = {x: k for k, x in enumerate(self.order)}
        self.static: list[int] = []
        self.links: list[list[tuple[int, bool, bool]]] = []
        for k, x in enumerate(self.order):
            out_deg = (
                sum(1 for y in p.successors(x) if y != x)
                if p.is_directed()
                else p.degree(x) - 2 * p.has_edge(x, x)
            )
            in_deg = sum(1 for y in p.predecessors(x) if y != x) if p.is_directed() else out_deg
            loop = p.has_edge(x, x)
            mask = 0
            for i in range(len(self.gnodes)):
                ok = (self.succ[i] & ~(1 << i)).bit_count() >= out_deg and (
                    self.pred[i] & ~(1 << i)
                ).bit_count() >= in_deg
                if ok and (g_loop[i] == loop if induced else (g_loop[i] or not loop)):
                    mask |= 1 << i
            self.static.append(mask)
            links = []
            for y in self.order[:k]:
                out_req, in_req = p.has_edge(x, y), p.has_edge(y, x)
                if out_req or in_req or induced:
                    links.append((position[y], out_req, in_req))
            self.links.append(links)
        self.assign = [0] * len(self.order)

    @staticmethod
    def _order(p: Any) -> list[Any]:
        """Pattern nodes, each next one the most tied to those already placed (then the highest degree)."""
        plain = p.to_undirected(as_view=True) if p.is_directed() else p
        left = set(p.nodes())
        order: list[Any] = []
        while left:
            best = max(left, key=lambda x: (sum(1 for y in plain[x] if y in order), plain.degree(x), str(x)))
            order.append(best)
            left.discard(best)
        return order

    def place(self, k: int, used: int) -> bool:
        self.budget.tick()
        if k == len(self.order):
            return True
        cand = self.static[k] & ~used
        for j, out_req, in_req in self.links[k]:
            y = self.assign[j]
            cand = cand & self.pred[y] if out_req else (cand & ~self.pred[y] if self.induced else cand)
            cand = cand & self.succ[y] if in_req else (cand & ~self.succ[y] if self.induced else cand)
            if not cand:
                return False
        for i in _bits(cand):
            self.assign[k] = i
            if self.place(k + 1, used | (1 << i)):
                return True
        return False

    def run(self) -> dict | None:
        if not self.order:
            return {}
        if not self.place(0, 0):
            return None
        return {self.gnodes[i]: x for x, i in zip(self.order, self.assign, strict=True)}


def subgraph_match(
    graph: Any,
    pattern: Any,
    *,
    induced: bool = False,
    method: Literal["bitset", "vf2"] = "bitset",
    max_steps: int = 5_000_000,
    time_budget: float = 30.0,
) -> SearchResult:
    """Does ``graph`` contain a copy of ``pattern``? Exact backtracking with a step / time budget.

    By default a *monomorphism* (the pattern's edges must all be present; extra
    edges among the matched nodes are allowed), which is what GraphInstruct's
    substructure answers follow; ``induced=True`` asks for an induced copy.
    ``method`` is "bitset" (our matcher: most-constrained pattern node first,
    candidates by bitmask intersection) or "vf2" (networkx). ``witness`` maps
    graph nodes to pattern nodes when found.
    """
    start = time.perf_counter()
    g, p = as_networkx(graph), as_networkx(pattern)
    if g.is_directed() != p.is_directed():
        raise VertexProgramError("the graph and the pattern must both be directed or both undirected")
    if method not in ("bitset", "vf2"):
        raise VertexProgramError(f"unknown matching method {method!r}; use bitset or vf2")
    budget = _Budget(max_steps, time_budget)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 4 * p.number_of_nodes() + 200))
    try:
        if p.number_of_nodes() > g.number_of_nodes():
            mapping = None
        elif method == "vf2":
            mapping = _vf2(g, p, induced, budget)
        else:
            mapping = _BitsetMatcher(g, p, induced, budget).run()
    except _OutOfBudget:
        return SearchResult("bound_exceeded", None, budget.steps, time.perf_counter() - start)
    finally:
        sys.setrecursionlimit(limit)
    status: Status = "found" if mapping is not None else "none"
    return SearchResult(status, mapping, budget.steps, time.perf_counter() - start)
