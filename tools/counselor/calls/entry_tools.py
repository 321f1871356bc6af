"""Graph Counselor's registry entries as LangChain tools: what its executor and tool-calling models invoke.

The tool builder is generic (:mod:`graphreason.tools.core.registry.tools`, reached
through :meth:`~graphreason.tools.core.registry.Registry.as_tools`); here it is bound to
Counselor's context, :class:`~graphreason.tools.counselor.functions.GraphFunctions`.
:func:`entry_tool` is one entry's tool over a ``GraphFunctions`` and
:class:`Toolbox` the executor's per-Action set of them, generated on first use.
A tool answers with ``content_and_artifact``: the observation text (what a
model sees) and the :class:`~graphreason.tools.core.registry.FunctionResult` behind it,
which the executor needs to nest calls. Nothing raises out of a tool: graph
errors, bad arguments and unexpected exceptions come back as text; an
unexpected exception is also the artifact, so the executor can report it as
its own.
"""

from __future__ import annotations

from langchain_core.tools import BaseTool

from graphreason.tools.core.registry import Entry
from graphreason.tools.core.registry import tools as _generic
from graphreason.tools.counselor.functions import GraphFunctions

__all__ = ["Toolbox", "entry_tool"]


def entry_tool(entry: Entry, functions: GraphFunctions, note: str = "") -> BaseTool:
    """The LangChain tool of one registry entry, run against ``functions`` (``note`` ends its description)."""
    return _generic.entry_tool(entry, functions, note)


class Toolbox(_generic.Toolbox):
    """The entry tools of ``functions.registry`` over ``functions`` (the executor's per-Action set)."""

    def __init__(self, functions: GraphFunctions) -> None:
        super().__init__(functions.registry, functions)
        self.functions = functions
