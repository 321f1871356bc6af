"""Graph-ToolFormer's metrics and eval run: tree vs string API-Gen Acc, execution matching, the report."""

from __future__ import annotations

import json

import pytest

from graphreason.evals.toolformer.evaluate import ToolformerEvalConfigError, load_items, run_toolformer_eval
from graphreason.evals.toolformer.metrics import (
    api_calls_as_written,
    api_gen_scores,
    corpus_bleu,
    exec_correct,
    gold_values,
    values_match,
)

GOLD = 'The order of the bull graph is [GR(GL("gpr", {"bull_graph"}), "toolx:order")-->r].'
PROMPTS = (
    "Input: What is the order of the bull graph? Output: " + GOLD + " Reasoning Result: 5.\n"
    'Input: The diameter of the bull graph is [TBR]. Output: The diameter of the bull graph is '
    '[GR(GL("gpr", {"bull_graph"}), "toolx:diameter")-->r]. Reasoning Result: 3.\n'
    'Input: The topic of paper #1 in pubmed is [TBR]. Output: The topic of paper #1 in pubmed is '
    '[GR(GL("pubmed"), "graph_bert:topic", paper#1)-->r]. Reasoning Result: Unknown.\n'
)


def test_tree_comparison_forgives_spelling_the_string_one_does_not() -> None:
    variant = "The order of the bull graph is [GR( GL('gpr', {\"bull_graph\"}), \"toolx:order\" )-->r]."
    variant = variant.replace("'", '"')
    assert api_gen_scores(variant, GOLD) == {"api_gen_acc": 1.0, "api_gen_acc_string": 0.0, "parses": 1.0}
    assert api_gen_scores(GOLD.replace("order", "size"), GOLD)["api_gen_acc"] == 0.0
    broken = GOLD.replace('"toolx:order")', '"toolx:order"')
    assert api_gen_scores(broken, GOLD)["api_gen_acc"] == 0.0  # a broken call never matches
    assert api_gen_scores(broken, GOLD)["parses"] == 0.0
    assert api_gen_scores(GOLD.replace("order", "size"), GOLD)["parses"] == 1.0  # wrong but well formed
    assert api_calls_as_written(GOLD) == ['[GR(GL("gpr", {"bull_graph"}), "toolx:order")-->r]']


def test_gold_values_and_matching() -> None:
    assert gold_values("Unknown") is None and gold_values("Unsupervised") is None
    assert gold_values("5 <||> [7, 8]") == ["5", "[7, 8]"]
    assert values_match(0.15789473684210526, "0.15789473684210525")
    assert values_match({0: 1, 1: 2}, "{0: 1, 1: 2}") and not values_match({0: 1}, "{0: 2}")
    assert values_match("Neural_Networks", "Neural Networks") and values_match([5, 6], "[5, 6]")
    ok = [{"ok": True, "value": 3}, {"ok": True, "value": [7, 8]}]
    assert exec_correct(ok, ["3", "[7, 8]"]) and exec_correct(ok, ["[7, 8]", "3"])  # reordered gold
    assert not exec_correct(ok, ["3"]) and not exec_correct([{"ok": False}], ["3"])


def test_bleu_is_100_for_identical_text_and_0_for_nothing() -> None:
    assert corpus_bleu([GOLD], [GOLD]) == {"bleu": 100.0, "bp": 100.0}
    assert corpus_bleu([], []) == {"bleu": 0.0, "bp": 0.0}


def test_gold_run_writes_a_report_with_execution_accuracy(tmp_path) -> None:
    folder = tmp_path / "gpr"
    folder.mkdir()
    (folder / "prompts_test").write_text(PROMPTS)
    result = run_toolformer_eval(
        path=folder, out_dir=tmp_path / "run", generator_model="gold", progress=False, embedding_model="hash"
    )
    row = result.summary["modes"]["gold"]
    assert row["n"] == 3 and row["api_gen_acc"] == 100.0 and row["bleu"] == 100.0
    assert row["exec_n"] == 2 and row["exec_acc"] == 100.0  # pubmed's Unknown is not checkable
    assert row["calls_ok"] == pytest.approx(100 * 2 / 3, abs=0.01)  # pubmed is not in the data root
    report = result.report_path.read_text()
    assert "API-Gen Acc" in report and "oracle" in report and result.plot_path.exists()
    records = [json.loads(line) for line in result.records_path.read_text().splitlines()]
    assert len(records) == 3
    # resumable: a rerun answers nothing again
    again = run_toolformer_eval(
        path=folder, out_dir=tmp_path / "run", generator_model="gold", progress=False, embedding_model="hash"
    )
    assert len(result.records_path.read_text().splitlines()) == 3 and again.summary["modes"]["gold"]["n"] == 3


