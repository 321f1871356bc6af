"""The torch Llama decoder on a tiny random model: math, KV cache, GGUF layout, precisions."""

from __future__ import annotations

import pytest
import torch

from graphreason.llm.engine.llama_net import (
    GGUFModelError,
    LlamaConfig,
    _unpermute_rows,
    activation_maxima,
    build_decoder,
    read_config,
    smooth_for_int8,
)

TINY = LlamaConfig(
    n_layers=2,
    dim=32,
    ffn_dim=64,
    n_heads=4,
    n_kv_heads=2,
    rope_theta=10000.0,
    norm_eps=1e-5,
    vocab_size=50,
    context_length=64,
)


def tiny_weights(seed: int = 0) -> dict[str, torch.Tensor]:
    gen = torch.Generator().manual_seed(seed)

    def rand(*shape: int, scale: float = 0.2) -> torch.Tensor:
        return torch.randn(*shape, generator=gen) * scale

    kv = TINY.n_kv_heads * TINY.head_dim
    weights = {"embed": rand(TINY.vocab_size, TINY.dim, scale=1.0), "norm": 1 + rand(TINY.dim, scale=0.1)}
    for i in range(TINY.n_layers):
        weights.update(
            {
                f"layers.{i}.attn_norm": 1 + rand(TINY.dim, scale=0.1),
                f"layers.{i}.ffn_norm": 1 + rand(TINY.dim, scale=0.1),
                f"layers.{i}.wq": rand(TINY.dim, TINY.dim),
                f"layers.{i}.wk": rand(kv, TINY.dim),
                f"layers.{i}.wv": rand(kv, TINY.dim),
                f"layers.{i}.wo": rand(TINY.dim, TINY.dim),
                f"layers.{i}.w_gate": rand(TINY.ffn_dim, TINY.dim),
                f"layers.{i}.w_up": rand(TINY.ffn_dim, TINY.dim),
                f"layers.{i}.w_down": rand(TINY.dim, TINY.ffn_dim),
            }
        )
    return weights


