"""Every library algorithm against the networkx / scipy reference on seeded random graphs."""

from __future__ import annotations

import random

import networkx as nx
import numpy as np
import pytest

from graphreason.tools.gar.vertex import ALGORITHMS, VertexGraph, VertexProgramError, get_algorithm, run
from graphreason.tools.gar.vertex.engine import SIX_PARTS
from graphreason.tools.gar.vertex.reference import check_answer, solve
from graphreason.tools.gar.vertex.traversal import NegativeWeightError

from .random_graphs import random_case

CASES = 120


def cases(seed: int, **kwargs):
    rng = random.Random(seed)
    for i in range(CASES):
        yield (
            i,
            rng,
            random_case(
                rng,
                directed=kwargs.get("directed", i % 2 == 0),
                **{k: v for k, v in kwargs.items() if k != "directed"},
            ),
        )


def test_registry_entries_are_complete() -> None:
    expected = {
        "connectivity",
        "cycle_detection",
        "bipartiteness",
        "topological_sort",
        "shortest_path",
        "max_triangle_sum",
        "max_flow",
        "pagerank",
        "connected_components",
        "bfs_levels",
        "degree",
        "neighbourhood",
    }
    assert set(ALGORITHMS) == expected
    for name, algorithm in ALGORITHMS.items():
        assert algorithm.name == name
        assert set(algorithm.six_parts) == set(SIX_PARTS)
        assert len(algorithm.description) > 40
        text = algorithm.describe()
        assert all(f"### {part}" in text for part in SIX_PARTS)
    assert get_algorithm("Shortest-Path") is ALGORITHMS["shortest_path"]
    with pytest.raises(VertexProgramError, match="known: connectivity"):
        get_algorithm("teleportation")


def test_connectivity_and_bfs_match_networkx() -> None:
    for _, rng, case in cases(1):
        g, ref = case.vertex_graph(), case.nx_graph()
        s, t = rng.randrange(case.n), rng.randrange(case.n)
        result = run(get_algorithm("connectivity"), g, {"source": s, "target": t})
        assert result.answer == nx.has_path(ref, s, t)
        if result.answer:
            path = result.output["path"]
            assert path[0] == s and path[-1] == t
            assert all(ref.has_edge(a, b) for a, b in zip(path, path[1:], strict=False))
        levels = run(get_algorithm("bfs_levels"), g, {"source": s}).answer
        assert levels == dict(nx.single_source_shortest_path_length(ref, s))
        hop = run(get_algorithm("bfs_levels"), g, {"source": s, "target": t}).answer
        assert hop == solve("bfs", ref, {"source": s, "target": t})


def test_bfs_directions_on_directed_graphs() -> None:
    for _, rng, case in cases(2, directed=True):
        g, ref = case.vertex_graph(), case.nx_graph()
        s = rng.randrange(case.n)
        for direction in ("out", "in", "any"):
            got = run(get_algorithm("bfs_levels"), g, {"source": s, "direction": direction}).answer
            assert got == solve("bfs", ref, {"source": s, "direction": direction})


def test_neighbourhood_and_degree_match_networkx() -> None:
    for _, rng, case in cases(3, self_loops=True):
        g, ref = case.vertex_graph(), case.nx_graph()
        v, hops = rng.randrange(case.n), rng.randint(1, 3)
        direction = rng.choice(["out", "in", "any"])
        got = run(get_algorithm("neighbourhood"), g, {"node": v, "hops": hops, "direction": direction})
        assert got.answer == solve("neighbourhood", ref, {"node": v, "hops": hops, "direction": direction})
        degree = run(get_algorithm("degree"), g, {"node": v}).answer
        assert degree == ref.degree(v)
        assert run(get_algorithm("degree"), g).answer == [ref.degree(u) for u in range(case.n)]


