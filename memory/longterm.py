"""Long-term memory: a LangGraph store whose items are searchable by meaning.

The store embeds the named fields of each item with one of our sentence
encoders, so ``store.search(namespace, query=...)`` returns the most similar
past items (for example earlier episodes about similar nodes).
"""

from __future__ import annotations

from collections.abc import Sequence

from langgraph.store.memory import InMemoryStore

from tools.retrieval.embedders import Embedder, get_embedder


def make_store(embedder: str | Embedder = "minilm", fields: Sequence[str] = ("text",)) -> InMemoryStore:
    """An in-memory LangGraph store with a semantic index over ``fields``."""
    encoder = get_embedder(embedder) if isinstance(embedder, str) else embedder

    def embed(texts: Sequence[str]) -> list[list[float]]:
        return encoder.embed(list(texts)).tolist()

    return InMemoryStore(index={"dims": encoder.dim, "embed": embed, "fields": list(fields)})
