"""The GAR shortest-path benchmark's core at n=1000: the workflow's path is valid and optimal.

The benchmark (``benchmarks/bench_gar_shortest_path.py``) times 10^3..10^6
nodes; here only correctness is asserted, never a time. The path is checked
again independently of the benchmark's own verdict: every step an edge of the
generated graph, the total equal to scipy's Dijkstra distance.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy.sparse.csgraph import dijkstra

from benchmarks.bench_gar_shortest_path import (
    adjacency,
    path_weight,
    random_weighted_graph,
    run_case,
)

N = 1000


def edge_weights(src, dst, weight, directed: bool) -> dict[tuple[int, int], int]:
    arcs = {(int(u), int(v)): int(w) for u, v, w in zip(src, dst, weight, strict=True)}
    if not directed:
        arcs.update({(v, u): w for (u, v), w in list(arcs.items())})
    return arcs


@pytest.mark.parametrize(("directed", "form"), [(True, "array"), (False, "array"), (True, "lists")])
def test_workflow_path_is_valid_and_optimal_at_1000_nodes(directed, form):
    result = run_case(N, seed=3, directed=directed, form=form)
    src, dst, weight = random_weighted_graph(N, 5.0, 3, directed)
    arcs = edge_weights(src, dst, weight, directed)
    expected = dijkstra(adjacency(N, src, dst, weight, directed), directed=True, indices=result.source)
    path = result.path

    assert result.correct
    assert path[0] == result.source and path[-1] == result.target and len(path) >= 3
    assert all((a, b) in arcs for a, b in zip(path, path[1:], strict=False))
    total = sum(arcs[a, b] for a, b in zip(path, path[1:], strict=False))
    assert total == expected[result.target] == result.distance == result.answer_weight
    # the target is the farthest reachable node, so no reachable node is farther
    assert result.distance == np.max(expected[np.isfinite(expected)])
    assert result.problem.startswith(
        f"{'directed' if directed else 'undirected'} weighted graph with {N} nodes"
    )


def test_generated_graph_is_simple_with_integer_weights():
    for directed in (True, False):
        src, dst, weight = random_weighted_graph(N, 5.0, 0, directed)
        assert not np.any(src == dst)
        lo, hi = (src, dst) if directed else (np.minimum(src, dst), np.maximum(src, dst))
        assert np.unique(lo * N + hi).size == src.size > 4 * N
        assert weight.min() >= 1 and weight.max() <= 100 and weight.dtype.kind == "i"


def test_path_check_rejects_a_step_that_is_not_an_edge():
    src, dst, weight = np.array([0, 1]), np.array([1, 2]), np.array([4, 5])
    matrix = adjacency(3, src, dst, weight, directed=True)
    assert path_weight(matrix, [0, 1, 2]) == 9
    assert path_weight(matrix, [0, 2]) is None
    assert path_weight(matrix, [2, 1]) is None  # arcs are not walked backwards in a directed graph
    assert path_weight(adjacency(3, src, dst, weight, directed=False), [2, 1, 0]) == 9


def test_bad_sizes_are_refused():
    with pytest.raises(ValueError, match="at least 2 nodes"):
        random_weighted_graph(1)
