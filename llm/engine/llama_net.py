"""A compact Llama decoder in plain torch, fed from a GGUF file.

Used by :mod:`graphreason.llm.engine.local_smollm` to run SmolLM2-135M-Instruct without
llama.cpp or a compiler. Three pieces live here:

* reading a llama-architecture GGUF (shape metadata, dequantized tensors, with
  llama.cpp's Q/K row permutation undone);
* :class:`LlamaDecoder`, a batch-of-one decoder with a preallocated KV cache;
* precision modes. ``fp32`` is the reference. ``fp16`` stores weights in half
  precision (same greedy output, about 1.25x faster). ``int8`` quantizes weights
  per output row and activations per token with fbgemm's dynamic kernels (about
  1.75x faster than fp32: decoding one token at a time is bound by how many
  weight bytes are read, and int8 reads a quarter as many). Per-token activation quantization suffers from the few huge activation
  channels of Llama models, so before quantizing we move part of each input
  channel's range from the activations into the weights (SmoothQuant-style
  scaling folded into the preceding norm or projection, which leaves the fp32
  function unchanged). The feed-forward down projection, whose inputs have the
  worst outliers, stays in fp16.
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch
import torch.nn.functional as F
from torch import nn

PRECISIONS = ("int8", "fp16", "fp32")
SMOOTHING_ALPHA = 0.5  # share of each channel's activation range moved into the weights
_INT8_LINEARS = ("qkv", "wo", "gate_up", "lm_head")


class GGUFModelError(RuntimeError):
    """A GGUF file is not a llama model we can run, or a precision/context setting is invalid."""


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


# --------------------------------------------------------------------------- GGUF reading


def _field(reader: Any, key: str) -> Any:
    field = reader.fields.get(key)
    if field is None:
        raise GGUFModelError(f"GGUF metadata lacks {key!r}")
    return field.contents()


def read_config(reader: Any) -> LlamaConfig:
    """Model shape from the metadata of a ``llama`` architecture GGUF (a ``gguf.GGUFReader``)."""
    arch = _field(reader, "general.architecture")
    if arch != "llama":
        raise GGUFModelError(f"expected a llama GGUF, got architecture {arch!r}")
    if "llama.rope.scaling.type" in reader.fields:
        raise GGUFModelError("GGUF uses RoPE scaling, which this decoder does not implement")
    return LlamaConfig(
        n_layers=int(_field(reader, "llama.block_count")),
        dim=int(_field(reader, "llama.embedding_length")),
        ffn_dim=int(_field(reader, "llama.feed_forward_length")),
        n_heads=int(_field(reader, "llama.attention.head_count")),
        n_kv_heads=int(_field(reader, "llama.attention.head_count_kv")),
        rope_theta=float(_field(reader, "llama.rope.freq_base")),
        norm_eps=float(_field(reader, "llama.attention.layer_norm_rms_epsilon")),
        vocab_size=len(_field(reader, "tokenizer.ggml.tokens")),
        context_length=int(_field(reader, "llama.context_length")),
    )


def _unpermute_rows(weight: torch.Tensor, n_heads: int) -> torch.Tensor:
    """Undo llama.cpp's Q/K row permutation.

    llama.cpp rotates interleaved pairs (0,1), (2,3), ... of each head, so its
    converter reorders the rows of Q and K. We rotate the two halves of a head
    instead, so the rows go back to their original order.
    """
    rows, cols = weight.shape
    half = rows // n_heads // 2
    return weight.reshape(n_heads, half, 2, cols).transpose(1, 2).reshape(rows, cols)


_BLOCK_TENSORS = {
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


def read_weights(reader: Any, config: LlamaConfig) -> dict[str, torch.Tensor]:
    """Every tensor dequantized to fp32, under the names :meth:`LlamaDecoder.load_weights` expects.

    A model with tied embeddings (no ``output.weight``, as in SmolLM2) gets no
    ``lm_head`` entry; the decoder reuses ``embed``.
    """
    from gguf.quants import dequantize

    weights: dict[str, torch.Tensor] = {}
    for tensor in reader.tensors:
        shape = tuple(int(n) for n in reversed(tensor.shape))  # GGUF lists the innermost dim first
        value = torch.from_numpy(dequantize(tensor.data, tensor.tensor_type).reshape(shape).astype("float32"))
        if tensor.name == "token_embd.weight":
            weights["embed"] = value
        elif tensor.name == "output_norm.weight":
            weights["norm"] = value
        elif tensor.name == "output.weight":
            weights["lm_head"] = value
        elif tensor.name.startswith("blk.") and tensor.name.count(".") == 3:
            _, index, kind, _ = tensor.name.split(".")
            if kind not in _BLOCK_TENSORS:
                raise GGUFModelError(f"unexpected GGUF tensor {tensor.name}")
            if kind == "attn_q":
                value = _unpermute_rows(value, config.n_heads)
            elif kind == "attn_k":
                value = _unpermute_rows(value, config.n_kv_heads)
            weights[f"layers.{index}.{_BLOCK_TENSORS[kind]}"] = value
        else:
            raise GGUFModelError(f"unexpected GGUF tensor {tensor.name}")
    return weights


def read_gguf(path: Path) -> tuple[LlamaConfig, dict[str, torch.Tensor]]:
    """Config and fp32 weights of a llama GGUF file."""
    from gguf import GGUFReader

    reader = GGUFReader(str(path))
    config = read_config(reader)
    return config, read_weights(reader, config)


# --------------------------------------------------------------------------- the network


class _Block(nn.Module):
    """One decoder layer. Q/K/V and gate/up are fused so that a token costs fewer kernel calls."""

    def __init__(self, config: LlamaConfig) -> None:
        super().__init__()
        kv_dim = config.n_kv_heads * config.head_dim
        self.attn_norm = nn.Parameter(torch.empty(config.dim), requires_grad=False)
        self.ffn_norm = nn.Parameter(torch.empty(config.dim), requires_grad=False)
        self.qkv: nn.Module = nn.Linear(config.dim, config.dim + 2 * kv_dim, bias=False)
        self.wo: nn.Module = nn.Linear(config.dim, config.dim, bias=False)
        self.gate_up: nn.Module = nn.Linear(config.dim, 2 * config.ffn_dim, bias=False)
        self.w_down: nn.Module = nn.Linear(config.ffn_dim, config.dim, bias=False)
        self.split = (config.dim, kv_dim, kv_dim)


class LlamaDecoder(nn.Module):
    """A batch-of-one Llama decoder with a KV cache of ``n_ctx`` positions.

    Not thread-safe: the KV cache is shared state, so callers serialize use.
    """

    def __init__(self, config: LlamaConfig, n_ctx: int) -> None:
        super().__init__()
        self.config, self.n_ctx = config, n_ctx
        with torch.device("meta"):  # real tensors arrive in load_weights; skip random init
            self.embed = nn.Parameter(torch.empty(config.vocab_size, config.dim), requires_grad=False)
            self.layers = nn.ModuleList(_Block(config) for _ in range(config.n_layers))
            self.norm = nn.Parameter(torch.empty(config.dim), requires_grad=False)
            self.lm_head: nn.Module = nn.Linear(config.dim, config.vocab_size, bias=False)
        half = config.head_dim // 2
        inv_freq = 1.0 / (config.rope_theta ** (torch.arange(half, dtype=torch.float64) / half))
        angles = torch.outer(torch.arange(n_ctx, dtype=torch.float64), inv_freq)
        self.register_buffer("cos", torch.cat([angles.cos(), angles.cos()], -1).float(), persistent=False)
        # Sine with the sign of rotate-half folded in, so RoPE needs no negation at run time.
        signed_sin = torch.cat([-angles.sin(), angles.sin()], -1).float()
        self.register_buffer("sin", signed_sin, persistent=False)
        cache_shape = (config.n_layers, 1, config.n_kv_heads, n_ctx, config.head_dim)
        self.register_buffer("k_cache", torch.zeros(cache_shape), persistent=False)
        self.register_buffer("v_cache", torch.zeros(cache_shape), persistent=False)

    def load_weights(self, weights: dict[str, torch.Tensor]) -> None:
        """Take the tensors of :func:`read_weights`, fusing Q/K/V and gate/up."""

        def param(value: torch.Tensor) -> nn.Parameter:
            return nn.Parameter(value.float().contiguous(), requires_grad=False)

        self.embed = param(weights["embed"])
        self.norm = param(weights["norm"])
        self.lm_head.weight = param(weights.get("lm_head", weights["embed"]).clone())
        for i, block in enumerate(self.layers):
            w = {name.split(".", 2)[2]: v for name, v in weights.items() if name.startswith(f"layers.{i}.")}
            block.attn_norm = param(w["attn_norm"])
            block.ffn_norm = param(w["ffn_norm"])
            block.qkv.weight = param(torch.cat([w["wq"], w["wk"], w["wv"]]))
            block.wo.weight = param(w["wo"])
            block.gate_up.weight = param(torch.cat([w["w_gate"], w["w_up"]]))
            block.w_down.weight = param(w["w_down"])

    @staticmethod
    def _rope(x: torch.Tensor, cos: torch.Tensor, sin_signed: torch.Tensor) -> torch.Tensor:
        """Rotate the two halves of each head: ``x*cos + [-x2, x1]*sin`` written as one roll."""
        return torch.addcmul(x * cos, x.roll(x.shape[-1] // 2, dims=-1), sin_signed)

    @torch.inference_mode()
    def forward(self, ids: torch.Tensor, start: int, all_positions: bool = False) -> torch.Tensor:
        """Logits for 1-D ``ids`` placed at cache offset ``start``: last position only, or all."""
        cfg = self.config
        n = ids.shape[0]
        end = start + n
        if end > self.n_ctx:
            raise GGUFModelError(f"sequence of {end} tokens exceeds the context window of {self.n_ctx}")
        x = self.embed[ids]
        cos, sin = self.cos[start:end].unsqueeze(1), self.sin[start:end].unsqueeze(1)
        qk_heads = cfg.n_heads + cfg.n_kv_heads
        # A fresh prompt attends causally; one new token sees the whole cache; a chunk
        # appended after cached tokens needs an explicit offset mask.
        mask = torch.ones(n, end, dtype=torch.bool).tril(start) if n > 1 and start > 0 else None
        for i, block in enumerate(self.layers):
            h = F.rms_norm(x, (cfg.dim,), block.attn_norm, cfg.norm_eps)
            qkv = block.qkv(h)
            # Q and K heads sit side by side in the fused output, so one RoPE call covers both.
            qk = self._rope(
                qkv[:, : block.split[0] + block.split[1]].view(n, qk_heads, cfg.head_dim), cos, sin
            )
            qk = qk.transpose(0, 1)
            self.k_cache[i, 0, :, start:end] = qk[cfg.n_heads :]
            self.v_cache[i, 0, :, start:end] = (
                qkv[:, -block.split[2] :].view(n, cfg.n_kv_heads, cfg.head_dim).transpose(0, 1)
            )
            attn = F.scaled_dot_product_attention(
                qk[: cfg.n_heads].unsqueeze(0),
                self.k_cache[i, :, :, :end],
                self.v_cache[i, :, :, :end],
                attn_mask=mask,
                is_causal=n > 1 and mask is None,
                enable_gqa=True,
            )
            x = x + block.wo(attn[0].transpose(0, 1).reshape(n, cfg.dim))
            h = F.rms_norm(x, (cfg.dim,), block.ffn_norm, cfg.norm_eps)
            gate, up = block.gate_up(h).chunk(2, dim=-1)
            x = x + block.w_down(F.silu(gate) * up)
        if not all_positions:
            x = x[-1:]
        logits = self.lm_head(F.rms_norm(x, (cfg.dim,), self.norm, cfg.norm_eps))
        return logits if all_positions else logits[0]


# --------------------------------------------------------------------------- precision


class _InputRecorder(nn.Module):
    """Stands in for a Linear: hands its input to ``hook`` and returns it unchanged."""

    def __init__(self, hook: Callable[..., None], module: nn.Module) -> None:
        super().__init__()
        self.hook, self.module = hook, [module]  # a list: not registered as a child

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        self.hook(self.module[0], (x,), x)
        return x


def activation_maxima(model: LlamaDecoder, token_lists: list[list[int]]) -> dict[str, torch.Tensor]:
    """Largest absolute input seen by each Linear, per input channel, over the given prompts.

    Run on the fp32 model; the result drives :func:`smooth_for_int8`. The output
    head's input is recorded without computing the logits (a vocabulary-wide
    product per position, a fifth of the work, that no maximum depends on).
    """
    maxima: dict[str, torch.Tensor] = {}

    def recorder(name: str) -> Any:
        def hook(_module: nn.Module, inputs: tuple[torch.Tensor, ...], _output: torch.Tensor) -> None:
            seen = inputs[0].detach().abs().reshape(-1, inputs[0].shape[-1]).amax(0)
            maxima[name] = torch.maximum(maxima[name], seen) if name in maxima else seen

        return hook

    head = model.lm_head
    handles = [
        m.register_forward_hook(recorder(n))
        for n, m in model.named_modules()
        if isinstance(m, nn.Linear) and m is not head
    ]
    model.lm_head = _InputRecorder(recorder("lm_head"), head)
    try:
        for ids in token_lists:
            model(torch.tensor(ids[: model.n_ctx]), 0, all_positions=True)
    finally:
        model.lm_head = head
        for handle in handles:
            handle.remove()
    return maxima


def _smoothing_scale(act_max: torch.Tensor, weight: torch.Tensor, alpha: float) -> torch.Tensor:
    w_max = weight.abs().amax(0).clamp(min=1e-5)
    return (act_max.clamp(min=1e-5).pow(alpha) / w_max.pow(1 - alpha)).clamp(min=1e-5)


@torch.no_grad()
def smooth_for_int8(
    model: LlamaDecoder, maxima: dict[str, torch.Tensor], alpha: float = SMOOTHING_ALPHA
) -> None:
    """Rescale input channels of the int8 Linears so activations have fewer outliers.

    Each Linear input ``x`` becomes ``x / s`` and its weight columns ``W * s``; the
    division is folded into whatever produces ``x`` (a norm weight, or the V rows
    for the output projection), so the fp32 function stays the same.
    """
    cfg = model.config
    group = cfg.n_heads // cfg.n_kv_heads
    for i, block in enumerate(model.layers):
        prefix = f"layers.{i}."
        s = _smoothing_scale(maxima[prefix + "qkv"], block.qkv.weight, alpha)
        block.attn_norm.div_(s)
        block.qkv.weight.mul_(s)
        s = _smoothing_scale(maxima[prefix + "gate_up"], block.gate_up.weight, alpha)
        block.ffn_norm.div_(s)
        block.gate_up.weight.mul_(s)
        # The output projection's input channel (head h, dim d) is a mix of V channel
        # (h // group, d), so the heads that share one KV head must share one scale.
        act = maxima[prefix + "wo"].view(cfg.n_kv_heads, group, cfg.head_dim).amax(1)
        w_max = block.wo.weight.abs().amax(0).view(cfg.n_kv_heads, group, cfg.head_dim).amax(1)
        s = (act.clamp(min=1e-5).pow(alpha) / w_max.clamp(min=1e-5).pow(1 - alpha)).clamp(min=1e-5)
        block.wo.weight.mul_(s.unsqueeze(1).expand(-1, group, -1).reshape(-1))
        v_rows = slice(cfg.dim + cfg.n_kv_heads * cfg.head_dim, None)
        block.qkv.weight[v_rows].div_(s.reshape(-1, 1))
    s = _smoothing_scale(maxima["lm_head"], model.lm_head.weight, alpha)
    model.norm.div_(s)
    model.lm_head.weight.mul_(s)


@functools.cache
def _cpu_has_vnni() -> bool:
    """VNNI accumulates u8*s8 products in int32, so fbgemm needs no 7-bit activation range."""
    try:
        flags = Path("/proc/cpuinfo").read_text()
    except OSError:
        return False
    return any(flag in flags for flag in ("avx512_vnni", "avx_vnni", "amx_int8"))


class Int8Linear(nn.Module):
    """Weights in int8 with one scale per output row; activations quantized per call (fbgemm)."""

    def __init__(self, weight: torch.Tensor) -> None:
        super().__init__()
        scales = (weight.abs().amax(dim=1) / 127).clamp(min=1e-12).double()
        zeros = torch.zeros(weight.shape[0], dtype=torch.long)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # torch flags quantized tensors as headed for torchao
            qweight = torch.quantize_per_channel(weight.float(), scales, zeros, 0, torch.qint8)
            self._packed = torch.ops.quantized.linear_prepack(qweight, None)
        self._reduce_range = not _cpu_has_vnni()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.ops.quantized.linear_dynamic(x, self._packed, self._reduce_range)


class Fp16Linear(nn.Module):
    """Weights stored in fp16, activations and accumulation in fp32 (fbgemm)."""

    def __init__(self, weight: torch.Tensor) -> None:
        super().__init__()
        self._packed = torch.ops.quantized.linear_prepack_fp16(weight.float(), None)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.ops.quantized.linear_dynamic_fp16(x, self._packed)


def _replace_linears(model: LlamaDecoder, choose: Any) -> None:
    for parent in list(model.modules()):
        for name, child in list(parent.named_children()):
            if isinstance(child, nn.Linear):
                setattr(parent, name, choose(name)(child.weight.data))


def build_decoder(
    config: LlamaConfig,
    weights: dict[str, torch.Tensor],
    n_ctx: int,
    precision: str = "int8",
    maxima: dict[str, torch.Tensor] | None = None,
) -> LlamaDecoder:
    """A ready decoder: weights loaded, then smoothed and quantized for ``int8``, or packed for ``fp16``.

    ``maxima`` (from :func:`activation_maxima`) is required for ``int8``.
    """
    if precision not in PRECISIONS:
        raise GGUFModelError(f"unknown precision {precision!r}; use one of {', '.join(PRECISIONS)}")
    if not 16 <= n_ctx <= config.context_length:
        raise GGUFModelError(f"n_ctx must be between 16 and {config.context_length}, got {n_ctx}")
    model = LlamaDecoder(config, n_ctx)
    model.load_weights(weights)
    model.eval()
    if precision == "fp16":
        _replace_linears(model, lambda name: Fp16Linear)
    elif precision == "int8":
        if maxima is None:
            raise GGUFModelError("int8 precision needs activation maxima from a calibration run")
        smooth_for_int8(model, maxima)
        _replace_linears(model, lambda name: Int8Linear if name in _INT8_LINEARS else Fp16Linear)
    return model