def test_cycle_detection_matches_networkx_both_kinds() -> None:
    found = {True: 0, False: 0}
    for i, _, case in cases(4, self_loops=True):
        if i % 3 == 0:
            case.edges = [e for e in case.edges if e[0] != e[1]][
                : max(case.n - 1, 0)
            ]  # sparse: often acyclic
        g, ref = case.vertex_graph(), case.nx_graph()
        got = run(get_algorithm("cycle_detection"), g).answer
        assert got == solve("cycle", ref)
        found[got] += 1
    assert min(found.values()) > 10  # both outcomes were exercised


def test_topological_sort_gives_valid_orders_or_reports_the_cycle() -> None:
    for i, _, case in cases(5, directed=True, dag=True):
        if i % 4 == 0 and case.n > 1:  # close a cycle on purpose
            u, v = 0, 1
            case.edges = [e for e in case.edges if (e[0], e[1]) not in ((u, v), (v, u))] + [
                (u, v, 1.0),
                (v, u, 1.0),
            ]
        g, ref = case.vertex_graph(), case.nx_graph()
        answer = run(get_algorithm("topological_sort"), g).output
        assert check_answer("topology", ref, {}, answer["answer"])
        assert (answer["answer"] is None) == (not nx.is_directed_acyclic_graph(ref))


def test_topological_sort_rejects_undirected_graphs() -> None:
    g = VertexGraph.from_edges(3, [(0, 1), (1, 2)])
    with pytest.raises(VertexProgramError, match="needs a directed graph"):
        run(get_algorithm("topological_sort"), g)


def test_bipartiteness_matches_networkx_and_colouring_is_proper() -> None:
    seen = {True: 0, False: 0}
    for i, _, case in cases(6, self_loops=True):
        if i % 2:  # sparse graphs are often bipartite
            case.edges = case.edges[: case.n]
        g, ref = case.vertex_graph(), case.nx_graph()
        answer = run(get_algorithm("bipartiteness"), g).output
        assert answer["answer"] == solve("bipartite", ref)
        seen[answer["answer"]] += 1
        if answer["answer"]:
            colour = answer["colouring"]
            assert all(colour[u] != colour[v] for u, v, _ in case.edges)
    assert min(seen.values()) > 10


def test_shortest_path_matches_dijkstra_with_optimal_paths() -> None:
    for _, rng, case in cases(7, zero_weights=True):
        g, ref = case.vertex_graph(), case.nx_graph()
        s, t = rng.randrange(case.n), rng.randrange(case.n)
        answer = run(get_algorithm("shortest_path"), g, {"source": s, "target": t}).output
        expected = solve("shortest", ref, {"source": s, "target": t})
        assert answer["answer"] == expected
        if expected is not None:
            assert check_answer("shortest", ref, {"source": s, "target": t}, answer["path"])
        everything = run(get_algorithm("shortest_path"), g, {"source": s}).answer
        assert everything == solve("shortest", ref, {"source": s})


def test_shortest_path_against_scipy_on_a_larger_graph() -> None:
    from scipy.sparse.csgraph import dijkstra

    rng = np.random.default_rng(0)
    n, m = 3000, 15000
    edges = np.column_stack([rng.integers(0, n, m), rng.integers(0, n, m)])
    g = VertexGraph.from_edges(n, edges, directed=True, weights=rng.uniform(0.5, 50, m))
    result = run(get_algorithm("shortest_path"), g, {"source": 0})
    expected = dijkstra(g.to_scipy(), directed=True, indices=0)
    np.testing.assert_allclose(result.state["distance"], expected, rtol=1e-12)
    # frontier restriction: no round sends from more nodes than changed in the round before
    trace = result.trace
    assert all(b.active == a.changed for a, b in zip(trace, trace[1:], strict=False))


def test_shortest_path_rejects_negative_weights() -> None:
    g = VertexGraph.from_edges(3, [(0, 1, 2), (1, 2, -1)], directed=True)
    with pytest.raises(NegativeWeightError, match=r"edge \(1, 2\) has weight -1"):
        run(get_algorithm("shortest_path"), g, {"source": 0})