def test_scripted_generator_is_scored_against_the_annotation(tmp_path) -> None:
    folder = tmp_path / "gpr"
    folder.mkdir()
    (folder / "prompts_test").write_text(PROMPTS.splitlines()[0] + "\n")
    script = tmp_path / "replies.json"
    script.write_text(json.dumps([GOLD.replace("toolx:order", "toolx:diameter")]))
    result = run_toolformer_eval(
        path=folder, out_dir=tmp_path / "run", generator_model=f"scripted:{script}", few_shot=0,
        progress=False, embedding_model="hash",
    )
    row = next(iter(result.summary["modes"].values()))
    assert row["api_gen_acc"] == 0.0 and row["exec_acc"] == 0.0 and row["rouge1"] > 80


def test_records_say_what_each_call_returned_or_why_it_failed(tmp_path) -> None:
    """A run whose calls fail must say why in its records (not only calls_ok = 0), and carry no Counselor fields."""
    folder = tmp_path / "gpr"
    folder.mkdir()
    (folder / "prompts_test").write_text(PROMPTS.splitlines(keepends=True)[0])
    script = tmp_path / "replies.json"  # a scripted spec starts over for every question
    script.write_text(json.dumps(
        ['The order of the bull graph is [GR(GL("gpr", {"no_such_graph"}), "toolx:order")-->r] [GR(oops].']))
    records = {}
    for name, model in (("gold", "gold"), ("broken", f"scripted:{script}")):
        result = run_toolformer_eval(path=folder, out_dir=tmp_path / name, generator_model=model, few_shot=0,
                                     progress=False, embedding_model="hash")
        (records[name],) = [json.loads(line) for line in result.records_path.read_text().splitlines()]
    for record in records.values():
        assert not {"trace", "first_answer", "accepted"} & record.keys()  # Graph Counselor's fields
    right = records["gold"]
    assert right["details"]["results"] == [{"call": right["details"]["calls"][0], "ok": True, "value": 5,
                                            "error": None}]
    failed = records["broken"]
    (call,) = failed["details"]["results"]
    assert call["ok"] is False and "'no_such_graph' is not a GPR graph" in call["error"] and call["value"] is None
    assert call["error"].endswith("chars)")  # the long list of valid names is shortened
    assert failed["scores"]["calls_ok"] == 0.0
    assert "syntax error" in failed["details"]["parse_errors"][0]


def test_bad_split_is_refused(tmp_path) -> None:
    with pytest.raises(ToolformerEvalConfigError, match="split"):
        load_items(tmp_path, split="dev")


def test_the_embedded_default_is_reported_as_the_tuned_generator(tmp_path) -> None:
    folder = tmp_path / "gpr"
    folder.mkdir()
    (folder / "prompts_test").write_text(PROMPTS)

    def solve(text, context, has_calls=False):  # stands in for the model: writes the gold of the first record
        return {"annotated": GOLD, "results": [], "usage": {}}

    result = run_toolformer_eval(
        path=folder, out_dir=tmp_path / "run", progress=False, embedding_model="hash", execute_calls=False,
        solve=solve,
    )
    summary = result.summary
    assert summary["generator_model"] == "local:smollm2-135m-toolformer" and summary["few_shot"] == 0
    assert summary["execute_calls"] is False
    assert "calls executed: no" in (tmp_path / "run" / "report.md").read_text()
    assert summary["modes"]["local:smollm2-135m-toolformer"]["exec_n"] == 0  # no execution score without execution
