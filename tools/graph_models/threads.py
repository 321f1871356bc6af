"""Run small-model training on one torch thread, then restore the caller's setting.

The hub's models are small (a few thousand nodes, batches of a few hundred):
their operations are too short for intra-op parallelism to pay, and on a
shared machine the extra OpenMP threads mostly wait for each other, so one
thread trains them faster.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def torch_threads(count: int = 1) -> Iterator[None]:
    """Use ``count`` intra-op threads inside the block."""
    import torch

    before = torch.get_num_threads()
    torch.set_num_threads(count)
    try:
        yield
    finally:
        torch.set_num_threads(before)
