"""Helpers shared by the Counselor role nodes: LLM calls with accounting, events, scratchpad."""

from __future__ import annotations

from typing import Any

from graphreason.workflows.counselor.context import CounselorContext
from graphreason.workflows.counselor.prompts import reasoning_prompt, step_prompt
from graphreason.workflows.counselor.resources import graph_definition, graph_example, graph_functions
from graphreason.workflows.counselor.state import CounselorState, Step, Usage
from graphreason.workflows.counselor.tuned import tuned_prompt
from graphreason.workflows.kit.events import emit as kit_emit
from graphreason.workflows.kit.llm import ask_role

# Cut generation where the next protocol line would start: one line per agent.
STEP_STOPS = ["\nObservation", "\nPlan ", "\nThought ", "\nAction ", "\n\n"]


def llm(
    context: CounselorContext,
    role: str,
    prompt: str,
    *,
    stop: list[str] | None = None,
    max_tokens: int | None = None,
    grammar: Any = None,
) -> tuple[str, Usage]:
    """Run one role's model on a single-message prompt; return text and usage.

    ``grammar`` (a decoding constraint) is passed to the embedded model only.
    """
    reply = ask_role(
        context,
        context.model_of(role),
        prompt,
        stop=stop,
        call_options={"grammar": grammar} if grammar is not None else None,
        temperature=context.temperature_of(role),
        max_tokens=max_tokens or context.line_tokens("action"),
    )
    return reply.text, reply.usage()


def charge(step: dict, usage: Usage) -> dict:
    """Add one call's usage to a step's own counters (the trace keeps tokens and time per step)."""
    for key in ("llm_calls", "input_tokens", "output_tokens", "llm_seconds"):
        step[key] = step.get(key, 0) + usage.get(key, 0)
    return step


def emit(event: str, text: str, state: CounselorState, step: int | None = None, **extra: Any) -> None:
    """Stream a custom event tagged with the trial and step it belongs to (see :func:`graphreason.workflows.kit.events.emit`)."""
    kit_emit(event, text, trial=state.get("trial_index", 0), step=step, **extra)


def render_scratchpad(steps: list[Step], pending: Step | None = None, with_plan: bool = True) -> str:
    """Interleaved ``Plan i / Thought i / Action i / Observation i`` lines of the current trial."""
    lines: list[str] = []
    for step in [*steps, *([pending] if pending else [])]:
        i = step["index"]
        for key, label in (
            ("plan", "Plan"),
            ("thought", "Thought"),
            ("action", "Action"),
            ("observation", "Observation"),
        ):
            if key == "plan" and not with_plan:
                continue
            if key in step:
                lines.append(f"{label} {i}: {step[key]}")
    return "\n".join(lines)


def role_prompt(role: str, index: int, state: CounselorState, context: CounselorContext) -> str:
    """The prompt of one reasoning line: the paper's prompt, or the tuned reasoner's short one (``short_prompt``)."""
    if context.short_prompt:
        pending = state.get("pending")
        return tuned_prompt(
            role, index, state["question"], graph_functions(context).store,
            [*(state.get("steps") or []), *([pending] if pending else [])],
            lessons=reflections_in_force(state, context), with_plan=context.planner_on, form=context.prompt_form,
        )  # fmt: skip
    return step_prompt(role, index, shared_prompt(state, context, graph_definition(context)))


def reflections_in_force(state: CounselorState, context: CounselorContext) -> list[str]:
    """Every reflection so far, or only the latest (``reflection_policy="replace"``)."""
    reflections = list(state.get("reflections") or [])
    return reflections[-1:] if context.reflection_policy == "replace" else reflections


def shared_prompt(state: CounselorState, context: CounselorContext, graph_definition: str) -> str:
    """The reasoning prompt with the current scratchpad and the reflections in force."""
    reflections = reflections_in_force(state, context)
    example, features, relations = graph_example(context)
    return reasoning_prompt(
        question=state["question"],
        graph_definition=graph_definition,
        scratchpad=render_scratchpad(state.get("steps") or [], state.get("pending"), context.planner_on),
        reflections=reflections,
        with_plan=context.planner_on,
        compound=context.compound,
        example=example,
        features=features,
        relations=relations,
    )


def next_index(state: CounselorState) -> int:
    return len(state.get("steps") or []) + 1
