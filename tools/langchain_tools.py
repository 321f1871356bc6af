"""The registry's graph functions as LangChain tools (for tool-calling chat models).

:func:`make_graph_tools` generates one ``StructuredTool`` per non-terminal
entry of ``functions.registry`` (for Graph Counselor: ``retrieve``,
``feature``, ``neighbour``, ``degree``): the name is the entry's in lower
case, the argument schema comes from its typed parameters and the description
from the entry plus the graph's schema. A tool runs
``functions.call(entry.name, ...)``, the very path the bracket executor
takes, so what a workflow can call and what a tool can call is the registry.
One more tool, ``graph_call``, runs a whole bracket expression (nesting and
several calls allowed). Terminal entries (Finish) are not tools: a
tool-calling agent ends by answering.

Nothing raises out of a tool: graph errors, bad arguments and even unexpected
exceptions come back as text the model can act on.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Annotated, Any

from langchain_core.tools import BaseTool, StructuredTool
from pydantic import BaseModel, BeforeValidator, Field, ValidationError, create_model

from tools.calls import SYNTAX_HELP, run_action
from tools.functions import GraphFunctions
from tools.registry import Entry


def _as_text(value: Any) -> Any:
    # models often send ids as JSON numbers; ids are strings in the store
    return str(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else value


Text = Annotated[str, BeforeValidator(_as_text)]


class GraphCallArgs(BaseModel):
    action: Text = Field(
        description="A bracket expression, e.g. Feature[Neighbour[Retrieve[graph agents], cites], title]."
    )


def tool_name(entry: Entry) -> str:
    """The entry's name as a tool name (providers accept letters, digits, ``_`` and ``-``)."""
    return re.sub(r"[^a-z0-9_-]+", "_", entry.name.lower()).strip("_") or "tool"


def args_schema(entry: Entry) -> type[BaseModel]:
    """A pydantic model with one text field per parameter, in parameter order."""
    fields: dict[str, Any] = {
        p.name: (Text, Field(description=p.description or p.kind.description)) for p in entry.params
    }
    title = "".join(word.capitalize() for word in re.split(r"[\W_]+", entry.name))
    return create_model(f"{title}Args", **fields)


def _usage(entry: Entry) -> str:
    return f"{tool_name(entry)}({', '.join(f'{p.name}: str' for p in entry.params)})"


def _validation_message(name: str, usage: str) -> Callable[[ValidationError], str]:
    def explain(err: ValidationError) -> str:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or 'input'}: {e['msg']}" for e in err.errors()
        )
        return f"Invalid arguments for {name} ({problems}). Expected: {usage}."

    return explain


def _safe(name: str, func: Callable[..., str]) -> Callable[..., str]:
    """Turn any unexpected exception into an observation (the tool contract is: never raise)."""

    def run(**kwargs: Any) -> str:
        try:
            return func(**kwargs)
        except Exception as exc:  # noqa: BLE001
            return f"{name} failed: {type(exc).__name__}: {exc}"

    return run


def _tool(
    name: str, func: Callable[..., str], description: str, schema: type[BaseModel], usage: str
) -> BaseTool:
    return StructuredTool.from_function(
        func=_safe(name, func),
        name=name,
        description=description,
        args_schema=schema,
        handle_tool_error=True,
        handle_validation_error=_validation_message(name, usage),
    )


def entry_tool(entry: Entry, functions: GraphFunctions, note: str = "") -> BaseTool:
    """The LangChain tool of one registry entry, run against ``functions``."""

    def run(**kwargs: Any) -> str:
        return functions.call(entry.name, *(kwargs[p.name] for p in entry.params)).observation

    return _tool(tool_name(entry), run, entry.description + note, args_schema(entry), _usage(entry))


def make_graph_tools(functions: GraphFunctions) -> list[BaseTool]:
    """LangChain tools over ``functions``: one per graph function of its registry, plus ``graph_call``."""
    note = f" Graph: {functions.store.describe()}"
    tools = [entry_tool(entry, functions, note) for entry in functions.registry if not entry.terminal]
    tools.append(
        _tool(
            "graph_call",
            lambda action: run_action(action, functions).observation,
            "Run graph functions written as a bracket expression; calls may be nested and an outer "
            "call maps over a list returned by an inner one. " + SYNTAX_HELP + note,
            GraphCallArgs,
            "graph_call(action: str), e.g. action='Feature[12, title]'",
        )
    )
    return tools
