"""Merging LoRA adapters into the engine's weights: names, scale, refusals, digest and the cache entry."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import torch
from safetensors.torch import save_file

import graphreason.llm.engine.adapter as adapter_module
from graphreason.llm.engine.adapter import (
    adapted_weights,
    adapter_digest,
    ensure_adapter_scales,
    lora_deltas,
    merge_weights,
    read_lora_config,
    shipped_adapter,
)
from graphreason.llm.engine.llama_net import build_decoder
from graphreason.llm.engine.weights import LocalModelError
from tests.llm.engine.test_llama_net import TINY, tiny_weights

PEFT_PREFIX = "base_model.model.model.layers"


def write_adapter(folder: Path, tensors: dict[str, torch.Tensor], **config: object) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    settings = {"r": 2, "lora_alpha": 4, "bias": "none", "use_rslora": False, "use_dora": False, **config}
    (folder / "adapter_config.json").write_text(json.dumps(settings))
    save_file(tensors, str(folder / "adapter_model.safetensors"))
    return folder


def lora_pair(rows: int, cols: int, seed: int, r: int = 2) -> tuple[torch.Tensor, torch.Tensor]:
    gen = torch.Generator().manual_seed(seed)
    return torch.randn(r, cols, generator=gen), torch.randn(rows, r, generator=gen)


def test_deltas_map_peft_names_and_scale_by_alpha_over_r(tmp_path: Path) -> None:
    a, b = lora_pair(TINY.dim, TINY.dim, seed=1)
    down_a, down_b = lora_pair(TINY.dim, TINY.ffn_dim, seed=2)
    folder = write_adapter(tmp_path / "ad", {
        f"{PEFT_PREFIX}.1.self_attn.q_proj.lora_A.weight": a,
        f"{PEFT_PREFIX}.1.self_attn.q_proj.lora_B.weight": b,
        f"{PEFT_PREFIX}.0.mlp.down_proj.lora_A.weight": down_a,
        f"{PEFT_PREFIX}.0.mlp.down_proj.lora_B.weight": down_b,
    })
    deltas = lora_deltas(folder)
    assert set(deltas) == {"layers.1.wq", "layers.0.w_down"}
    torch.testing.assert_close(deltas["layers.1.wq"], 2.0 * b @ a)  # alpha 4 / r 2
    merged = merge_weights(tiny_weights(), deltas)
    torch.testing.assert_close(merged["layers.1.wq"], tiny_weights()["layers.1.wq"] + 2.0 * b @ a)
    assert torch.equal(merged["layers.0.wk"], tiny_weights()["layers.0.wk"])  # untouched matrices stay


def test_a_zero_adapter_leaves_the_decoder_unchanged(tmp_path: Path) -> None:
    a, _ = lora_pair(TINY.dim, TINY.dim, seed=3)
    folder = write_adapter(tmp_path / "ad", {
        f"{PEFT_PREFIX}.0.self_attn.v_proj.lora_A.weight": a[:, :TINY.dim],
        f"{PEFT_PREFIX}.0.self_attn.v_proj.lora_B.weight": torch.zeros(TINY.n_kv_heads * TINY.head_dim, 2),
    })
    ids = torch.tensor([1, 5, 7, 2])
    plain = build_decoder(TINY, tiny_weights(), n_ctx=16, precision="fp32")(ids, 0)
    merged = build_decoder(TINY, merge_weights(tiny_weights(), lora_deltas(folder)), n_ctx=16, precision="fp32")
    torch.testing.assert_close(merged(ids, 0), plain)


def test_rslora_scale(tmp_path: Path) -> None:
    assert read_lora_config(write_adapter(tmp_path / "ad", {}, r=4, lora_alpha=8, use_rslora=True)) == 4.0


@pytest.mark.parametrize(
    ("tensors", "config", "message"),
    [
        ({"base_model.model.lm_head.weight": torch.zeros(2, 2)}, {}, "unexpected tensor"),
        ({f"{PEFT_PREFIX}.0.self_attn.q_proj.lora_A.weight": torch.zeros(2, 32)}, {}, "only lora_A"),
        ({}, {"use_dora": True}, "use_dora"),
        ({}, {"bias": "all"}, "biases"),
        ({}, {"modules_to_save": ["lm_head"]}, "whole modules"),
    ],
)
def test_what_cannot_merge_is_refused(tmp_path: Path, tensors: dict, config: dict, message: str) -> None:
    with pytest.raises(LocalModelError, match=message):
        lora_deltas(write_adapter(tmp_path / "ad", tensors, **config))


def test_a_delta_of_another_shape_is_refused() -> None:
    with pytest.raises(LocalModelError, match="does not fit"):
        merge_weights(tiny_weights(), {"layers.0.wq": torch.zeros(3, 3)})
    with pytest.raises(LocalModelError, match="missing"):
        merge_weights(tiny_weights(), {"layers.9.wq": torch.zeros(32, 32)})


def test_an_unreadable_config_is_a_clear_error(tmp_path: Path) -> None:
    folder = tmp_path / "ad"
    folder.mkdir()
    (folder / "adapter_config.json").write_text("{not json")
    with pytest.raises(LocalModelError, match="cannot read the LoRA config"):
        read_lora_config(folder)


def test_digest_follows_the_bytes(tmp_path: Path) -> None:
    a, b = lora_pair(TINY.dim, TINY.dim, seed=4)
    keys = (f"{PEFT_PREFIX}.0.self_attn.q_proj.lora_A.weight", f"{PEFT_PREFIX}.0.self_attn.q_proj.lora_B.weight")
    first = adapter_digest(write_adapter(tmp_path / "one", dict(zip(keys, (a, b), strict=True))))
    again = adapter_digest(write_adapter(tmp_path / "two", dict(zip(keys, (a, b), strict=True))))
    other = adapter_digest(write_adapter(tmp_path / "three", dict(zip(keys, (a, b + 1), strict=True))))
    assert first == again != other and len(first) == 12


def test_unknown_shipped_adapter_names_the_known_ones() -> None:
    with pytest.raises(LocalModelError, match="shipped adapters: counselor, graphagent, toolformer"):
        shipped_adapter("nope")


def test_the_scales_entry_is_built_once_keyed_by_digest_and_holds_no_model_copy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A fake converted base (tiny model) in a temporary cache: build, reuse, rebuild for new bytes."""
    from tokenizers import Tokenizer, models, pre_tokenizers

    monkeypatch.setenv("GRAPHREASON_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(adapter_module, "CALIBRATION_DIALOGUES", [("w1 w2", "w3")])  # fits the tiny context
    monkeypatch.setattr(adapter_module, "CALL_DIALOGUES", [("w4", "w5 w6")])
    base = tmp_path / "base"
    (base / "tokenizer").mkdir(parents=True)
    tokenizer = Tokenizer(models.WordLevel({f"w{i}": i for i in range(TINY.vocab_size)}, unk_token="w0"))
    tokenizer.pre_tokenizer = pre_tokenizers.Whitespace()
    tokenizer.save(str(base / "tokenizer" / "tokenizer.json"))
    save_file(tiny_weights(), str(base / "model.safetensors"))
    from dataclasses import asdict

    (base / "config.json").write_text(json.dumps(asdict(TINY)))
    (base / "meta.json").write_text(json.dumps({"format": 2, "source_size": 123}))
    a, b = lora_pair(TINY.dim, TINY.dim, seed=5)
    keys = (f"{PEFT_PREFIX}.0.self_attn.o_proj.lora_A.weight", f"{PEFT_PREFIX}.0.self_attn.o_proj.lora_B.weight")
    adapter = write_adapter(tmp_path / "ad", dict(zip(keys, (a, b), strict=True)))
    # an entry left by an older version: a full merged copy of the model under the same name
    stale = adapter_module.adapter_cache_dir("test", adapter_digest(adapter))
    stale.mkdir(parents=True, exist_ok=True)
    (stale / "model.safetensors").write_bytes(b"x" * 1000)
    (stale / "meta.json").write_text(json.dumps({"format": 2, "source_size": 123, "adapter_digest": "x"}))
    folder, built = ensure_adapter_scales(base, "test", adapter)
    assert built and folder == stale and folder.name == f"smollm2-135m+test-{adapter_digest(adapter)}"
    assert sorted(p.name for p in folder.iterdir()) == ["activation_maxima.safetensors", "meta.json"]
    meta = json.loads((folder / "meta.json").read_text())
    assert meta["adapter_digest"] == adapter_digest(adapter) and meta["source_size"] == 123
    from safetensors.torch import load_file

    assert set(load_file(str(folder / "activation_maxima.safetensors")))  # int8 scales measured again
    _, merged = adapted_weights(base, adapter)  # the deltas are added in memory at load time
    torch.testing.assert_close(merged["layers.0.wo"], tiny_weights()["layers.0.wo"] + 2.0 * b @ a)
    torch.testing.assert_close(merged["layers.0.wq"], tiny_weights()["layers.0.wq"])
    assert ensure_adapter_scales(base, "test", adapter) == (folder, False)
    changed = write_adapter(tmp_path / "ad", dict(zip(keys, (a, b * 2), strict=True)))
    other, rebuilt = ensure_adapter_scales(base, "test", changed)
    assert rebuilt and other != folder


@pytest.mark.parametrize("name", sorted(adapter_module.SHIPPED))
def test_each_shipped_adapter_is_small_and_carries_its_card(name: str) -> None:
    folder = shipped_adapter(name)
    assert (folder / adapter_module.ADAPTER_WEIGHTS).stat().st_size <= 10_000_000  # at most 10 MB
    card = json.loads((folder / "card.json").read_text())
    assert card["hyper_parameters"]["device"] == "cpu" and card["machine"]["cpu_count"] == 2
    # one training run per stage within 2.5 hours on 2 CPU cores (the card adds up the stages)
    stages = max(1, 1 + bool(card["hyper_parameters"].get("init_adapter")))
    assert 0 < card["training_seconds"] <= 2.5 * 3600 * stages
    assert card["shipped"]["sha256"] and card["validation_loss"] < card["history"][0]["loss"]
