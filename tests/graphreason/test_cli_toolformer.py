"""``graphreason run toolformer``, ``eval toolformer`` and ``train`` through ``main([...])``."""

from __future__ import annotations

import json

import pytest

from graphreason.cli.main import build_parser, main
from tests.graphreason.conftest import write_script

GOLD = 'The order of the bull graph is [GR(GL("gpr", {"bull_graph"}), "toolx:order")-->r].'


def test_run_with_calls_prints_the_final_text(capsys) -> None:
    assert main(["run", "toolformer", "--has-calls", "--embedding", "hash", "--text", GOLD]) == 0
    out = capsys.readouterr().out
    assert "Final    : The order of the bull graph is 5." in out and "result:" in out


def test_run_with_a_scripted_generator_and_json_output(tmp_path, capsys) -> None:
    model = write_script(tmp_path, [GOLD])
    code = main(["run", "toolformer", "--model", model, "--few-shot", "0", "--embedding", "hash", "--json",
                 "--text", "What is the order of the bull graph?"])
    assert code == 0
    output = json.loads(capsys.readouterr().out)
    assert output["final"] == "The order of the bull graph is 5." and output["usage"]["llm_calls"] == 1


def test_a_failed_call_is_reported_and_the_run_still_succeeds(capsys) -> None:
    text = 'Topic: [GR(GL("amazon"), "bpr:recommendation", user#A1, item#B2)-->r].'
    assert main(["run", "toolformer", "--has-calls", "--embedding", "hash", "--text", text]) == 0
    out = capsys.readouterr().out
    assert "1 of 1 calls failed" in out and out.count("Amazon") == 1  # printed once, as it happened


@pytest.mark.parametrize(
    "argv",
    [
        ["run", "toolformer", "--text", "   ", "--embedding", "hash"],
        ["run", "toolformer", "--text", "x", "--few-shot", "99", "--embedding", "hash"],
        ["train", "graph_bert", "--dataset", "pubmedx"],
        ["eval", "toolformer", "--path", "/no/such/folder", "--model", "gold"],
    ],
)
def test_bad_input_exits_2(argv, capsys) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "graphreason: error:" in err
    if argv[0] == "train":  # the handler's own message, not the model-spec check reading the target as --model
        assert "graph_bert has no dataset 'pubmedx'" in err


def test_every_context_field_and_train_choices_are_options() -> None:
    parser = build_parser()
    args = parser.parse_args(["run", "toolformer", "--text", "t", "--few-shot", "2", "--max-calls", "9"])
    assert (args.few_shot, args.max_calls) == (2, 9)
    assert args.generator_model is None  # unset: the context's own default (local) applies
    args = parser.parse_args(["train", "all", "--no-progress"])
    assert args.target == "all" and args.no_progress
    with pytest.raises(SystemExit):
        parser.parse_args(["train", "nope"])


def test_eval_gold_on_a_prompts_file(tmp_path, capsys) -> None:
    folder = tmp_path / "gpr"
    folder.mkdir()
    (folder / "prompts_test").write_text(
        "Input: What is the order of the bull graph? Output: " + GOLD + " Reasoning Result: 5.\n"
    )
    code = main(["eval", "toolformer", "--path", str(folder), "--model", "gold", "--out", str(tmp_path / "run"),
                 "--no-progress", "--embedding", "hash"])
    assert code == 0
    out = capsys.readouterr().out
    assert "| gpr | 1 | 0 | 100.0" in out and (tmp_path / "run" / "report.md").exists()


def test_eval_gold_keeps_the_run_options(tmp_path, capsys) -> None:
    folder = tmp_path / "gpr"
    folder.mkdir()
    (folder / "prompts_test").write_text(
        "Input: What is the order of the bull graph? Output: " + GOLD + " Reasoning Result: 5.\n"
    )
    # GL and GR are two calls: a budget of one must reach the executor even in the oracle run
    code = main(["eval", "toolformer", "--path", str(folder), "--model", "gold", "--max-calls", "1",
                 "--out", str(tmp_path / "run"), "--no-progress", "--embedding", "hash"])
    assert code == 0
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    assert summary["modes"]["gold"]["calls_ok"] == 0.0 and summary["modes"]["gold"]["exec_acc"] == 0.0


def test_help_names_the_special_model_specs_and_only_real_options(capsys) -> None:
    """`gold` (Graph-ToolFormer's oracle) and `rules` (GAR's rule-following agents) are in the help;
    --cv is offered by the one model that has a cross-validation protocol."""
    assert main(["eval", "toolformer", "--help"]) == 0
    assert "--model gold scores the files' own annotated outputs" in " ".join(capsys.readouterr().out.split())
    assert main(["run", "gar", "--help"]) == 0
    assert "a model spec, or rules (a rule-following stand-in" in " ".join(capsys.readouterr().out.split())
    assert main(["train", "seg_bert", "--help"]) == 0
    assert "--cv" in capsys.readouterr().out
    assert main(["train", "graph_bert", "--help"]) == 0
    assert "--cv" not in capsys.readouterr().out
    assert main(["train", "graph_bert", "--cv"]) == 2
    assert "unrecognized arguments: --cv" in capsys.readouterr().err
