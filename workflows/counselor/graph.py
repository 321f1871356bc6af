"""Graph Counselor as a LangGraph state machine.

    start ─► plan ─► think ─► act ─► review ─► observe ─┬─► plan (next step)
                                                          ├─► judge ─► close_trial   (Finish[...])
                                                          └─► close_trial            (T steps used)
    close_trial ─┬─► reflect ─► next_trial ─► plan   (rejected, reflections left)
                 └─► finish ─► END
    start ─► answer_directly ─► close_trial           (base mode: no graph)

The inner loop is the paper's AGIEM (plan, thought, action, observation); the
outer loop is self-reflection steered by the judge. Graph-CoT mode and the
w/o Plan ablation skip ``plan``; ``no_reflection`` and ``graph_cot`` skip judge
and reflection. ``review`` pauses for a human to approve or edit the Action
when the context asks for it (``review_actions``); otherwise it passes through.

Native tool calling (``tool_calling="native"``) keeps this graph: ``act``
binds the registry's tools to the execution agent's model and keeps its tool
calls on the step, and ``observe`` runs them through the tool objects (see
:mod:`graphreason.workflows.counselor.execution`), so Studio shows the same
nodes whichever way the Action is written.
"""

from __future__ import annotations

from typing import Literal

from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime

from graphreason.workflows.counselor.base_answer import answer_directly
from graphreason.workflows.counselor.context import SERVER_MAX_REFLECTIONS, SERVER_MAX_STEPS, CounselorContext
from graphreason.workflows.counselor.execution import act
from graphreason.workflows.counselor.judge import judge
from graphreason.workflows.counselor.observe import observe
from graphreason.workflows.counselor.planner import plan
from graphreason.workflows.counselor.reflector import reflect
from graphreason.workflows.counselor.review import review
from graphreason.workflows.counselor.state import CounselorInput, CounselorOutput, CounselorState
from graphreason.workflows.counselor.thought import think
from graphreason.workflows.counselor.trials import MAX_QUESTION_CHARS, close_trial, finish, next_trial, start
from graphreason.workflows.inputs import bounded_state
from graphreason.workflows.kit.compile import add_nodes, compile_workflow


def _first_step(
    state: CounselorState, runtime: Runtime[CounselorContext]
) -> Literal["plan", "think", "answer_directly"]:
    if runtime.context.mode == "base":
        return "answer_directly"
    return "plan" if runtime.context.planner_on else "think"


def _after_observe(
    state: CounselorState, runtime: Runtime[CounselorContext]
) -> Literal["plan", "think", "judge", "close_trial"]:
    ctx = runtime.context
    if state.get("finished"):
        return "judge" if ctx.reflection_on else "close_trial"
    if len(state.get("steps") or []) >= ctx.max_steps:
        return "close_trial"
    return "plan" if ctx.planner_on else "think"


def _after_trial(state: CounselorState, runtime: Runtime[CounselorContext]) -> Literal["reflect", "finish"]:
    ctx = runtime.context
    if ctx.reflection_on and not state.get("accepted") and state.get("trial_index", 0) < ctx.max_reflections:
        return "reflect"
    return "finish"


def _after_next_trial(state: CounselorState, runtime: Runtime[CounselorContext]) -> Literal["plan", "think"]:
    return "plan" if runtime.context.planner_on else "think"


def build_graph(checkpointer=None, *, name: str = "Graph Counselor"):
    """Compile the workflow; pass a checkpointer (e.g. SqliteSaver) to make runs resumable."""
    builder = StateGraph(
        CounselorState,
        context_schema=CounselorContext,
        input_schema=CounselorInput,
        output_schema=CounselorOutput,
    )
    add_nodes(
        builder,
        start,
        plan,
        think,
        act,
        review,
        observe,
        judge,
        close_trial,
        reflect,
        next_trial,
        answer_directly,
        finish,
        check=bounded_state("question", MAX_QUESTION_CHARS),
    )

    builder.add_edge(START, "start")
    builder.add_conditional_edges("start", _first_step)
    builder.add_edge("plan", "think")
    builder.add_edge("think", "act")
    builder.add_edge("act", "review")
    builder.add_edge("review", "observe")
    builder.add_conditional_edges("observe", _after_observe)
    builder.add_edge("judge", "close_trial")
    builder.add_edge("answer_directly", "close_trial")
    builder.add_conditional_edges("close_trial", _after_trial)
    builder.add_edge("reflect", "next_trial")
    builder.add_conditional_edges("next_trial", _after_next_trial)
    builder.add_edge("finish", END)
    # Loops are bounded by max_steps and max_reflections; LangGraph's recursion guard is set from that
    # budget (recursion_limit), so a loop that outran its bounds would still be stopped.
    return compile_workflow(builder, name=name, recursion_limit=RECURSION_LIMIT, checkpointer=checkpointer)


def recursion_limit(context: CounselorContext) -> int:
    """LangGraph's super-step limit for one run, from the run's own budget.

    Five super-steps per step (plan, thought, action, review, observation),
    four per trial around them (judge or direct answer, close, reflect, next
    trial) and four for the start and the end: a run that needs more has a bug
    in its bounds.
    """
    return _budget_limit(context.max_steps, context.max_reflections)


def _budget_limit(steps: int, reflections: int) -> int:
    trials = reflections + 1
    return 5 * steps * trials + 4 * trials + 4


# The compiled default (server runs, which name no per-run limit): the guard for the largest budget a server
# client may ask for (50 steps, 5 reflections). solve() and stream_solve() pass their run's own limit.
RECURSION_LIMIT = _budget_limit(SERVER_MAX_STEPS, SERVER_MAX_REFLECTIONS)


graph = build_graph()
