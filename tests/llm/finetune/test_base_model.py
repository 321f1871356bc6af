"""The transformers copy of the base model is the engine's conversion under transformers' names."""

from __future__ import annotations

import json

import torch
from safetensors.torch import load_file

from graphreason.llm.engine.local_smollm import ensure_converted
from graphreason.llm.finetune.base_model import HF_CACHE_FORMAT, ensure_hf_copy, hf_tensor_name


def test_every_tensor_is_the_engines_own_under_its_transformers_name() -> None:
    from transformers import LlamaConfig, LlamaForCausalLM

    converted, _ = ensure_converted()
    copy = ensure_hf_copy()
    engine = load_file(str(converted / "model.safetensors"))
    hf = load_file(str(copy / "model.safetensors"))
    assert set(hf) == {hf_tensor_name(name) for name in engine}
    for name, tensor in engine.items():
        assert torch.equal(hf[hf_tensor_name(name)], tensor), name
    config = LlamaConfig(**json.loads((copy / "config.json").read_text()))
    with torch.device("meta"):
        expected = set(LlamaForCausalLM(config).state_dict())
    # every parameter transformers builds is there, but the output layer, tied to the embeddings
    assert expected - set(hf) == {"lm_head.weight"} and set(hf) <= expected
    assert config.tie_word_embeddings and config.num_hidden_layers == json.loads(
        (converted / "config.json").read_text())["n_layers"]
    for name in ("tokenizer.json", "tokenizer_config.json", "chat_template.jinja"):
        assert (copy / name).read_bytes() == (converted / "tokenizer" / name).read_bytes()
    tokens = json.loads((copy / "tokenizer.json").read_text())["added_tokens"]
    by_id = {token["id"]: token["content"] for token in tokens}
    assert (by_id[config.bos_token_id], by_id[config.eos_token_id]) == ("<|im_start|>", "<|im_end|>")
    assert json.loads((copy / "meta.json").read_text())["format"] == HF_CACHE_FORMAT


def test_a_stale_copy_is_rebuilt(tmp_path) -> None:
    folder = tmp_path / "hf"
    folder.mkdir()
    (folder / "meta.json").write_text(json.dumps({"format": HF_CACHE_FORMAT - 1}))  # an older layout
    assert ensure_hf_copy(folder) == folder
    assert json.loads((folder / "meta.json").read_text())["format"] == HF_CACHE_FORMAT
    assert (folder / "model.safetensors").is_file() and (folder / "config.json").is_file()
