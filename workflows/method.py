"""What a method is, to everything outside its package: one :class:`Method` value.

Each ``workflows/<method>/__init__.py`` exports ``METHOD``; :mod:`graphreason.workflows.methods`
lists them (one line each). The CLI builds ``run`` / ``eval`` / ``train`` from the list,
``langgraph.json`` is checked against it and the server-trust tests run every
method's context, so a new method is its own package plus that one line.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Example:
    """One input a method answers offline (a scripted model, the hash encoder): what generic tests run it on.

    ``text`` goes in as a chat message, ``context`` is the run's context, and the answer message
    must start with ``answer``.
    """

    text: str
    context: Any
    answer: str


@dataclass(frozen=True)
class Method:
    """One method, as the CLI, the server config and the tests see it.

    ``package`` is the method's package (``__name__`` in its ``__init__.py``); its
    compiled graph is ``graph`` in the package's ``graph`` module unless ``graph``
    names another ``module:attribute`` (imported only when used, so listing methods
    stays cheap). The CLI looks for the method's command-line hooks in
    ``graphreason.cli.methods.<name>`` (or in ``cli``, when given; see
    :mod:`graphreason.cli.methods` for the hooks it may define); a method without
    such a module is driven by the generic ``graphreason run NAME``.

    ``example`` gives one input the method answers offline; the generic tests (the chat channel, the
    state schema) run a method on it, so a new method needs no entry in their tables.

    ``stream_solve`` takes the input's fields as keyword arguments, plus
    ``context`` (an instance of ``context``) and ``on_event`` (called with each
    custom stream event), and returns the run's final state: the generic
    ``graphreason run NAME`` calls it that way.
    """

    name: str  # the CLI's method name: ``graphreason run NAME``
    graph_id: str  # the graph's key in langgraph.json (what Studio and the server call it)
    description: str  # one line: langgraph.json's description and the CLI's help
    package: str  # the method's package, e.g. "graphreason.workflows.gar"
    context: type  # the runtime context class (a RunContext subclass)
    input_schema: type  # the pydantic model of one input
    solve: Callable[..., dict[str, Any]]
    stream_solve: Callable[..., dict[str, Any]]
    graph: str = ""  # "module:attribute" of the compiled StateGraph; default: PACKAGE.graph:graph
    cli: str | None = None  # module of the CLI hooks; default: graphreason.cli.methods.NAME, if it exists
    example: Callable[[], Example] | None = None  # an offline example input, for the generic tests

    @property
    def graph_ref(self) -> str:
        """The compiled graph as ``module:attribute``."""
        return self.graph or f"{self.package}.graph:graph"

    @property
    def cli_module(self) -> str:
        """The module the CLI looks in for this method's hooks (it may not exist)."""
        return self.cli or f"graphreason.cli.methods.{self.name}"

    @property
    def graph_path(self) -> str:
        """The graph as langgraph.json names it: the module's file relative to the repository root."""
        module, attribute = self.graph_ref.split(":")
        parts = module.split(".")
        if (
            parts[0] == "graphreason"
            and len(parts) > 1
            and parts[1] in {"llm", "tools", "memory", "workflows", "evals"}
        ):
            parts = parts[1:]
        return "./" + "/".join(parts) + ".py:" + attribute

    def compiled_graph(self) -> Any:
        """The compiled graph (imports the method's graph module)."""
        module, attribute = self.graph_ref.split(":")
        return getattr(importlib.import_module(module), attribute)