def reference_logits(weights: dict[str, torch.Tensor], ids: list[int]) -> torch.Tensor:
    """Textbook Llama: explicit per-head attention with a causal mask, no cache, no fusion."""
    cfg, n, hd = TINY, len(ids), TINY.head_dim

    def rms(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
        return x / torch.sqrt((x * x).mean(-1, keepdim=True) + cfg.norm_eps) * w

    def rotate(x: torch.Tensor) -> torch.Tensor:  # x: (n, hd)
        pos = torch.arange(n, dtype=torch.float64)[:, None]
        freq = cfg.rope_theta ** (-torch.arange(hd // 2, dtype=torch.float64) / (hd // 2))
        ang = pos * freq
        cos, sin = torch.cat([ang.cos()] * 2, -1).float(), torch.cat([ang.sin()] * 2, -1).float()
        x1, x2 = x[:, : hd // 2], x[:, hd // 2 :]
        return x * cos + torch.cat([-x2, x1], -1) * sin

    x = weights["embed"][ids]
    causal = torch.full((n, n), float("-inf")).triu(1)
    for i in range(cfg.n_layers):
        w = {k.split(".", 2)[2]: v for k, v in weights.items() if k.startswith(f"layers.{i}.")}
        h = rms(x, w["attn_norm"])
        q, k, v = h @ w["wq"].T, h @ w["wk"].T, h @ w["wv"].T
        heads = []
        for head in range(cfg.n_heads):
            kv_head = head // (cfg.n_heads // cfg.n_kv_heads)
            qh = rotate(q[:, head * hd : (head + 1) * hd])
            kh = rotate(k[:, kv_head * hd : (kv_head + 1) * hd])
            vh = v[:, kv_head * hd : (kv_head + 1) * hd]
            scores = qh @ kh.T / hd**0.5 + causal
            heads.append(torch.softmax(scores, -1) @ vh)
        x = x + torch.cat(heads, -1) @ w["wo"].T
        h = rms(x, w["ffn_norm"])
        x = x + (torch.nn.functional.silu(h @ w["w_gate"].T) * (h @ w["w_up"].T)) @ w["w_down"].T
    return rms(x, weights["norm"]) @ weights["embed"].T


IDS = [3, 17, 42, 8, 8, 21, 0, 49, 5]


def test_full_prompt_matches_the_textbook_model() -> None:
    weights = tiny_weights()
    decoder = build_decoder(TINY, weights, n_ctx=32, precision="fp32")
    got = decoder(torch.tensor(IDS), 0, all_positions=True)
    torch.testing.assert_close(got, reference_logits(weights, IDS), rtol=1e-4, atol=1e-4)


def test_kv_cache_decoding_matches_the_full_prompt() -> None:
    weights = tiny_weights()
    expected = reference_logits(weights, IDS)
    decoder = build_decoder(TINY, weights, n_ctx=32, precision="fp32")
    decoder(torch.tensor(IDS[:4]), 0)
    rows = [decoder(torch.tensor(IDS[4:6]), 4)]  # a chunk after cached tokens uses the offset mask
    rows += [decoder(torch.tensor([token]), pos) for pos, token in enumerate(IDS[6:], start=6)]
    torch.testing.assert_close(torch.stack(rows), expected[5:], rtol=1e-4, atol=1e-4)


def test_unpermute_reverses_the_llama_cpp_row_order() -> None:
    heads, head_dim, cols = 3, 8, 5
    original = torch.randn(heads * head_dim, cols)
    # llama.cpp's converter: per head, interleave the first and second half of the rows.
    permuted = original.reshape(heads, 2, head_dim // 2, cols).transpose(1, 2).reshape(heads * head_dim, cols)
    assert not torch.equal(permuted, original)
    torch.testing.assert_close(_unpermute_rows(permuted, heads), original, rtol=0, atol=0)


def test_pairwise_rope_on_permuted_rows_equals_half_rope_on_original_rows() -> None:
    """The reason for the permutation: both layouts give the same attention scores."""
    head_dim, pos, theta = 8, 5.0, 10000.0
    w = torch.randn(head_dim, 6, dtype=torch.float64)
    x = torch.randn(6, dtype=torch.float64)
    freq = theta ** (-torch.arange(head_dim // 2, dtype=torch.float64) / (head_dim // 2))
    cos, sin = torch.cos(pos * freq), torch.sin(pos * freq)
    q = w @ x  # halves layout: pair (j, j + head_dim/2)
    halves = torch.cat([q[:4] * cos - q[4:] * sin, q[4:] * cos + q[:4] * sin])
    permuted_w = w.reshape(1, 2, 4, 6).transpose(1, 2).reshape(8, 6)
    p = permuted_w @ x  # interleaved layout: pair (2j, 2j + 1)
    pairs = torch.stack([p[0::2] * cos - p[1::2] * sin, p[1::2] * cos + p[0::2] * sin], -1).reshape(8)
    torch.testing.assert_close(_unpermute_rows(pairs.reshape(8, 1), 1).reshape(8), halves)


def test_smoothing_keeps_the_fp32_function() -> None:
    weights = tiny_weights()
    decoder = build_decoder(TINY, weights, n_ctx=32, precision="fp32")
    before = decoder(torch.tensor(IDS), 0, all_positions=True)
    maxima = activation_maxima(decoder, [IDS, IDS[::-1]])
    assert set(maxima) == {
        f"layers.{i}.{n}" for i in range(2) for n in ("qkv", "wo", "gate_up", "w_down")
    } | {"lm_head"}
    smooth_for_int8(decoder, maxima)
    after = decoder(torch.tensor(IDS), 0, all_positions=True)
    torch.testing.assert_close(after, before, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize(("precision", "min_cosine"), [("fp16", 0.9999), ("int8", 0.98)])
def test_reduced_precisions_stay_close_to_fp32(precision: str, min_cosine: float) -> None:
    weights = tiny_weights()
    reference = build_decoder(TINY, weights, n_ctx=32, precision="fp32")
    expected = reference(torch.tensor(IDS), 0, all_positions=True)
    maxima = activation_maxima(reference, [IDS])
    decoder = build_decoder(TINY, weights, n_ctx=32, precision=precision, maxima=maxima)
    got = decoder(torch.tensor(IDS), 0, all_positions=True)
    cosine = torch.nn.functional.cosine_similarity(got.flatten(), expected.flatten(), dim=0)
    assert cosine > min_cosine
    assert not torch.equal(got, expected)  # the precision really changed the computation


def test_invalid_settings_are_rejected() -> None:
    weights = tiny_weights()
    with pytest.raises(GGUFModelError, match="unknown precision 'int4'"):
        build_decoder(TINY, weights, n_ctx=32, precision="int4")
    with pytest.raises(GGUFModelError, match="n_ctx must be between 16 and 64"):
        build_decoder(TINY, weights, n_ctx=128)
    with pytest.raises(GGUFModelError, match="needs activation maxima"):
        build_decoder(TINY, weights, n_ctx=32, precision="int8")
    decoder = build_decoder(TINY, weights, n_ctx=16, precision="fp32")
    with pytest.raises(GGUFModelError, match="exceeds the context window of 16"):
        decoder(torch.arange(10), 10)


class _Field:
    def __init__(self, value: object) -> None:
        self.value = value

    def contents(self) -> object:
        return self.value


class _Reader:
    def __init__(self, **fields: object) -> None:
        self.fields = {key.replace("__", "."): _Field(value) for key, value in fields.items()}


def test_read_config_takes_shapes_from_metadata() -> None:
    reader = _Reader(
        general__architecture="llama",
        llama__block_count=30,
        llama__embedding_length=576,
        llama__feed_forward_length=1536,
        llama__attention__head_count=9,
        llama__attention__head_count_kv=3,
        llama__rope__freq_base=100000.0,
        llama__attention__layer_norm_rms_epsilon=1e-5,
        llama__context_length=8192,
        tokenizer__ggml__tokens=["a"] * 100,
    )
    config = read_config(reader)
    assert (config.n_layers, config.dim, config.n_heads, config.n_kv_heads) == (30, 576, 9, 3)
    assert config.head_dim == 64
    assert config.vocab_size == 100
    assert config.rope_theta == 100000.0


def test_read_config_rejects_other_architectures_and_missing_keys() -> None:
    with pytest.raises(GGUFModelError, match="expected a llama GGUF, got architecture 'gemma3'"):
        read_config(_Reader(general__architecture="gemma3"))
    with pytest.raises(GGUFModelError, match="lacks 'llama.block_count'"):
        read_config(_Reader(general__architecture="llama"))
