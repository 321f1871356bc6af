"""``graphreason train generator``: its options, prompt forms and refusals (no training here)."""

from __future__ import annotations

import pytest

from graphreason.cli.main import build_parser, main
from graphreason.cli.methods.toolformer import prompt_function
from graphreason.workflows.toolformer.prompts import generation_prompt, tuned_prompt


def test_generator_options_parse_beside_the_graph_models() -> None:
    parser = build_parser()
    args = parser.parse_args([
        "train", "generator", "--examples", "64", "--steps", "5", "--batch-size", "2", "--max-length", "200",
        "--lr", "1e-3", "--eval-every", "2", "--save-every", "3", "--out", "x", "--resume", "--threads", "1",
        "--no-progress",
    ])
    assert args.target == "generator"
    assert (args.examples, args.steps, args.batch_size, args.max_length, args.lr) == (64, 5, 2, 200, 1e-3)
    assert (args.eval_every, args.save_every, args.out, args.resume, args.threads) == (2, 3, "x", True, 1)
    assert parser.parse_args(["train", "graph_bert"]).target == "graph_bert"  # the others are untouched
    with pytest.raises(SystemExit):
        parser.parse_args(["train", "generator", "--lr", "-1"])


def test_prompt_forms() -> None:
    assert prompt_function("workflow")("Is it?") == generation_prompt("Is it?", [])
    assert prompt_function("short")(" Is it? ") == "Input: Is it?\nOutput:"
    assert prompt_function("short") is tuned_prompt  # what the workflow sends the tuned generator


def test_defaults_are_the_shipped_first_stage() -> None:
    args = build_parser().parse_args(["train", "generator"])
    assert (args.prompt_form, args.batch_size, args.lr, args.seed) == ("short", 8, 2e-4, 0)
    assert (args.examples, args.mix, args.init_adapter) == (None, None, None)  # 4800 examples, evenly spread


def test_second_stage_options_parse() -> None:
    args = build_parser().parse_args([
        "train", "generator", "--init-adapter", "runs/a/adapter", "--mix", "gpr=900,twitter=200", "--per-dataset", "25",
    ])
    assert (args.init_adapter, args.mix, args.per_dataset) == ("runs/a/adapter", "gpr=900,twitter=200", 25)


def test_bad_mixes_are_refused_before_any_model_loads(tmp_path, capsys) -> None:
    assert main(["train", "generator", "--out", str(tmp_path), "--mix", "gpr"]) == 2
    assert "dataset=count" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        build_parser().parse_args(["train", "generator", "--per-dataset", "-2"])
    assert "--per-dataset: must be 0 or more, got -2" in capsys.readouterr().err


def test_resume_without_a_checkpoint_is_refused(tmp_path, capsys) -> None:
    assert main(["train", "generator", "--out", str(tmp_path), "--resume"]) == 2
    assert "no checkpoint" in capsys.readouterr().err
