"""Helpers shared by the GAR steps: custom stream events and JSON-ready values."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

# Arrays longer than this are left out of the state (the answer itself is kept whole).
MAX_DETAIL_ITEMS = 1000


def jsonable(value: Any, limit: int | None = None) -> Any:
    """``value`` with numpy scalars/arrays turned into Python numbers and lists.

    Infinite floats become None (JSON has no infinity); integral floats become ints.
    With ``limit``, a sequence longer than it raises ``OverflowError`` (the caller drops it).
    """
    if isinstance(value, np.ndarray):
        if limit is not None and value.size > limit:
            raise OverflowError
        return jsonable(value.tolist(), limit)
    if isinstance(value, bool | np.bool_):
        return bool(value)
    if isinstance(value, int | np.integer):
        return int(value)
    if isinstance(value, float | np.floating):
        number = float(value)
        if math.isinf(number) or math.isnan(number):
            return None
        return int(number) if number.is_integer() else number
    if isinstance(value, dict):
        if limit is not None and len(value) > limit:
            raise OverflowError
        if _plain_number_map(value):  # e.g. a million shortest distances: already JSON-ready
            return value
        return {jsonable(k): jsonable(v, limit) for k, v in value.items()}
    if isinstance(value, list | tuple | set):
        if limit is not None and len(value) > limit:
            raise OverflowError
        return [jsonable(v, limit) for v in value]
    if value is None or isinstance(value, str):
        return value
    return str(value)


def _plain_number_map(value: dict) -> bool:
    """True for ``{int: int | finite float}`` dicts (checked with C-level loops: cheap at 10^6 entries)."""
    if not set(map(type, value)) <= {int}:
        return False
    kinds = set(map(type, value.values()))
    if not kinds <= {int, float}:
        return False
    return float not in kinds or all(map(math.isfinite, value.values()))
