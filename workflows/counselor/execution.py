"""Execution agent: one Action - graph function call(s), or Finish with the answer.

Text path (``tool_calling="text"``, the default): the agent writes one Action
line, which the call parser reads (:mod:`graphreason.tools.counselor.calls`).

Native path (``tool_calling="native"``): the agent's model is bound with
``bind_tools`` to the registry's graph functions as LangChain tools
(:meth:`~graphreason.tools.core.registry.Registry.as_tools` over the run's
:class:`~graphreason.tools.counselor.functions.GraphFunctions`) plus Finish as
a tool schema that is read, never run. Its ``tool_calls`` are kept on the step
and run by :func:`run_tool_calls` in ``observe`` by invoking those tool
objects; their messages' texts become the Observation, fed back in the
scratchpad exactly where the text path puts its own. The Action line shows the
calls in bracket form (``Feature[12, title]``), so the scratchpad, the judge
and the reflector read the same trajectory either way. The rules of the text
path hold: Finish must stand alone, the w/o Complex ablation allows one call,
a placeholder answer is refused. A reply without a tool call is read as text:
a bracket Action or ``Finish[...]`` in it still runs, anything else is
corrected as in the text path.
"""

from __future__ import annotations

from typing import Any

from langchain_core.tools import BaseTool
from langgraph.runtime import Runtime

from graphreason.tools.core.registry import Entry, FunctionResult
from graphreason.tools.core.registry.tools import tool_name
from graphreason.tools.counselor.calls import is_placeholder_answer, parse_action, placeholder_message
from graphreason.tools.counselor.constraint import CounselorAction, planned_choice, question_wording
from graphreason.tools.counselor.functions import GraphFunctions
from graphreason.tools.counselor.skeleton import Skeleton
from graphreason.tools.counselor.wording import quoted_names
from graphreason.workflows.counselor.common import charge, emit, llm, next_index, role_prompt, shared_prompt
from graphreason.workflows.counselor.context import CounselorContext
from graphreason.workflows.counselor.operations import planned_skeletons
from graphreason.workflows.counselor.parsing import clean_line, regularize_answer
from graphreason.workflows.counselor.prompts import native_action_prompt
from graphreason.workflows.counselor.resources import graph_definition, graph_functions
from graphreason.workflows.counselor.state import CounselorState
from graphreason.workflows.kit.native import ask_with_tools, run_tool_call, terminal_schema

ACTION_STOPS = ["\nObservation", "\nPlan ", "\nThought "]


def act(state: CounselorState, runtime: Runtime[CounselorContext]) -> dict:
    ctx = runtime.context
    index = next_index(state)
    pending = dict(state.get("pending") or {"index": index})
    if ctx.tool_calling == "native":
        return _act_native(state, ctx, index, pending)
    prompt = role_prompt("action", index, state, ctx)
    # No blank-line stop here: a JSON-style call may span lines; the call parser
    # reads the raw reply and takes the first line that parses.
    text, usage = llm(
        ctx, "reasoner", prompt, stop=ACTION_STOPS, grammar=action_grammar(state, ctx),
        max_tokens=ctx.line_tokens("action") + name_tokens(state["question"]),
    )  # fmt: skip
    line = executed_text(text) or clean_line(text, "action")
    pending.update(index=index, action=line, raw_action=text)
    emit("action", line, state, index)
    return {"pending": charge(pending, usage), "usage": usage}


def name_tokens(question: str) -> int:
    """Tokens an Action needs beyond its budget to copy the names ``question`` quotes: a long title (CiteSeer holds
    titles of 400 characters) is copied whole into ``Retrieve[...]``; a token holds two characters or more."""
    return sum(len(name) for name in quoted_names(question)) // 2


def action_grammar(state: CounselorState, ctx: CounselorContext) -> CounselorAction | None:
    """The decoding constraint of one Action: the embedded reasoner with ``grammar`` on, else none.

    Node ids and search text may come from the question and this trial's observations; an Action this trial
    already ran is not written again (it would observe the same again), and once the skeleton's call ran without an
    error the Action is its Finish.
    """
    if not (ctx.grammar and ctx.embedded_reasoner):
        return None
    steps = state.get("steps") or []
    observations = [str(step.get("observation") or "") for step in steps]
    functions = graph_functions(ctx)
    return CounselorAction(
        functions.store, state["question"], observations, registry=functions.registry,
        compound=ctx.compound, max_depth=ctx.max_depth, skeleton=operation_skeleton(state["question"], ctx),
        done=[str(step.get("action") or "") for step in steps],
        answered=[str(step.get("action") or "") for step in steps if step.get("ok") is not False],
    )


def operation_skeleton(question: str, ctx: CounselorContext) -> Skeleton | None:
    """The operation planner's shape for the question's Action (:mod:`~graphreason.workflows.counselor.operations`):
    its likeliest skeleton that fits the question's words (a yes/no question, a count, a pick, a value matched, as
    many named nodes as names), or None when it is off, unsure, or names what this registry cannot build."""
    if ctx.operation_confidence <= 0:
        return None
    functions = graph_functions(ctx)
    wording = question_wording(functions.store, question)
    # the names it holds, masked for the planner: unquoted, every run of its words that may be a node's name
    ranked = planned_skeletons(wording.question, ctx.operation_confidence, wording.name_runs or wording.names)
    skeleton, share = planned_choice([(g.skeleton, g.probability) for g in ranked], wording, functions.registry)
    return skeleton if share >= ctx.operation_confidence else None


