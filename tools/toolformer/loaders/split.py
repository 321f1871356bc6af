"""Our own train / validation split of Graph-ToolFormer's prompts_train files.

The upstream test files are kept for a final test only, so tuning and the
few-shot example pool use this split: per dataset, 160 records (the paper's
test size per dataset) drawn with a fixed seed are validation, the rest are
training. The draw depends only on the records' order in the file and the seed,
so every run and machine gets the same split.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

VALIDATION_SIZE = 160
SEED = 0


def split_records(
    records: Sequence[T], *, val_size: int = VALIDATION_SIZE, seed: int = SEED
) -> tuple[list[T], list[T]]:
    """``(train, validation)``: ``val_size`` records drawn with ``seed`` (all of them if fewer), file order kept."""
    if val_size < 0:
        raise ValueError(f"val_size must be 0 or more, got {val_size}")
    chosen = set(random.Random(seed).sample(range(len(records)), min(val_size, len(records))))
    train = [r for i, r in enumerate(records) if i not in chosen]
    validation = [r for i, r in enumerate(records) if i in chosen]
    return train, validation
