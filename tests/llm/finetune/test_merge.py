"""A peft adapter trained in transformers means the same thing once merged into the engine's weights."""

from __future__ import annotations

import pytest
import torch

from graphreason.llm.engine.adapter import lora_deltas, merge_weights
from graphreason.llm.engine.llama_net import build_decoder
from graphreason.llm.engine.local_smollm import ensure_converted
from graphreason.llm.engine.weights import read_converted
from graphreason.llm.finetune.base_model import load_base
from graphreason.llm.finetune.train import TrainConfig, add_lora

pytestmark = pytest.mark.heavy  # among the slowest files: scheduled first (tests/conftest.py)


@pytest.fixture(scope="module")
def threads_one():
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


def test_merged_engine_matches_the_peft_model(threads_one, tmp_path) -> None:
    model, tokenizer = load_base()
    peft_model = add_lora(model, TrainConfig(out_dir=str(tmp_path), lora_r=4, lora_alpha=8))
    gen = torch.Generator().manual_seed(0)
    with torch.no_grad():  # peft starts B at zero; give every adapter a visible effect
        for name, param in peft_model.named_parameters():
            if "lora_B" in name:
                param.copy_(torch.randn(param.shape, generator=gen) * 0.02)
    peft_model.eval()
    peft_model.save_pretrained(str(tmp_path / "adapter"))
    ids = tokenizer("Input: What is the topic of paper #35 in cora?\nOutput:", return_tensors="pt")["input_ids"]
    with torch.no_grad():
        tuned = peft_model(input_ids=ids).logits[0, -1]
        with peft_model.disable_adapter():
            plain_hf = peft_model(input_ids=ids).logits[0, -1]

    config, weights = read_converted(ensure_converted()[0])  # the engine's own weights, as it loads them
    merged = build_decoder(config, merge_weights(weights, lora_deltas(tmp_path / "adapter")), 64, "fp32")
    engine = merged(ids[0], 0)
    # the adapter moves the logits far more than merging and kernel order do
    assert (tuned - plain_hf).abs().max() > 0.5
    torch.testing.assert_close(engine, tuned, atol=2e-3, rtol=1e-3)
