"""A bulk-synchronous (Pregel-style) vertex-program engine over numpy arrays.

An algorithm is written in the six parts of GraphAgent-Reasoner (State,
Message, Initialization, Send, Update, Termination) as a
:class:`VertexAlgorithm`, but every part acts on *all* nodes at once: state is a
dict of per-node arrays, Send returns one array entry per message, and messages
to the same node are combined by a reduction (min / max / sum / or / count,
or a custom function) before Update sees them.

One superstep (round) is: the active nodes Send along their arcs; messages are
combined per target; Update folds each node's combined message into its state
and reports which nodes changed; those become the next round's active nodes
(the "frontier"), so a shortest-path round only touches nodes whose distance
just improved. Rounds stop when no state changed, when the algorithm's own
Termination rule fires, or at ``max_rounds``.

Like GraphX's ``sendMsg``, Send may read the state at both ends of an arc (the
edge "triplet") - e.g. to skip a message that cannot improve its target - and
it may record what a node sent in that node's own state. It never writes another
node's state: that happens only in Update, from messages.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np

from graphreason.runtime.cancel import check_cancelled
from graphreason.tools.gar.vertex.graph import VertexGraph, VertexProgramError

SIX_PARTS = ("State", "Message", "Initialization", "Send", "Update", "Termination")
REDUCTIONS = ("min", "max", "sum", "or", "count", "none")

State = dict[str, Any]


@dataclass
class Messages:
    """Messages of one round, one entry per message (parallel arrays).

    ``values`` may be ``None`` for pure signals (counted by the ``count``
    reduction). ``senders`` lets min/max report which sender won. ``extra``
    holds further per-message fields; they reach Update only with the ``none``
    reduction, which passes messages through uncombined.
    """

    targets: np.ndarray
    values: np.ndarray | None = None
    senders: np.ndarray | None = None
    extra: dict[str, np.ndarray] = field(default_factory=dict)

    def __len__(self) -> int:
        return int(self.targets.size)

    @staticmethod
    def none() -> Messages:
        return Messages(np.empty(0, dtype=np.int64))


@dataclass
class Inbox:
    """Combined messages: ``nodes`` got mail; ``values[i]`` is what node ``nodes[i]`` received.

    For min/max, ``senders[i]`` is one sender that achieved the extreme value.
    With the ``none`` reduction, ``raw`` is the uncombined :class:`Messages`.
    """

    nodes: np.ndarray
    values: np.ndarray | None = None
    senders: np.ndarray | None = None
    raw: Messages | None = None

    def __len__(self) -> int:
        return int(self.nodes.size)


class Combiner:
    """Reduces messages per target in O(messages) time using reusable scratch arrays.

    The scratch arrays are the size of the graph and are reset only where they
    were written, so a round with k messages costs O(k), not O(n).
    """

    def __init__(self, num_nodes: int, how: str | Callable[[Messages, int], Inbox]) -> None:
        if not callable(how) and how not in REDUCTIONS:
            raise VertexProgramError(f"unknown message reduction {how!r}; use one of {', '.join(REDUCTIONS)}")
        self.n = num_nodes
        self.how = how
        self._stamp = np.full(num_nodes, -1, dtype=np.int64)
        self._scratches: dict[tuple[str, Any], np.ndarray] = {}
        self._winner = np.full(num_nodes, -1, dtype=np.int64)  # stale entries are never read
        self._mark = np.zeros(num_nodes, dtype=bool)
        self._extremes: dict[np.dtype, tuple[np.ndarray, Any, np.ufunc]] = {}

    def distinct_targets(self, targets: np.ndarray) -> np.ndarray:
        """Positions of one message per distinct target (whichever write wins, exactly one matches)."""
        pos = np.arange(targets.size, dtype=np.int64)
        self._stamp[targets] = pos
        return (self._stamp[targets] == pos).nonzero()[0]

    def receivers(self, targets: np.ndarray) -> np.ndarray:
        """The distinct targets. O(k) for few messages; a scan of a mark array (sorted ids) for many."""
        if targets.size * 16 < self.n:
            return targets[self.distinct_targets(targets)]
        self._mark[targets] = True
        nodes = self._mark.nonzero()[0]
        self._mark[nodes] = False
        return nodes

    def _scratch(self, dtype: np.dtype, fill: Any) -> np.ndarray:
        """A length-n array holding ``fill`` everywhere between uses (callers restore what they touch)."""
        key = (dtype.str, fill)
        buf = self._scratches.get(key)
        if buf is None:
            buf = self._scratches[key] = np.full(self.n, fill, dtype=dtype)
        return buf

    def __call__(self, messages: Messages) -> Inbox:
        if callable(self.how):
            return self.how(messages, self.n)
        t = messages.targets
        if self.how == "none":
            return Inbox(self.receivers(t), raw=messages)
        if t.size == 0:
            values = messages.values[:0] if messages.values is not None else np.empty(0, dtype=np.int64)
            senders = messages.senders[:0] if messages.senders is not None else None
            return Inbox(t, values, senders)
        nodes = self.receivers(t)
        v = messages.values
        if self.how == "count" or v is None:
            return Inbox(nodes, self._accumulate(t, nodes, None))
        if self.how == "sum":
            return Inbox(nodes, self._accumulate(t, nodes, v))
        if self.how == "or":
            hits = t[v.astype(bool)]
            got = np.zeros(self.n, dtype=bool) if hits.size * 16 >= self.n else None
            if got is None:
                return Inbox(nodes, np.isin(nodes, hits))
            got[hits] = True
            return Inbox(nodes, got[nodes])
        # min / max: reduce into a scratch array, then find one sender per target that won
        if v.dtype.kind == "b":
            v = v.astype(np.int8)
        known = self._extremes.get(v.dtype)
        if known is None:
            known = self._extremes[v.dtype] = self._extreme_scratch(v.dtype)
        buf, fill, reduce = known
        reduce.at(buf, t, v)
        best = buf[nodes]
        senders = None
        if messages.senders is not None:
            won = (v == buf[t]).nonzero()[0]
            self._winner[t[won]] = messages.senders[won]
            senders = self._winner[nodes]
        buf[nodes] = fill
        return Inbox(nodes, best, senders)

    def _extreme_scratch(self, dtype: np.dtype) -> tuple[np.ndarray, Any, np.ufunc]:
        lowest = self.how == "min"
        if dtype.kind == "f":
            fill = np.inf if lowest else -np.inf
        else:
            fill = np.iinfo(dtype).max if lowest else np.iinfo(dtype).min
        return self._scratch(dtype, fill), fill, np.minimum if lowest else np.maximum

    def _accumulate(self, t: np.ndarray, nodes: np.ndarray, v: np.ndarray | None) -> np.ndarray:
        """Per-target sums of ``v`` (counts when ``v`` is None), aligned with ``nodes``."""
        if t.size * 16 >= self.n and (v is None or v.dtype.kind == "f"):
            return np.bincount(t, weights=v, minlength=self.n)[nodes]
        dtype = np.float64 if v is not None and v.dtype.kind == "f" else np.int64
        buf = self._scratch(np.dtype(dtype), 0)
        np.add.at(buf, t, 1 if v is None else v)
        out = buf[nodes]
        buf[nodes] = 0
        return out


def combine(messages: Messages, num_nodes: int, how: str = "min") -> Inbox:
    """One-off reduction of ``messages`` per target (convenience for Update code)."""
    return Combiner(num_nodes, how)(messages)


class VertexAlgorithm(ABC):
    """A distributed algorithm in GAR's six-part form, executed over all nodes with arrays.

    Subclasses set the class attributes and implement the methods below. The
    words in ``six_parts`` describe the same algorithm for a reader (a master
    LLM adapting it, or a node agent following it step by step); the methods
    are the compiled version of those words.
    """

    name: ClassVar[str]
    description: ClassVar[str]  # what questions it answers; embedded for retrieval
    params: ClassVar[dict[str, str]] = {}  # parameter -> meaning (says "required" when it is)
    six_parts: ClassVar[dict[str, str]]
    combine: ClassVar[str | Callable[[Messages, int], Inbox]] = "min"
    answer_kind: ClassVar[str] = "mapping"  # yes/no, number, path, order, ranking, mapping
    stop_on_no_change: ClassVar[bool] = True
    needs_directed: ClassVar[bool | None] = None  # True/False: only that kind of graph; None: both

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        parts = getattr(cls, "six_parts", None)
        if parts is not None and set(parts) != set(SIX_PARTS):
            raise TypeError(f"{cls.__name__}.six_parts must have exactly the keys {SIX_PARTS}")

    # ----------------------------------------------------------------- six parts
    def prepare(self, graph: VertexGraph, params: dict[str, Any]) -> dict[str, Any]:
        """Validate and complete the parameters (clear errors for missing / bad ones)."""
        if self.needs_directed is True and not graph.directed:
            raise VertexProgramError(f"{self.name} needs a directed graph; this graph is undirected")
        if self.needs_directed is False and graph.directed:
            raise VertexProgramError(f"{self.name} needs an undirected graph; this graph is directed")
        unknown = set(params) - set(self.params)
        if unknown:
            known = ", ".join(self.params) or "(none)"
            raise VertexProgramError(
                f"{self.name} does not take parameter(s) {', '.join(sorted(unknown))}; it takes: {known}"
            )
        return dict(params)

    @abstractmethod
    def init_state(self, graph: VertexGraph, params: dict[str, Any]) -> State:
        """Initialization: every node's starting state, as arrays of length n."""

    def initial_active(self, graph: VertexGraph, state: State, params: dict[str, Any]) -> np.ndarray:
        """Nodes that send in the first round (default: all)."""
        return np.arange(graph.num_nodes, dtype=np.int64)

    @abstractmethod
    def send(self, graph: VertexGraph, state: State, active: np.ndarray) -> Messages:
        """Send: messages from the ``active`` nodes along their arcs."""

    @abstractmethod
    def update(self, graph: VertexGraph, state: State, inbox: Inbox) -> tuple[State, np.ndarray]:
        """Update: fold combined messages into the state; return (state, ids or mask of changed nodes)."""

    def terminated(self, round: int, state: State, changed: np.ndarray) -> bool:
        """Task-specific Termination rule, checked after every round (default: none)."""
        return False

    def next_active(self, graph: VertexGraph, state: State, changed: np.ndarray) -> np.ndarray:
        """Nodes that send next round (default: those whose state just changed)."""
        return changed

    def max_rounds(self, graph: VertexGraph, params: dict[str, Any]) -> int:
        """Round cap when the caller gives none (default n + 1: enough for any BFS-like wave)."""
        return graph.num_nodes + 1

    @abstractmethod
    def result(self, graph: VertexGraph, state: State, params: dict[str, Any]) -> dict[str, Any]:
        """The answer from the final states: a dict with ``answer`` and a one-line ``text``."""

    # ----------------------------------------------------------------- text form
    def describe(self) -> str:
        """The algorithm as the paper's template text (### State ... ### Termination)."""
        lines = [f"## {self.name}", self.description.strip()]
        if self.params:
            lines.append("Parameters: " + "; ".join(f"{k}: {v}" for k, v in self.params.items()))
        for part in SIX_PARTS:
            lines += [f"### {part}", self.six_parts[part].strip()]
        return "\n".join(lines)


