"""The superstep engine: message reductions, the run loop, trace and callback, round caps,
and an algorithm written outside the library."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from graphreason.tools.gar.vertex import (
    Inbox,
    Messages,
    VertexAlgorithm,
    VertexGraph,
    VertexProgramError,
    combine,
    run,
)
from graphreason.tools.gar.vertex.engine import Combiner


def naive(targets: np.ndarray, values: np.ndarray, how: str) -> dict[int, Any]:
    out: dict[int, list] = {}
    for t, v in zip(targets.tolist(), values.tolist(), strict=True):
        out.setdefault(t, []).append(v)
    reduce = {"min": min, "max": max, "sum": sum, "or": any, "count": len}[how]
    return {t: reduce(vs) for t, vs in out.items()}


@pytest.mark.parametrize("how", ["min", "max", "sum", "or", "count"])
@pytest.mark.parametrize("size", [3, 40, 5000])  # few messages (scatter path) and many (scan path)
def test_reductions_match_a_plain_loop(how: str, size: int) -> None:
    rng = np.random.default_rng(size)
    n = 500
    targets = rng.integers(0, n, size)
    values = rng.integers(0, 2, size).astype(bool) if how == "or" else rng.integers(-50, 50, size)
    senders = rng.integers(0, n, size)
    combiner = Combiner(n, how)
    for _ in range(2):  # twice: scratch arrays must be clean after the first call
        inbox = combiner(Messages(targets, values, senders))
        got = dict(zip(inbox.nodes.tolist(), inbox.values.tolist(), strict=True))
        assert got == naive(targets, values, how)
    if how in ("min", "max"):
        # the reported sender really sent the winning value to that node
        sent = set(zip(targets.tolist(), values.tolist(), senders.tolist(), strict=True))
        assert all(
            (t, v, s) in sent
            for t, v, s in zip(
                inbox.nodes.tolist(), inbox.values.tolist(), inbox.senders.tolist(), strict=True
            )
        )


def test_float_sums_and_the_none_reduction() -> None:
    targets = np.array([2, 0, 2, 2])
    values = np.array([0.5, 1.0, 0.25, 2.0])
    inbox = combine(Messages(targets, values), 3, "sum")
    assert dict(zip(inbox.nodes.tolist(), inbox.values.tolist(), strict=True)) == {0: 1.0, 2: 2.75}
    raw = combine(Messages(targets, values), 3, "none")
    assert sorted(raw.nodes.tolist()) == [0, 2] and raw.raw.values is values
    empty = combine(Messages.none(), 3, "min")
    assert len(empty) == 0


def test_unknown_reduction_is_rejected() -> None:
    with pytest.raises(VertexProgramError, match="unknown message reduction 'median'"):
        Combiner(3, "median")


class MaxLabel(VertexAlgorithm):
    """Written the way an LLM-designed algorithm would be: every node learns the largest id it can reach."""

    name = "max_label"
    description = "Each node learns the largest node id that can reach it."
    six_parts = {
        "State": "best: largest id seen.",
        "Message": "the sender's best.",
        "Initialization": "best = own id; all nodes active.",
        "Send": "send best to each out-neighbour.",
        "Update": "best = max(best, received).",
        "Termination": "no change.",
    }
    combine = "max"

    def init_state(self, graph: VertexGraph, params: dict[str, Any]) -> dict[str, Any]:
        return {"best": np.arange(graph.num_nodes)}

    def send(self, graph: VertexGraph, state: dict[str, Any], active: np.ndarray) -> Messages:
        arcs = graph.out.edges_of(active)
        return Messages(arcs.dst, state["best"][arcs.src])

    def update(
        self, graph: VertexGraph, state: dict[str, Any], inbox: Inbox
    ) -> tuple[dict[str, Any], np.ndarray]:
        grew = inbox.values > state["best"][inbox.nodes]
        mask = np.zeros(graph.num_nodes, dtype=bool)  # a boolean mask is accepted as well as ids
        mask[inbox.nodes[grew]] = True
        state["best"][inbox.nodes[grew]] = inbox.values[grew]
        return state, mask

    def result(self, graph: VertexGraph, state: dict[str, Any], params: dict[str, Any]) -> dict[str, Any]:
        return {"answer": state["best"].tolist(), "text": ""}


def test_a_custom_algorithm_runs_with_trace_and_callback() -> None:
    # path 0 -> 1 -> 2 -> 3 -> 4 plus 4 -> 0 closes a cycle: everyone ends with 4
    g = VertexGraph.from_edges(5, [(0, 1), (1, 2), (2, 3), (3, 4), (4, 0)], directed=True)
    seen = []
    result = run(MaxLabel(), g, on_round=seen.append)
    assert result.answer == [4, 4, 4, 4, 4]
    assert result.stop_reason == "no_change" and result.complete
    assert seen == result.trace and len(seen) == result.rounds
    assert seen[0].active == 5 and seen[0].messages == 5
    assert seen[-1].changed == 0
    # each round only the nodes that just changed send again
    assert all(b.active == a.changed for a, b in zip(seen, seen[1:], strict=False))


def test_round_cap_marks_the_run_incomplete() -> None:
    g = VertexGraph.from_edges(6, [(i, i + 1) for i in range(5)], directed=True)
    result = run(MaxLabel(), g, max_rounds=0)
    assert result.rounds == 0 and not result.complete
    result = run(
        MaxLabel(), VertexGraph.from_edges(6, [(i + 1, i) for i in range(5)], directed=True), max_rounds=2
    )
    assert result.stop_reason == "max_rounds" and not result.complete
    assert result.answer == [2, 3, 4, 5, 5, 5]  # the wave of 5 got two hops far


def test_six_parts_must_be_complete() -> None:
    with pytest.raises(TypeError, match="six_parts must have exactly the keys"):

        class Broken(MaxLabel):  # noqa: F841 - defining the class is the test
            six_parts = {"State": "x"}


def test_update_must_return_a_mask_of_the_right_size() -> None:
    class BadMask(MaxLabel):
        def update(self, graph, state, inbox):
            return state, np.zeros(2, dtype=bool)

    with pytest.raises(VertexProgramError, match="changed-mask of shape"):
        run(BadMask(), VertexGraph.from_edges(3, [(0, 1)], directed=True))
