"""Generator checkpoints are data, never code: JSON checked first, then a weights-only ``state.pt``.

No model here: a refused checkpoint is refused before the model, optimizer or
scheduler is touched, and the RNG and file format checks need only torch.
"""

from __future__ import annotations

import json
import pathlib
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import torch

from graphreason.llm.finetune.train import (
    CHECKPOINT_FORMAT,
    TrainConfig,
    _rng_state,
    _set_rng_state,
    latest_checkpoint,
    load_checkpoint,
    read_checkpoint_info,
    save_checkpoint,
)


class Payload:
    """A pickle that would create ``marker`` when unpickled: what a crafted ``state.pt`` can do."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[Any, tuple[Path]]:
        return pathlib.Path.touch, (self.marker,)


def crafted_checkpoint(out: Path, marker: Path, info: dict[str, Any] | None = None) -> Path:
    """``out/checkpoints/step-000003`` whose ``state.pt`` runs code when unpickled (``info``: its checkpoint.json)."""
    folder = out / "checkpoints" / "step-000003"
    folder.mkdir(parents=True)
    torch.save({"optimizer": Payload(marker)}, folder / "state.pt")
    if info is not None:
        (folder / "checkpoint.json").write_text(json.dumps(info))
    return folder


def info(fingerprint: str) -> dict[str, Any]:
    return {"format": CHECKPOINT_FORMAT, "step": 3, "fingerprint": fingerprint, "seconds": 1.5, "history": []}


def test_an_older_checkpoint_is_refused_and_never_unpickled(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    folder = crafted_checkpoint(tmp_path / "out", marker)  # the older layout: state.pt alone
    assert latest_checkpoint(tmp_path / "out") == folder  # still found, so --resume says why it refuses
    with pytest.raises(ValueError, match="written by an older version of graphreason.*retrain from the start, with another --out or after deleting"):
        load_checkpoint(None, None, None, folder, fingerprint="abc")
    assert not marker.exists()


def test_a_state_holding_code_is_refused_without_running_it(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    folder = crafted_checkpoint(tmp_path / "out", marker, info("abc"))  # a valid checkpoint.json beside it
    with pytest.raises(ValueError, match="state.pt holds more than tensors and plain values, so it was not loaded"):
        load_checkpoint(None, None, None, folder, fingerprint="abc")
    assert not marker.exists()


def test_other_settings_are_refused_before_the_state_is_opened(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    folder = crafted_checkpoint(tmp_path / "out", marker, info("other"))
    with pytest.raises(ValueError, match="resume with the same options"):
        load_checkpoint(None, None, None, folder, fingerprint="abc")
    assert not marker.exists()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{", "is unreadable"),
        (json.dumps({**info("abc"), "format": 7}), "has checkpoint format 7; this version reads format 2"),
        (json.dumps({**info("abc"), "step": "3"}), "lacks a valid step"),
    ],
)
def test_a_broken_checkpoint_json_is_refused(tmp_path: Path, text: str, message: str) -> None:
    (tmp_path / "checkpoint.json").write_text(text)
    with pytest.raises(ValueError, match=message):
        read_checkpoint_info(tmp_path)


class SavesAdapter:
    """Stands in for the peft model: ``save_pretrained`` writes the adapter file."""

    def save_pretrained(self, folder: str) -> None:
        Path(folder).mkdir(parents=True)
        (Path(folder) / "adapter_model.safetensors").write_bytes(b"")


def test_a_saved_checkpoint_is_json_and_weights_only(tmp_path: Path) -> None:
    layer = torch.nn.Linear(3, 2)
    optimizer = torch.optim.AdamW(layer.parameters(), lr=1e-3)
    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda step: 1.0)
    layer(torch.ones(1, 3)).sum().backward()
    optimizer.step()
    scheduler.step()
    config = TrainConfig(out_dir=str(tmp_path), steps=4, progress=False)
    history = [{"step": 1, "loss": 0.1 + 0.2}, {"step": 2, "loss": 1 / 3, "val_loss": 2 / 7}]
    folder = save_checkpoint(SavesAdapter(), optimizer, scheduler, 2, history, config, 12.25, "abc")

    saved = read_checkpoint_info(folder)
    assert saved["history"] == history  # floats survive JSON exactly
    assert (saved["step"], saved["fingerprint"], saved["seconds"]) == (2, "abc", 12.25)
    assert saved["config"]["steps"] == 4 and saved["format"] == CHECKPOINT_FORMAT
    assert torch.serialization.get_unsafe_globals_in_checkpoint(folder / "state.pt") == []
    state = torch.load(folder / "state.pt", weights_only=True)
    assert set(state) == {"optimizer", "scheduler", "rng"}
    restored = torch.optim.AdamW(torch.nn.Linear(3, 2).parameters(), lr=1e-3)
    restored.load_state_dict(state["optimizer"])
    assert torch.equal(restored.state_dict()["state"][0]["exp_avg"], optimizer.state_dict()["state"][0]["exp_avg"])


def test_rng_states_survive_a_weights_only_round_trip(tmp_path: Path) -> None:
    random.seed(3)
    np.random.seed(3)
    torch.manual_seed(3)
    np.random.standard_normal()  # numpy caches the second gaussian: that is part of its state too
    torch.save(_rng_state(), tmp_path / "rng.pt")
    expected = (random.random(), np.random.standard_normal(), np.random.rand(), torch.rand(2))
    random.seed(0)
    np.random.seed(0)
    torch.manual_seed(0)
    _set_rng_state(torch.load(tmp_path / "rng.pt", weights_only=True))
    again = (random.random(), np.random.standard_normal(), np.random.rand(), torch.rand(2))
    assert again[:3] == expected[:3] and torch.equal(again[3], expected[3])
