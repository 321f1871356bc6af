"""Graph-ToolFormer's working memory: executed calls and bound variables.

Results are cached under the canonical text of the call, first in first out
with a fixed capacity, so repeated calls in generated text run once. Variables
bound with ``--> name`` are kept separately and never evicted within a text.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

_MISSING = object()


@dataclass
class WorkingMemory:
    capacity: int = 256
    _cache: OrderedDict[str, Any] = field(default_factory=OrderedDict)
    variables: dict[str, Any] = field(default_factory=dict)
    hits: int = 0
    misses: int = 0

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
