"""Registry entries as LangChain tools, for any registry and any context.

:func:`entry_tool` turns one non-terminal :class:`~graphreason.tools.core.registry.Entry`
into a ``StructuredTool`` run against a context object (anything satisfying
:class:`~graphreason.tools.core.registry.GraphContext`: Graph Counselor's
:class:`~graphreason.tools.counselor.functions.GraphFunctions`, Graph-ToolFormer's
:class:`~graphreason.tools.toolformer.registry.GRContext`, ...). The tool is built
from the entry alone:

* name: the entry's name in lower case, other characters than letters, digits,
  ``_`` and ``-`` replaced by ``_`` (``toolx:order`` -> ``toolx_order``);
* argument schema: one field per typed parameter, in order, each described by
  the parameter's description, typed by its kind's ``json_type``; optional
  parameters default to None;
* description: the entry's description (plus an optional ``note``, e.g. the
  graph's schema);
* ``response_format="content_and_artifact"``: the content is the observation
  text a model reads, the artifact the :class:`~graphreason.tools.core.registry.FunctionResult`
  (value, ok flag) a caller needs to nest calls. Invoked with a plain argument
  dict, a tool returns the text alone; with a tool call, a ``ToolMessage``
  carrying both.

Arguments reach :func:`~graphreason.tools.core.registry.apply` as every caller's do, so a
call gives the same result whichever way it arrives: the first argument passes
through unchanged (a list from an inner call is mapped over, as the entry's
``maps`` says), text arguments are read as text, other kinds pass through for
the implementation to check. A tool never raises: a graph error is the
observation (artifact: a result with ``ok=False``), arguments that do not fit
the schema get a message naming the expected call, and an unexpected exception
is reported as text and is itself the artifact, so an executor can word it.

:meth:`graphreason.tools.core.registry.Registry.as_tools` gives the tools of a
whole registry; :class:`Toolbox` is an executor's lazily built set of them.
The design follows neo4j-graphrag's ``convert_to_tool``: a declared function
description becomes a tool, instead of tools being written by hand.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Sequence
from typing import Annotated, Any

from langchain_core.tools import BaseTool, StructuredTool
from pydantic import BaseModel, BeforeValidator, Field, ValidationError, WithJsonSchema, create_model

from graphreason.tools.core.errors import GraphError
from graphreason.tools.core.registry.dispatch import FunctionResult, GraphContext, apply
from graphreason.tools.core.registry.entry import NODE, Entry, MapMode, Param
from graphreason.tools.core.registry.registry import Registry

__all__ = [
    "SubjectArg",
    "Text",
    "Toolbox",
    "args_schema",
    "call_entry",
    "call_name",
    "entry_tool",
    "failure_text",
    "fits",
    "invoke",
    "positional",
    "registry_tools",
    "tool_name",
    "usage",
    "validation_message",
]


def _as_text(value: Any) -> Any:
    # dispatch reads every argument after the first as text (models often send ids as JSON numbers)
    return value if isinstance(value, str) else str(value)


def _text_or_list(value: Any) -> Any:
    # a later node argument: a list from an inner call stays a list; one id is read as text
    return value if isinstance(value, (list, tuple)) else _as_text(value)


Text = Annotated[str, BeforeValidator(_as_text)]
_ONE_OR_MANY = {"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]}
# The first argument: a value or, from an inner call, a list; passed on as it came.
SubjectArg = Annotated[Any, WithJsonSchema(_ONE_OR_MANY)]
# How usage texts name the JSON types of parameters.
_PY_TYPES = {"string": "str", "integer": "int", "number": "float", "boolean": "bool"}


def tool_name(entry: Entry) -> str:
    """The entry's name as a tool name (providers accept letters, digits, ``_`` and ``-``)."""
    return re.sub(r"[^a-z0-9_-]+", "_", entry.name.lower()).strip("_") or "tool"


def _param_text(entry: Entry, index: int) -> str:
    param = entry.params[index]
    text = param.description or param.kind.description
    if index == 0 and entry.maps is not MapMode.NONE:
        text += " A list of them applies the function to each."
    return text


def _field_type(entry: Entry, index: int) -> Any:
    """The annotation of parameter ``index``: text is coerced to text, other kinds are only described."""
    json_type = entry.params[index].kind.json_type
    if index == 0:
        if json_type == "string":
            return SubjectArg
        one = {"type": json_type}
        many = {"anyOf": [one, {"type": "array", "items": one}]}
        return Annotated[Any, WithJsonSchema(one if entry.maps is MapMode.NONE else many)]
    if entry.params[index].kind is NODE and entry.maps is MapMode.NONE:  # one node, or a list (Intersect's second)
        return Annotated[Any, BeforeValidator(_text_or_list), WithJsonSchema(_ONE_OR_MANY)]
    if json_type == "string":
        return Text
    # passed through as given: the implementation checks it and says what it expected
    return Annotated[Any, WithJsonSchema({"type": json_type})]


