"""The graph a run reasons over, resolved from the runtime context."""

from __future__ import annotations

from tools.functions import GraphFunctions
from tools.resources import get_graph_functions
from workflows.counselor.context import CounselorContext


def graph_functions(context: CounselorContext) -> GraphFunctions:
    return get_graph_functions(context.graph, context.embedding_model)


def graph_definition(context: CounselorContext) -> str:
    """The prompt's graph definition: node types, features and neighbor types in prose."""
    return graph_functions(context).store.describe()
