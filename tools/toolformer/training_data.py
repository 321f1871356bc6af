"""Graph-ToolFormer's training records for the generator, on either side of our split.

The records are the ``prompts_train`` files of the Graph-ToolFormer prompt data
(one Input/Output pair each); :mod:`graphreason.tools.toolformer.loaders.split`
holds 160 records per dataset out for validation. Only the training side is
ever trained on, and the upstream ``prompts_test`` files are never read.
CiteSeer and Last.fm are unseen graphs (:data:`UNSEEN_GRAPHS`): their datasets, and
any record of another dataset that names one of them, never reach the trainer,
so the generator is evaluated on them out of distribution. The generic work (tokenizing, loss masking, the seeded mix) is
:mod:`graphreason.llm.finetune.data`'s; :func:`training_data` feeds it these
records.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

from graphreason.llm.finetune import data as finetune_data
from graphreason.llm.finetune.data import FinetuneExample
from graphreason.tools.core.loaders import UNSEEN_GRAPHS
from graphreason.tools.toolformer.loaders.prompts import PromptRecord, iter_prompt_files, read_prompts
from graphreason.tools.toolformer.loaders.split import split_records

TRAIN_FILE = "prompts_train"
Side = Literal["train", "val"]


def names_unseen_graph(record: PromptRecord) -> bool:
    """Whether a record belongs to, or names, an unseen graph (``citeseer``, ``citeseerx``, ``last-fm``, ...)."""
    if record.dataset.lower() in UNSEEN_GRAPHS:
        return True
    text = f"{record.input} {record.output}".lower()
    return any(name in text for name in UNSEEN_GRAPHS)


def records_by_dataset(
    root: Path | str | None = None, side: Side = "train", *, unseen: bool = True
) -> dict[str, list[PromptRecord]]:
    """Each dataset's records of one side of our split, from the ``prompts_train`` files under ``root``.

    ``root`` defaults to the prompt folder under the data root. With
    ``unseen=False`` the unseen graphs' records (:func:`names_unseen_graph`) are
    left out, as they are for training. Raises ValueError for another side or
    when no ``prompts_train`` file is found.
    """
    if side not in ("train", "val"):
        raise ValueError(f"side must be 'train' or 'val', got {side!r}")
    chosen: dict[str, list[PromptRecord]] = {}
    for dataset, path in iter_prompt_files(root):
        if path.name != TRAIN_FILE:  # the upstream test files are for the final test only
            continue
        train, validation = split_records(read_prompts(path, dataset=dataset))
        kept = [r for r in (train if side == "train" else validation) if unseen or not names_unseen_graph(r)]
        if kept:
            chosen.setdefault(dataset, []).extend(kept)
    if not chosen:
        raise ValueError(f"no {TRAIN_FILE} file found under {root or 'the data root'}")
    return chosen


def training_data(
    tokenizer: Any, prompt_for: Callable[[str], str], *, root: Path | str | None = None, **options: Any
) -> tuple[list[FinetuneExample], list[FinetuneExample], dict[str, Any]]:
    """``(train, validation, info)`` from the prompt data under ``root``.

    ``options`` are those of :func:`graphreason.llm.finetune.data.training_data`
    (``examples``, ``per_dataset``, ``val_per_dataset``, ``max_length``, ``seed``,
    ``counts``). Neither side holds an unseen graph's record: the validation
    loss picks nothing on them either.
    """
    train, validation, info = finetune_data.training_data(
        tokenizer,
        prompt_for,
        records_by_dataset(root, "train", unseen=False),
        records_by_dataset(root, "val", unseen=False),
        **options,
    )
    info["never_trained_on"] = sorted(UNSEEN_GRAPHS)
    return train, validation, info
