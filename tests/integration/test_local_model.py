"""The embedded SmolLM2-135M-Instruct, for real: stop sequences, budgets, usage, caching, streaming.

Greedy text differs between CPUs (docs/embedded_model.md), so nothing here asserts
what the model says; the tests check properties that hold on every machine. The
first run converts the GGUF into the model cache; every test gets the engine through
``get_engine``, which converts into the current ``GRAPHREASON_CACHE`` if needed, so
no test depends on a warm cache or on another test having run first.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
import torch

from graphreason.llm.engine.local_smollm import LocalChatModel, get_engine, load_engine
from graphreason.llm.engine.weights import cache_is_current, find_gguf, model_cache_dir
from tests.conftest import SlowChild

pytestmark = [pytest.mark.integration, pytest.mark.heavy]


@pytest.fixture(scope="module")
def greedy() -> LocalChatModel:
    return LocalChatModel(temperature=0.0, max_tokens=24)


def test_the_converted_model_knows_a_well_known_fact(greedy: LocalChatModel) -> None:
    """A broken conversion gives noise; a working one ranks the obvious next word near the top.

    Across the kernels and calibrations measured in docs/embedded_model.md this token
    stayed first with a margin of several logits, so a top-5 rank is machine-proof.
    """
    engine = get_engine(greedy.n_ctx, greedy.precision)
    prompt = engine.encode(
        "<|im_start|>user\nWhat is the capital of France?<|im_end|>\n"
        "<|im_start|>assistant\nThe capital of France is"
    )
    with engine._lock:  # the decoder's KV cache is shared with generate()
        engine._cached = []
        logits = engine.decoder(torch.tensor(prompt), 0)
    paris = engine.encode(" Paris")[0]
    assert paris in logits.topk(5).indices.tolist()


def test_a_reply_ends_by_itself_with_consistent_usage(greedy: LocalChatModel) -> None:
    reply = greedy.invoke("What is the capital of France?", max_tokens=64)
    usage = reply.usage_metadata
    assert reply.content.strip()
    assert 0 < usage["output_tokens"] <= 64
    assert usage["total_tokens"] == usage["input_tokens"] + usage["output_tokens"]
    assert reply.response_metadata["finish_reason"] in ("stop", "length")
    assert (reply.response_metadata["finish_reason"] == "length") == (usage["output_tokens"] == 64)
    assert reply.response_metadata["threads"] == torch.get_num_threads()


def test_stop_sequence_ends_the_reply_and_is_removed(greedy: LocalChatModel) -> None:
    question = "Count from 1 to 10, separated by commas."
    full = greedy.invoke(question).content
    assert len(full.strip()) >= 4
    # A stop sequence taken from the reply itself exists on every machine, whatever the wording.
    stop = full[len(full) // 2 : len(full) // 2 + 2]
    reply = greedy.invoke(question, stop=[stop])
    assert reply.content == full[: full.index(stop)]
    assert stop not in reply.content
    assert reply.response_metadata["finish_reason"] == "stop"


def test_generation_stops_at_max_tokens(greedy: LocalChatModel) -> None:
    reply = greedy.invoke("Write a long story about a dragon.", max_tokens=6)
    usage = reply.usage_metadata
    assert usage["output_tokens"] <= 6
    assert (reply.response_metadata["finish_reason"] == "length") == (usage["output_tokens"] == 6)
    assert usage["input_tokens"] > 20  # the default system turn plus the question
    assert usage["total_tokens"] == usage["input_tokens"] + usage["output_tokens"]


def test_sampling_with_a_seed_is_reproducible() -> None:
    model = LocalChatModel(temperature=1.0, top_p=0.95, max_tokens=12, seed=123)
    first = model.invoke("Name a colour.").content
    assert model.invoke("Name a colour.").content == first
    assert first.strip()


def test_streaming_gives_the_same_reply_in_pieces(greedy: LocalChatModel) -> None:
    question = "Count from 1 to 10, separated by commas."
    whole = greedy.invoke(question)
    stop = whole.content[len(whole.content) // 2 :][:2]
    chunks = list(greedy.stream(question, stop=[stop]))
    pieces = [c.content for c in chunks if c.content]
    assert len(pieces) > 1
    assert "".join(pieces) == whole.content[: whole.content.index(stop)]
    assert [c.response_metadata["finish_reason"] for c in chunks if c.usage_metadata] == ["stop"]


def test_second_load_uses_the_cache(greedy: LocalChatModel) -> None:
    shared = get_engine(greedy.n_ctx, greedy.precision)  # converts into this cache if needed
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


def _digests(folder: Path) -> dict[str, str]:
    """sha256 of every converted file except meta.json, which records the GGUF's path."""
    return {
        str(path.relative_to(folder)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(folder.rglob("*"))
        if path.is_file() and path.name != "meta.json"
    }


def test_conversion_depends_only_on_the_gguf(scalar_conversion: SlowChild) -> None:
    """A child process with other kernels (scalar, not AVX2) and one thread converts to the same bytes.

    It also shows that the first conversion announces itself on stderr. The child
    (``scalar_conversion`` in conftest.py) converts into an empty cache of its own; it
    was started beside the demo's child, so it may well have finished already.
    """
    get_engine()  # the cache of this process, converted here if it was empty
    child = scalar_conversion.result()
    assert child.returncode == 0, child.stderr[-3000:]
    other = scalar_conversion.workdir / "cache" / "models" / "smollm2-135m"
    assert f"converting {find_gguf().name} into {other}" in child.stderr
    assert _digests(other) == _digests(model_cache_dir())
