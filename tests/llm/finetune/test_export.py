"""Shipping an adapter: fp16 weights, the config as trained, and a card that names the shipped bytes."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
import torch
from safetensors.torch import load_file, save_file

from graphreason.llm.finetune.export import export_adapter, main


def fake_run(root: Path) -> Path:
    (root / "adapter").mkdir(parents=True)
    save_file({"base_model.model.model.layers.0.self_attn.q_proj.lora_A.weight": torch.randn(4, 8)},
              str(root / "adapter" / "adapter_model.safetensors"))
    (root / "adapter" / "adapter_config.json").write_text(json.dumps({"r": 4, "lora_alpha": 8}))
    (root / "card.json").write_text(json.dumps({"training_seconds": 12.5}))
    return root


def test_export_writes_fp16_and_a_card_with_the_shipped_hash(tmp_path: Path) -> None:
    run = fake_run(tmp_path / "run")
    out = export_adapter(run, tmp_path / "ship", scores={"api_gen_acc": 0.99})
    tensors = load_file(str(out / "adapter_model.safetensors"))
    original = load_file(str(run / "adapter" / "adapter_model.safetensors"))
    for key, value in tensors.items():
        assert value.dtype == torch.float16
        torch.testing.assert_close(value.float(), original[key], atol=1e-3, rtol=1e-3)
    card = json.loads((out / "card.json").read_text())
    assert card["training_seconds"] == 12.5 and card["validation_scores"] == {"api_gen_acc": 0.99}
    assert card["shipped"]["sha256"] == hashlib.sha256((out / "adapter_model.safetensors").read_bytes()).hexdigest()
    assert json.loads((out / "adapter_config.json").read_text())["r"] == 4


def test_an_unfinished_run_is_refused(tmp_path: Path) -> None:
    (tmp_path / "run").mkdir()
    with pytest.raises(FileNotFoundError, match="not a finished training run"):
        export_adapter(tmp_path / "run", tmp_path / "ship")


def test_command_line_records_an_eval_summary(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = fake_run(tmp_path / "run")
    (tmp_path / "summary.json").write_text(json.dumps({"rows": 3}))
    assert main([str(run), str(tmp_path / "ship"), "--scores", str(tmp_path / "summary.json")]) == 0
    assert "exported to" in capsys.readouterr().out
    assert json.loads((tmp_path / "ship" / "card.json").read_text())["validation_scores"] == {"rows": 3}
