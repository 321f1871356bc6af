"""The GAR eval in agents mode: rule-following node agents, usage split, agreement, reports."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from graphreason.evals.gar.evaluate import (
    GAREvalConfigError,
    agent_tasks,
    compare_gar_runs,
    default_out_dir,
    keep_small,
    run_gar_eval,
)
from graphreason.evals.gar.generated import generate_gar_tasks
from graphreason.workflows.models.scripted import ScriptedChatModel

GARBAGE = "Sure! I love graphs. 42?"
AGENT_TASKS = ["cycle", "connectivity", "bipartite", "shortest"]


def garbage_master() -> ScriptedChatModel:
    return ScriptedChatModel(
        script=[GARBAGE]
    )  # one master call per question; the fallback picks the algorithm


def options(tmp_path, name: str, **extra) -> dict:
    return {
        "sizes": (5, 8, 12),
        "out_dir": tmp_path / name,
        "embedding_model": "hash",
        "progress": False,
        "master_model": garbage_master,
        **extra,
    }


def test_agent_tasks_are_the_tasks_with_an_agent_form():
    assert agent_tasks() == AGENT_TASKS


def test_rule_following_agents_are_right_and_agree_with_compiled_mode(tmp_path):
    result = run_gar_eval("generated", mode="agents", agent_model="rules", **options(tmp_path, "agents"))
    summary = result.summary
    n = 4 * 3 * 4  # agent tasks x sizes x phrasings
    assert summary["mode"] == "agents" and summary["agent_model"] == "rules"
    assert summary["tasks"] == {t: summary["tasks"][t] for t in AGENT_TASKS}  # agent tasks only, in order
    overall = summary["overall"]
    assert overall["n"] == n and overall["errors"] == 0
    assert overall["accuracy"] == 1.0 and overall["agreement"] == 1.0
    assert overall["agent_share"] == 1.0 and overall["agent_complete"] == 1.0
    assert summary["disagreements"] == []
    for task, row in summary["tasks"].items():
        assert row["accuracy"] == 1.0 and row["agreement"] == 1.0, task
        assert row["master_calls_per_q"] == 1.0 and row["agent_calls_per_q"] >= 1.0, task
        assert row["llm_calls_per_q"] == pytest.approx(row["master_calls_per_q"] + row["agent_calls_per_q"])
        assert row["tokens_per_q"] == pytest.approx(row["master_tokens_per_q"] + row["agent_tokens_per_q"])
        assert row["bad_replies_per_q"] == 0.0 and row["min_nodes"] == 5 and row["max_nodes"] == 12
    # bigger graphs take more node-agent calls
    by_size: dict[float, list[float]] = {}
    for record in result.records:
        by_size.setdefault(record["scores"]["n_nodes"], []).append(record["usage"]["agent_calls"])
    assert sum(by_size[12.0]) > sum(by_size[5.0])
    report = result.report_path.read_text()
    assert (
        "| bipartite |" in report and "agrees with compiled" in report and "node-agent model: rules" in report
    )
    assert result.plot_path.read_bytes()[:4] == b"\x89PNG"
    assert json.loads(result.summary_path.read_text())["overall"]["agreement"] == 1.0


def test_agents_that_answer_nonsense_are_never_counted_as_agreeing(tmp_path):
    """Unreadable replies leave the start states: some of those equal compiled mode's answer by chance
    (a connectivity "No"), but no agent produced them, so no question is scored as agreeing or disagreeing."""
    def nonsense_agents() -> ScriptedChatModel:
        return ScriptedChatModel(script=[lambda messages: "I am node 0 and I feel fine."] * 50)

    opts = options(tmp_path, "nonsense", sizes=(6,), tasks=["connectivity", "shortest"])
    result = run_gar_eval("generated", mode="agents", agent_model=nonsense_agents, max_agent_calls=3, **opts)
    overall = result.summary["overall"]
    assert overall["errors"] == 0 and overall["agent_share"] == 1.0
    assert overall["agents_answered"] == 0.0 and overall["agreement"] is None
    assert overall["bad_replies_per_q"] >= 1.0
    assert overall["accuracy"] < 1.0  # shortest-path distances never spread: those answers are wrong
    assert result.summary["disagreements"] == []
    records = [json.loads(line) for line in result.records_path.read_text().splitlines()]
    assert records and all(r["scores"]["agents_answered"] == 0.0 and "agree" not in r["scores"] for r in records)
    report = result.report_path.read_text()
    assert "agents answered" in report and "differ from compiled mode" not in report


def test_modes_keep_separate_records_and_compare_side_by_side(tmp_path):
    compiled = run_gar_eval(
        "generated", tasks=["cycle", "shortest"], **options(tmp_path, "shared", sizes=(5,))
    )
    compiled_report = compiled.report_path.read_text()  # the agents run below rewrites report.md
    assert "mode: compiled" in compiled_report and "agrees with compiled" not in compiled_report
    agents = run_gar_eval(
        "generated",
        tasks=["cycle", "shortest"],
        mode="agents",
        agent_model="rules",
        **options(tmp_path, "shared", sizes=(5,)),
    )
    assert compiled.summary["mode"] == "compiled" and "mode: agents" in agents.report_path.read_text()
    assert compiled.summary["overall"]["agreement"] is None  # compiled records have no comparison
    assert agents.summary["overall"]["agreement"] == 1.0  # not the compiled records, reused
    lines = (tmp_path / "shared" / "records.jsonl").read_text().splitlines()
    assert sorted({json.loads(line)["mode"] for line in lines}) == ["gar", "gar-agents"] and len(lines) == 16
    assert (
        agents.summary["overall"]["llm_calls_per_q"] > compiled.summary["overall"]["llm_calls_per_q"] == 1.0
    )

    # each folder's summary.json is its last run's: compare folders that hold one mode each
    alone = run_gar_eval(
        "generated", tasks=["cycle", "shortest"], **options(tmp_path, "compiled", sizes=(5,))
    )
    other = run_gar_eval("generated", tasks=["cycle"], **options(tmp_path, "other", sizes=(5,)))
    runs = {
        "compiled": alone.report_path.parent,
        "agents (rules)": tmp_path / "shared",
        "cycle only": other.report_path.parent,
    }
    table, plot = compare_gar_runs(runs, tmp_path / "cmp")
    text = table.read_text()
    assert "| cycle | compiled |" in text and "| shortest | agents (rules) |" in text
    assert "| **all** | cycle only |" in text and "| shortest | cycle only |" not in text
    assert "- **compiled**: compiled mode" in text and "- **agents (rules)**: agents mode" in text
    assert "median s/q" in text and agents.summary["overall"]["median_seconds_per_q"] > 0
    assert "node agents: rules" in text and plot.read_bytes()[:4] == b"\x89PNG"
    with pytest.raises(FileNotFoundError, match="no summary.json"):
        compare_gar_runs({"missing": tmp_path / "nowhere"}, tmp_path / "cmp")


def test_max_nodes_filter_and_bad_agent_options(tmp_path):
    items = generate_gar_tasks(tasks=["cycle"], sizes=(5, 10, 20), seed=0)
    assert {i.meta["node_range"][0] for i in keep_small(items, 10)} == {5, 10}
    assert keep_small(items, None) == items
    with pytest.raises(GAREvalConfigError, match="max-nodes"):
        keep_small(items, 0)
    with pytest.raises(GAREvalConfigError, match="no graph has at most 4 nodes"):
        run_gar_eval("generated", max_nodes=4, **options(tmp_path, "empty"))
    with pytest.raises(GAREvalConfigError, match="unknown mode"):
        run_gar_eval("generated", mode="swarm", out_dir=tmp_path)
    with pytest.raises(GAREvalConfigError, match="agent_batch_size"):
        run_gar_eval("generated", mode="agents", agent_batch_size=0, out_dir=tmp_path)


def test_default_run_folders_name_the_mode_and_the_agent_model():
    assert default_out_dir("generated", None).name == "gar-generated-compiled"
    assert default_out_dir("generated", None, "agents", "rules").name == "gar-generated-agents-rules"
    scripted = default_out_dir("graphinstruct", "/x/cycle_dev.jsonl", "agents", "scripted:/tmp/a b.json")
    assert scripted.name == "gar-graphinstruct-cycle_dev-agents-scripted-a-b"


def test_a_spark_engine_run_names_its_engine_and_counts_what_spark_ran(tmp_path):
    from graphreason.workflows.gar import solve as real_solve

    def on_spark(question, context):
        # the real workflow on one machine, reported as Spark for the vertex programs: the eval's own bookkeeping
        output = dict(real_solve(question, replace(context, engine="compiled")))
        vertex = (output.get("structured") or {}).get("task") != "cycle_detection"
        output["trace"] = [
            {**n, "engine": "spark" if vertex else "compiled"} if n.get("step") == "execute" else n
            for n in output.get("trace") or []
        ]
        return output

    run = run_gar_eval(
        "generated", tasks=["cycle", "shortest"], engine="spark", solve=on_spark, **options(tmp_path, "s", sizes=(5,))
    )
    assert run.summary["engine"] == "spark" and run.summary["spark_master"] == "local[*]"
    assert run.summary["tasks"]["shortest"]["spark_share"] == 1.0
    report = run.report_path.read_text()
    assert "run on Spark" in report and "engine: spark (master local[*])" in report
    assert default_out_dir("generated", None, "compiled", None, "spark").name == "gar-generated-compiled-spark"
    assert default_out_dir("generated", None, "agents", "rules", "spark").name == "gar-generated-agents-rules"


def record(qid, kind, value, correct=1.0, **extra):
    structured = {"task": "t", "kind": kind, "value": value, **extra}
    return {"qid": qid, "template": "t", "status": "ok", "details": {"structured": structured},
            "scores": {"correct": correct}}  # fmt: skip


def test_same_answer_allows_float_noise_and_other_right_paths_only():
    from graphreason.evals.gar.report import add_same_answer, same_answer

    assert same_answer(record(1, "number", 0.3), record(1, "number", 0.1 + 0.2))
    assert not same_answer(record(1, "number", 3), record(1, "number", 4))
    assert same_answer(record(1, "number", 3, path=[0, 1]), record(1, "number", 3, path=[0, 2]))
    assert same_answer(record(1, "path", [0, 1, 3], weight=2), record(1, "path", [0, 2, 3], weight=2))
    assert not same_answer(record(1, "path", [0, 1, 3], weight=2), record(1, "path", [0, 3], 0.0, weight=2))
    assert not same_answer(record(1, "order", [0, 1], weight=2), record(1, "order", [1, 0], weight=3))
    assert same_answer(record(1, "ranking", [2, 0], scores=[0.25, 0.5]), record(1, "ranking", [2, 0], scores=[0.25, 0.5]))
    summary = {"tasks": {"t": {}}, "overall": {}}
    add_same_answer(summary, [record(1, "number", 1), record(2, "number", 2)],
                    [record(1, "number", 1), record(2, "number", 5), record(3, "number", 0)])  # fmt: skip
    assert summary["overall"]["same_as_first"] == 0.5 == summary["tasks"]["t"]["same_as_first"]
