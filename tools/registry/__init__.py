"""The declared tool registry: every graph function an agent may call, written once.

Layout:

* :mod:`tools.registry.entry` - :class:`Entry` (name, aliases, typed
  :class:`Param` list, description, list mapping, verbatim flag, implementation
  and observation rendering) and the shared parameter kinds (``NODE``,
  ``RELATION``, ``FEATURE_KEY``, ``TEXT``, ``ANSWER``);
* :mod:`tools.registry.registry` - :class:`Registry` (``register``, ``get``,
  ``find``, ``names``, iteration) and the errors for unknown names;
* :mod:`tools.registry.dispatch` - :func:`apply`, the one path from an entry
  and evaluated arguments to a :class:`FunctionResult`.

A method's vocabulary is a :class:`Registry` filled in one module (Graph
Counselor's: :mod:`tools.graph_functions_registry`). Everything that reads or
runs calls consults a registry instead of naming functions: the bracket and
JSON parsers (:mod:`tools.calls`), the executor, :class:`~tools.functions.GraphFunctions`
and the generated LangChain tools (:mod:`tools.langchain_tools`). A new
function is one :meth:`Registry.register` call.
"""

from tools.registry.dispatch import FunctionResult, GraphContext, apply
from tools.registry.entry import (
    ANSWER,
    FEATURE_KEY,
    NODE,
    RELATION,
    TEXT,
    Applied,
    Entry,
    MapMode,
    Param,
    ParamKind,
)
from tools.registry.registry import FunctionCallError, Registry, UnknownFunctionError, normalize

__all__ = [
    "ANSWER",
    "FEATURE_KEY",
    "NODE",
    "RELATION",
    "TEXT",
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
