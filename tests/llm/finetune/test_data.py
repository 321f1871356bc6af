"""Training examples for the generator: exact loss masking, the held-out slice kept out, seeded order."""

from __future__ import annotations

import pytest

from graphreason.llm.engine.chatml import END_TOKENS
from graphreason.llm.finetune.base_model import load_tokenizer
from graphreason.llm.finetune.data import (
    IGNORE_INDEX,
    build_examples,
    chat_prompt,
    collate,
    mix_records,
    parse_mix,
)
from graphreason.tools.core.loaders import UNSEEN_GRAPHS
from graphreason.tools.toolformer.training_data import names_unseen_graph, records_by_dataset, training_data
from graphreason.workflows.toolformer.prompts import generation_prompt
from tests.conftest import require_data

pytestmark = pytest.mark.heavy


def workflow_prompt(text: str) -> str:
    return generation_prompt(text, [])


@pytest.fixture(scope="module")
def prompt_root():
    return require_data("Graph_Toolformer/prompt")


@pytest.fixture(scope="module")
def sides(prompt_root):
    return records_by_dataset(prompt_root, "train"), records_by_dataset(prompt_root, "val")


@pytest.fixture(scope="module")
def tokenizer():
    return load_tokenizer()


def test_labels_mask_exactly_the_prompt(sides, tokenizer) -> None:
    records = mix_records(sides[0], per_dataset=1, seed=3)
    examples, dropped = build_examples(records, tokenizer, workflow_prompt)
    assert dropped == 0 and len(examples) == len(sides[0])  # one per dataset, every dataset present
    end_id = tokenizer.convert_tokens_to_ids(END_TOKENS[0])
    for record, example in zip(records, examples, strict=True):
        n = example.prompt_length
        assert example.labels[:n] == [IGNORE_INDEX] * n
        assert example.labels[n:] == example.input_ids[n:] and IGNORE_INDEX not in example.labels[n:]
        assert tokenizer.decode(example.input_ids[:n]) == chat_prompt(workflow_prompt(record.input))
        assert tokenizer.decode(example.input_ids[n:]) == record.output + END_TOKENS[0]
        assert example.labels[-1] == end_id  # the model learns to stop


def test_validation_records_never_train(sides, prompt_root, tokenizer) -> None:
    train_side, val_side = sides
    for dataset, held_out in val_side.items():
        assert len(held_out) == 160
        assert {r.index for r in held_out}.isdisjoint(r.index for r in train_side[dataset])
        assert all(r.source.name == "prompts_train" for r in held_out + train_side[dataset])
    held = {(r.dataset, r.index) for records in val_side.values() for r in records}
    train, validation, info = training_data(
        tokenizer, workflow_prompt, root=prompt_root, examples=64, val_per_dataset=1, max_length=320
    )
    assert {(e.dataset, e.index) for e in train}.isdisjoint(held)
    assert {(e.dataset, e.index) for e in validation} <= held
    assert info["train_examples"] == len(train) <= 64
    assert max(info["train_counts"].values()) <= info["per_dataset"] == 5  # 64 spread over the 14 trained on


def test_unseen_graphs_are_never_trained_on(sides, prompt_root, tokenizer) -> None:
    """CiteSeer and Last.fm are unseen: neither their records nor any record naming them reaches training."""
    train_side, _ = sides
    assert {"citeseer", "last-fm"} <= set(train_side)  # the data has them; the evaluation reads them
    naming = [r for records in train_side.values() for r in records if names_unseen_graph(r)]
    assert {r.dataset for r in naming} >= {"citeseer", "last-fm", "graph_loading"}  # loading prompts name citeseerx
    kept = records_by_dataset(prompt_root, "train", unseen=False)
    assert not set(kept) & UNSEEN_GRAPHS
    assert not any(names_unseen_graph(r) for records in kept.values() for r in records)
    by_key = {(r.dataset, r.index): r for records in train_side.values() for r in records}
    train, validation, info = training_data(
        tokenizer, workflow_prompt, root=prompt_root, per_dataset=2000, val_per_dataset=160, max_length=320
    )
    dropped = info["dropped_over_max_length"]["train"]  # a few workflow-form prompts exceed 320 tokens
    assert len(train) + dropped == sum(len(records) for records in kept.values())  # everything else is trained on
    assert not any(names_unseen_graph(by_key[(e.dataset, e.index)]) for e in train)
    assert not {e.dataset for e in train + validation} & UNSEEN_GRAPHS
    assert info["never_trained_on"] == sorted(UNSEEN_GRAPHS)


def test_mix_is_balanced_and_seeded(sides) -> None:
    first = mix_records(sides[0], per_dataset=5, seed=1)
    assert first == mix_records(sides[0], per_dataset=5, seed=1)
    assert first != mix_records(sides[0], per_dataset=5, seed=2)
    counts: dict[str, int] = {}
    for record in first:
        counts[record.dataset] = counts.get(record.dataset, 0) + 1
    assert set(counts.values()) == {5}
    assert mix_records(sides[0], per_dataset=5, seed=1, limit=7) == first[:7]


def test_a_weighted_mix_draws_the_named_counts(sides) -> None:
    mix = mix_records(sides[0], per_dataset=1, seed=3, counts={"gpr": 9, "twitter": 4, "cora": 0})
    counts: dict[str, int] = {}
    for record in mix:
        counts[record.dataset] = counts.get(record.dataset, 0) + 1
    assert counts.pop("gpr") == 9 and counts.pop("twitter") == 4 and "cora" not in counts
    assert set(counts.values()) == {1}  # every other dataset takes per_dataset
    assert mix_records(sides[0], per_dataset=5, seed=1, counts={}) == mix_records(sides[0], per_dataset=5, seed=1)
    with pytest.raises(ValueError, match="unknown dataset.*gprr.*known: amazon"):
        mix_records(sides[0], counts={"gprr": 3})


def test_mix_text_is_parsed_and_bad_entries_are_explained() -> None:
    assert parse_mix(" gpr=900, twitter=200 ,") == {"gpr": 900, "twitter": 200}
    for bad in ("gpr", "gpr=-1", "=3", "gpr=many", ","):
        with pytest.raises(ValueError, match="dataset=count|names no dataset"):
            parse_mix(bad)


def test_long_examples_are_dropped_and_batches_padded(sides, tokenizer) -> None:
    records = mix_records(sides[0], per_dataset=1, seed=0)[:4]
    examples, _ = build_examples(records, tokenizer, workflow_prompt)
    shortest = min(len(e.input_ids) for e in examples)
    kept, dropped = build_examples(records, tokenizer, workflow_prompt, max_length=shortest)
    assert dropped == len(examples) - len(kept) and all(len(e.input_ids) <= shortest for e in kept)
    batch = collate(examples, pad_id=0)
    for row, example in enumerate(examples):
        n = len(example.input_ids)
        assert batch["attention_mask"][row].sum() == n
        assert batch["labels"][row, n:].eq(IGNORE_INDEX).all()
        assert batch["input_ids"][row, :n].tolist() == example.input_ids
