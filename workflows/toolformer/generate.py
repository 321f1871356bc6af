"""LLM generation (the paper's module 1): the input rewritten with graph API calls in it.

With the embedded model the default generator is the tuned one
(``local:smollm2-135m-toolformer``, the shipped LoRA adapter merged in): it gets
the short prompt it was trained on and no examples, and its decoding is held
to the call grammar inside ``[...]`` (``grammar``, on by default), so every call
it writes parses and names only node ids copied from the input. Any other chat model works
by few-shot prompting (:mod:`graphreason.workflows.toolformer.prompts`, examples from
:mod:`graphreason.workflows.toolformer.examples`). The reply is untrusted:
only its first non-empty line is kept, a leading ``Output:`` is dropped, and
an empty reply leaves the input unchanged (with a note) instead of failing.
"""

from __future__ import annotations

import time
from typing import Any

from langgraph.runtime import Runtime

from graphreason.tools.toolformer.calls.constraint import ToolformerCalls
from graphreason.tools.toolformer.calls.known_names import known_names
from graphreason.workflows.kit.chat import input_from_chat
from graphreason.workflows.kit.events import emit
from graphreason.workflows.kit.llm import ask_role
from graphreason.workflows.models.factory import tuned_local_spec, tuned_model_spec
from graphreason.workflows.toolformer.context import ToolformerContext
from graphreason.workflows.toolformer.prompts import generation_prompt, tuned_prompt
from graphreason.workflows.toolformer.state import ToolformerState, checked_text


def clean_reply(reply: str) -> str:
    """The generated sentence: first non-empty line, without an echoed ``Output:`` label."""
    for line in reply.splitlines():
        line = line.strip()
        if line.lower().startswith("output:"):
            line = line[len("output:") :].strip()
        if line:
            return line
    return ""


TUNED_SPEC = tuned_model_spec("toolformer")


def tuned_spec(model: Any, use_tuned: bool) -> str | None:
    """The tuned generator's spec when it writes the calls for ``model``, else None (see ``tuned_local_spec``)."""
    return tuned_local_spec(model, use_tuned, "toolformer")


def start(state: ToolformerState, runtime: Runtime[ToolformerContext]) -> dict[str, Any]:
    """Check the text (or take a chat client's last message as it) before any model or graph work."""
    text = input_from_chat(state, "text")
    if not isinstance(text, str):
        raise ValueError("the input has no 'text': send {\"text\": \"...\"} (or the text as a human message)")
    # a thread may hold an earlier run's state: clear what later steps read
    return {"text": checked_text(text), "started": time.perf_counter(), "results": [], "calls": [],
            "parse_errors": [], "examples": []}


def generate(state: ToolformerState, runtime: Runtime[ToolformerContext]) -> dict[str, Any]:
    text = state["text"]
    context = runtime.context
    if state.get("has_calls"):  # the text already holds its calls: nothing to generate
        return {"annotated": text, "trace": [{"step": "generate", "skipped": True}]}
    examples = []
    tuned = tuned_spec(context.generator_model, context.tuned_generator)
    if tuned:
        prompt = tuned_prompt(text)
    else:
        if context.few_shot:
            from graphreason.workflows.toolformer.examples import (
                example_index,  # reads the prompt files once per process
            )

            examples = example_index(context.embedding_model).nearest(text, context.few_shot)
        prompt = generation_prompt(text, [(e.input, e.output) for e in examples])
    constrained = bool(tuned) and context.grammar
    reply = ask_role(
        context, tuned or context.generator_model, prompt, stop=["\nInput:", "\n\n"],
        call_options={"grammar": ToolformerCalls(source=text, min_calls=1, names=known_names())} if constrained else None,
        temperature=context.temperature, max_tokens=context.max_tokens,
    )
    annotated = clean_reply(reply.text)
    note: dict[str, Any] = {
        "step": "generate", "generator": "tuned" if tuned else "prompted", "grammar": constrained,
        "examples": [e.id for e in examples],
    }
    if constrained:
        note["constrained_tokens"] = reply.constrained_tokens  # 0: the grammar changed nothing
    if not annotated:
        annotated = text
        note["note"] = "the generator wrote nothing; the input is used as it is"
    emit("generated", annotated)
    return {
        "annotated": annotated,
        "examples": [e.id for e in examples],
        "llm_usage": reply.usage(),
        "trace": [note],
    }
