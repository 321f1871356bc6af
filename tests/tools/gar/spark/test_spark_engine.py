"""The Spark engine against the compiled one: the same kernel, the same answers (local[1]).

One Spark session serves the file (about 10 s to start). Two seeded random graphs, one
directed and one undirected, each with self-loops, parallel edges, several components
and weights, are written as CSV and read by both engines; every library kernel algorithm
runs on both and must give the same structured answer (paths, where ties allow
several, are checked for validity instead); max flow and the heaviest triangle have
tests of their own. Then the dataset checks (clear errors before any superstep) and
the refusal of programs that are not kernels.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from graphreason.tools.gar.datasets import read_edge_csv
from graphreason.tools.gar.vertex import ALGORITHMS, RoundInfo, get_algorithm, run
from graphreason.tools.gar.vertex.kernel import KernelAlgorithm

pytestmark = pytest.mark.heavy(first=True)  # the suite's slowest file

if os.environ.get("CI", "").lower() == "true":
    import pyspark  # noqa: F401  (make test installs graphreason[spark]: CI must not skip this file)
else:
    pytest.importorskip("pyspark", reason="the Spark engine needs pip install 'graphreason[spark]'")

from graphreason.tools.gar.spark.edges import EdgeDatasetError, load_edges  # noqa: E402
from graphreason.tools.gar.spark.pregel import run_spark  # noqa: E402
from graphreason.tools.gar.spark.session import (  # noqa: E402
    SparkSettings,
    SparkUnavailableError,
    get_session,
    java_available,
    parse_conf,
)

# Spark compiles each query's plan to Java before it runs it; the tests' tables hold a few dozen rows, so compiling
# costs more than running (this file, one run each on 2 cores: 96 s compiled, 81 s interpreted). The answers are
# the same either way; bench_gar_spark.py and the cluster test run the default, compiled path.
INTERPRETED = "spark.sql.codegen.wholeStage=false,spark.sql.codegen.factoryMode=NO_CODEGEN"


@pytest.fixture(scope="module")
def spark():
    if not java_available():
        pytest.fail("the Spark engine needs Java; install a JRE (openjdk-17) to run these tests")
    # what GARContext(spark_master="local[1]", spark_conf=INTERPRETED) asks for
    return get_session(SparkSettings(master="local[1]", conf=parse_conf(INTERPRETED)))


def random_edges(seed: int, n: int, m: int) -> list[tuple[int, int, float]]:
    """Edges over ids 10, 20, ... (not 0..n-1) with repeats, self-loops and two separate parts."""
    rng = np.random.default_rng(seed)
    half = n // 2
    edges = []
    for _ in range(m):
        part = rng.integers(0, 2)
        lo, hi = (0, half) if part == 0 else (half, n)
        u, v = int(rng.integers(lo, hi)), int(rng.integers(lo, hi))
        edges.append((u * 10, v * 10, float(rng.integers(1, 9))))
    edges += [edges[0], (edges[1][0], edges[1][0], 2.0)]  # a parallel edge and a self-loop
    return edges


def write_csv(path: Path, edges: list[tuple[object, object, float]]) -> str:
    path.write_text("src,dst,weight\n" + "".join(f"{u},{v},{w}\n" for u, v, w in edges), encoding="utf-8")
    return str(path)


# Each kernel algorithm on one of the two graphs (cycle detection, which peels differently, on both):
# the Spark set of `make test` must stay within about a minute. benchmarks/bench_gar_spark.py --equality
# runs every algorithm on both kinds over more seeds.
ON_DIRECTED = ("bfs_levels", "connectivity", "degree", "pagerank", "cycle_detection", "topological_sort")
ON_UNDIRECTED = ("shortest_path", "connected_components", "bipartiteness", "neighbourhood", "cycle_detection")


def test_the_split_covers_every_library_algorithm() -> None:
    kernels = {n for n, a in ALGORITHMS.items() if isinstance(a, KernelAlgorithm)}
    # the triangle and max flow: tests of their own
    assert set(ON_DIRECTED) | set(ON_UNDIRECTED) | {"max_triangle_sum"} == kernels
    assert kernels | {"max_flow"} == set(ALGORITHMS)


def kernel_algorithms(directed: bool) -> tuple[str, ...]:
    return ON_DIRECTED if directed else ON_UNDIRECTED


def params_for(name: str, labels: list[int]) -> dict[str, object]:
    first, last = labels[0], labels[-1]
    return {
        "bfs_levels": {"source": first},
        "connectivity": {"source": first, "target": labels[len(labels) // 3]},
        "neighbourhood": {"node": first, "hops": 2},
        "shortest_path": {"source": first, "target": labels[len(labels) // 4]},
        "degree": {"node": last},
        "connected_components": {"node": last},
        "pagerank": {"tol": 1e-2, "top_k": 5},  # a few rounds: both executors run the same ones
    }.get(name, {})


def valid_path(path: list[int], edges: set[tuple[int, int]], directed: bool) -> bool:
    return all((u, v) in edges or (not directed and (v, u) in edges) for u, v in zip(path, path[1:], strict=False))


@pytest.mark.parametrize("directed", [True, False], ids=["directed", "undirected"])
def test_every_kernel_algorithm_gives_the_compiled_answer(spark, tmp_path: Path, directed: bool) -> None:
    edges = random_edges(seed=7 if directed else 11, n=14, m=22)
    path = write_csv(tmp_path / "edges.csv", edges)
    compiled_graph = read_edge_csv(path, directed=directed)
    spark_graph = load_edges(spark, path, directed=directed)
    assert spark_graph.num_nodes == compiled_graph.num_nodes
    assert spark_graph.num_arcs == compiled_graph.num_arcs
    labels = list(compiled_graph.labels)
    assert list(spark_graph.labels) == labels  # both number the ids in sorted order
    arcs = {(u, v) for u, v, _ in edges}
    index = {label: i for i, label in enumerate(labels)}
    for name in kernel_algorithms(directed):
        params = params_for(name, labels)
        compiled = run(get_algorithm(name), compiled_graph, {k: index.get(v, v) if k in ("source", "target", "node") else v for k, v in params.items()})  # noqa: E501
        rounds: list[RoundInfo] = []
        spark_run = run_spark(
            get_algorithm(name), spark_graph, params, on_round=rounds.append, results_dir=str(tmp_path / "runs")
        )
        assert [r.round for r in rounds] == list(range(1, spark_run.rounds + 1)), name
        assert spark_run.rounds == compiled.rounds, name
        assert set(spark_run.state) == {"_totals"}, name  # nothing per node came back to the driver
        if name == "pagerank":
            written = read_written(spark, spark_run.output["written"])
            assert written == pytest.approx(dict(zip(labels, compiled.output["scores"].tolist(), strict=True)), abs=1e-12)
            assert spark_run.answer == [labels[v] for v in compiled.answer]
            continue
        expected = compiled.answer
        got = spark_run.answer
        if isinstance(got, dict) and "file" in got:  # a per-node answer, written: read it back
            assert got["rows"] == len(expected), name
            got = read_written(spark, got)
        if isinstance(expected, dict):  # the Spark answer is keyed by dataset ids
            expected = {labels[k]: v for k, v in expected.items()}
        elif name in ("neighbourhood", "topological_sort") and isinstance(expected, list):
            expected = [labels[v] for v in expected]
        elif name == "degree" and isinstance(expected, list):
            expected = dict(zip(labels, expected, strict=True))
        assert got == expected, name
        if spark_run.output.get("path"):
            assert valid_path(spark_run.output["path"], arcs, directed), name


def read_written(spark, answer: dict) -> dict:
    """A written answer's Parquet file as {dataset id: value}."""
    assert answer["columns"] == ["id", "value"]
    return {r["id"]: r["value"] for r in spark.read.parquet(answer["file"]).collect()}


