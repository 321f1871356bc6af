"""Shared test helpers."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tools.config import data_root


def require_data(name: str) -> Path:
    """Path of a dataset under the data root.

    Missing data fails the test under CI (``CI=true``) and skips it elsewhere:
    CI must never go green by silently not testing the real data.
    """
    path = data_root() / name
    if not path.exists():
        message = f"dataset {name!r} not found under {data_root()} (set GRAPHREASON_DATA_ROOT)"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message)
        pytest.skip(message)
    return path
