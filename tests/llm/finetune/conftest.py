"""The fine-tuning tests load the base model's transformers copy, made by a child started with the session."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.conftest import BackgroundChild


@pytest.fixture(scope="session")
def hf_base_copy(_slow_children: Callable[[str], BackgroundChild]) -> None:
    """Waits until the session's transformers copy of the base model exists (tests/slow_children.py)."""
    done = _slow_children("hf_base_copy").result()
    assert done.returncode == 0, done.stderr[-3000:]
