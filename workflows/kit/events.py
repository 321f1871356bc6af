"""Custom stream events: what ``graphreason run`` prints and Studio shows while a run is going."""

from __future__ import annotations

from typing import Any

from langgraph.config import get_stream_writer


def emit(event: str, text: str, **extra: Any) -> None:
    """Stream ``{"event": event, "text": text, **extra}`` (``stream_mode="custom"``).

    A no-op outside a graph run, so role functions can be unit-tested directly.
    """
    try:
        writer = get_stream_writer()
    except Exception:  # no runnable context: called outside a graph run
        return
    writer({"event": event, "text": text, **extra})
