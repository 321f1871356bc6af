"""GraphAgent as a LangGraph state machine (the paper's Algorithm 1).

    start ─► retrieve_experience ─► replay ─► decide ─► review ──answer──► answer ─► finish ─► END
                                                ▲           │ command (or correction)
                                                │           ▼
                                 decisions left └── summarise ◄── execute
                                                        └──T_max──► finish

retrieve_experience: the top-k past episodes by sim + T_i/alpha; replay: their <=100-word lessons
(cached); summarise: the short-term memory (4,000 words); finish: the usage and, at T_max, the
fallback label.

One decision per loop; a refused reply is corrected in ``execute`` and counts
as a step, exactly like a command. ``review`` pauses for a human to approve or
edit the decided command when the context asks for it (``review_actions``);
otherwise it passes through.
"""

from __future__ import annotations

from langgraph.graph import END, START, StateGraph

from graphreason.workflows.graphagent.context import GraphAgentContext
from graphreason.workflows.graphagent.decide import after_decide, decide
from graphreason.workflows.graphagent.execute import execute
from graphreason.workflows.graphagent.experience import replay, retrieve_experience
from graphreason.workflows.graphagent.finish import answer, finish
from graphreason.workflows.graphagent.review import review
from graphreason.workflows.graphagent.start import start
from graphreason.workflows.graphagent.state import GraphAgentInput, GraphAgentOutput, GraphAgentState
from graphreason.workflows.graphagent.summarise import after_summarise, summarise
from graphreason.workflows.kit.compile import add_nodes, compile_workflow


def recursion_limit(context: GraphAgentContext) -> int:
    """LangGraph's super-step limit for one run, from its T_max: four per decision (decide, review,
    execute, summarise), plus start, experience retrieval and replay, answer and finish."""
    return _budget_limit(context.max_steps)


def _budget_limit(decisions: int) -> int:
    return 4 * decisions + 6


# the compiled default (server runs): the limit at the largest T_max a context accepts (50)
RECURSION_LIMIT = _budget_limit(50)


def build_graph(checkpointer=None, *, name: str = "GraphAgent"):
    """Compile the workflow; pass a checkpointer to make runs resumable."""
    builder = StateGraph(
        GraphAgentState, context_schema=GraphAgentContext, input_schema=GraphAgentInput,
        output_schema=GraphAgentOutput,
    )
    add_nodes(builder, start, retrieve_experience, replay, decide, review, execute, summarise, answer, finish)
    builder.add_edge(START, "start")
    builder.add_edge("start", "retrieve_experience")
    builder.add_edge("retrieve_experience", "replay")
    builder.add_edge("replay", "decide")
    builder.add_edge("decide", "review")
    builder.add_conditional_edges("review", after_decide, {"answer": "answer", "execute": "execute"})
    builder.add_edge("execute", "summarise")
    builder.add_conditional_edges("summarise", after_summarise, {"decide": "decide", "finish": "finish"})
    builder.add_edge("answer", "finish")
    builder.add_edge("finish", END)
    return compile_workflow(builder, name=name, recursion_limit=RECURSION_LIMIT, checkpointer=checkpointer)


graph = build_graph()