@dataclass(frozen=True)
class RoundInfo:
    """One superstep as seen from outside: how many nodes sent, how many messages, how many changed."""

    round: int
    active: int
    messages: int
    changed: int
    seconds: float


@dataclass
class RunResult:
    """Outcome of :func:`run`."""

    algorithm: str
    output: dict[str, Any]  # what the algorithm's Result part returned: "answer", "text" and details
    rounds: int
    stop_reason: str  # "no_change", "rule", "max_rounds" or "no_active"
    trace: list[RoundInfo]
    state: State
    params: dict[str, Any]
    seconds: float

    @property
    def answer(self) -> Any:
        """The structured answer (yes/no, number, path, order, ranking ...)."""
        return self.output["answer"]

    @property
    def complete(self) -> bool:
        """False when the round cap or the time budget cut the run short (the answer may then be wrong)."""
        return self.stop_reason not in INCOMPLETE


INCOMPLETE = ("max_rounds", "time_limit")  # stop reasons of a run cut short


def out_of_time(start: float, seconds: float | None) -> bool:
    """Whether a run that began at ``start`` (``time.perf_counter``) has used its ``seconds`` (None: no limit)."""
    return seconds is not None and time.perf_counter() - start > seconds


def _as_ids(changed: Any, n: int) -> np.ndarray:
    if type(changed) is np.ndarray and changed.dtype == np.int64 and changed.ndim == 1:
        return changed  # the common case, kept cheap: this runs twice per round
    arr = np.asarray(changed)
    if arr.dtype == bool:
        if arr.shape != (n,):
            raise VertexProgramError(f"Update returned a changed-mask of shape {arr.shape}; expected ({n},)")
        return np.flatnonzero(arr)
    return arr.astype(np.int64, copy=False).ravel()


