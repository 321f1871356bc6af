"""Layer 3: one LangGraph workflow per method (``workflows/<method>/``), plus what they share.

``graphreason.workflows.METHODS`` lists the methods (read from :mod:`graphreason.workflows.methods`
on first use, so importing one method's package does not import the others).
"""

from __future__ import annotations

from typing import Any


def __getattr__(name: str) -> Any:
    if name == "METHODS":
        from graphreason.workflows.methods import METHODS

        return METHODS
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
