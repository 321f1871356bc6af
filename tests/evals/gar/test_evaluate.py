"""Generated GAR question sets and the GAR eval (scripted master, hash encoder)."""

from __future__ import annotations

import itertools
import json

import networkx as nx
import pytest

from graphreason.evals.gar.evaluate import GAREvalConfigError, run_gar_eval, structural_scores, take_per_task
from graphreason.evals.gar.generated import MAX_NODES, PHRASINGS, generate_gar_tasks, save_gar_tasks
from graphreason.evals.gar.graphinstruct import GRAPHINSTRUCT_TASKS, load_graph_tasks
from graphreason.tools.gar.graph_text import parse_graph_problem
from graphreason.workflows.models.scripted import ScriptedChatModel

GARBAGE = "Sure! I love graphs. 42?"
SMALL = (5, 10)


def garbage_master() -> ScriptedChatModel:
    return ScriptedChatModel(script=[GARBAGE])  # one reply per question: the fallback must do the rest


def independent_gold(task: str, question: str):
    """The answer computed from the question text alone, with plain networkx (no reference module)."""
    problem = parse_graph_problem(question)
    g = problem.to_networkx()
    s, t = problem.params.get("source"), problem.params.get("target")
    if task == "cycle":
        return len(nx.cycle_basis(g)) > 0
    if task == "connectivity":
        return nx.has_path(g, s, t)
    if task == "bipartite":
        return nx.is_bipartite(g)
    if task == "shortest":
        return nx.dijkstra_path_length(g, s, t)
    if task == "flow":
        h = nx.DiGraph((u, v, {"capacity": w}) for u, v, w in problem.edges)
        return nx.maximum_flow_value(h, s, t)
    if task == "triangle":
        w = problem.node_weights
        return max(
            w[a] + w[b] + w[c]
            for a, b, c in itertools.combinations(g, 3)
            if g.has_edge(a, b) and g.has_edge(b, c) and g.has_edge(a, c)
        )
    raise AssertionError(task)


def test_generated_sets_are_deterministic_and_cover_tasks_sizes_and_phrasings():
    first = generate_gar_tasks(sizes=(5, 20, 300), seed=3)
    again = generate_gar_tasks(sizes=(5, 20, 300), seed=3)
    other = generate_gar_tasks(sizes=(5, 20, 300), seed=4)
    assert [(i.qid, i.question, i.gold) for i in first] == [(i.qid, i.question, i.gold) for i in again]
    assert [i.question for i in first] != [i.question for i in other]
    assert {i.task for i in first} == set(GRAPHINSTRUCT_TASKS)
    assert {i.meta["phrasing"] for i in first} == set(PHRASINGS)
    sizes = {(i.task, i.meta["node_range"][0]) for i in first}
    assert ("shortest", 300) in sizes and ("hamilton", MAX_NODES["hamilton"]) in sizes
    assert all(i.meta["node_range"][0] <= MAX_NODES["hamilton"] for i in first if i.task == "hamilton")
    for task in ("cycle", "connectivity", "bipartite", "hamilton", "substructure"):
        golds = {i.gold for i in first if i.task == task}
        assert golds == {True, False}, task  # both answers occur
    with pytest.raises(ValueError, match="unknown task"):
        generate_gar_tasks(tasks=["colouring"])
    with pytest.raises(ValueError, match="at least 5"):
        generate_gar_tasks(sizes=(3,))


def test_every_generated_question_parses_back_to_its_graph_and_the_golds_are_right():
    items = generate_gar_tasks(sizes=(5, 12, 40), seed=1)
    for item in items:
        problem = parse_graph_problem(item.question)
        assert problem.n_nodes == item.meta["node_range"][0], item.qid
        assert len(problem.edges) == item.meta["edge_range"][0], (item.qid, item.meta["phrasing"])
        if item.task == "topology":
            order = item.gold
            pos = {v: k for k, v in enumerate(order)}
            assert sorted(order) == list(range(problem.n_nodes))
            assert all(pos[u] < pos[v] for u, v, _ in problem.edges)
        elif item.task in ("hamilton", "substructure"):
            assert isinstance(item.gold, bool)
        else:
            assert item.gold == independent_gold(item.task, item.question), (item.qid, item.meta["phrasing"])


def test_saved_sets_load_back_as_graphinstruct_jsonl(tmp_path):
    items = generate_gar_tasks(sizes=SMALL, seed=0)
    files = save_gar_tasks(items, tmp_path)
    assert sorted(f.name for f in files) == sorted(f"{t}_generated.jsonl" for t in GRAPHINSTRUCT_TASKS)
    loaded = load_graph_tasks(tmp_path, split="generated")
    assert sorted((i.qid, i.question) for i in loaded) == sorted((i.qid, i.question) for i in items)
    by_qid = {i.qid: i.gold for i in items}
    assert all(i.gold == by_qid[i.qid] for i in loaded)
    row = json.loads((tmp_path / "shortest_generated.jsonl").read_text().splitlines()[0])
    assert set(row) >= {"index", "input_prompt", "answer"} and row["answer"].startswith("### ")


