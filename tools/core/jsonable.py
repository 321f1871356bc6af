"""Turning results into JSON-ready values: one converter for every method's state, trace and output.

Workflow states are stored by checkpointers and shown by Studio, so what a
tool, an algorithm or a model returns is converted before it enters them:
numpy scalars and arrays become Python numbers and lists, tuples and sets
become lists, dataclasses become dicts of their fields, and anything else
becomes its text. JSON has no infinity and no NaN: both become ``None``.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from typing import Any

import numpy as np

__all__ = ["jsonable"]


def jsonable(
    value: Any,
    *,
    limit: int | None = None,
    str_keys: bool = False,
    int_floats: bool = False,
    default: Callable[[Any], Any] | None = None,
) -> Any:
    """``value`` as plain JSON data (dicts, lists, str, int, float, bool, None).

    - numpy arrays become lists; numpy booleans, integers and floats become ``bool``/``int``/``float``;
    - tuples, sets and frozensets become lists (sets in their iteration order);
    - infinite and NaN floats become ``None``; with ``int_floats`` a whole float
      (``3.0``) becomes an int (``3``), except inside a dict of int keys to
      finite numbers, which is already JSON-ready and returned as it is (a
      million shortest distances are not walked one by one);
    - dict keys: with ``str_keys`` every key becomes its text; otherwise str
      and int keys (numpy integers as ints) are kept and other keys (tuples,
      floats, ...) become their text;
    - any other object goes to ``default`` first when given; its result is
      converted in turn (returning the object itself falls through). Then a
      dataclass becomes a dict of its fields and anything else ``str(value)``.

    With ``limit``, an array, list or dict holding more than ``limit`` items
    (at any depth) raises :class:`OverflowError`: the caller leaves it out.
    """
    return _Converter(limit, str_keys, int_floats, default).convert(value)


class _Converter:
    def __init__(
        self, limit: int | None, str_keys: bool, int_floats: bool, default: Callable[[Any], Any] | None
    ) -> None:
        if limit is not None and limit < 0:
            raise ValueError(f"limit must be 0 or more, got {limit}")
        self.limit = limit
        self.str_keys = str_keys
        self.int_floats = int_floats
        self.default = default

    def _check_size(self, size: int) -> None:
        if self.limit is not None and size > self.limit:
            raise OverflowError(f"{size} items, more than the limit of {self.limit}")

    def number(self, value: float) -> int | float | None:
        number = float(value)
        if not math.isfinite(number):
            return None
        return int(number) if self.int_floats and number.is_integer() else number

    def key(self, key: Any) -> str | int:
        if self.str_keys:
            return key if isinstance(key, str) else str(key)
        if isinstance(key, str | int):  # bool is an int: True stays True
            return key
        if isinstance(key, np.integer):
            return int(key)
        return str(key)

    def convert(self, value: Any) -> Any:
        if value is None or isinstance(value, str):
            return value
        if isinstance(value, bool | np.bool_):
            return bool(value)
        if isinstance(value, int | np.integer):
            return int(value)
        if isinstance(value, float | np.floating):
            return self.number(value)
        if isinstance(value, dict):
            self._check_size(len(value))
            if not self.str_keys and _plain_number_map(value):
                return value  # e.g. a million shortest distances: already JSON-ready
            return {self.key(k): self.convert(v) for k, v in value.items()}
        if isinstance(value, list | tuple | set | frozenset):
            self._check_size(len(value))
            return [self.convert(v) for v in value]
        if isinstance(value, np.ndarray):
            self._check_size(value.size)
            return self.convert(value.tolist())
        if self.default is not None:
            replaced = self.default(value)
            if replaced is not value:
                return self.convert(replaced)
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            return {f.name: self.convert(getattr(value, f.name)) for f in dataclasses.fields(value)}
        return str(value)


def _plain_number_map(value: dict) -> bool:
    """True for ``{int: int | finite float}`` dicts (checked with C-level loops: cheap at 10^6 entries)."""
    if not set(map(type, value)) <= {int}:
        return False
    kinds = set(map(type, value.values()))
    if not kinds <= {int, float}:
        return False
    return float not in kinds or all(map(math.isfinite, value.values()))
