"""Compiling a method's StateGraph the same way everywhere."""

from __future__ import annotations

from typing import Any

from langgraph.graph import StateGraph


def compile_workflow(
    builder: StateGraph, *, name: str, recursion_limit: int, checkpointer: Any = None
) -> Any:
    """``builder`` compiled under ``name`` with ``recursion_limit`` as the default run config.

    Each method bounds its loops itself (steps, trials, rounds); the limit is
    only set high enough that LangGraph's default of 25 super-steps never cuts
    a legitimate run short. ``checkpointer`` (e.g. SqliteSaver) makes runs
    resumable; ``langgraph.json`` exports graphs compiled without one.
    """
    return builder.compile(checkpointer=checkpointer, name=name).with_config(recursion_limit=recursion_limit)
