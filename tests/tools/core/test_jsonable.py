"""The one JSON-ready converter every method uses for its state, trace and output values."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass

import numpy as np
import pytest

from graphreason.tools.core.jsonable import jsonable


def test_numpy_scalars_and_arrays_become_python_values():
    out = jsonable({"a": np.int64(3), "b": np.float32(0.5), "c": np.bool_(True), "d": np.arange(3)})
    assert out == {"a": 3, "b": 0.5, "c": True, "d": [0, 1, 2]}
    assert type(out["a"]) is int and type(out["b"]) is float and type(out["c"]) is bool
    assert jsonable(np.array([[1.5, 2.0], [3.0, np.inf]])) == [[1.5, 2.0], [3.0, None]]
    json.dumps(out)  # plain JSON


def test_tuples_sets_and_frozensets_become_lists():
    assert jsonable((1, (2, 3))) == [1, [2, 3]]
    assert sorted(jsonable({3, 1, 2})) == [1, 2, 3]
    assert jsonable(frozenset({"x"})) == ["x"]


def test_infinite_and_nan_floats_become_none():
    assert jsonable([math.inf, -math.inf, math.nan, np.float64("nan"), 1.5]) == [None, None, None, None, 1.5]


def test_whole_floats_stay_floats_unless_asked():
    assert type(jsonable(3.0)) is float
    assert jsonable(3.0, int_floats=True) == 3 and type(jsonable(3.0, int_floats=True)) is int
    assert jsonable(np.float64(2.5), int_floats=True) == 2.5
    assert jsonable([1.0, True], int_floats=True) == [1, True]  # a bool stays a bool


def test_dict_keys():
    value = {1: "a", "b": 2, (0, 1): 3, np.int64(4): 4, 2.5: 5}
    assert jsonable(value) == {1: "a", "b": 2, "(0, 1)": 3, 4: 4, "2.5": 5}
    assert jsonable(value, str_keys=True) == {"1": "a", "b": 2, "(0, 1)": 3, "4": 4, "2.5": 5}


def test_a_plain_number_map_is_returned_as_it_is():
    distances = {i: float(i) for i in range(10)}
    assert jsonable(distances, int_floats=True) is distances
    with_inf = {0: 0.0, 1: math.inf}
    assert jsonable(with_inf) == {0: 0.0, 1: None}


def test_limit_raises_overflow_at_any_depth():
    assert jsonable([1, 2, 3], limit=3) == [1, 2, 3]
    with pytest.raises(OverflowError, match="limit of 2"):
        jsonable([1, 2, 3], limit=2)
    with pytest.raises(OverflowError):
        jsonable({"nested": np.zeros(5)}, limit=4)
    with pytest.raises(OverflowError):
        jsonable({i: i for i in range(5)}, limit=4)
    with pytest.raises(ValueError, match="limit"):
        jsonable([], limit=-1)


@dataclass
class Point:
    x: int
    tags: tuple[str, ...]


def test_dataclasses_become_dicts_and_other_objects_text():
    assert jsonable(Point(np.int64(1), ("a",))) == {"x": 1, "tags": ["a"]}
    assert jsonable(Point) == str(Point)  # a class is not an instance
    assert jsonable(ValueError("bad id")) == "bad id"
    assert jsonable({"when": complex(1, 2)}) == {"when": "(1+2j)"}


def test_default_replaces_unknown_objects_first():
    def name_of(value):
        return f"point {value.x}" if isinstance(value, Point) else value

    assert jsonable([Point(2, ())], default=name_of) == ["point 2"]
    # returning the object unchanged falls through to the built-in handling
    assert jsonable(complex(0, 1), default=name_of) == "1j"
    # the replacement is converted in turn
    assert jsonable(Point(1, ()), default=lambda v: (v.x, np.int32(7))) == [1, 7]


def test_plain_json_passes_unchanged():
    value = {"a": [1, "two", None, True, {"b": 2.5}]}
    assert jsonable(value) == value
    assert jsonable(value, str_keys=True, int_floats=True) == value
