"""GraphAgent-Reasoner as a LangGraph state machine.

    construct ─► retrieve ─► choose ─┬─► execute ─────────────► summarize ─► END
      │  ▲                          │   (library entry: vertex   ▲ ▲
      ▼  │                          │    program or bounded      │ │
    parse_with_llm                  │    search)                 │ │
    (parser read no edges:          ├─► node_agents ─────────────┘ │
     the master writes JSON)        │   (agents mode: the node-    │
                                    │    agent subgraph)           │
                                    └─► design ─► test_design ─────┘
                                        (no entry fits: the master writes
                                         the six parts; checked, sandboxed,
                                         repaired on failure)

The paper's master loop (Build_Graph, Design_Distributed_Algorithm,
Distributed_Execution, summary): graph construction is deterministic parsing
with an LLM reading as fallback; the master makes one call to choose among the
retrieved algorithms and confirm their parameters, or asks for a new design;
the compiled engine (or the node agents, a subgraph of their own) runs the six
parts over all nodes; the summary is formatted from the result.
"""

from __future__ import annotations

import time

from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime

from graphreason.workflows.gar.choose import choose
from graphreason.workflows.gar.construct import after_construct, construct
from graphreason.workflows.gar.context import GARContext
from graphreason.workflows.gar.design.master import after_design, after_test, design, test_design
from graphreason.workflows.gar.execute import execute, node_agents, runs_with_agents
from graphreason.workflows.gar.llm_parse import parse_with_llm
from graphreason.workflows.gar.prompts import DESIGN_NEW
from graphreason.workflows.gar.retrieve import retrieve
from graphreason.workflows.gar.state import GARInput, GAROutput, GARState
from graphreason.workflows.gar.summarize import summarize
from graphreason.workflows.inputs import bounded_state, question_of
from graphreason.workflows.kit.compile import add_nodes, compile_workflow

RECURSION_LIMIT = 100
# a problem's text holds its whole graph; 2 million characters is about 150,000 edges written as (u,v)
MAX_QUESTION_CHARS = 2_000_000


def start(state: GARState, runtime: Runtime[GARContext]) -> dict:
    # a clear QuestionError instead of a KeyError further on; a chat client's question becomes the field
    question = question_of(state, MAX_QUESTION_CHARS)
    # a thread may hold an earlier run's state: clear what the routing reads
    return {
        "question": question,
        "started": time.perf_counter(),
        "fallback_used": False,
        "rounds": 0,
        "parse_error": "",
        "design_attempt": 0,
        "design_feedback": "",
        "design_status": "",
        "design_source": "",
    }


def after_choose(state: GARState, runtime: Runtime[GARContext]) -> str:
    """Run the chosen library entry (compiled, searched or with node agents), or design a new algorithm.

    A new algorithm is designed when the master found no library entry fitting.
    """
    if state["algorithm"] == DESIGN_NEW:
        return "design"
    return "node_agents" if runs_with_agents(state["algorithm"], runtime.context) else "execute"


def build_graph(checkpointer=None, *, name: str = "GraphAgent-Reasoner"):
    """Compile the workflow; pass a checkpointer (e.g. SqliteSaver) to make runs resumable."""
    builder = StateGraph(GARState, context_schema=GARContext, input_schema=GARInput, output_schema=GAROutput)
    add_nodes(
        builder,
        start,
        construct,
        parse_with_llm,
        retrieve,
        choose,
        execute,
        node_agents,
        design,
        test_design,
        summarize,
        check=bounded_state("question", MAX_QUESTION_CHARS),
    )
    builder.add_edge(START, "start")
    builder.add_edge("start", "construct")
    builder.add_conditional_edges("construct", after_construct, ["parse_with_llm", "retrieve"])
    builder.add_edge("parse_with_llm", "retrieve")
    builder.add_edge("retrieve", "choose")
    builder.add_conditional_edges("choose", after_choose, ["design", "execute", "node_agents"])
    builder.add_edge("execute", "summarize")
    builder.add_edge("node_agents", "summarize")
    builder.add_conditional_edges("design", after_design, ["test_design", "summarize"])
    builder.add_conditional_edges("test_design", after_test, ["design", "summarize"])
    builder.add_edge("summarize", END)
    # the only loop is design <-> test_design, bounded by design_attempts
    return compile_workflow(builder, name=name, recursion_limit=RECURSION_LIMIT, checkpointer=checkpointer)


graph = build_graph()
