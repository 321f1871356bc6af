"""GraphAgent eval: metrics on hand-made records, variant names, node sampling, a run on a tiny graph."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest
from sklearn.metrics import f1_score

from graphreason.evals.driver import EvalConfigError
from graphreason.evals.graphagent.evaluate import (
    GraphAgentEvalConfigError,
    parse_label,
    parse_variants,
    pick_nodes,
    run_graphagent_eval,
    variant_base,
    variant_settings,
)
from graphreason.evals.graphagent.metrics import (
    accuracy,
    change_outcome,
    label_key,
    macro_f1,
    relative_change,
    tool_change_counts,
)
from graphreason.evals.graphagent.report import summarize
from graphreason.tools.core.loaders.linqs_text import TextGraph
from graphreason.tools.core.loaders.node_data import NodeData
from graphreason.workflows.graphagent import resources
from tests.conftest import require_data

LABELS = ["Databases", "Neural_Networks", "Theory"]


# ------------------------------------------------------------------ metrics


def test_labels_match_across_spellings_and_none_is_never_right() -> None:
    assert label_key("Neural_Networks") == label_key(" neural  networks ") == label_key("Neural-Networks")
    assert accuracy(["A", "B", "B"], ["a", None, "B"]) == pytest.approx(2 / 3)
    assert accuracy([], []) is None


def test_macro_f1_agrees_with_scikit_learn() -> None:
    golds = ["a", "a", "b", "b", "c", "c", "c"]
    predictions = ["a", "b", "b", "b", "c", "d", "a"]  # "d" is a class only the model uses
    expected = f1_score(golds, predictions, average="macro")
    assert macro_f1(golds, predictions) == pytest.approx(expected)
    assert macro_f1(["a", "b"], ["a", "b"]) == 1.0


def test_tool_changes_are_counted_as_helped_hurt_or_neutral() -> None:
    assert change_outcome("A", "A", "B") is None and change_outcome("A", None, "A") is None
    assert change_outcome("A", "B", "A") == "helped"
    assert change_outcome("B", "A", "A") == "hurt"
    assert change_outcome("B", "C", "A") == "neutral"
    counts = tool_change_counts([("A", "A", "A"), ("A", "B", "A"), ("B", "A", "A"), ("C", "B", "A"), ("A", None, "A")])
    assert counts == {
        "nodes": 4, "changed": 3, "helped": 1, "hurt": 1, "neutral": 1, "agree": 1,
        "tool_accuracy": 0.5, "agent_accuracy": 0.5,
    }
    assert relative_change(26.33, 29.67) == pytest.approx(-11.26, abs=0.01)  # the paper's w/o get_feature
    assert relative_change(10.0, 0.0) is None


# ------------------------------------------------------------------ variants, labels, nodes


def test_variant_names_groups_and_settings() -> None:
    assert parse_variants(None) == ["tool", "faithful", "graph_model", "title_zero_shot"]
    assert len(parse_variants("all")) == 12
    assert parse_variants("Tool+no_plan+no_features, faithful,faithful") == ["tool+no_features+no_plan", "faithful"]
    assert variant_settings("no_actions") == {"graph_tool": False, "features_action": False, "neighbors_action": False}
    assert variant_settings("tool+no_long_term") == {"graph_tool": True, "long_term": False}
    assert variant_settings("graph_model") is None
    assert (variant_base("faithful"), variant_base("tool"), variant_base("tool+no_plan")) == (None, "faithful", "tool")
    with pytest.raises(GraphAgentEvalConfigError, match="unknown variant part"):
        parse_variants("tool,no_such_thing")
    with pytest.raises(GraphAgentEvalConfigError, match="no variant"):
        parse_variants(" , ")


@pytest.mark.parametrize(
    ("reply", "label"),
    [
        ("Neural Networks", "Neural_Networks"),
        ('{"label": "theory"}', "Theory"),
        ("It is about databases, not theory.", "Databases"),  # the first one named
        ("2", "Theory"),
        ("Category 1.", "Neural_Networks"),
        ("I cannot tell.", None),
        ("7", None),
    ],
)
def test_zero_shot_replies_are_read_tolerantly(reply: str, label: str | None) -> None:
    assert parse_label(reply, LABELS) == label


def test_node_samples_are_nested_and_keep_node_order() -> None:
    nodes = [str(i) for i in range(50)]
    small, large = pick_nodes(nodes, 5), pick_nodes(nodes, 20)
    assert set(small) <= set(large) and small == sorted(small, key=int)
    assert pick_nodes(nodes, 5) == small and pick_nodes(nodes, None) == nodes


# ------------------------------------------------------------------ report on hand-made records


def _record(mode: str, qid: str, gold: str, prediction: str, *, tool: str | None = None, wanted: str | None = None,
            ended: str = "answer", status: str = "ok", calls: int = 2, lessons: int = 0) -> dict[str, Any]:
    if status != "ok":
        return {"mode": mode, "qid": qid, "gold": gold, "status": "error", "error": "boom"}
    scores = {"correct": float(prediction == gold), "ended_answer": float(ended == "answer"),
              "ended_t_max": float(ended == "t_max"), "ended_errors": float(ended == "errors"), "steps": 3.0}
    trial: dict[str, Any] = {"ended_by": ended, "lessons": [{"lesson": "l"}] * lessons}
    if tool is not None:
        scores["tool_correct"] = float(tool == gold)
        trial["tool_prediction"] = {"label": tool, "probabilities": {}}
    if wanted is not None:
        trial["agent_answer"] = wanted
    return {"mode": mode, "qid": qid, "gold": gold, "prediction": prediction, "status": "ok", "scores": scores,
            "usage": {"llm_calls": calls, "input_tokens": 100, "output_tokens": 10}, "seconds": 1.0,
            "details": trial}


def test_summary_counts_accuracy_relative_change_and_tool_changes() -> None:
    records = [
        # tool mode: n1 kept, n2 changed and helped, n3 changed and hurt, n4 guard kept the model's label (wrongly)
        _record("tool", "n1", "A", "A", tool="A"),
        _record("tool", "n2", "A", "A", tool="B"),
        _record("tool", "n3", "B", "C", tool="B", ended="t_max"),
        _record("tool", "n4", "C", "B", tool="B", wanted="C"),
        _record("faithful", "n1", "A", "A", lessons=3),
        _record("faithful", "n2", "A", "B"),
        _record("faithful", "n3", "B", "B"),
        _record("faithful", "n4", "C", "", status="error"),
        _record("no_features", "n1", "A", "B"),
        _record("no_features", "n2", "A", "A"),
        _record("no_features", "n3", "B", "A", ended="errors"),
        _record("no_features", "n4", "C", "A"),
        _record("graph_model", "n1", "A", "A", calls=0),
        _record("graph_model", "n2", "A", "B", calls=0),
        _record("graph_model", "n3", "B", "B", calls=0),
        _record("graph_model", "n4", "C", "B", calls=0),
    ]
    meta = {"variants": ["tool", "faithful", "no_features", "graph_model"],
            "references": {"tool": "faithful", "faithful": None, "no_features": "faithful",
                           "graph_model": "faithful"}}
    summary = summarize(records, meta)
    rows = summary["variants"]
    assert (rows["tool"]["accuracy"], rows["faithful"]["accuracy"], rows["no_features"]["accuracy"]) == (50.0, pytest.approx(66.67), 25.0)
    assert rows["faithful"]["errors"] == 1 and summary["common_nodes"] == 3
    assert rows["tool"]["accuracy_common"] == pytest.approx(66.67)
    assert rows["no_features"]["relative"] == pytest.approx(-62.5, abs=0.1)  # (25 - 66.67) / 66.67
    assert rows["faithful"]["relative"] is None
    assert rows["tool"]["ended_t_max"] == 25.0 and rows["no_features"]["ended_errors"] == 25.0
    assert rows["tool"]["llm_calls"] == 2.0 and rows["graph_model"]["llm_calls"] == 0.0
    assert rows["faithful"]["lessons"] == 1.0 and rows["tool"]["lessons"] == 0.0  # 3 lessons over 3 answered
    assert rows["tool"]["macro_f1"] == pytest.approx(100 * f1_score(["A", "A", "B", "C"], ["A", "A", "C", "B"],
                                                                     average="macro"), abs=0.01)
    tool = summary["tool_changes"]["tool"]
    assert {k: tool[k] for k in ("nodes", "agree", "changed", "helped", "hurt", "neutral", "net")} == {
        "nodes": 4, "agree": 2, "changed": 2, "helped": 1, "hurt": 1, "neutral": 0, "net": 0}
    assert (tool["vetoed"], tool["veto_saved"], tool["veto_cost"]) == (1, 0, 1)
    assert list(summary["tool_changes"]) == ["tool"]  # only the tool-mode variant
    assert {c["node"]: c["outcome"] for c in summary["changes"]["tool"]} == {"n2": "helped", "n3": "hurt"}
    assert summary["versus"]["tool_vs_graph_model"] == {"nodes": 4, "tool": 50.0, "graph_model": 50.0, "points": 0.0}


# ------------------------------------------------------------------ a run on a tiny graph


def _tiny_data() -> NodeData:
    ids = [f"p{i}" for i in range(12)]
    labels = [LABELS[i % 3] for i in range(12)]
    graph = TextGraph(
        name="tiny", ids=ids, labels=labels, features=np.eye(12, dtype=np.float32),
        edges=np.array([[i for i in range(11)], [i + 1 for i in range(11)]], dtype=np.int64),
        texts=[f"text of paper {i}" for i in range(12)], titles=[f"{labels[i]} paper {i}" for i in range(12)],
    )
    parts = {"train": np.arange(0, 6), "val": np.arange(6, 8), "test": np.arange(8, 12)}
    return NodeData("tiny", graph, parts, "public")


class _Classifier:
    """Right on every node but p9."""

    labels = LABELS

    def __init__(self, data: NodeData) -> None:
        self.data = data

    def predict(self, node: str) -> tuple[str, dict[str, float]]:
        gold = self.data.label(node)
        label = "Theory" if node == "p9" and gold != "Theory" else gold
        return label, {name: float(name == label) for name in LABELS}


@pytest.fixture
def tiny() -> NodeData:
    data = _tiny_data()
    resources.provide("tiny", data, _Classifier(data))
    return data


def _fake_solve(data: NodeData, calls: list[tuple[str, bool]]) -> Any:
    def solve(node: str, context: Any) -> dict[str, Any]:
        calls.append((node, context.graph_tool))
        gold = data.label(node)
        tool = {"label": "Theory" if node == "p9" else gold, "probabilities": {}} if context.graph_tool else None
        answer = gold if context.graph_tool or node != "p8" else "Databases" if gold != "Databases" else "Theory"
        return {"node": node, "answer": answer, "ended_by": "answer", "tool_prediction": tool,
                "steps": [{"command": "answer"}], "usage": {"llm_calls": 3, "input_tokens": 50, "output_tokens": 5}}

    return solve


def test_run_writes_records_and_report_and_resumes(tmp_path, tiny) -> None:
    calls: list[tuple[str, bool]] = []
    zero_shot = tmp_path / "zero_shot.json"
    zero_shot.write_text(json.dumps(["Databases", "The category is Theory.", "no idea", "1"]))
    kwargs = dict(
        dataset="tiny", out_dir=tmp_path / "run", progress=False, embedding_model="hash",
        agent_model=f"scripted:{zero_shot}", solve=_fake_solve(tiny, calls),
    )
    result = run_graphagent_eval(variants="tool,faithful,graph_model", **kwargs)
    rows = result.summary["variants"]
    assert result.summary["n_questions"] == 4 and sorted({n for n, _ in calls}) == ["p10", "p11", "p8", "p9"]
    assert rows["tool"]["accuracy"] == 100.0 and rows["faithful"]["accuracy"] == 75.0
    assert rows["graph_model"]["accuracy"] == 75.0 and rows["graph_model"]["llm_calls"] == 0.0
    assert result.summary["tool_changes"]["tool"]["helped"] == 1  # p9: the model says Theory, the agent knows
    assert result.summary["versus"]["tool_vs_graph_model"]["points"] == 25.0
    report = result.report_path.read_text()
    assert "| tool |" in report and "helped" in report and result.plot_path.exists()
    assert len(result.records_path.read_text().splitlines()) == 12

    # resumable: nothing is run again; a new variant only runs its own nodes
    calls.clear()
    again = run_graphagent_eval(variants="tool,faithful,graph_model,title_zero_shot", **kwargs)
    assert calls == [] and len(again.records_path.read_text().splitlines()) == 16
    zero = again.summary["variants"]["title_zero_shot"]
    # the scripted replies restart for each node (a fresh context per node): every node reads "Databases"
    assert zero["n"] == 4 and zero["llm_calls"] == 1.0 and zero["accuracy"] == 25.0


def test_a_failing_node_is_recorded_and_retried(tmp_path, tiny) -> None:
    def flaky(node: str, context: Any) -> dict[str, Any]:
        if node == "p10":
            raise RuntimeError("the model broke")
        return {"answer": tiny.label(node), "ended_by": "answer", "steps": [], "usage": {}}

    common = dict(dataset="tiny", variants="faithful", out_dir=tmp_path / "run", progress=False,
                  embedding_model="hash", limit=3)
    result = run_graphagent_eval(solve=flaky, **common)
    assert result.summary["variants"]["faithful"]["errors"] == 1 and "the model broke" in result.report_path.read_text()
    fixed = run_graphagent_eval(solve=lambda node, context: {"answer": "Theory", "usage": {}}, **common)
    assert fixed.summary["variants"]["faithful"]["errors"] == 0 and fixed.summary["errors"] == []


def test_bad_options_are_refused(tmp_path, tiny) -> None:
    with pytest.raises(GraphAgentEvalConfigError, match="part"):
        run_graphagent_eval(dataset="tiny", part="dev", out_dir=tmp_path, embedding_model="hash")
    with pytest.raises(GraphAgentEvalConfigError, match="unknown setting"):
        run_graphagent_eval(dataset="tiny", out_dir=tmp_path, embedding_model="hash", no_such_field=1)
    with pytest.raises(EvalConfigError, match="at least 1"):
        run_graphagent_eval(dataset="tiny", out_dir=tmp_path, embedding_model="hash", limit=0)


def test_a_few_cora_test_nodes_with_a_scripted_model(tmp_path) -> None:
    require_data("cora-citeseer-text")
    decision = {"thoughts": {"text": "t", "reasoning": "r", "plan": "- p", "criticism": "c", "speak": "s"},
                "command": {"name": "answer", "args": {"label": "Neural Networks", "reason": "a guess"}}}
    script = tmp_path / "replies.json"
    script.write_text(json.dumps([json.dumps(decision)]))
    result = run_graphagent_eval(
        variants="faithful,title_zero_shot", limit=3, out_dir=tmp_path / "run", progress=False,
        agent_model=f"scripted:{script}", embedding_model="hash", long_term=False,
    )
    summary = result.summary
    assert summary["dataset"] == "cora" and summary["n_questions"] == 3 and summary["part"] == "test"
    records = [json.loads(line) for line in result.records_path.read_text().splitlines()]
    assert {r["mode"] for r in records} == {"faithful", "title_zero_shot"} and len(records) == 6
    assert all(r["status"] == "ok" and r["gold"] in summary["labels"] for r in records)
    # the zero-shot reply is the agent's JSON: its label is read from it
    assert all(r["prediction"] == "Neural Networks" for r in records)
    assert summary["variants"]["faithful"]["llm_calls"] == 1.0


def test_a_graph_model_with_another_label_set_is_refused(tmp_path, tiny) -> None:
    class Other(_Classifier):
        labels = ["Databases", "Theory"]

    with pytest.raises(ValueError, match="another label set"):
        run_graphagent_eval(dataset="tiny", variants="graph_model", out_dir=tmp_path, embedding_model="hash",
                            classifier=Other(tiny), progress=False)
