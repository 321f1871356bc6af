"""Graph-ToolFormer's working memory: results of executed calls, and bound variables.

Results are kept under the canonical text of the call (the printer's
spelling: ``GR(GL("cora"), "graph_bert:topic", paper#1)``), so the same call
written with other spacing, quotes or hyphens is one key and runs once. The
cache is first in first out with a fixed capacity (the paper calls it small and
FIFO without a size; 256 results is the default here). Variables bound with
``--> name`` are kept apart, are never evicted by results, and are bounded too,
so generated text cannot grow memory without limit.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

_MISSING = object()


class WorkingMemoryError(ValueError):
    """A variable cannot be bound (too many variables, or an invalid name)."""


@dataclass
class WorkingMemory:
    capacity: int = 256
    max_variables: int = 64
    _cache: OrderedDict[str, Any] = field(default_factory=OrderedDict)
    variables: dict[str, Any] = field(default_factory=dict)
    hits: int = 0
    misses: int = 0

    def __post_init__(self) -> None:
        if self.capacity < 1 or self.max_variables < 1:
            raise ValueError("working memory capacity and max_variables must be at least 1")

    # ------------------------------------------------------------------ call results
    def get(self, call: str, default: Any = None) -> Any:
        value = self._cache.get(call, _MISSING)
        if value is _MISSING:
            self.misses += 1
            return default
        self.hits += 1
        return value

    def put(self, call: str, value: Any) -> None:
        if call in self._cache:
            self._cache[call] = value
            return
        self._cache[call] = value
        while len(self._cache) > self.capacity:
            self._cache.popitem(last=False)

    def __contains__(self, call: str) -> bool:
        return call in self._cache

    def __len__(self) -> int:
        return len(self._cache)

    def keys(self) -> list[str]:
        """Cached calls, oldest first."""
        return list(self._cache)

    # ------------------------------------------------------------------ variables
    def bind(self, name: str, value: Any) -> None:
        """``--> name``: later calls may pass ``name`` for ``value``."""
        if not name or not name.isidentifier():
            raise WorkingMemoryError(f"cannot bind {name!r}: a variable name is a word such as G_l")
        if name not in self.variables and len(self.variables) >= self.max_variables:
            raise WorkingMemoryError(f"more than {self.max_variables} variables bound; {name!r} was not bound")
        self.variables[name] = value

    def variable(self, name: str, default: Any = None) -> Any:
        return self.variables.get(name, default)

    def stats(self) -> dict[str, int]:
        return {"hits": self.hits, "misses": self.misses, "cached": len(self._cache), "variables": len(self.variables)}
