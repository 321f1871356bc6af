"""Graph Counselor end to end with the embedded SmolLM2 model and the real minilm retriever.

By default the reasoning agents run the tuned reasoner (the shipped LoRA adapter, merged
once per cache) on its short prompt; the judge and reflector run the plain model.
A 135M model often answers wrongly, so this checks the run, not the answer:
every role is called, every step carries plan / thought / action / observation,
every Action (decoded under the call grammar, on by default) parses,
a rejected or unfinished trial leads to a reflection and a second trial, and the
usage adds up. Every reply, the reflection's included, gets a small token budget:
the checks are about the run's shape, and a 320-token reflection only costs time.
The model is converted at most once per session (``cache_sharing_the_model``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from graphreason.tools.counselor.calls import parse_action
from graphreason.workflows.counselor import CounselorContext, solve

pytestmark = [pytest.mark.integration, pytest.mark.heavy]
FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "mini_academic.json"


def test_full_counselor_run_with_the_embedded_model(cache_sharing_the_model):
    ctx = CounselorContext(
        graph=str(FIXTURE), max_steps=1, max_reflections=1, max_tokens=48, reflection_max_tokens=48, seed=7
    )
    assert ctx.tuned_spec == "local:smollm2-135m-counselor" and ctx.short_prompt
    out = solve("Who wrote the paper Sparse coding of natural images?", ctx)
    trials = out["trials"]
    assert 1 <= len(trials) <= 2
    for trial in trials:
        for step in trial["steps"]:
            assert {"plan", "thought", "action", "observation"} <= step.keys()
            assert step["llm_calls"] == 3 and step["output_tokens"] > 0
            assert parse_action(step["action"])  # the grammar lets through only Actions that parse
    if len(trials) == 2:  # the first trial was rejected or ran out of steps
        assert len(out["reflections"]) == 1 and out["reflections"][0]
    assert out["usage"]["llm_calls"] >= 3 and out["usage"]["input_tokens"] > out["usage"]["output_tokens"]