@functools.cache  # entries are frozen; a schema is a class built once per entry
def args_schema(entry: Entry) -> type[BaseModel]:
    """A pydantic model with one field per parameter, in parameter order (optional ones default to None)."""
    fields: dict[str, Any] = {}
    for index, param in enumerate(entry.params):
        kind = _field_type(entry, index)
        default = None if param.optional else ...
        fields[param.name] = (
            kind | None if param.optional else kind,
            Field(default, description=_param_text(entry, index)),
        )
    title = "".join(word.capitalize() for word in re.split(r"[\W_]+", entry.name))
    return create_model(f"{title}Args", **fields)


def _shown_type(param: Param) -> str:
    return _PY_TYPES.get(param.kind.json_type, param.kind.json_type)


def usage(entry: Entry) -> str:
    """How the tool is called, for argument errors: ``feature(node: str, key: str)``."""
    return f"{tool_name(entry)}({', '.join(f'{p.name}: {_shown_type(p)}' for p in entry.params)})"


def validation_message(name: str, usage_text: str) -> Callable[[ValidationError], str]:
    """The observation for arguments that do not fit a tool's schema."""

    def explain(err: ValidationError) -> str:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or 'input'}: {e['msg']}" for e in err.errors()
        )
        return f"Invalid arguments for {name} ({problems}). Expected: {usage_text}."

    return explain


def failure_text(name: str, exc: Exception) -> str:
    """The observation for an unexpected exception inside a tool."""
    return f"{name} failed: {type(exc).__name__}: {exc}"


def positional(entry: Entry, kwargs: dict[str, Any]) -> list[Any]:
    """The arguments in parameter order, stopping at the first optional one left out."""
    values = []
    for param in entry.params:
        if kwargs.get(param.name) is None and param.optional:
            break
        values.append(kwargs[param.name])
    return values


def call_entry(entry: Entry, ctx: GraphContext, args: Sequence[Any]) -> FunctionResult:
    """:func:`apply` with graph errors as an ``ok=False`` result (message as observation); others raise."""
    try:
        return apply(entry, ctx, args)
    except GraphError as err:
        return FunctionResult(entry.name, None, str(err), ok=False, error=str(err))


def call_name(registry: Registry, ctx: GraphContext, name: str, args: Sequence[Any]) -> FunctionResult:
    """Like :func:`call_entry` for a name (any spelling); an unknown name is an ``ok=False`` result too."""
    try:
        return apply(registry.get(name), ctx, args)
    except GraphError as err:
        return FunctionResult(name, None, str(err), ok=False, error=str(err))


def entry_tool(entry: Entry, ctx: GraphContext, note: str = "") -> BaseTool:
    """The LangChain tool of one non-terminal entry, run against ``ctx`` (``note`` ends its description)."""
    if entry.terminal:
        raise ValueError(f"{entry.name} is terminal: it ends the task and is not offered as a tool")
    name = tool_name(entry)

    def run(**kwargs: Any) -> tuple[str, Any]:
        try:
            result = call_entry(entry, ctx, positional(entry, kwargs))
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


def registry_tools(entries: Iterable[Entry], ctx: GraphContext, note: str = "") -> list[BaseTool]:
    """One tool per non-terminal entry, in order; two entries whose tool names clash are refused."""
    tools: list[BaseTool] = []
    owners: dict[str, str] = {}
    for entry in entries:
        if entry.terminal:
            continue
        tool = entry_tool(entry, ctx, note)
        if tool.name in owners:
            raise ValueError(f"{entry.name} and {owners[tool.name]} would both be the tool {tool.name!r}")
        owners[tool.name] = entry.name
        tools.append(tool)
    return tools


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
    """The tools of ``registry`` over ``ctx``, each generated on first use (an executor's per-run set)."""

    def __init__(self, registry: Registry, ctx: GraphContext) -> None:
        self.registry = registry
        self.ctx = ctx
        self._tools: dict[str, BaseTool] = {}
        self._calls = 0

    def tool(self, entry: Entry) -> BaseTool:
        """The tool of ``entry`` (built once)."""
        if entry.name not in self._tools:
            self._tools[entry.name] = entry_tool(entry, self.ctx)
        return self._tools[entry.name]

    def apply(self, name: str, values: list[Any]) -> FunctionResult:
        """Apply function ``name`` to evaluated ``values`` through its tool.

        A call no tool can take (unknown name, a terminal entry, the wrong
        number of arguments) runs nothing: the registry's dispatch words the
        error, naming what is valid, exactly as for any other caller. An
        unexpected exception inside the tool is raised again.
        """
        entry = self.registry.find(name)
        if entry is None or not fits(entry, len(values)):
            return call_name(self.registry, self.ctx, name, values)
        self._calls += 1
        return invoke(self.tool(entry), entry, values, f"call-{self._calls}")
