"""The LoRA loop on SmolLM2 with a tiny slice: loss falls, a resumed run equals an uninterrupted one.

The model is the real SmolLM2 (its tokenizer, widths and projection names) cut to
its first ``LAYERS`` decoder layers: the loop's mechanics (batches, checkpoints,
resume, stages, card) are the same at any depth, and 2 layers run about 7 times
faster than 30. That the full model learns is shown by the shipped adapter's card.
"""

from __future__ import annotations

import copy
import itertools
import json
import shutil

import pytest
import torch
from safetensors.torch import load_file

from graphreason.llm.finetune.base_model import load_base
from graphreason.llm.finetune.data import build_examples, mix_records
from graphreason.llm.finetune.train import TrainConfig, batch_indices, latest_checkpoint, train_generator
from graphreason.tools.toolformer.training_data import records_by_dataset
from graphreason.workflows.toolformer.prompts import tuned_prompt
from tests.conftest import require_data

pytestmark = pytest.mark.heavy  # among the slowest files: scheduled first (tests/conftest.py)


LAYERS = 2
LORA_PARAMETERS_PER_LAYER = 162_816  # r=16 on all seven projections of one SmolLM2 layer (30 layers: 4,884,480)


@pytest.fixture(scope="module")
def base():
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    model, tokenizer = load_base()
    model.model.layers = model.model.layers[:LAYERS]
    model.config.num_hidden_layers = LAYERS
    yield model, tokenizer
    torch.set_num_threads(threads)


@pytest.fixture(scope="module")
def tiny_batch(base):
    """Two short training examples (the short prompt form keeps them under 128 tokens)."""
    records = mix_records(records_by_dataset(require_data("Graph_Toolformer/prompt")), per_dataset=2, seed=0)
    examples, _ = build_examples(records, base[1], tuned_prompt, max_length=96)
    assert len(examples) >= 3
    return examples[:2], examples[2:3]


def config(out, **changes) -> TrainConfig:
    settings = dict(
        out_dir=str(out), steps=6, batch_size=2, lr=1e-3, warmup_steps=1, eval_every=3, save_every=3,
        threads=1, progress=False,
    )
    return TrainConfig(**{**settings, **changes})


def test_batches_depend_only_on_the_step() -> None:
    epoch = [i for step in range(5) for i in batch_indices(step, 10, 2, seed=4)]
    assert sorted(epoch) == list(range(10))  # one epoch covers every example once
    assert batch_indices(7, 10, 3, seed=4) == batch_indices(7, 10, 3, seed=4)
    assert len(batch_indices(3, 10, 3, seed=4)) == 3  # a batch may straddle two epochs


def test_loss_falls_and_resume_is_exact(base, tiny_batch, tmp_path) -> None:
    model, tokenizer = base
    train, validation = tiny_batch
    full = train_generator(copy.deepcopy(model), tokenizer, train, validation, config(tmp_path / "full"))
    losses = [h["loss"] for h in full.history]
    assert all(b < a for a, b in itertools.pairwise(losses))  # the same two examples every step
    assert losses[-1] < 0.9 * losses[0]
    assert [h["step"] for h in full.history if "val_loss" in h] == [3, 6]
    card = json.loads((tmp_path / "full" / "card.json").read_text())
    assert card["trainable_parameters"] == LORA_PARAMETERS_PER_LAYER * LAYERS
    assert card["validation_loss"] == full.history[-1]["val_loss"]

    # an interrupted run: only the step-3 checkpoint exists; resuming must redo steps 4..6 identically
    resumed_out = tmp_path / "resumed"
    shutil.copytree(tmp_path / "full" / "checkpoints" / "step-000003", resumed_out / "checkpoints" / "step-000003")
    assert latest_checkpoint(resumed_out).name == "step-000003"
    resumed = train_generator(
        copy.deepcopy(model), tokenizer, train, validation, config(resumed_out, resume=True)
    )
    assert resumed.history == full.history  # same batches, weights, optimizer and dropout draws
    a = load_file(str(full.adapter_dir / "adapter_model.safetensors"))
    b = load_file(str(resumed.adapter_dir / "adapter_model.safetensors"))
    assert a.keys() == b.keys() and all(torch.equal(a[k], b[k]) for k in a)


