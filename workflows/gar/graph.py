"""GraphAgent-Reasoner (compiled mode) as a LangGraph state machine.

    construct ─► retrieve ─► choose ─► execute ─► summarize ─► END
    (text or      (top-k      (master    (vertex      (answer in words
     structured    library     LLM: one   program or   + structured
     graph)        entries)    call)      bounded      answer)
                                          search)

The paper's master loop (Build_Graph, Design_Distributed_Algorithm,
Distributed_Execution, summary) as fixed steps: graph construction is
deterministic parsing, the master makes one call to choose among the
retrieved algorithms and confirm their parameters, the compiled engine runs
the six parts over all nodes, and the summary is formatted from the result.
"""

from __future__ import annotations

import time

from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime

from workflows.gar.choose import choose
from workflows.gar.construct import construct
from workflows.gar.context import GARContext
from workflows.gar.execute import execute
from workflows.gar.retrieve import retrieve
from workflows.gar.state import GARInput, GAROutput, GARState
from workflows.gar.summarize import summarize

RECURSION_LIMIT = 100


def start(state: GARState, runtime: Runtime[GARContext]) -> dict:
    return {"started": time.perf_counter(), "fallback_used": False, "rounds": 0}


def build_graph(checkpointer=None, *, name: str = "GraphAgent-Reasoner"):
    """Compile the workflow; pass a checkpointer (e.g. SqliteSaver) to make runs resumable."""
    builder = StateGraph(GARState, context_schema=GARContext, input_schema=GARInput, output_schema=GAROutput)
    builder.add_node("start", start)
    builder.add_node("construct", construct)
    builder.add_node("retrieve", retrieve)
    builder.add_node("choose", choose)
    builder.add_node("execute", execute)
    builder.add_node("summarize", summarize)
    builder.add_edge(START, "start")
    builder.add_edge("start", "construct")
    builder.add_edge("construct", "retrieve")
    builder.add_edge("retrieve", "choose")
    builder.add_edge("choose", "execute")
    builder.add_edge("execute", "summarize")
    builder.add_edge("summarize", END)
    # a straight line of six steps; the limit only guards against future loops (agent mode)
    return builder.compile(checkpointer=checkpointer, name=name).with_config(recursion_limit=RECURSION_LIMIT)


graph = build_graph()
