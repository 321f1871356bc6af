"""The declared tool registry: every graph function an agent may call, written once.

Layout:

* :mod:`graphreason.tools.core.registry.entry` - :class:`Entry` (name, aliases, typed
  :class:`Param` list, description, list mapping, verbatim flag, implementation
  and observation rendering) and the shared parameter kinds (``NODE``,
  ``RELATION``, ``FEATURE_KEY``, ``TEXT``, ``ANSWER``, ``VALUES``);
* :mod:`graphreason.tools.core.registry.registry` - :class:`Registry` (``register``, ``get``,
  ``find``, ``names``, iteration) and the errors for unknown names;
* :mod:`graphreason.tools.core.registry.dispatch` - :func:`apply`, the one path from an entry
  and evaluated arguments to a :class:`FunctionResult`;
* :mod:`graphreason.tools.core.registry.tools` - entries as LangChain tools run against a
  :class:`GraphContext` (:meth:`Registry.as_tools`, and the executors' ``Toolbox``).

A method's vocabulary is a :class:`Registry` filled in one module (Graph
Counselor's: :mod:`graphreason.tools.counselor.registry`). Everything that reads or
runs calls consults a registry instead of naming functions: the bracket and
JSON parsers (:mod:`graphreason.tools.counselor.calls`), the executor, :class:`~graphreason.tools.counselor.functions.GraphFunctions`
and the generated LangChain tools (:meth:`Registry.as_tools`; Counselor's set in
:mod:`graphreason.tools.counselor.calls.entry_tools`). Graph-ToolFormer's GR vocabulary
(:mod:`graphreason.tools.toolformer.registry`) is a registry too, and its workflow
runs every GR call as one of those tools. A new function is one
:meth:`Registry.register` call.
"""

from graphreason.tools.core.registry.dispatch import FunctionResult, GraphContext, apply
from graphreason.tools.core.registry.entry import (
    ANSWER,
    FEATURE_KEY,
    NODE,
    RELATION,
    TEXT,
    VALUES,
    Applied,
    Entry,
    MapMode,
    Param,
    ParamKind,
)
from graphreason.tools.core.registry.registry import (
    FunctionCallError,
    Registry,
    UnknownFunctionError,
    normalize,
)

__all__ = [
    "ANSWER",
    "FEATURE_KEY",
    "NODE",
    "RELATION",
    "TEXT",
    "VALUES",
    "Applied",
    "Entry",
    "FunctionCallError",
    "FunctionResult",
    "GraphContext",
    "MapMode",
    "Param",
    "ParamKind",
    "Registry",
    "UnknownFunctionError",
    "apply",
    "normalize",
]
