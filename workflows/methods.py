"""Every method of the project: one line each (see :class:`graphreason.workflows.method.Method`)."""

from __future__ import annotations

from graphreason.workflows.counselor import METHOD as COUNSELOR
from graphreason.workflows.gar import METHOD as GAR
from graphreason.workflows.graphagent import METHOD as GRAPHAGENT
from graphreason.workflows.method import Method
from graphreason.workflows.toolformer import METHOD as TOOLFORMER

METHODS: tuple[Method, ...] = (COUNSELOR, GAR, TOOLFORMER, GRAPHAGENT)


def method_named(name: str) -> Method:
    """The method called ``name`` (its CLI name or its graph id)."""
    for method in METHODS:
        if name in (method.name, method.graph_id):
            return method
    raise KeyError(f"unknown method {name!r}; choose one of {', '.join(m.name for m in METHODS)}")
