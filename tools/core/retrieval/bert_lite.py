"""A small BERT sentence encoder in plain torch, for mean-pooled models such as all-MiniLM-L6-v2.

Why: importing sentence-transformers pulls in transformers, torch.distributed,
torch._dynamo and sympy before the first Retrieve, several times the cost of torch
alone. For a plain BERT encoder with mean pooling and
normalisation (what ``minilm`` is) the forward pass is a few lines, so this
module computes the same vectors (checked against sentence-transformers in
``tests/tools/core/retrieval/test_bert_lite.py``) from the same folder: ``config.json``,
``tokenizer.json`` (the ``tokenizers`` library, already a dependency) and
``model.safetensors``. Any other folder keeps using sentence-transformers.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from graphreason.runtime.cancel import check_cancelled

_WANTED_MODULES = [
    "sentence_transformers.models.Transformer",
    "sentence_transformers.models.Pooling",
    "sentence_transformers.models.Normalize",
]


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def supports(folder: Path) -> bool:
    """True when ``folder`` is a BERT encoder with mean pooling and normalisation in safetensors form."""
    modules = _read_json(folder / "modules.json")
    config = _read_json(folder / "config.json")
    pooling = _read_json(folder / "1_Pooling" / "config.json")
    if not (isinstance(modules, list) and isinstance(config, dict) and isinstance(pooling, dict)):
        return False
    types = [m.get("type") for m in modules if isinstance(m, dict)]
    mean_only = pooling.get("pooling_mode_mean_tokens") and not any(
        pooling.get(k)
        for k in ("pooling_mode_cls_token", "pooling_mode_max_tokens", "pooling_mode_mean_sqrt_len_tokens")
    )
    return (
        types == _WANTED_MODULES
        and [m.get("path") for m in modules][:1] == [""]
        and config.get("model_type") == "bert"
        and config.get("hidden_act") == "gelu"
        and config.get("position_embedding_type", "absolute") == "absolute"
        and bool(mean_only)
        and (folder / "model.safetensors").is_file()
        and (folder / "tokenizer.json").is_file()
    )


class LiteBertEncoder:
    """Encodes texts into unit vectors, as sentence-transformers would for the same folder."""

    def __init__(self, folder: str | Path) -> None:
        import torch
        from safetensors.torch import load_file
        from tokenizers import Tokenizer

        self.folder = Path(folder)
        self.config = json.loads((self.folder / "config.json").read_text(encoding="utf-8"))
        st_config = _read_json(self.folder / "sentence_bert_config.json") or {}
        self.max_length = int(st_config.get("max_seq_length") or self.config["max_position_embeddings"])
        self.tokenizer = Tokenizer.from_file(str(self.folder / "tokenizer.json"))
        self.tokenizer.enable_truncation(max_length=self.max_length)
        self.tokenizer.enable_padding(pad_id=int(self.config.get("pad_token_id", 0)))
        weights = load_file(str(self.folder / "model.safetensors"))
        # some exports prefix every name with "bert."
        self.w = {name.removeprefix("bert."): tensor.float() for name, tensor in weights.items()}
        self.torch = torch

    @property
    def dim(self) -> int:
        return int(self.config["hidden_size"])

    def _layer_norm(self, x: Any, prefix: str) -> Any:
        return self.torch.nn.functional.layer_norm(
            x,
            (x.shape[-1],),
            self.w[f"{prefix}.weight"],
            self.w[f"{prefix}.bias"],
            eps=float(self.config["layer_norm_eps"]),
        )

    def _linear(self, x: Any, prefix: str) -> Any:
        return self.torch.nn.functional.linear(x, self.w[f"{prefix}.weight"], self.w[f"{prefix}.bias"])

    def _forward(self, ids: Any, mask: Any) -> Any:
        torch, F, w = self.torch, self.torch.nn.functional, self.w
        batch, length = ids.shape
        heads = int(self.config["num_attention_heads"])
        head_dim = self.dim // heads
        positions = torch.arange(length).unsqueeze(0)
        x = (
            w["embeddings.word_embeddings.weight"][ids]
            + w["embeddings.position_embeddings.weight"][positions]
            + w["embeddings.token_type_embeddings.weight"][0]
        )
        x = self._layer_norm(x, "embeddings.LayerNorm")
        # padding keys get a large negative score, so no query attends to them
        bias = (1.0 - mask[:, None, None, :].float()) * torch.finfo(torch.float32).min
        for i in range(int(self.config["num_hidden_layers"])):
            layer = f"encoder.layer.{i}"

            def split(t: Any) -> Any:
                return t.view(batch, length, heads, head_dim).transpose(1, 2)

            q = split(self._linear(x, f"{layer}.attention.self.query"))
            k = split(self._linear(x, f"{layer}.attention.self.key"))
            v = split(self._linear(x, f"{layer}.attention.self.value"))
            attended = F.scaled_dot_product_attention(q, k, v, attn_mask=bias)
            context = attended.transpose(1, 2).reshape(batch, length, self.dim)
            x = self._layer_norm(
                self._linear(context, f"{layer}.attention.output.dense") + x,
                f"{layer}.attention.output.LayerNorm",
            )
            hidden = F.gelu(
                self._linear(x, f"{layer}.intermediate.dense")
            )  # exact (erf) GELU, as BERT's "gelu"
            x = self._layer_norm(
                self._linear(hidden, f"{layer}.output.dense") + x, f"{layer}.output.LayerNorm"
            )
        weights = mask.unsqueeze(-1).float()
        pooled = (x * weights).sum(dim=1) / weights.sum(dim=1).clamp(min=1e-9)
        return F.normalize(pooled, p=2, dim=1)

    def get_embedding_dimension(self) -> int:
        """Same name as sentence-transformers' method, so the embedder can use either."""
        return self.dim

    def encode(self, texts: list[str], batch_size: int = 64, **_: Any) -> np.ndarray:
        """``(len(texts), dim)`` float32 unit rows; texts are batched shortest first to limit padding.

        Extra keyword arguments of sentence-transformers' ``encode`` (progress bar,
        normalisation, numpy output) are accepted: the rows are always normalised numpy.
        """
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        with self.torch.inference_mode():
            for start in range(0, len(order), batch_size):
                check_cancelled()  # a cancelled served run stops between batches
                rows = order[start : start + batch_size]
                encodings = self.tokenizer.encode_batch([texts[i] for i in rows])
                ids = self.torch.tensor([e.ids for e in encodings], dtype=self.torch.long)
                mask = self.torch.tensor([e.attention_mask for e in encodings], dtype=self.torch.long)
                out[rows] = self._forward(ids, mask).numpy()
        return out
