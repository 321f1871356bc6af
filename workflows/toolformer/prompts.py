"""The generator's prompt: what the call language is, a few retrieved examples, then the input.

The paper's fine-tuned model maps input to output with no instruction, and so
does ours: the embedded model with the shipped generator adapter
(``local:smollm2-135m-toolformer``) was trained on :func:`tuned_prompt` alone.
A model used by few-shot prompting needs the instruction and the examples. The
examples are real training pairs chosen by similarity to the input, so the
model sees the exact call it should copy most of the time.
"""

from __future__ import annotations

from collections.abc import Sequence

INSTRUCTION = """Rewrite the input as one sentence that contains a graph API call in square brackets.
Calls: GL("dataset") loads a graph; GR(graph, "domain:function", arguments) reasons on it.
End a call with -->r where its result should appear in the sentence. Replace [TBR] with the call.
Copy the input's wording and ids exactly. Write only the output sentence."""


def example_block(pairs: Sequence[tuple[str, str]]) -> str:
    return "\n\n".join(f"Input: {source}\nOutput: {target}" for source, target in pairs)


def generation_prompt(text: str, pairs: Sequence[tuple[str, str]]) -> str:
    """The whole prompt for one input (the reply is read up to its first line break)."""
    parts = [INSTRUCTION]
    if pairs:
        parts.append(example_block(pairs))
    parts.append(f"Input: {text.strip()}\nOutput:")
    return "\n\n".join(parts)


def tuned_prompt(text: str) -> str:
    """The prompt the tuned generator was trained on (``graphreason train generator --prompt-form short``).

    Training and generation must send the same text: change it only together
    with a newly trained adapter.
    """
    return f"Input: {text.strip()}\nOutput:"
