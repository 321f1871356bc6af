"""Training examples for a generator: a prompt as the user turn, the gold output as the reply.

Each example is the ChatML text the embedded engine sees when a workflow asks
its generator for one input (system turn, user turn holding the prompt, an open
assistant turn), followed by the record's gold output text and the
``<|im_end|>`` end token. Records are anything with ``dataset``, ``index``,
``input`` and ``output`` (:class:`TrainingRecord`); the prompt is built by a
function passed in (``prompt_for``). Which records, and which prompt, belong to
the method: Graph-ToolFormer's come from
:mod:`graphreason.tools.toolformer.training_data`, and its CLI passes the
workflow's own prompt, so training and generation see the same text while this
layer imports nothing above it.

Loss masking: ``labels`` are -100 on every prompt token and equal the token ids
on the output and its end token, so the model learns to write the output and
to stop, not to reproduce the instruction. Prompt and output are tokenized
separately and joined, so the boundary is exact (no token straddles it).

:func:`training_data` takes the training and validation sides of the method's
split separately: only the first is ever trained on; the second serves the
validation loss.
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

import torch

from graphreason.llm.engine.chatml import DEFAULT_SYSTEM_PROMPT, END_TOKENS, render_chatml

IGNORE_INDEX = -100  # the label torch's cross-entropy skips


class TrainingRecord(Protocol):
    """What an example is built from: an input, its gold output, and where it came from."""

    @property
    def dataset(self) -> str: ...

    @property
    def index(self) -> int: ...

    @property
    def input(self) -> str: ...

    @property
    def output(self) -> str: ...


R = TypeVar("R", bound=TrainingRecord)


@dataclass(frozen=True)
class FinetuneExample:
    """One tokenized example; ``labels`` is -100 exactly where the prompt is."""

    dataset: str
    index: int  # the record's index in its source file
    input_ids: list[int]
    labels: list[int]

    @property
    def prompt_length(self) -> int:
        return sum(1 for label in self.labels if label == IGNORE_INDEX)


def parse_mix(text: str) -> dict[str, int]:
    """``"gpr=900,twitter=200"`` as ``{"gpr": 900, "twitter": 200}``; counts are whole numbers >= 0."""
    counts: dict[str, int] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, sep, value = part.partition("=")
        if not sep or not name.strip() or not value.strip().isdigit():
            raise ValueError(f"mix entries look like dataset=count (e.g. gpr=900), got {part!r}")
        counts[name.strip()] = int(value)
    if not counts:
        raise ValueError("the mix names no dataset")
    return counts


def mix_records(
    by_dataset: dict[str, list[R]], *, per_dataset: int | None = None, seed: int = 0,
    limit: int | None = None, counts: dict[str, int] | None = None,
) -> list[R]:
    """Records of every dataset, at most ``per_dataset`` each (a seeded draw), shuffled under ``seed``.

    The cap balances the mix: without it the largest datasets dominate the few
    thousand examples a CPU run can afford. ``counts`` sets the cap of named
    datasets (a weighted mix, e.g. more of a hard dataset in a second stage).
    ``limit`` then keeps the first N.
    """
    unknown = sorted(set(counts or {}) - set(by_dataset))
    if unknown:
        raise ValueError(f"unknown dataset(s) in the mix: {', '.join(unknown)}; known: {', '.join(sorted(by_dataset))}")
    rng = random.Random(seed)
    mixed: list[R] = []
    for dataset in sorted(by_dataset):
        records = list(by_dataset[dataset])
        cap = (counts or {}).get(dataset, per_dataset)
        if cap is not None and len(records) > cap:
            records = rng.sample(records, cap)
        mixed.extend(records)
    rng.shuffle(mixed)
    return mixed if limit is None else mixed[:limit]


def chat_prompt(prompt: str, system: str = DEFAULT_SYSTEM_PROMPT) -> str:
    """The ChatML text the engine sends for one user prompt, up to the open assistant turn."""
    return render_chatml([("system", system), ("user", prompt)], add_generation_prompt=True)


def encode_example(
    record: TrainingRecord, tokenizer: Any, prompt_for: Callable[[str], str]
) -> FinetuneExample:
    """Token ids and masked labels for one record."""
    prompt_ids = tokenizer(chat_prompt(prompt_for(record.input)), add_special_tokens=False)["input_ids"]
    output_ids = tokenizer(record.output + END_TOKENS[0], add_special_tokens=False)["input_ids"]
    return FinetuneExample(
        record.dataset, record.index, list(prompt_ids) + list(output_ids),
        [IGNORE_INDEX] * len(prompt_ids) + list(output_ids),
    )


def build_examples(
    records: Iterable[TrainingRecord], tokenizer: Any, prompt_for: Callable[[str], str],
    *, max_length: int | None = None,
) -> tuple[list[FinetuneExample], int]:
    """``(examples, dropped)``: records longer than ``max_length`` tokens are dropped, not cut.

    Cutting would train on a call without its end; the count of dropped records
    says whether the limit is too tight.
    """
    examples, dropped = [], 0
    for record in records:
        example = encode_example(record, tokenizer, prompt_for)
        if max_length is not None and len(example.input_ids) > max_length:
            dropped += 1
            continue
        examples.append(example)
    return examples, dropped


def length_summary(lengths: Sequence[int]) -> dict[str, float]:
    """min / median / p90 / p99 / max of token lengths (what a max length should cover)."""
    if not lengths:
        return {"count": 0}
    ordered = sorted(lengths)

    def quantile(q: float) -> int:
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    return {
        "count": len(ordered), "min": ordered[0], "median": statistics.median(ordered),
        "p90": quantile(0.9), "p99": quantile(0.99), "max": ordered[-1],
    }


def collate(examples: Sequence[FinetuneExample], pad_id: int) -> dict[str, torch.Tensor]:
    """A right-padded batch: padding is masked out of attention and loss."""
    width = max(len(e.input_ids) for e in examples)
    input_ids = torch.full((len(examples), width), pad_id, dtype=torch.long)
    labels = torch.full((len(examples), width), IGNORE_INDEX, dtype=torch.long)
    attention = torch.zeros((len(examples), width), dtype=torch.long)
    for row, example in enumerate(examples):
        n = len(example.input_ids)
        input_ids[row, :n] = torch.tensor(example.input_ids)
        labels[row, :n] = torch.tensor(example.labels)
        attention[row, :n] = 1
    return {"input_ids": input_ids, "labels": labels, "attention_mask": attention}


def training_data(
    tokenizer: Any, prompt_for: Callable[[str], str],
    train_side: Mapping[str, Sequence[TrainingRecord]], val_side: Mapping[str, Sequence[TrainingRecord]], *,
    examples: int | None = None, per_dataset: int | None = None, val_per_dataset: int = 8,
    max_length: int | None = None, seed: int = 0, counts: dict[str, int] | None = None,
) -> tuple[list[FinetuneExample], list[FinetuneExample], dict[str, Any]]:
    """``(train, validation, info)`` ready for :func:`graphreason.llm.finetune.train.train_generator`.

    ``train_side`` and ``val_side`` map each dataset to its records on either
    side of the method's split (none may be empty as a whole).

    ``examples`` caps the training examples; without ``per_dataset`` the cap is
    spread evenly over the datasets (a balanced mix). Validation takes
    ``val_per_dataset`` records of each dataset's held-out slice (a seeded draw),
    enough for a stable loss at a fraction of the slice's cost; it is drawn under
    seed 0 whatever ``seed`` is, so the losses of different runs compare. ``info`` holds
    the counts and token-length summaries for the card. ``counts`` weights the
    mix per dataset (see :func:`mix_records`).
    """
    if not train_side or not val_side:
        raise ValueError("training data needs records on both sides of the split (train and validation)")
    train_by_dataset = {name: list(records) for name, records in train_side.items()}
    if per_dataset is None and examples is not None and counts is None:
        per_dataset = -(-examples // len(train_by_dataset))
    train_records = mix_records(train_by_dataset, per_dataset=per_dataset, seed=seed, limit=examples, counts=counts)
    # validation is drawn under seed 0 whatever ``seed`` is, so losses of different runs compare
    val_by_dataset = {name: list(records) for name, records in val_side.items()}
    val_records = mix_records(val_by_dataset, per_dataset=val_per_dataset, seed=0)
    train, dropped = build_examples(train_records, tokenizer, prompt_for, max_length=max_length)
    validation, val_dropped = build_examples(val_records, tokenizer, prompt_for, max_length=max_length)
    seen: dict[str, int] = {}
    for example in train:
        seen[example.dataset] = seen.get(example.dataset, 0) + 1
    info = {
        "train_examples": len(train), "validation_examples": len(validation),
        "dropped_over_max_length": {"train": dropped, "validation": val_dropped},
        "per_dataset": per_dataset, "mix": counts, "train_counts": dict(sorted(seen.items())),
        "token_lengths": length_summary([len(e.input_ids) for e in train]),
        "output_token_lengths": length_summary([len(e.input_ids) - e.prompt_length for e in train]),
        "max_length": max_length, "seed": seed,
    }
    return train, validation, info