def test_max_triangle_sum_matches_brute_force() -> None:
    with_triangle = 0
    for _, _, case in cases(8, self_loops=True):
        g, ref = case.vertex_graph(), case.nx_graph()
        answer = run(get_algorithm("max_triangle_sum"), g).output
        expected = solve("triplet", ref)
        assert answer["answer"] == expected
        if expected is not None:
            with_triangle += 1
            a, b, c = answer["triangle"]
            plain = ref.to_undirected()  # edge direction does not matter for triangles
            assert plain.has_edge(a, b) and plain.has_edge(b, c) and plain.has_edge(a, c)
            assert sum(case.node_weights[v] for v in (a, b, c)) == expected
    assert with_triangle > 30


def test_max_triangle_sum_needs_node_weights() -> None:
    g = VertexGraph.from_edges(3, [(0, 1), (1, 2), (0, 2)])
    with pytest.raises(VertexProgramError, match="needs node weights"):
        run(get_algorithm("max_triangle_sum"), g)


def test_max_flow_matches_networkx() -> None:
    for _, rng, case in cases(9, self_loops=True):
        if case.n < 2:
            continue
        g, ref = case.vertex_graph(), case.nx_graph()
        s, t = rng.sample(range(case.n), 2)
        result = run(get_algorithm("max_flow"), g, {"source": s, "target": t})
        assert result.complete
        assert result.answer == solve("flow", ref, {"source": s, "target": t})
        # the reported edge flows respect capacities and conserve flow
        balance = np.zeros(case.n)
        for u, v, f in result.output["edge_flows"]:
            assert 0 < f <= ref[u][v]["weight"]
            balance[u] -= f
            balance[v] += f
        inner = [x for x in range(case.n) if x not in (s, t)]
        assert np.allclose(balance[inner], 0)
        assert balance[t] == result.answer


def test_global_relabels_bring_back_excess_from_a_dead_end_in_few_rounds() -> None:
    """Flow pushed down a 30-node dead end has to come back to the source: one level per relabel without global
    relabels, in one step with them (the sink's side is then out of reach, so the dead end's heights become
    n + their distance to the source)."""
    from graphreason.tools.gar.vertex.flow import MaxFlow

    edges = [(0, 1, 10)] + [(i, i + 1, 10) for i in range(1, 30)] + [(0, 31, 1), (31, 32, 1)]
    graph = VertexGraph.from_edges(33, edges, directed=True)
    rounds = {}
    for every in (10**9, 8, 1):
        algorithm = MaxFlow()
        algorithm.global_every = every
        result = run(algorithm, graph, {"source": 0, "target": 32})
        assert result.answer == 1 and result.complete
        assert result.output["edge_flows"] == [(0, 31, 1), (31, 32, 1)]  # all of the dead end's flow went back
        rounds[every] = result.rounds
    assert rounds[1] < rounds[8] < 40 < 1000 < rounds[10**9]


def test_max_flow_with_fractional_capacities() -> None:
    rng = random.Random(10)
    for _ in range(30):
        case = random_case(rng, directed=True, n=rng.randint(2, 10), density=0.4)
        case.edges = [(u, v, w / 7.0) for u, v, w in case.edges]
        s, t = rng.sample(range(case.n), 2)
        got = run(get_algorithm("max_flow"), case.vertex_graph(), {"source": s, "target": t}).answer
        assert got == pytest.approx(
            solve("flow", case.nx_graph(), {"source": s, "target": t}), rel=1e-9, abs=1e-9
        )


def test_max_flow_sums_parallel_capacities_when_asked() -> None:
    edges = [(0, 1, 2), (0, 1, 3), (1, 2, 10)]
    summed = VertexGraph.from_edges(3, edges, directed=True, parallel="sum")
    lightest = VertexGraph.from_edges(3, edges, directed=True)
    assert run(get_algorithm("max_flow"), summed, {"source": 0, "target": 2}).answer == 5
    assert run(get_algorithm("max_flow"), lightest, {"source": 0, "target": 2}).answer == 2


def test_pagerank_matches_networkx() -> None:
    for _, _, case in cases(11, self_loops=True):
        g, ref = case.vertex_graph(), case.nx_graph()
        result = run(get_algorithm("pagerank"), g, {"top_k": case.n})
        assert result.output["converged"]
        expected = solve("pagerank", ref)
        np.testing.assert_allclose(result.output["scores"], [expected[v] for v in range(case.n)], atol=1e-8)
        assert check_answer("pagerank", ref, {}, result.answer, tol=1e-8)


