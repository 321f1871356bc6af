"""LLM and tool usage counters shared by every workflow's state."""

from __future__ import annotations

from typing import Any

from typing_extensions import TypedDict  # typing's has no pydantic schema on Python < 3.12


class Usage(TypedDict, total=False):
    """What a run (or one step, or one call) spent; every method's output carries one."""

    llm_calls: int
    input_tokens: int
    output_tokens: int
    tokens: int  # input + output, in a finished run's totals
    llm_seconds: float
    tool_seconds: float  # graph functions (Counselor)
    engine_seconds: float  # the vertex engine or sandbox (GAR)
    seconds: float  # the whole run, wall clock
    # GAR's agents mode: the node agents' share of the calls and tokens above
    agent_calls: int
    agent_tokens: int
    agent_bad_replies: int  # node-agent replies with no readable JSON
    master_calls: int
    master_tokens: int


def run_totals(llm: Usage | None, *, seconds: float, **extra: float) -> Usage:
    """A finished run's usage: the LLM counters (zero when none), their token sum, wall seconds and ``extra``."""
    counters = dict(llm or {})
    totals: dict[str, Any] = {
        "llm_calls": counters.get("llm_calls", 0),
        "input_tokens": counters.get("input_tokens", 0),
        "output_tokens": counters.get("output_tokens", 0),
        "llm_seconds": counters.get("llm_seconds", 0.0),
    }
    totals["tokens"] = totals["input_tokens"] + totals["output_tokens"]
    return {**totals, **extra, "seconds": seconds}  # type: ignore[typeddict-item]


def add_usage(left: Usage | None, right: Usage | None) -> Usage:
    """Reducer: usage counters add up across nodes (and parallel branches)."""
    out: dict[str, Any] = dict(left or {})
    for key, value in (right or {}).items():
        out[key] = out.get(key, 0) + value
    return out  # type: ignore[return-value]
