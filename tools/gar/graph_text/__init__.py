"""Turning graph-problem text (or a structured graph) into a graph: GAR's first layer.

``parse_graph_problem(text)`` reads the encodings of the graph-reasoning
literature; ``load_structured_graph(obj)`` takes dicts, networkx graphs, edge
files and arrays; ``detect_task(text)`` names the question's task.

Both readers take untrusted input: they raise nothing but :class:`GraphTextError`,
and refuse graphs over the node limit (``GRAPHREASON_MAX_NODES``, default
5,000,000; :func:`graphreason.settings.max_nodes`) before allocating anything that big.
"""

from graphreason.tools.gar.graph_text.parse import parse_graph_problem
from graphreason.tools.gar.graph_text.problem import (
    EdgeArray,
    GraphTextError,
    GraphTextUnreadable,
    ParsedProblem,
)
from graphreason.tools.gar.graph_text.structured import load_structured_graph
from graphreason.tools.gar.graph_text.tasks import TASKS, canonical_task, detect_task

__all__ = [
    "TASKS",
    "EdgeArray",
    "GraphTextError",
    "GraphTextUnreadable",
    "ParsedProblem",
    "canonical_task",
    "detect_task",
    "load_structured_graph",
    "parse_graph_problem",
]
