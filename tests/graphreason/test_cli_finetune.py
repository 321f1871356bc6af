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
    assert (args.examples, args.mix, args.init_adapter) == (None, None, None)  # DEFAULT_EXAMPLES, evenly spread


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


@pytest.mark.parametrize(
    ("device", "message"),
    [
        ("../../x", "argument --device: expected cpu, cuda, cuda:N or mps, got '../../x' (devices here: cpu)"),
        ("cuda", "argument --device: 'cuda' needs a CUDA GPU and this machine has none (devices here: cpu)"),
        ("cuda:1", "argument --device: 'cuda:1' needs a CUDA GPU and this machine has none"),
        ("mps", "argument --device: 'mps' needs an Apple GPU (Metal) and this machine has none"),
    ],
)
def test_devices_this_machine_lacks_are_refused_before_any_model_loads(
    tmp_path, capsys, monkeypatch, device: str, message: str
) -> None:
    import torch

    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)  # the same answer on a GPU machine
    monkeypatch.setattr(torch.backends.mps, "is_available", lambda: False)
    assert main(["train", "generator", "--out", str(tmp_path), "--device", device]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert not (tmp_path / "checkpoints").exists()


def test_a_gpu_index_beyond_the_machine_is_refused(monkeypatch) -> None:
    import torch

    from graphreason.llm.finetune.device import check_device

    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "device_count", lambda: 1)
    assert check_device("cuda") == "cuda" and check_device("cuda:0") == "cuda:0"
    with pytest.raises(ValueError, match=r"'cuda:3' names GPU 3, but this machine has only 1 .*cpu, cuda, cuda:0"):
        check_device("cuda:3")
    assert build_parser().parse_args(["train", "generator", "--device", "cuda:0"]).device == "cuda:0"


def test_a_bad_device_is_one_line_from_the_command(tmp_path) -> None:
    import subprocess
    import sys
    from pathlib import Path

    command = [str(Path(sys.executable).parent / "graphreason"), "train", "generator", "--out", str(tmp_path)]
    done = subprocess.run([*command, "--device", "../../x"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert "error: argument --device: expected cpu, cuda, cuda:N or mps, got '../../x'" in done.stderr


def test_resume_refuses_an_older_checkpoint_before_any_model_loads(tmp_path, capsys) -> None:
    from tests.llm.finetune.test_checkpoint import crafted_checkpoint

    marker = tmp_path / "ran"
    crafted_checkpoint(tmp_path / "out", marker)
    assert main(["train", "generator", "--out", str(tmp_path / "out"), "--resume"]) == 2
    err = capsys.readouterr().err
    assert "written by an older version of graphreason" in err and "retrain from the start, with another --out" in err
    assert not marker.exists()


def test_agent_options_parse_with_the_shared_training_options() -> None:
    args = build_parser().parse_args([
        "train", "agent", "--modes", "faithful", "--navigation-share", "0.15", "--lr", "3e-4", "--steps", "4",
        "--out", "y", "--threads", "2",
    ])
    assert args.target == "agent" and (args.modes, args.navigation_share, args.lr) == ("faithful", 0.15, 3e-4)
    assert (args.steps, args.out, args.threads, args.dataset, args.max_length) == (4, "y", 2, "cora", 1024)
    assert (args.recall_k, args.rename_share) == (10, 0.5)  # the recipe of the shipped adapter


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--dataset", "citeseer"], "citeseer is the unseen graph"),
        (["--dataset", "CiteSeer"], "unseen graph"),
        (["--modes", "faithful,guess"], "--modes takes faithful, tool"),
        (["--navigation-share", "1.5"], "--navigation-share must be in [0, 1]"),
        (["--rename-share", "-0.1"], "--rename-share must be in [0, 1]"),
        (["--recall-k", "-1"], "--recall-k must be 0 or more"),
    ],
)
def test_bad_agent_training_requests_are_one_line_before_any_data_loads(argv, message, tmp_path, capsys) -> None:
    assert main(["train", "agent", "--out", str(tmp_path), *argv]) == 2
    assert message in capsys.readouterr().err


def test_a_micro_batch_above_the_batch_is_refused_before_any_model_loads(tmp_path, capsys, monkeypatch) -> None:
    import graphreason.llm.finetune.base_model as base_model

    def no_load(*args, **kwargs):
        raise AssertionError("the model was loaded")

    monkeypatch.setattr(base_model, "load_base", no_load)
    argv = ["train", "generator", "--out", str(tmp_path / "out"), "--batch-size", "4", "--micro-batch", "5"]
    assert main(argv) == 2
    assert "--micro-batch (5) must not exceed --batch-size (4)" in capsys.readouterr().err
    assert build_parser().parse_args([*argv[:-1], "2"]).micro_batch == 2
