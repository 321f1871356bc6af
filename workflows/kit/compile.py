"""Compiling a method's StateGraph the same way everywhere."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from langgraph.graph import StateGraph


def add_nodes(builder: StateGraph, *roles: Callable[..., Any]) -> None:
    """Add each role function as a node named after the function (``plan`` -> node "plan").

    One name per paper role, so the graph's nodes, the trace and the code read the same.
    """
    for role in roles:
        builder.add_node(role.__name__, role)


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
