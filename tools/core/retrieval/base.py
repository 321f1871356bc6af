"""The retrieval interface every method uses (one ABC, pluggable encoders)."""

from __future__ import annotations

from abc import ABC, abstractmethod


class Retriever(ABC):
    """Dense search over node text."""

    @abstractmethod
    def search(self, text: str, k: int = 1, node_type: str | None = None) -> list[tuple[str, float]]:
        """Top-``k`` ``(node_id, score)`` pairs, best first; ``node_type`` restricts the search."""