def round_cap(algorithm: VertexAlgorithm, graph: Any, params: dict[str, Any], max_rounds: int | None) -> int:
    """The round cap of a run: the caller's, else the algorithm's own (both executors use it)."""
    cap = algorithm.max_rounds(graph, params) if max_rounds is None else int(max_rounds)
    if cap < 0:
        raise VertexProgramError(f"max_rounds must be >= 0, got {cap}")
    return cap


def run(
    algorithm: VertexAlgorithm,
    graph: VertexGraph,
    params: dict[str, Any] | None = None,
    *,
    max_rounds: int | None = None,
    on_round: Callable[[RoundInfo], None] | None = None,
    seconds: float | None = None,
) -> RunResult:
    """Run ``algorithm`` on ``graph`` in supersteps until it terminates.

    ``on_round`` is called after every round (for progress streaming). The run
    stops when no node's state changed (if the algorithm allows that), when its
    Termination rule fires, when no node is active, after ``max_rounds``
    (default: the algorithm's own cap), or at the first superstep's end past
    ``seconds`` of wall-clock time (default: no limit); ``RunResult.complete`` tells which.
    """
    start = time.perf_counter()
    params = algorithm.prepare(graph, dict(params or {}))
    cap = round_cap(algorithm, graph, params, max_rounds)
    n = graph.num_nodes
    state = algorithm.init_state(graph, params)
    active = _as_ids(algorithm.initial_active(graph, state, params), n)
    combiner = Combiner(n, algorithm.combine)
    trace: list[RoundInfo] = []
    stop = "max_rounds"
    rnd = 0
    while rnd < cap:
        if active.size == 0 and algorithm.stop_on_no_change:
            stop = "no_active"
            break
        check_cancelled()  # a served run that was cancelled stops between supersteps
        rnd += 1
        t0 = time.perf_counter()
        messages = algorithm.send(graph, state, active)
        inbox = combiner(messages)
        state, changed = algorithm.update(graph, state, inbox)
        changed = _as_ids(changed, n)
        info = RoundInfo(rnd, int(active.size), len(messages), int(changed.size), time.perf_counter() - t0)
        trace.append(info)
        if on_round is not None:
            on_round(info)
        if algorithm.terminated(rnd, state, changed):
            stop = "rule"
            break
        if algorithm.stop_on_no_change and changed.size == 0:
            stop = "no_change"
            break
        if out_of_time(start, seconds):
            stop = "time_limit"
            break
        active = _as_ids(algorithm.next_active(graph, state, changed), n)
    else:
        # a zero-round cap, or the loop ran out: still let a rule that is already true count
        if algorithm.terminated(rnd, state, np.empty(0, dtype=np.int64)):
            stop = "rule"
    output = algorithm.result(graph, state, params)
    return RunResult(algorithm.name, output, rnd, stop, trace, state, params, time.perf_counter() - start)
