"""The graph a run reasons over, resolved from the runtime context."""

from __future__ import annotations

from graphreason.tools.counselor.call_examples import CallExample, call_example, vocabulary
from graphreason.tools.counselor.functions import GraphFunctions
from graphreason.tools.counselor.resources import get_graph_functions
from graphreason.workflows.counselor.context import CounselorContext


def graph_functions(context: CounselorContext) -> GraphFunctions:
    return get_graph_functions(context.graph, context.embedding_model, context.retrieval)


def graph_definition(context: CounselorContext) -> str:
    """The prompt's graph definition: node types, features and neighbor types in prose."""
    return graph_functions(context).store.describe()


def graph_example(context: CounselorContext) -> tuple[CallExample | None, str, str]:
    """A real example node plus the feature names and edge types, for the prompt's examples."""
    store = graph_functions(context).store
    features, relations = vocabulary(store)
    return call_example(store), features, relations
