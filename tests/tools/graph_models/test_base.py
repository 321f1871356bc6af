"""The graph model cache holds data, never code: weights-only loads, NumPy kept, crafted files refused."""

from __future__ import annotations

import json
import pathlib
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import pytest
import torch

from graphreason.tools.graph_models.base import GraphModel, GraphModelError, decode_state, encode_state


class Payload:
    """A pickle that would create ``marker`` when unpickled: what a crafted ``state.pt`` can do."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[Any, tuple[Path]]:
        return pathlib.Path.touch, (self.marker,)


def toy_state() -> dict[str, Any]:
    """The kinds of values the real models keep: arrays of several dtypes, NumPy scalars, names, tensors."""
    return {
        "probs": np.array([[0.25, 0.75], [0.5, 0.5]], dtype=np.float32),
        "parts": {"train": np.arange(3), "test": np.array([], dtype=np.int64)},
        "trained": np.array([True, False]),
        "classes": [np.int64(0), np.int64(2)],
        "ids": [np.str_("a"), "b"],
        "weights": {"layer.weight": torch.ones(2, 2)},
        "selection": [{"arch": "gcn", "val_accuracy": np.float64(0.5)}],
        "pair": (np.arange(2), 3),
        "name": "rating",
        "none": None,
    }


class ToyModel(GraphModel):
    """A graph model that trains instantly and keeps whatever :func:`toy_state` gives."""

    domain: ClassVar[str] = "toy"
    datasets: ClassVar[tuple[str, ...]] = ("toy",)

    def __init__(self) -> None:
        super().__init__("toy")
        self.kept: dict[str, Any] = {}

    def fit(self, progress: bool) -> dict[str, float]:
        self.kept = toy_state()
        return {"accuracy": 1.0}

    def state(self) -> dict[str, Any]:
        return self.kept

    def load_state(self, state: dict[str, Any]) -> None:
        self.kept = state


@pytest.fixture(autouse=True)
def tmp_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRAPHREASON_CACHE", str(tmp_path / "cache"))


def assert_same(got: Any, expected: Any) -> None:
    if isinstance(expected, np.ndarray):
        assert isinstance(got, np.ndarray) and got.dtype == expected.dtype and np.array_equal(got, expected)
    elif isinstance(expected, torch.Tensor):
        assert torch.equal(got, expected)
    elif isinstance(expected, dict):
        assert got.keys() == expected.keys()
        for key in expected:
            assert_same(got[key], expected[key])
    elif isinstance(expected, list | tuple):
        assert type(got) is type(expected) and len(got) == len(expected)
        for a, b in zip(got, expected, strict=True):
            assert_same(a, b)
    else:
        assert got == expected and type(got) is type(expected.item() if isinstance(expected, np.generic) else expected)


def test_a_state_round_trips_weights_only() -> None:
    first = ToyModel()
    report = first.ensure()
    assert not report.cached
    folder = Path(report.path)
    assert json.loads((folder / "meta.json").read_text())["state_format"] == 2
    assert torch.serialization.get_unsafe_globals_in_checkpoint(folder / "state.pt") == []

    again = ToyModel()
    assert again.ensure().cached and again.report.metrics == {"accuracy": 1.0}
    assert_same(again.kept, toy_state())  # arrays come back as arrays of their dtype, scalars as numbers


def test_a_cache_of_the_older_format_still_loads() -> None:
    model = ToyModel()
    folder = Path(model.ensure().path)
    torch.save(toy_state(), folder / "state.pt")  # what the older version saved: pickled NumPy arrays
    meta = json.loads((folder / "meta.json").read_text())
    del meta["state_format"]
    (folder / "meta.json").write_text(json.dumps(meta))

    older = ToyModel()
    assert older.ensure().cached
    assert older.kept["probs"].dtype == np.float32 and np.array_equal(older.kept["probs"], toy_state()["probs"])
    assert older.kept["classes"] == [0, 2] and older.kept["ids"] == ["a", "b"]


@pytest.mark.parametrize("older", [False, True])
def test_a_crafted_state_is_refused_without_running_it(tmp_path: Path, older: bool) -> None:
    folder = Path(ToyModel().ensure().path)
    marker = tmp_path / "ran"
    torch.save({"probs": Payload(marker)}, folder / "state.pt")
    if older:  # no state_format: the older format's NumPy allowance must not let code through either
        meta = json.loads((folder / "meta.json").read_text())
        del meta["state_format"]
        (folder / "meta.json").write_text(json.dumps(meta))
    with pytest.raises(GraphModelError, match=r"state.pt was not loaded \(holds more than tensors.*delete .* trained again"):
        ToyModel().ensure()
    assert not marker.exists()
    assert ToyModel().ensure(force=True).cached is False  # --force trains over it


def test_states_that_would_not_load_weights_only_are_refused_when_saved() -> None:
    with pytest.raises(TypeError, match="cannot hold set"):
        encode_state({"seen": {1, 2}})
    with pytest.raises(TypeError, match="NumPy array of dtype <U1"):
        encode_state({"names": np.array(["a"])})
    assert decode_state(encode_state({3: np.int32(4)})) == {3: 4}