def test_long_answers_on_a_dataset_are_written_and_equal_the_compiled_ones(
    spark, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the listing limit at 3 nodes, every answer that lists nodes is written instead: a topological order
    (as levels), a neighbourhood (as hops), a cycle's unremovable nodes, every degree, max flow's carrying arcs.
    Each file, read back, is the compiled engine's answer; the text names the file."""
    from graphreason.tools.gar.spark import answers

    monkeypatch.setattr(answers, "FEW", 3)
    dag = [(10, 20, 1.0), (10, 30, 2.0), (20, 40, 1.0), (30, 40, 1.0), (40, 50, 3.0), (50, 60, 1.0), (30, 60, 2.0)]
    cyclic = [*dag, (60, 20, 1.0)]
    # three ways from 10 to 60, one narrowed (40 -> 60 carries 0.5 of the 1 that reaches 40): six carrying arcs
    # in five supersteps (max flow on the DAG above takes 18)
    pipes = [(10, 20, 1.0), (10, 30, 2.0), (20, 60, 1.0), (30, 60, 2.0), (10, 40, 1.0), (40, 60, 0.5)]
    runs = str(tmp_path / "runs")
    loaded: dict[int, tuple[str, object]] = {}  # one CSV and one Spark graph per edge list
    for rows, name, params in (
        (dag, "topological_sort", {}),
        (dag, "neighbourhood", {"node": 10, "hops": 3}),
        (dag, "degree", {}),
        (cyclic, "cycle_detection", {}),
        (pipes, "max_flow", {"source": 10, "target": 60}),
    ):
        if id(rows) not in loaded:
            path = write_csv(tmp_path / f"{name}.csv", rows)
            loaded[id(rows)] = path, load_edges(spark, path, directed=True)
        path, spark_graph = loaded[id(rows)]
        compiled_graph = read_edge_csv(path, directed=True, parallel="sum" if name == "max_flow" else "min")
        labels = list(compiled_graph.labels)
        dense = {k: labels.index(v) if k in ("node", "source", "target") else v for k, v in params.items()}
        compiled = run(get_algorithm(name), compiled_graph, dense)
        on_spark = run_spark(get_algorithm(name), spark_graph, params, results_dir=runs)
        if name == "topological_sort":
            levels = read_written(spark, on_spark.answer)
            assert sorted(levels, key=lambda v: (levels[v], v)) == [labels[v] for v in compiled.answer]
        elif name == "neighbourhood":
            hops = read_written(spark, on_spark.answer)
            assert hops == {labels[v]: h for h, nodes in compiled.output["by_hop"].items() for v in nodes}
            assert on_spark.answer["per_hop"] == {h: len(v) for h, v in compiled.output["by_hop"].items() if v}
        elif name == "degree":
            assert read_written(spark, on_spark.answer) == dict(zip(labels, compiled.answer, strict=True))
        elif name == "cycle_detection":
            assert on_spark.answer is compiled.answer is True
            written = read_written(spark, on_spark.output["unremovable"])
            assert sorted(written) == [labels[v] for v in compiled.output["unremovable"]]
        else:
            flows = on_spark.output["edge_flows"]
            assert on_spark.answer == compiled.answer and flows["rows"] == len(compiled.output["edge_flows"]) > 3
            got = sorted((r["src"], r["dst"], r["flow"]) for r in spark.read.parquet(flows["file"]).collect())
            assert got == [(labels[u], labels[v], f) for u, v, f in compiled.output["edge_flows"]]
        assert runs in on_spark.output["text"], name


def test_nodes_are_numbered_by_sorted_id_across_partitions(spark) -> None:
    from graphreason.tools.gar.spark.edges import _numbered

    labels = [f"n{i:03d}" for i in range(0, 300, 3)]
    ids = spark.createDataFrame([(x,) for x in reversed(labels)], schema="label string").repartition(7)
    nodes, n, lo, hi = _numbered(ids)
    assert sorted((r["id"], r["label"]) for r in nodes.collect()) == list(enumerate(labels))
    assert (n, lo, hi) == (100, "n000", "n297")


def test_a_round_cut_carries_no_size_estimate_forward(spark) -> None:
    """Spark's checkpoint keeps the size estimate of the plan it cut, and a join's estimate is the product
    of its sides': without the rebuild in ``_cut`` its digits doubled every superstep and late rounds of
    a 10^5-edge shortest path took a minute each."""
    from pyspark.sql import functions as F

    from graphreason.tools.gar.spark.pregel import _cut

    def estimate(frame) -> int:
        return int(frame._jdf.queryExecution().optimizedPlan().stats().sizeInBytes())

    state = spark.range(50).select("id", F.lit(1).alias("v"))
    sizes = []
    for _ in range(6):
        inbox = state.groupBy((F.col("id") % 7).alias("id")).agg(F.sum("v").alias("m"))
        state = _cut(state.join(inbox, "id", "left").select("id", F.coalesce("m", F.lit(0)).alias("v")))
        sizes.append(estimate(state))
    assert len(set(sizes)) == 1 and sizes[0] < 2**63, sizes
    expected = [1] * 50
    for _ in range(6):
        mail = [sum(v for i, v in enumerate(expected) if i % 7 == j) for j in range(7)]
        expected = [mail[i] if i < 7 else 0 for i in range(50)]
    assert sorted(tuple(r) for r in state.collect()) == list(enumerate(expected))


def test_bad_datasets_get_one_clear_error(spark, tmp_path: Path) -> None:
    with pytest.raises(EdgeDatasetError, match="no edge dataset at"):
        load_edges(spark, str(tmp_path / "missing.parquet"))
    no_dst = tmp_path / "a.csv"
    no_dst.write_text("src,target\n1,2\n", encoding="utf-8")
    with pytest.raises(EdgeDatasetError, match=r"no column\(s\) dst; its columns are: src, target"):
        load_edges(spark, str(no_dst))
    text_weight = tmp_path / "b.csv"
    text_weight.write_text("src,dst,weight\n1,2,3\n2,3,heavy\n", encoding="utf-8")
    with pytest.raises(EdgeDatasetError, match=r"1 edge weight\(s\) .* are not numbers \(e.g. 'heavy'\)"):
        load_edges(spark, str(text_weight))
    negative = write_csv(tmp_path / "c.csv", [(1, 2, 3.0), (2, 5, -4.0)])
    graph = load_edges(spark, negative, directed=True)
    with pytest.raises(Exception, match=r"non-negative edge weights; edge \(2, 5\) has weight -4"):
        run_spark(get_algorithm("shortest_path"), graph, {"source": 1})
    with pytest.raises(Exception, match=r"max_flow needs non-negative capacities; edge \(2, 5\) has -4"):
        run_spark(get_algorithm("max_flow"), graph, {"source": 1, "target": 5})


def test_the_heaviest_triangle_is_found_on_both_engines(spark) -> None:
    """The wedge kernel: node weights with ties, a directed graph (direction ignored), self-loops, no triangle."""
    from graphreason.tools.gar.spark.vertex_graphs import from_vertex_graph
    from graphreason.tools.gar.vertex import VertexGraph

    rng = np.random.default_rng(5)
    n = 16
    edges = np.array([(rng.integers(0, n), rng.integers(0, n), 1.0) for _ in range(40)] + [(3, 3, 1.0)])
    weights = rng.integers(1, 6, n).astype(float)  # few values: many triangles tie
    for directed in (True,):  # direction is ignored: the wedges are those of the undirected graph
        graph = VertexGraph.from_edges(n, edges, directed=directed, node_weights=weights)
        compiled = run(get_algorithm("max_triangle_sum"), graph)
        on_spark = run_spark(get_algorithm("max_triangle_sum"), from_vertex_graph(spark, graph))
        assert on_spark.answer == compiled.answer is not None and on_spark.rounds == compiled.rounds == 1
        u, v, w = on_spark.output["triangle"]
        near = {(a, b) for a, b, _ in graph.edge_list()} | {(b, a) for a, b, _ in graph.edge_list()}
        assert {(u, v), (v, w), (u, w)} <= near and len({u, v, w}) == 3
        assert weights[u] + weights[v] + weights[w] == on_spark.answer
    path = VertexGraph.from_edges(3, np.array([(0, 1, 1.0), (1, 2, 1.0)]), node_weights=[1, 2, 3])
    assert run_spark(get_algorithm("max_triangle_sum"), from_vertex_graph(spark, path)).answer is None


def test_a_parquet_dataset_with_string_ids_and_max_flow_on_it(spark, tmp_path: Path) -> None:
    """String ids from Parquet (answers in them, unknown ids refused); max flow's per-arc state on Spark: the same
    value, flow on every edge and rounds as compiled, with a parallel edge (capacities add up), a self-loop, a zero
    capacity and fractions; b gets more than it can pass on and sends the rest back over a reverse arc."""
    from graphreason.tools.gar.vertex import VertexGraph
    from graphreason.tools.gar.vertex.flow import MaxFlow

    rows = [("a", "b", 0.5), ("b", "d", 0.2), ("a", "c", 0.2), ("c", "d", 0.3), ("a", "b", 0.25), ("c", "c", 1.0),
            ("d", "a", 0.0)]  # fmt: skip
    folder = str(tmp_path / "pipes.parquet")
    spark.createDataFrame(rows, schema="src string, dst string, weight double").write.parquet(folder)
    graph = load_edges(spark, folder, directed=True)
    assert (graph.num_nodes, graph.label_type) == (4, "string")
    result = run_spark(get_algorithm("shortest_path"), graph, {"source": "a", "target": "d"})
    assert result.answer == 0.45 and result.output["path"] == ["a", "b", "d"]  # the lighter a-b edge, 0.25
    assert result.output["text"].startswith("The shortest path from node a to node d has weight 0.45")  # dataset ids
    with pytest.raises(Exception, match="not a node of this graph"):
        run_spark(get_algorithm("bfs_levels"), graph, {"source": "zed"})

    labels = ["a", "b", "c", "d"]
    index = {label: i for i, label in enumerate(labels)}
    compiled_graph = VertexGraph.from_edges(
        4, [(index[u], index[v], w) for u, v, w in rows], directed=True, parallel="sum", labels=labels
    )
    flow = MaxFlow()
    flow.global_every = 2  # a global relabel (backward searches) after the second relabel round: 6 rounds, not 5
    compiled = run(flow, compiled_graph, {"source": 0, "target": 3})
    rounds: list[RoundInfo] = []
    on_spark = run_spark(flow, graph, {"source": "a", "target": "d"}, on_round=rounds.append)
    assert len(rounds) == compiled.rounds == 6 and compiled.trace[4].messages == 2  # the global round reached b, c
    assert on_spark.answer == pytest.approx(compiled.answer, rel=1e-12) == pytest.approx(0.4)
    assert [(r.round, r.active, r.messages, r.changed) for r in rounds] == [
        (r.round, r.active, r.messages, r.changed) for r in compiled.trace
    ]  # rounds stream as events, as the compiled engine's
    flows = on_spark.output["edge_flows"]
    expected = [(labels[u], labels[v], f) for u, v, f in compiled.output["edge_flows"]]
    assert [e[:2] for e in flows] == [e[:2] for e in expected] == [("a", "b"), ("a", "c"), ("b", "d"), ("c", "d")]
    assert [e[2] for e in flows] == pytest.approx([e[2] for e in expected], rel=1e-12)
    assert flows[0][2] == pytest.approx(0.2)  # 0.75 in, 0.55 of it back
    empty = run_spark(get_algorithm("max_flow"), graph, {"source": "d", "target": "c"})  # d's one arc: capacity 0
    assert (empty.answer, empty.output["edge_flows"], empty.rounds, empty.stop_reason) == (0, [], 1, "rule")


def test_programs_that_are_not_kernels_are_refused(spark) -> None:
    from graphreason.tools.gar.spark.pregel import spark_support
    from graphreason.tools.gar.spark.vertex_graphs import from_vertex_graph
    from graphreason.tools.gar.vertex import VertexAlgorithm, VertexGraph

    class NumpyOnly(VertexAlgorithm):  # written for numpy arrays only, as a designed program is
        name = "numpy_only"
        description = "a program whose Send and Update are numpy code"
        six_parts = dict.fromkeys(("State", "Message", "Initialization", "Send", "Update", "Termination"), "numpy")
        combine = "min"

        def init_state(self, graph, params):
            return {}

        def send(self, graph, state, active):
            raise AssertionError("never sent on Spark")

        def update(self, graph, state, inbox):
            raise AssertionError("never updated on Spark")

        def result(self, graph, state, params):
            return {}

    assert all(spark_support(algorithm) is None for algorithm in ALGORITHMS.values())  # every library algorithm
    graph = from_vertex_graph(spark, VertexGraph.from_edges(3, np.array([(0, 1, 1.0), (1, 2, 1.0)]), directed=True))
    with pytest.raises(SparkUnavailableError, match="one machine only: use --engine compiled"):
        run_spark(NumpyOnly(), graph, {})
    with pytest.raises(Exception, match="max_triangle_sum needs node weights"):
        run_spark(get_algorithm("max_triangle_sum"), graph, {})
    with pytest.raises(SparkUnavailableError, match="already runs a Spark session"):
        get_session(SparkSettings(master="local[2]"))


def test_the_workflow_runs_a_parsed_problem_on_spark(spark) -> None:
    from graphreason.tools.gar.graph_text import parse_graph_problem
    from graphreason.workflows.gar.context import GARContext
    from graphreason.workflows.gar.execute import _run_compiled, _spark_details

    problem = parse_graph_problem(
        "In an undirected graph, the edges are: (0,1) (1,2) (2,3) (0,4) (4,3) (5,6). "
        "Is there a path between node 0 and node 6?"
    )
    ctx = GARContext(engine="spark", spark_master="local[1]", spark_conf=INTERPRETED)
    on_spark = _spark_details("connected_components", problem, {}, ctx)
    compiled = _run_compiled("connected_components", problem, {}, GARContext())
    assert on_spark["engine"] == "spark" and compiled["engine"] == "compiled"
    assert on_spark["answer"] == compiled["answer"] == 2
    assert on_spark["rounds"] == compiled["rounds"] and on_spark["complete"]


def test_questions_about_an_edge_dataset_run_on_spark(spark, tmp_path: Path) -> None:
    """The context's dataset is the graph: parameters from the question in dataset ids, answers in them too."""
    from graphreason.tools.gar.graph_text import GraphTextError
    from graphreason.workflows.gar import solve
    from graphreason.workflows.gar.context import GARContext
    from graphreason.workflows.models.scripted import ScriptedChatModel

    rows = [("ann", "bo", 2.0), ("bo", "cy", 1.0), ("ann", "cy", 5.0), ("cy", "di", 1.0), ("eve", "fay", 1.0)]
    path = write_csv(tmp_path / "people.csv", rows)

    def ask(question: str, reply: str, **settings) -> dict:
        model = ScriptedChatModel(script=[reply])
        context = GARContext(master_model=model, embedding_model="hash", edge_dataset=path, spark_master="local[1]",
                             spark_conf=INTERPRETED, spark_results_dir=str(tmp_path / "runs"), **settings)  # fmt: skip
        return solve(question, context)

    out = ask("What is the shortest path from ann to di?", '{"algorithm": "shortest_path"}')
    assert out["structured"]["path"] == ["ann", "bo", "cy", "di"] and "4" in out["answer"]
    note = next(n for n in out["trace"] if n.get("step") == "execute" and "engine" in n)
    assert note["engine"] == "spark" and "people.csv" in out["trace"][0]["text"]
    assert str(tmp_path) not in out["trace"][0]["text"]  # the owner's folders stay on the server
    choose = next(n for n in out["trace"] if n.get("step") == "choose")
    assert "'source': 'ann', 'target': 'di'" in choose["text"]  # in the dataset's ids, not the engine's
    # the master's source is a dataset id (looked up); its target is none (dropped, with a note): all distances
    out = ask("What are the shortest path distances to all nodes?",
              '{"algorithm": "shortest_path", "params": {"source": "ann", "target": "zed"}}')  # fmt: skip
    choose = next(n for n in out["trace"] if n.get("step") == "choose")
    assert "zed" in str(choose.get("notes")) and "not a node of this graph" in str(choose.get("notes"))
    written = out["structured"]["value"]  # every node's distance: written, summarised, named
    assert written["rows"] == 4 and written["file"].startswith(str(tmp_path / "runs"))
    assert read_written(spark, written) == {"ann": 0, "bo": 2, "cy": 3, "di": 4}
    assert written["file"] in out["answer"] and "4 of 6 nodes are reachable from node ann" in out["answer"]
    note = next(n for n in out["trace"] if n.get("step") == "execute" and "engine" in n)
    assert note["spark"]["application_id"] == spark.sparkContext.applicationId and note["spark"]["master"] == "local[1]"
    with pytest.raises(GraphTextError, match="a dataset is read and run on Spark: use engine auto or spark"):
        ask("What is the shortest path from ann to di?", "{}", engine="compiled")


def test_a_spark_run_past_its_time_budget_stops_and_says_so(spark) -> None:
    from graphreason.tools.gar.spark.vertex_graphs import from_vertex_graph
    from graphreason.tools.gar.vertex import VertexGraph

    graph = from_vertex_graph(spark, VertexGraph.from_edges(6, [(i, i + 1, 1.0) for i in range(5)], directed=False))
    cut = run_spark(get_algorithm("bfs_levels"), graph, {"source": 0}, seconds=0.0)
    assert (cut.rounds, cut.stop_reason, cut.complete) == (1, "time_limit", False)
