"""LLM and tool usage counters shared by every workflow's state."""

from __future__ import annotations

from typing import Any

from typing_extensions import TypedDict  # typing's has no pydantic schema on Python < 3.12


class Usage(TypedDict, total=False):
    llm_calls: int
    input_tokens: int
    output_tokens: int
    llm_seconds: float
    tool_seconds: float


def add_usage(left: Usage | None, right: Usage | None) -> Usage:
    """Reducer: usage counters add up across nodes (and parallel branches)."""
    out: dict[str, Any] = dict(left or {})
    for key, value in (right or {}).items():
        out[key] = out.get(key, 0) + value
    return out  # type: ignore[return-value]
