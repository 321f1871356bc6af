"""The base model for training: SmolLM2-135M-Instruct in transformers form, from the engine's conversion.

The engine's converted cache (:func:`graphreason.llm.engine.local_smollm.ensure_converted`)
already holds the dequantized fp32 weights, with llama.cpp's Q/K row order undone,
and the tokenizer files ``transformers`` writes for the GGUF. The transformers
copy under ``cache_dir("models", "smollm2-135m-hf")`` renames those tensors to
the Llama names of ``transformers`` and adds its config, far cheaper than
reading the GGUF through ``transformers``. The tensors are bit for bit the ones ``transformers`` dequantizes
(checked against such a copy when this was written; ``tests/llm/finetune``
compares the trained model with the engine). The copy is written to a
temporary folder and renamed, so an interrupted save never looks complete.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

from graphreason.llm.engine.llama_net import LlamaConfig
from graphreason.llm.engine.weights import (
    GGUF_NAME,
    build_once,
    find_gguf,
    read_converted,
    read_meta,
    replace_folder,
)
from graphreason.settings import cache_dir

HF_CACHE_FORMAT = 2  # 2: made from the engine's conversion
TOKENIZER_FILES = ("tokenizer.json", "tokenizer_config.json", "chat_template.jinja")
# the engine's tensor names -> those of transformers' LlamaForCausalLM: outside the layers, then per layer
TOP_NAMES = {"embed": "model.embed_tokens.weight", "norm": "model.norm.weight", "lm_head": "lm_head.weight"}
LAYER_NAMES = {
    "attn_norm": "input_layernorm", "ffn_norm": "post_attention_layernorm",
    "wq": "self_attn.q_proj", "wk": "self_attn.k_proj", "wv": "self_attn.v_proj", "wo": "self_attn.o_proj",
    "w_gate": "mlp.gate_proj", "w_up": "mlp.up_proj", "w_down": "mlp.down_proj",
}


def hf_base_dir() -> Path:
    return cache_dir("models", "smollm2-135m-hf")


def _is_current(folder: Path, gguf: Path) -> bool:
    meta = read_meta(folder)
    return meta.get("format") == HF_CACHE_FORMAT and meta.get("source_size") == gguf.stat().st_size


def hf_tensor_name(name: str) -> str:
    """The ``transformers`` name of one tensor of the engine's conversion (``layers.3.wq`` -> ``model.layers.3...``)."""
    if name in TOP_NAMES:
        return TOP_NAMES[name]
    _, index, part = name.split(".")
    return f"model.layers.{index}.{LAYER_NAMES[part]}.weight"


def hf_config(engine: LlamaConfig, tokenizer_folder: Path) -> dict[str, Any]:
    """The ``transformers`` Llama config of the converted model; special-token ids from its tokenizer."""
    from transformers import LlamaConfig as HFLlamaConfig

    vocab = json.loads((tokenizer_folder / "tokenizer.json").read_text())
    ids = {token["content"]: token["id"] for token in vocab.get("added_tokens", [])}
    special = json.loads((tokenizer_folder / "tokenizer_config.json").read_text())
    token_ids = {f"{role}_token_id": ids[special[f"{role}_token"]] for role in ("bos", "eos", "pad", "unk")}
    config = HFLlamaConfig(
        vocab_size=engine.vocab_size, hidden_size=engine.dim, intermediate_size=engine.ffn_dim,
        num_hidden_layers=engine.n_layers, num_attention_heads=engine.n_heads,
        num_key_value_heads=engine.n_kv_heads, max_position_embeddings=engine.context_length,
        rms_norm_eps=engine.norm_eps, rope_theta=engine.rope_theta, tie_word_embeddings=True, dtype="float32",
        **token_ids,
    )
    return config.to_dict()


def ensure_hf_copy(folder: Path | None = None) -> Path:
    """The transformers copy of the base model, made from the engine's conversion first when missing or stale."""
    from graphreason.llm.engine.local_smollm import ensure_converted

    gguf = find_gguf()
    folder = folder or hf_base_dir()
    build_once(folder, lambda: _is_current(folder, gguf), lambda: _write_hf_copy(ensure_converted()[0], folder, gguf))
    return folder


def _write_hf_copy(converted: Path, folder: Path, gguf: Path) -> None:
    from safetensors.torch import save_file

    engine_config, weights = read_converted(converted)
    if "lm_head" in weights:
        raise ValueError(f"{converted}: an untied output layer; the transformers copy assumes tied embeddings")
    staging = folder.with_name(f"{folder.name}.tmp-{os.getpid()}")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    tensors = {hf_tensor_name(name): tensor.contiguous() for name, tensor in weights.items()}
    save_file(tensors, str(staging / "model.safetensors"), metadata={"format": "pt"})
    (staging / "config.json").write_text(json.dumps(hf_config(engine_config, converted / "tokenizer"), indent=2))
    for name in TOKENIZER_FILES:
        shutil.copyfile(converted / "tokenizer" / name, staging / name)
    meta = {"format": HF_CACHE_FORMAT, "source": GGUF_NAME, "source_size": gguf.stat().st_size}
    (staging / "meta.json").write_text(json.dumps(meta, indent=2))  # last: marks the copy complete
    replace_folder(staging, folder)


def load_tokenizer(folder: Path | None = None) -> Any:
    """The base model's tokenizer (ChatML tokens included)."""
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(str(ensure_hf_copy(folder)))


def load_base(folder: Path | None = None) -> tuple[Any, Any]:
    """``(model, tokenizer)`` in fp32 from the transformers copy, in training mode."""
    import torch
    from transformers import AutoModelForCausalLM

    path = ensure_hf_copy(folder)
    model = AutoModelForCausalLM.from_pretrained(str(path), dtype=torch.float32)
    model.train()
    return model, load_tokenizer(path)