def test_take_per_task_spreads_the_limit():
    items = generate_gar_tasks(sizes=SMALL, seed=0)
    chosen = take_per_task(items, 18)
    assert sorted(i.task for i in chosen) == sorted(list(GRAPHINSTRUCT_TASKS) * 2)


def test_eval_with_a_garbage_master_writes_records_report_and_summary(tmp_path):
    out = tmp_path / "run"
    options = {"sizes": (5, 8), "limit": 18, "out_dir": out, "embedding_model": "hash", "progress": False}
    result = run_gar_eval("generated", master_model=garbage_master, **options)
    n = 18  # two per task
    assert len(result.records) == n and all(r["status"] == "ok" for r in result.records)
    summary = json.loads((out / "summary.json").read_text())
    assert set(summary["tasks"]) == set(GRAPHINSTRUCT_TASKS)
    assert all(row["accuracy"] == 1.0 for row in summary["tasks"].values())
    assert summary["overall"]["llm_calls_per_q"] == 1.0 and summary["overall"]["tokens_per_q"] > 0
    assert summary["tasks"]["hamilton"]["path_validity"] == 1.0
    assert summary["overall"]["fallback_rate"] == 1.0 and summary["overall"]["algorithm_accuracy"] == 1.0
    assert summary["overall"]["seconds_per_q"] > 0 and summary["wall_seconds"] > 0
    report = (out / "report.md").read_text()
    assert "| hamilton |" in report and "accuracy_time.png" in report
    assert (out / "accuracy_time.png").read_bytes()[:4] == b"\x89PNG"
    lines = (out / "records.jsonl").read_text().splitlines()
    assert len(lines) == n and json.loads(lines[0])["scores"]["correct"] == 1.0

    # resume: a complete run makes no call at all ...
    def no_calls() -> ScriptedChatModel:
        return ScriptedChatModel(script=[])  # any LLM call would raise ScriptExhaustedError

    # a resumed run must name the same model (records carry their settings; a factory is named by __name__)
    no_calls.__name__ = "garbage_master"
    again = run_gar_eval("generated", master_model=no_calls, **options)
    assert (
        again.summary["overall"]["accuracy"] == 1.0
        and len((out / "records.jsonl").read_text().splitlines()) == n
    )
    # ... and a run cut short redoes only the missing questions
    (out / "records.jsonl").write_text("\n".join(lines[:-3]) + "\n")
    made = []

    def counting() -> ScriptedChatModel:
        made.append(1)
        return garbage_master()

    counting.__name__ = "garbage_master"
    run_gar_eval("generated", master_model=counting, **options)
    assert len(made) == 3


def test_structural_scores_reject_wrong_answers_and_invalid_hamiltonian_paths():
    items = {i.task: i for i in generate_gar_tasks(sizes=(6,), phrasings=("graphinstruct",), seed=2)}
    shortest = items["shortest"]
    assert structural_scores(shortest, {"task": "shortest_path", "value": shortest.gold})["correct"] == 1.0
    assert (
        structural_scores(shortest, {"task": "shortest_path", "value": shortest.gold + 1})["correct"] == 0.0
    )
    assert structural_scores(shortest, {"task": "max_flow", "value": shortest.gold})["correct"] == 0.0
    hamilton = items["hamilton"]
    assert hamilton.gold is True
    bad = structural_scores(hamilton, {"task": "hamiltonian_path", "value": True, "path": [0, 1]})
    assert bad["correct"] == 0.0 and bad["path_valid"] == 0.0 and bad["label_match"] == 1.0
    topology = items["topology"]
    reverse = {"task": "topological_sort", "value": list(reversed(topology.gold))}
    assert structural_scores(topology, reverse)["correct"] == 0.0


def test_bad_eval_options_are_clear_errors(tmp_path):
    with pytest.raises(GAREvalConfigError, match="unknown dataset"):
        run_gar_eval("grbench", out_dir=tmp_path)
    with pytest.raises(GAREvalConfigError, match="unknown task"):
        run_gar_eval("generated", tasks=["colouring"], out_dir=tmp_path)
    with pytest.raises(GAREvalConfigError, match="does not exist"):
        run_gar_eval("graphinstruct", path=tmp_path / "nope.jsonl", out_dir=tmp_path)
    with pytest.raises(GAREvalConfigError, match="concurrency"):
        run_gar_eval("generated", concurrency=0, out_dir=tmp_path)
