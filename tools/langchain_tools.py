"""The graph functions as LangChain tools (for tool-calling chat models).

``make_graph_tools`` returns five ``StructuredTool`` objects: ``retrieve``,
``feature``, ``neighbour``, ``degree`` and ``graph_call`` (a whole bracket
expression, nesting and several calls allowed). Each returns the observation
string. Nothing raises out of a tool: graph errors, bad arguments and even
unexpected exceptions come back as text the model can act on.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from langchain_core.tools import BaseTool, StructuredTool
from pydantic import BaseModel, BeforeValidator, Field, ValidationError

from tools.calls import SYNTAX_HELP, run_action
from tools.functions import GraphFunctions


def _as_text(value: Any) -> Any:
    # models often send ids as JSON numbers; ids are strings in the store
    return str(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else value


Text = Annotated[str, BeforeValidator(_as_text)]


class RetrieveArgs(BaseModel):
    text: Text = Field(description="Keywords or a name/title to search for by meaning (not a node id).")


class FeatureArgs(BaseModel):
    node: Text = Field(description="Node id, e.g. one returned by retrieve or neighbour.")
    key: Text = Field(description="Feature name, e.g. title or name.")


class NeighbourArgs(BaseModel):
    node: Text = Field(description="Node id.")
    relation: Text = Field(description="Edge type (neighbor type), e.g. cites or written_by.")


class GraphCallArgs(BaseModel):
    action: Text = Field(
        description="A bracket expression, e.g. Feature[Neighbour[Retrieve[graph agents], cites], title]."
    )


def _validation_message(tool_name: str, usage: str) -> Callable[[ValidationError], str]:
    def explain(err: ValidationError) -> str:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or 'input'}: {e['msg']}" for e in err.errors()
        )
        return f"Invalid arguments for {tool_name} ({problems}). Expected: {usage}."

    return explain


def _safe(name: str, func: Callable[..., str]) -> Callable[..., str]:
    """Turn any unexpected exception into an observation (the tool contract is: never raise)."""

    def run(**kwargs: Any) -> str:
        try:
            return func(**kwargs)
        except Exception as exc:  # noqa: BLE001
            return f"{name} failed: {type(exc).__name__}: {exc}"

    return run


def make_graph_tools(functions: GraphFunctions) -> list[BaseTool]:
    """LangChain tools over ``functions``; each returns the observation text."""
    graph_note = f" Graph: {functions.store.describe()}"
    specs = [
        (
            "retrieve",
            RetrieveArgs,
            lambda text: functions.call("Retrieve", text).observation,
            "Find the id of the node whose text is most similar to `text` (similarity search "
            "over names/titles, not an id lookup). Returns one node id.",
            "retrieve(text: str)",
        ),
        (
            "feature",
            FeatureArgs,
            lambda node, key: functions.call("Feature", node, key).observation,
            "Read one feature (e.g. title, name) of a node given its id.",
            "feature(node: str, key: str)",
        ),
        (
            "neighbour",
            NeighbourArgs,
            lambda node, relation: functions.call("Neighbour", node, relation).observation,
            "List the ids of all neighbours of a node along one edge type.",
            "neighbour(node: str, relation: str)",
        ),
        (
            "degree",
            NeighbourArgs,
            lambda node, relation: functions.call("Degree", node, relation).observation,
            "Count the neighbours of a node along one edge type.",
            "degree(node: str, relation: str)",
        ),
        (
            "graph_call",
            GraphCallArgs,
            lambda action: run_action(action, functions).observation,
            "Run graph functions written as a bracket expression; calls may be nested and an outer "
            "call maps over a list returned by an inner one. " + SYNTAX_HELP,
            "graph_call(action: str), e.g. action='Feature[12, title]'",
        ),
    ]
    return [
        StructuredTool.from_function(
            func=_safe(name, func),
            name=name,
            description=description + graph_note,
            args_schema=schema,
            handle_tool_error=True,
            handle_validation_error=_validation_message(name, usage),
        )
        for name, schema, func, description, usage in specs
    ]
