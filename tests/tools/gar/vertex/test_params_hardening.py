"""Parameters that come from a model's reply give clear errors (or sane answers), never tracebacks or hangs."""

from __future__ import annotations

import pytest

from graphreason.tools.gar.vertex import VertexGraph, VertexProgramError, get_algorithm, run

CHAIN = VertexGraph.from_edges(4, [(0, 1), (1, 2), (2, 3)], directed=True)


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"top_k": float("inf")}, "top_k must be a finite number"),
        ({"damping": float("nan")}, "damping must be a finite number"),
        ({"tol": "NaN"}, "tol must be a finite number"),  # NaN passed `tol <= 0` before
        ({"damping": [[0.5]]}, "damping must be a finite number"),
        ({"damping": True}, "damping must be a finite number"),
        ({"top_k": 2.5}, "top_k must be a whole number"),
        ({"top_k": "many"}, "top_k must be a finite number"),
        ({"weighted": "maybe"}, "weighted must be true or false"),
        ({"weighted": 2}, "weighted must be true or false"),
    ],
)
def test_pagerank_refuses_odd_values_clearly(params, message):
    with pytest.raises(VertexProgramError, match=message):
        get_algorithm("pagerank").prepare(CHAIN, params)


def test_pagerank_reads_numbers_and_flags_written_as_words():
    params = get_algorithm("pagerank").prepare(CHAIN, {"top_k": "2", "damping": "0.5", "weighted": "false"})
    assert params == {"damping": 0.5, "tol": 1e-10, "top_k": 2, "weighted": False}
    assert get_algorithm("pagerank").prepare(CHAIN, {"top_k": 3.0, "weighted": 1})["top_k"] == 3


def test_pagerank_with_a_huge_top_k_lists_every_node():
    assert run(get_algorithm("pagerank"), CHAIN, {"top_k": 10**400}).answer == [3, 2, 1, 0]


@pytest.mark.parametrize("hops", [10, 10**9, 10**400])
def test_neighbourhood_with_a_huge_hop_count_groups_only_reachable_hops(hops):
    out = run(get_algorithm("neighbourhood"), CHAIN, {"node": 0, "hops": hops}).output
    assert out["answer"] == [1, 2, 3]
    assert out["by_hop"] == {1: [1], 2: [2], 3: [3], 4: []}  # no hop count beyond the node count


def test_neighbourhood_groups_by_hop_as_before_for_small_counts():
    g = VertexGraph.from_edges(6, [(0, 1), (0, 2), (1, 3), (2, 4), (4, 5)])
    out = run(get_algorithm("neighbourhood"), g, {"node": 0, "hops": 2}).output
    assert out["by_hop"] == {1: [1, 2], 2: [3, 4]}
    out = run(get_algorithm("neighbourhood"), g, {"node": 5, "hops": 1}).output
    assert out["by_hop"] == {1: [4]}
