"""Runtime context of a Graph-ToolFormer run: the generator model, few-shot retrieval, execution limits.

Studio renders these fields as the assistant's configuration; the Python API
passes ``context=ToolformerContext(...)``; ``graphreason run toolformer``
generates its options from them.
"""

from __future__ import annotations

from dataclasses import dataclass

from graphreason.workflows.run_context import MAX_CLIENT_TOKENS, ModelName, RunContext, main_model, setting


@dataclass(kw_only=True)
class ToolformerContext(RunContext):
    """One Graph-ToolFormer run: generator model and prompt, execution limits (shared fields from RunContext)."""

    generator_model: ModelName = main_model("LM that rewrites the text with graph API calls in it")
    temperature: float = setting(
        0.0, "Sampling temperature of the generator (0: greedy, reproducible).", server_max=2.0
    )
    max_tokens: int = setting(
        160, "Token budget of the generated text (the paper caps it at 128 tokens).", server_max=MAX_CLIENT_TOKENS
    )
    tuned_generator: bool = setting(
        True,
        "With the embedded model, write the calls with the generator fine-tuned on our training split "
        "(local:smollm2-135m-toolformer: short prompt, no examples); off = the plain model, prompted few-shot.",
        negate="--no-tuned-generator",
    )
    grammar: bool = setting(
        True,
        "Constrain the tuned generator's decoding to the call grammar inside [...], so every call it "
        "writes parses (embedded engine only; off = free decoding).",
        negate="--no-grammar",
    )
    few_shot: int = setting(
        4,
        "Input/output examples shown to a prompted generator, retrieved from our training split of the "
        "prompts by embedding similarity to the input (0: none; the tuned generator takes none).",
        low=0, high=16,
    )
    execute_calls: bool = setting(
        True,
        "Run the generated calls (off = generate and parse only: scores call writing without the graph models).",
        negate="--no-execute",
    )
    max_calls: int = setting(64, "Most calls (inner ones included) one text may run.", low=1, high=1000)
    memory_capacity: int = setting(
        256, "Call results kept in working memory (first in, first out).", low=1, server_max=4096
    )