def test_checkpoints_are_never_mixed_up(base, tiny_batch, tmp_path) -> None:
    model, tokenizer = base
    train, validation = tiny_batch
    train_generator(copy.deepcopy(model), tokenizer, train, validation, config(tmp_path, steps=1, save_every=1))
    with pytest.raises(ValueError, match="already holds checkpoints"):  # a fresh run would overwrite them
        train_generator(model, tokenizer, train, validation, config(tmp_path, steps=2))
    with pytest.raises(ValueError, match="resume with the same options"):
        train_generator(copy.deepcopy(model), tokenizer, train[:1], validation, config(tmp_path, resume=True))


def test_resume_refuses_a_crafted_state_without_running_it(base, tiny_batch, tmp_path) -> None:
    from tests.llm.finetune.test_checkpoint import crafted_checkpoint

    model, tokenizer = base
    train, validation = tiny_batch
    marker = tmp_path / "ran"
    crafted_checkpoint(tmp_path / "out", marker)  # the older layout: a state.pt pickle alone
    with pytest.raises(ValueError, match="written by an older version"):
        train_generator(copy.deepcopy(model), tokenizer, train, validation, config(tmp_path / "out", resume=True))
    assert not marker.exists()


def test_a_second_stage_starts_from_the_first_adapter_and_adds_up_the_time(base, tiny_batch, tmp_path) -> None:
    from graphreason.llm.finetune.train import add_lora, load_init_adapter

    model, tokenizer = base
    train, validation = tiny_batch
    first = train_generator(copy.deepcopy(model), tokenizer, train, validation, config(tmp_path / "one", steps=2))
    wrapped = add_lora(copy.deepcopy(model), config(tmp_path / "probe"))
    earlier = load_init_adapter(wrapped, first.adapter_dir, config(tmp_path / "probe"))
    assert earlier["training_seconds"] == first.card["training_seconds"]  # the card beside the adapter folder
    saved = load_file(str(first.adapter_dir / "adapter_model.safetensors"))
    state = {k: v for k, v in wrapped.state_dict().items() if "lora_" in k}
    assert len(state) == len(saved) and all(
        torch.equal(state[k.replace(".weight", ".default.weight")], v) for k, v in saved.items()
    )

    second = train_generator(copy.deepcopy(model), tokenizer, train, validation,
                             config(tmp_path / "two", steps=2, init_adapter=str(first.adapter_dir)))
    assert second.history[0]["loss"] < first.history[0]["loss"]  # it starts where the first stage ended
    assert second.card["earlier_stage"]["training_seconds"] == first.card["training_seconds"]
    assert second.card["total_training_seconds"] == pytest.approx(
        first.card["training_seconds"] + second.card["training_seconds"], abs=0.11)
    with pytest.raises(ValueError, match="r=16, alpha=32; this run uses r=8"):
        train_generator(copy.deepcopy(model), tokenizer, train, validation,
                        config(tmp_path / "three", lora_r=8, init_adapter=str(first.adapter_dir)))