def test_weighted_pagerank_matches_networkx() -> None:
    case = random_case(random.Random(12), directed=True, n=12, density=0.3)
    result = run(get_algorithm("pagerank"), case.vertex_graph(), {"weighted": True})
    expected = solve("pagerank", case.nx_graph(), {"weighted": True})
    np.testing.assert_allclose(result.output["scores"], [expected[v] for v in range(case.n)], atol=1e-8)


def test_connected_components_match_networkx() -> None:
    for _, rng, case in cases(13):
        case.edges = case.edges[: rng.randint(0, case.n)]
        g, ref = case.vertex_graph(), case.nx_graph()
        answer = run(get_algorithm("connected_components"), g).output
        assert answer["answer"] == solve("components", ref)
        comps = nx.weakly_connected_components(ref) if case.directed else nx.connected_components(ref)
        assert sorted(answer["components"]) == sorted(sorted(c) for c in comps)


@pytest.mark.parametrize(
    "name",
    [
        "connectivity",
        "cycle_detection",
        "bipartiteness",
        "shortest_path",
        "pagerank",
        "connected_components",
        "degree",
        "max_triangle_sum",
    ],
)
def test_single_node_graph(name: str) -> None:
    g = VertexGraph.from_edges(1, [], node_weights=[3.0])
    params = {"source": 0, "target": 0} if name in ("connectivity", "shortest_path") else {}
    answer = run(get_algorithm(name), g, params).answer
    expected = {
        "connectivity": True,
        "cycle_detection": False,
        "bipartiteness": True,
        "shortest_path": 0,
        "pagerank": [0],
        "connected_components": 1,
        "degree": [0],
        "max_triangle_sum": None,
    }
    assert answer == expected[name]


def test_disconnected_graph_answers() -> None:
    g = VertexGraph.from_edges(5, [(0, 1, 4), (1, 2, 1), (3, 4, 2)])
    assert run(get_algorithm("connectivity"), g, {"source": 0, "target": 4}).answer is False
    sp = run(get_algorithm("shortest_path"), g, {"source": 0, "target": 4}).output
    assert sp["answer"] is None and sp["path"] is None
    assert run(get_algorithm("connected_components"), g).answer == 2


def test_self_loops_decide_cycles_and_bipartiteness() -> None:
    loop = VertexGraph.from_edges(2, [(0, 1), (1, 1)])
    assert run(get_algorithm("cycle_detection"), loop).answer is True
    assert run(get_algorithm("bipartiteness"), loop).answer is False
    directed_loop = VertexGraph.from_edges(2, [(0, 1), (1, 1)], directed=True)
    assert run(get_algorithm("topological_sort"), directed_loop).answer is None


@pytest.mark.parametrize(
    ("name", "params", "message"),
    [
        ("shortest_path", {}, "needs the parameter 'source'"),
        ("shortest_path", {"source": 9}, "not a node of this graph"),
        ("shortest_path", {"source": "x"}, "must be a node id"),
        ("connectivity", {"source": 0}, "needs the parameter 'target'"),
        ("max_flow", {"source": 1, "target": 1}, "different source and target"),
        ("pagerank", {"damping": 1.5}, "damping must be in"),
        ("bfs_levels", {"source": 0, "direction": "up"}, "direction must be out, in or any"),
        ("degree", {"nodes": 1}, "does not take parameter"),
        ("neighbourhood", {"node": 0, "hops": 0}, "hops must be a positive integer"),
        ("neighbourhood", {"hops": 2}, "needs the parameter 'node'"),
    ],
)
def test_bad_parameters_give_clear_errors(name: str, params: dict, message: str) -> None:
    g = VertexGraph.from_edges(3, [(0, 1, 1), (1, 2, 1)], directed=True)
    with pytest.raises(VertexProgramError, match=message):
        run(get_algorithm(name), g, params)
