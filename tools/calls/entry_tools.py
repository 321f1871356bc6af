"""Registry entries as LangChain tools: the runnables the executor and tool-calling models both invoke.

:func:`entry_tool` generates one ``StructuredTool`` per non-terminal registry
entry: the name is the entry's in lower case, the argument schema comes from
its typed parameters and the description from the entry. A tool answers with
``content_and_artifact``: the observation text (what a model sees) and the
:class:`~tools.registry.FunctionResult` behind it (value, ok flag), which the
executor needs to nest calls. Invoked with a plain argument dict, a tool
returns the text alone; with a tool call, a ``ToolMessage`` carrying both.

Arguments are taken as the registry's dispatch takes them, so a call gives the
same observation whichever way it arrives: the first argument passes through
unchanged (a list from an inner call is mapped over, as the entry's ``maps``
says; ids sent as JSON numbers are resolved like text), the others are read as
text. Nothing raises out of a tool: graph errors, bad arguments and unexpected
exceptions come back as text; an unexpected exception is also the artifact, so
the executor can report it as its own.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Annotated, Any

from langchain_core.tools import BaseTool, StructuredTool
from pydantic import BaseModel, BeforeValidator, Field, ValidationError, WithJsonSchema, create_model

from tools.functions import GraphFunctions
from tools.registry import Entry, FunctionResult, MapMode


def _as_text(value: Any) -> Any:
    # dispatch reads every argument after the first as text (models often send ids as JSON numbers)
    return value if isinstance(value, str) else str(value)


Text = Annotated[str, BeforeValidator(_as_text)]
# The first argument: a value or, from an inner call, a list; passed on as it came.
SubjectArg = Annotated[
    Any, WithJsonSchema({"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]})
]


def tool_name(entry: Entry) -> str:
    """The entry's name as a tool name (providers accept letters, digits, ``_`` and ``-``)."""
    return re.sub(r"[^a-z0-9_-]+", "_", entry.name.lower()).strip("_") or "tool"


def _param_text(entry: Entry, index: int) -> str:
    param = entry.params[index]
    text = param.description or param.kind.description
    if index == 0 and entry.maps is not MapMode.NONE:
        text += " A list of them applies the function to each."
    return text


@functools.cache  # entries are frozen; a schema is a class built once per entry
def args_schema(entry: Entry) -> type[BaseModel]:
    """A pydantic model with one field per parameter, in parameter order (optional ones default to None)."""
    fields: dict[str, Any] = {}
    for index, param in enumerate(entry.params):
        kind: Any = SubjectArg if index == 0 else Text
        default = None if param.optional else ...
        fields[param.name] = (
            kind | None if param.optional else kind,
            Field(default, description=_param_text(entry, index)),
        )
    title = "".join(word.capitalize() for word in re.split(r"[\W_]+", entry.name))
    return create_model(f"{title}Args", **fields)


def usage(entry: Entry) -> str:
    """How the tool is called, for argument errors: ``feature(node: str, key: str)``."""
    return f"{tool_name(entry)}({', '.join(f'{p.name}: str' for p in entry.params)})"


def validation_message(name: str, usage_text: str) -> Callable[[ValidationError], str]:
    """The observation for arguments that do not fit a tool's schema."""

    def explain(err: ValidationError) -> str:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or 'input'}: {e['msg']}" for e in err.errors()
        )
        return f"Invalid arguments for {name} ({problems}). Expected: {usage_text}."

    return explain


def failure_text(name: str, exc: Exception) -> str:
    return f"{name} failed: {type(exc).__name__}: {exc}"


def positional(entry: Entry, kwargs: dict[str, Any]) -> list[Any]:
    """The arguments in parameter order, stopping at the first optional one left out."""
    values = []
    for param in entry.params:
        if kwargs.get(param.name) is None and param.optional:
            break
        values.append(kwargs[param.name])
    return values


def entry_tool(entry: Entry, functions: GraphFunctions, note: str = "") -> BaseTool:
    """The LangChain tool of one registry entry, run against ``functions`` (``note`` ends its description)."""
    name = tool_name(entry)

    def run(**kwargs: Any) -> tuple[str, Any]:
        try:
            result = functions.call(entry.name, *positional(entry, kwargs))
        except Exception as exc:  # noqa: BLE001 - the tool contract is: never raise
            return failure_text(name, exc), exc
        return result.observation, result

    return StructuredTool.from_function(
        func=run,
        name=name,
        description=entry.description + note,
        args_schema=args_schema(entry),
        response_format="content_and_artifact",
        handle_tool_error=True,
        handle_validation_error=validation_message(name, usage(entry)),
    )


def fits(entry: Entry, count: int) -> bool:
    """Whether ``count`` positional arguments can be a call of the entry's tool."""
    return not entry.terminal and entry.required <= count <= len(entry.params)


def invoke(tool: BaseTool, entry: Entry, values: list[Any], call_id: str) -> FunctionResult:
    """Run ``tool`` on positional ``values`` as a tool call; its artifact is the result.

    An unexpected exception inside the tool is raised again here, so the
    caller reports it in its own words.
    """
    args = {param.name: value for param, value in zip(entry.params, values, strict=False)}
    message = tool.invoke({"type": "tool_call", "name": tool.name, "args": args, "id": call_id})
    artifact = getattr(message, "artifact", None)
    if isinstance(artifact, Exception):
        raise artifact
    if isinstance(artifact, FunctionResult):
        return artifact
    text = str(getattr(message, "content", message))  # the schema refused the arguments
    return FunctionResult(entry.name, None, text, ok=False, error=text)


class Toolbox:
    """The entry tools of ``functions.registry``, generated on first use (the executor's per-Action set)."""

    def __init__(self, functions: GraphFunctions) -> None:
        self.functions = functions
        self._tools: dict[str, BaseTool] = {}
        self._calls = 0

    def tool(self, entry: Entry) -> BaseTool:
        if entry.name not in self._tools:
            self._tools[entry.name] = entry_tool(entry, self.functions)
        return self._tools[entry.name]

    def apply(self, name: str, values: list[Any]) -> FunctionResult:
        """Apply function ``name`` to evaluated ``values`` through its tool.

        A call no tool can take (unknown name, a terminal entry, the wrong
        number of arguments) runs nothing: the registry's dispatch words the
        error, naming what is valid, exactly as for any other caller.
        """
        entry = self.functions.registry.find(name)
        if entry is None or not fits(entry, len(values)):
            return self.functions.call(name, *values)
        self._calls += 1
        return invoke(self.tool(entry), entry, values, f"call-{self._calls}")