def test_lora_on_the_top_layers_only_trains_and_ships_those_layers(base, tiny_batch, tmp_path) -> None:
    """--lora-layers 1 of the tiny model's 2: the lower layer has no adapter and gets no gradient."""
    from graphreason.llm.engine.adapter import lora_deltas
    from graphreason.llm.finetune.train import add_lora, batch_loss

    model, tokenizer = base
    train, validation = tiny_batch
    wrapped = add_lora(copy.deepcopy(model), config(tmp_path / "probe", lora_layers=1))
    trainable = [name for name, p in wrapped.named_parameters() if p.requires_grad]
    assert trainable and all(".layers.1." in name for name in trainable)
    assert sum(p.numel() for p in wrapped.parameters() if p.requires_grad) == LORA_PARAMETERS_PER_LAYER
    tracked = {}  # does autograd record the layers' outputs? (the lower layer's would mean a backward pass there)
    hooks = [
        layer.register_forward_hook(lambda _m, _i, out, i=i: tracked.__setitem__(i, out[0].requires_grad))
        for i, layer in enumerate(wrapped.get_base_model().model.layers)
    ]
    batch_loss(wrapped, train, tokenizer.eos_token_id, "cpu")
    for hook in hooks:
        hook.remove()
    assert tracked == {0: False, 1: True}
    grads = {name: p.grad for name, p in wrapped.named_parameters() if p.requires_grad}
    assert all(g is not None for g in grads.values())
    assert all(g.abs().sum() > 0 for name, g in grads.items() if "lora_B" in name)  # B starts at 0, so A's is 0

    top = train_generator(copy.deepcopy(model), tokenizer, train, validation, config(tmp_path / "top", steps=3, lora_layers=1))
    assert top.history[-1]["loss"] < top.history[0]["loss"]
    assert top.card["adapted_layers"] == [1] and top.card["hyper_parameters"]["lora_layers"] == 1
    assert {name.split(".")[1] for name in lora_deltas(top.adapter_dir)} == {"1"}  # what the engine merges
    with pytest.raises(ValueError, match=r"adapts layers \[1\]; this run adapts all"):
        train_generator(copy.deepcopy(model), tokenizer, train, validation,
                        config(tmp_path / "again", init_adapter=str(top.adapter_dir)))
    with pytest.raises(ValueError, match="lora_layers is 3, but the model has 2 layers"):
        add_lora(copy.deepcopy(model), config(tmp_path / "probe", lora_layers=3))
    with pytest.raises(ValueError, match="lora_layers must be at least 1"):
        config(tmp_path / "probe", lora_layers=0)


def _lora_gradients(model, tokenizer, examples, micro_batch):
    """The LoRA gradients of one batch's mean output loss (dropout off), and that loss."""
    from graphreason.llm.finetune.train import add_lora, batch_loss

    lora = add_lora(copy.deepcopy(model), TrainConfig(out_dir="unused", lora_dropout=0.0))
    for name, param in lora.named_parameters():  # B starts at zero; give it values so A's gradient is not zero
        if "lora_B" in name:
            torch.nn.init.normal_(param, std=0.02, generator=torch.Generator().manual_seed(len(name)))
    lora.eval()
    loss = batch_loss(lora, examples, tokenizer.pad_token_id, "cpu", micro_batch)
    return {n: p.grad.clone() for n, p in lora.named_parameters() if p.requires_grad}, loss, lora


def test_the_output_only_loss_and_its_micro_batches_equal_the_models_own_loss(base, tiny_batch) -> None:
    """The head runs on output positions only, in passes of any size: loss and gradient stay those of the batch."""
    from graphreason.llm.finetune.data import collate
    from graphreason.llm.finetune.train import output_tokens

    model, tokenizer = base
    examples = [*tiny_batch[0], *tiny_batch[1]]  # three examples of different lengths
    whole, loss, lora = _lora_gradients(model, tokenizer, examples, None)
    with torch.no_grad():
        reference = float(lora(**collate(examples, tokenizer.pad_token_id)).loss)  # transformers' own mean
    assert loss == pytest.approx(reference, rel=1e-5)
    for micro_batch in (1, 2):
        parts, parts_loss, _ = _lora_gradients(model, tokenizer, examples, micro_batch)
        assert parts_loss == pytest.approx(loss, rel=1e-5)
        for name, grad in whole.items():
            torch.testing.assert_close(parts[name], grad, rtol=1e-4, atol=1e-7, msg=name)
    assert output_tokens(examples) == sum(int((torch.tensor(e.labels[1:]) != -100).sum()) for e in examples)


def test_training_in_micro_batches_follows_the_same_losses(base, tiny_batch, tmp_path) -> None:
    model, tokenizer = base
    train, validation = tiny_batch
    whole = train_generator(copy.deepcopy(model), tokenizer, train, [], config(tmp_path / "whole", steps=2))
    parts = train_generator(
        copy.deepcopy(model), tokenizer, train, [], config(tmp_path / "parts", steps=2, micro_batch=1)
    )
    for a, b in zip(whole.history, parts.history, strict=True):
        assert b["loss"] == pytest.approx(a["loss"], rel=2e-3)  # dropout draws differ with the pass shapes
    assert parts.card["hyper_parameters"]["micro_batch"] == 1
    with pytest.raises(ValueError, match="micro_batch"):
        config(tmp_path / "bad", micro_batch=3)
