"""``langgraph.json``'s "graphs" derived from the method registry, and the check that the file agrees.

The server (``graphreason serve``, ``langgraph dev``, Studio) reads the graphs
from ``langgraph.json``; the methods are listed in
:data:`graphreason.workflows.methods.METHODS`. :func:`langgraph_graphs` says
what the file's "graphs" must hold, :func:`graph_problems` what differs, each
problem phrased as the edit that fixes it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from graphreason.workflows.method import Method


def langgraph_graphs(methods: Iterable[Method]) -> dict[str, dict[str, str]]:
    """``{graph_id: {"path": ..., "description": ...}}`` for ``methods``: langgraph.json's "graphs"."""
    graphs: dict[str, dict[str, str]] = {}
    for method in methods:
        if method.graph_id in graphs:
            raise ValueError(f"two methods share the graph id {method.graph_id!r}; graph ids must be unique")
        graphs[method.graph_id] = {"path": method.graph_path, "description": method.description}
    return graphs


def graphs_in_config(path: str | Path) -> dict[str, Any]:
    """The "graphs" object of the langgraph.json at ``path``."""
    source = Path(path)
    try:
        config = json.loads(source.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise ValueError(f"{source} is not JSON: {exc}") from exc
    graphs = config.get("graphs") if isinstance(config, dict) else None
    if not isinstance(graphs, dict):
        raise ValueError(f"{source} has no \"graphs\" object")
    return graphs


def graph_problems(found: Mapping[str, Any], methods: Iterable[Method]) -> list[str]:
    """How ``found`` (a langgraph.json's "graphs") differs from ``methods``; empty when they agree."""
    wanted = langgraph_graphs(methods)
    problems = []
    for graph_id, entry in wanted.items():
        line = json.dumps({graph_id: entry}, ensure_ascii=False)[1:-1]
        if graph_id not in found:
            problems.append(f'langgraph.json lacks the graph {graph_id!r}: add to "graphs": {line}')
        elif found[graph_id] != entry:
            problems.append(f'langgraph.json\'s graph {graph_id!r} differs from its Method: make it {line}')
    for graph_id in found:
        if graph_id not in wanted:
            problems.append(
                f"langgraph.json serves {graph_id!r}, which no method in graphreason.workflows.methods.METHODS "
                "declares: remove it, or register its method"
            )
    return problems


def check_langgraph_json(path: str | Path, methods: Iterable[Method]) -> None:
    """Raise ``ValueError`` listing every fix when the file at ``path`` disagrees with ``methods``."""
    problems = graph_problems(graphs_in_config(path), methods)
    if problems:
        raise ValueError(f"{path} does not match the method registry:\n  " + "\n  ".join(problems))
