"""Few-shot examples for the generator: training pairs nearest in meaning to the input.

The pool is the training side of our split of every prompts_train file
(:mod:`graphreason.tools.toolformer.loaders.split`), at most ``PER_DATASET`` pairs per
dataset taken in file order after the split (the files repeat a few sentence
patterns many times over, so a few hundred per dataset cover them). The inputs
are embedded once, through the project's one embedding cache (keyed by the inputs
and the encoder), so later runs load them in milliseconds.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from graphreason.settings import data_root
from graphreason.tools.core.retrieval.texts import shared_embedder
from graphreason.tools.core.retrieval.vector_cache import cached_vectors
from graphreason.tools.toolformer.loaders.prompts import iter_prompt_files, read_prompts
from graphreason.tools.toolformer.loaders.split import split_records

PER_DATASET = 300
_lock = threading.Lock()


@dataclass(frozen=True)
class Example:
    id: str  # dataset:index in its file
    input: str
    output: str


def example_pool(per_dataset: int = PER_DATASET) -> list[Example]:
    """The training pairs the generator may be shown (see the module docstring)."""
    pool: list[Example] = []
    for dataset, path in iter_prompt_files():
        if path.name != "prompts_train":  # the upstream test files are never shown to the generator
            continue
        train, _ = split_records(read_prompts(path, problems=[]))
        pool.extend(Example(f"{dataset}:{r.index}", r.input, r.output) for r in train[:per_dataset])
    return pool


class ExampleIndex:
    """Cosine search over the pool's inputs with precomputed, cached vectors."""

    def __init__(self, examples: list[Example], embedder: str = "minilm") -> None:
        self.examples = examples
        self.embedder = shared_embedder(embedder)
        vectors = cached_vectors([e.input for e in examples], self.embedder, label="toolformer-examples")
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        self._vectors = vectors / np.where(norms == 0, 1.0, norms)

    def nearest(self, text: str, k: int) -> list[Example]:
        if k < 1 or not self.examples:
            return []
        query = np.asarray(self.embedder.embed([text]), dtype=np.float32)[0]
        query = query / (np.linalg.norm(query) or 1.0)
        order = np.argsort(-(self._vectors @ query), kind="stable")[:k]
        return [self.examples[i] for i in order][::-1]  # most similar last, nearest to the input


@lru_cache(maxsize=4)
def _index(embedder: str, root: str) -> ExampleIndex:
    return ExampleIndex(example_pool(), embedder)


def example_index(embedder: str) -> ExampleIndex:
    """The process-wide index for ``embedder`` (built or loaded on first use)."""
    with _lock:
        return _index(embedder, str(data_root()))
