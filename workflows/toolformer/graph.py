"""Graph-ToolFormer as a LangGraph state machine (the paper's Fig. 3, inference side).

    start ─► generate ─► parse ─► execute ─► post_process ─► END
             (LM writes     (grammar    (GL via the data hub,   (-->r results into
              the calls;     reads      GR via the registry:    the text; background
              skipped for    every      toolx and trained       calls leave it)
              annotated      bracket)   graph models; working
              input)                    memory caches calls)

One pass, no loop: the paper's executor runs the parsed calls once.
"""

from __future__ import annotations

from langgraph.graph import END, START, StateGraph

from graphreason.workflows.inputs import bounded_state
from graphreason.workflows.kit.compile import add_nodes, compile_workflow
from graphreason.workflows.toolformer.context import ToolformerContext
from graphreason.workflows.toolformer.execute import execute
from graphreason.workflows.toolformer.generate import generate, start
from graphreason.workflows.toolformer.parse import parse
from graphreason.workflows.toolformer.post_process import post_process
from graphreason.workflows.toolformer.state import (
    MAX_TEXT_CHARS,
    ToolformerInput,
    ToolformerOutput,
    ToolformerState,
)

RECURSION_LIMIT = 25


def build_graph(checkpointer=None, *, name: str = "Graph-ToolFormer"):
    """Compile the workflow; pass a checkpointer to make runs resumable."""
    builder = StateGraph(
        ToolformerState, context_schema=ToolformerContext, input_schema=ToolformerInput,
        output_schema=ToolformerOutput,
    )
    add_nodes(
        builder, start, generate, parse, execute, post_process, check=bounded_state("text", MAX_TEXT_CHARS)
    )
    builder.add_edge(START, "start")
    builder.add_edge("start", "generate")
    builder.add_edge("generate", "parse")
    builder.add_edge("parse", "execute")
    builder.add_edge("execute", "post_process")
    builder.add_edge("post_process", END)
    return compile_workflow(builder, name=name, recursion_limit=RECURSION_LIMIT, checkpointer=checkpointer)


graph = build_graph()