def executed_text(reply: str) -> str | None:
    """The calls the parser will run for ``reply``, rendered; None if it holds none.

    The parser may take a call from a later line than the first (prose often
    comes first), so the trace and the scratchpad show what is executed rather
    than the reply's first line.
    """
    try:
        return ", ".join(call.render() for call in parse_action(reply))
    except Exception:  # noqa: BLE001 - unreadable: observe() reports it as a corrective observation
        return None


# ------------------------------------------------------------------ native tool calling
def graph_tools(functions: GraphFunctions) -> list[BaseTool]:
    """The registry's non-terminal functions as tools over ``functions`` (descriptions end with the graph's schema)."""
    return functions.registry.as_tools(functions, note=f" Graph: {functions.store.describe()}")


def finish_entry(functions: GraphFunctions) -> Entry:
    """The registry's terminal entry (Finish)."""
    return next(entry for entry in functions.registry if entry.terminal)


def _act_native(state: CounselorState, ctx: CounselorContext, index: int, pending: dict) -> dict:
    functions = graph_functions(ctx)
    finish = finish_entry(functions)
    prompt = native_action_prompt(
        index, shared_prompt(state, ctx, graph_definition(ctx)), ctx.compound, tool_name(finish)
    )
    reply = ask_with_tools(
        ctx, ctx.model_of("reasoner"), prompt, [*graph_tools(functions), terminal_schema(finish)],
        stop=ACTION_STOPS, temperature=ctx.temperature_of("reasoner"), max_tokens=ctx.line_tokens("action"),
    )
    text = reply.text
    if reply.tool_calls:
        line = ", ".join(bracket_form(functions, call) for call in reply.tool_calls)
        pending.update(tool_calls=reply.tool_calls)
    elif reply.invalid:
        line = clean_line(text, "action") or "(an unreadable tool call)"
        pending.update(tool_problem=(
            f"Your tool call could not be read ({reply.invalid[0]}); nothing was executed. Call the graph "
            "functions as tools, with their arguments as a JSON object."
        ))
    else:  # no tool call: the reply is read as a text Action
        line = executed_text(text) or clean_line(text, "action")
    pending.update(index=index, action=line, raw_action=text)
    emit("action", line, state, index, tool_calls=len(reply.tool_calls))
    return {"pending": charge(pending, reply.usage), "usage": reply.usage}


def bracket_form(functions: GraphFunctions, call: dict[str, Any]) -> str:
    """A tool call as the bracket call it stands for: ``{"name": "feature", ...}`` -> ``Feature[12, title]``."""
    entry = _entry_of(functions, str(call.get("name")))
    args = call.get("args") or {}
    if entry is None:
        return f"{call.get('name')}[{', '.join(_shown(v) for v in args.values())}]"
    values = [args[p.name] for p in entry.params if args.get(p.name) is not None]
    return f"{entry.name}[{', '.join(_shown(v) for v in values)}]"


def _shown(value: Any) -> str:
    if isinstance(value, list | tuple):
        return "[" + ", ".join(str(v) for v in value) + "]"
    return str(value)


def _entry_of(functions: GraphFunctions, name: str) -> Entry | None:
    """The entry a tool name stands for (tool names are the entries' names in lower case)."""
    return next((entry for entry in functions.registry if tool_name(entry) == name), None)


def run_tool_calls(
    calls: list[dict[str, Any]], functions: GraphFunctions, *, allow_compound: bool
) -> tuple[str, bool, str | None]:
    """Run the native tool calls of one Action: (observation, ok, the answer when Finish was called).

    Each graph call is run by invoking its tool object; their observations are
    joined by single spaces, as the text path joins several calls. Never raises.
    """
    finish = finish_entry(functions)
    finishing = [call for call in calls if call.get("name") == tool_name(finish)]
    if finishing and len(calls) > 1:
        return (
            f"{finish.name} must be the only call in its Action; nothing was executed. Run the other calls "
            f"first, or call just {tool_name(finish)} with the answer.", False, None,
        )
    if finishing:
        args = finishing[0].get("args") or {}
        raw = args.get(finish.params[0].name) if finish.params else None
        if raw is None and len(args) == 1:  # the answer under another key
            raw = next(iter(args.values()))
        answer = regularize_answer(_shown(raw)) if raw not in (None, "") else ""
        if not answer:
            return f"{tool_name(finish)} needs the answer itself as its {finish.params[0].name}.", False, None
        if is_placeholder_answer(answer):
            return placeholder_message(answer), False, None
        return f"Answer is {answer}", True, answer
    if not allow_compound and len(calls) > 1:
        return (
            "Only one simple function call is allowed per Action: no several calls at once; nothing was "
            "executed. Call one function and use what it returns in the next Action.", False, None,
        )
    tools = graph_tools(functions)
    observations, ok = [], True
    for call in calls:
        text, artifact = run_tool_call(tools, call)
        observations.append(text)
        ok = ok and isinstance(artifact, FunctionResult) and artifact.ok
    return " ".join(observations), ok, None
