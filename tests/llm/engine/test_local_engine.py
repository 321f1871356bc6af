"""Generation logic of the embedded model, driven by a scripted decoder and a character tokenizer.

The real model runs in tests/integration/test_local_model.py; here every token is chosen
by the test, so stop handling, budgets and accounting are checked exactly.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
import torch
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage

import graphreason.llm.engine.local_smollm as local
from graphreason.llm.engine.chatml import DEFAULT_SYSTEM_PROMPT, message_turns, render_chatml
from graphreason.llm.engine.local_smollm import LocalChatModel, LocalEngine
from graphreason.llm.engine.weights import LocalModelError, cache_is_current, find_gguf

SPECIALS = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]
VOCAB = SPECIALS + [chr(c) for c in range(32, 127)] + ["\n"]


@dataclass
class _Encoding:
    ids: list[int]


class CharTokenizer:
    """One token per character; the ChatML markers are single special tokens."""

    def encode(self, text: str) -> _Encoding:
        ids, i = [], 0
        while i < len(text):
            special = next((s for s in SPECIALS if text.startswith(s, i)), None)
            token = special or text[i]
            ids.append(VOCAB.index(token))
            i += len(token)
        return _Encoding(ids)

    def decode(self, ids: list[int], skip_special_tokens: bool = True) -> str:
        return "".join(VOCAB[i] for i in ids if not (skip_special_tokens and VOCAB[i] in SPECIALS))

    def token_to_id(self, token: str) -> int | None:
        return VOCAB.index(token) if token in VOCAB else None


class ScriptedDecoder:
    """Stands in for LlamaDecoder: its logits make ``reply`` the greedy continuation."""

    def __init__(self, reply: str, n_ctx: int = 256, end: bool = True) -> None:
        self.tokens = [VOCAB.index(ch) for ch in reply] + ([VOCAB.index("<|im_end|>")] if end else [])
        self.n_ctx = n_ctx
        self.calls: list[tuple[int, int]] = []  # (number of ids, start position)

    def __call__(self, ids: torch.Tensor, start: int) -> torch.Tensor:
        self.calls.append((ids.shape[0], start))
        step = len(self.calls) - 1
        logits = torch.zeros(len(VOCAB))
        logits[self.tokens[min(step, len(self.tokens) - 1)]] = 10.0
        return logits


def engine_for(reply: str, n_ctx: int = 256, end: bool = True) -> LocalEngine:
    return LocalEngine(ScriptedDecoder(reply, n_ctx, end), CharTokenizer(), "fp32")


USER = [("user", "hi")]


@pytest.fixture(autouse=True)
def _one_prefill_call(monkeypatch: pytest.MonkeyPatch) -> None:
    """Most tests count decoder calls: run each prompt in a single chunk."""
    monkeypatch.setattr(local, "PREFILL_CHUNK", 100_000)


def test_prompts_run_in_aligned_chunks_and_reuse_complete_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(local, "PREFILL_CHUNK", 8)
    engine = engine_for("ok")
    first = engine.generate([("user", "x" * 40 + " first question")], max_tokens=5)
    n_chunks = -(-first.prompt_tokens // 8)
    assert engine.decoder.calls[:n_chunks] == [
        (min(8, first.prompt_tokens - start), start) for start in range(0, first.prompt_tokens, 8)
    ]
    engine.decoder.calls.clear()
    engine.generate([("user", "x" * 40 + " other question")], max_tokens=5)
    resumed_at = engine.decoder.calls[0][1]
    assert resumed_at == engine.reused_tokens  # everything before it came from the cache
    assert resumed_at % 8 == 0 and resumed_at >= 40  # a chunk boundary inside the shared prefix


def test_render_chatml_opens_an_assistant_turn() -> None:
    text = render_chatml([("system", "be kind"), ("user", "hello")])
    assert (
        text
        == "<|im_start|>system\nbe kind<|im_end|>\n<|im_start|>user\nhello<|im_end|>\n<|im_start|>assistant\n"
    )
    assert render_chatml([("user", "x")], add_generation_prompt=False).endswith("<|im_end|>\n")


def test_message_turns_maps_roles_and_adds_the_default_system_prompt() -> None:
    call = {"name": "lookup", "args": {"node": "A"}, "id": "c1"}
    turns = message_turns(
        [
            HumanMessage(
                content=[{"type": "text", "text": "part one, "}, {"type": "text", "text": "part two"}]
            ),
            AIMessage(content="", tool_calls=[call]),
            ToolMessage(content="B, C", tool_call_id="c1"),
        ],
        DEFAULT_SYSTEM_PROMPT,
    )
    assert turns[0] == ("system", DEFAULT_SYSTEM_PROMPT)
    assert turns[1] == ("user", "part one, part two")
    assert turns[2] == ("assistant", '[{"name": "lookup", "arguments": {"node": "A"}}]')
    assert turns[3] == ("tool", "B, C")
    own_system = message_turns(
        [SystemMessage(content="mine"), HumanMessage(content="q")], DEFAULT_SYSTEM_PROMPT
    )
    assert own_system == [("system", "mine"), ("user", "q")]
    assert message_turns([HumanMessage(content="q")], None) == [("user", "q")]


def test_generation_stops_at_the_end_token() -> None:
    engine = engine_for("Paris.")
    result = engine.generate(USER, max_tokens=50)
    assert result.text == "Paris."
    assert result.finish_reason == "stop"
    assert result.completion_tokens == 6
    assert result.prompt_tokens == len(engine.encode(render_chatml(USER)))
    assert engine.decoder.calls[0] == (result.prompt_tokens, 0)  # one prefill, then one token at a time
    assert engine.decoder.calls[1:] == [(1, result.prompt_tokens + i) for i in range(6)]


def test_generation_stops_at_max_tokens_without_an_extra_forward() -> None:
    engine = engine_for("abcdefghij", end=False)
    result = engine.generate(USER, max_tokens=4)
    assert (result.text, result.finish_reason, result.completion_tokens) == ("abcd", "length", 4)
    assert len(engine.decoder.calls) == 4  # prefill + 3 steps: the 4th token needs no further logits


def test_stop_sequences_cut_and_strip_the_reply() -> None:
    engine = engine_for("Thought: go\nObservation: made up", end=False)
    result = engine.generate(USER, max_tokens=100, stop=["\nObservation:", "never"])
    assert result.text == "Thought: go"
    assert result.finish_reason == "stop"
    assert result.completion_tokens == len("Thought: go\nObservation:")


def test_earliest_stop_sequence_wins() -> None:
    result = engine_for("one two three").generate(USER, max_tokens=100, stop=["three", "two"])
    assert result.text == "one "


def test_long_prompts_keep_the_system_turn_and_drop_the_oldest_tokens() -> None:
    engine = engine_for("ok", n_ctx=64)
    turns = [("system", "S"), ("user", "x" * 80), ("assistant", "y"), ("user", "last question")]
    result = engine.generate(turns, max_tokens=8)
    prompt = engine.encode(render_chatml(turns))
    system = engine.encode(render_chatml(turns[:1], add_generation_prompt=False))
    budget = 64 - 8
    assert result.prompt_tokens == budget
    assert result.truncated_prompt_tokens == len(prompt) - budget
    ids, dropped = engine.fit_prompt(turns, max_tokens=8)
    assert ids[: len(system)] == system
    assert ids[len(system) :] == prompt[len(prompt) - (budget - len(system)) :]
    assert engine.decode(ids).endswith("last question\nassistant\n")
    assert dropped == result.truncated_prompt_tokens


def test_reply_room_is_capped_at_half_the_context() -> None:
    engine = engine_for("ok", n_ctx=64)
    ids, dropped = engine.fit_prompt([("user", "z" * 100)], max_tokens=1000)
    assert len(ids) == 32
    assert dropped > 0


def test_short_prompts_are_not_truncated() -> None:
    result = engine_for("ok").generate(USER, max_tokens=8)
    assert result.truncated_prompt_tokens == 0


def test_sampling_is_reproducible_with_a_seed() -> None:
    class Uniform(ScriptedDecoder):
        def __call__(self, ids: torch.Tensor, start: int) -> torch.Tensor:
            return torch.zeros(len(VOCAB))

    def sample(seed: int, top_p: float = 1.0) -> str:
        engine = LocalEngine(Uniform("", end=False), CharTokenizer(), "fp32")
        return engine.generate(USER, max_tokens=12, temperature=1.0, top_p=top_p, seed=seed).text

    assert sample(1) == sample(1)
    assert sample(1) != sample(2)


def test_top_p_keeps_only_the_likeliest_tokens() -> None:
    engine = engine_for("aaaa", end=False)
    result = engine.generate(USER, max_tokens=4, temperature=5.0, top_p=0.01, seed=3)
    assert result.text == "aaaa"


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"max_tokens": 0}, "max_tokens must be at least 1"),
        ({"top_p": 0.0}, r"top_p must be in \(0, 1\]"),
        ({"temperature": -1.0}, "temperature must be >= 0"),
    ],
)
def test_bad_generation_options_are_rejected(options: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        engine_for("x").generate(USER, **options)


def test_chat_model_reports_usage_and_finish_reason(monkeypatch: pytest.MonkeyPatch) -> None:
    engine = engine_for("Berlin.")
    monkeypatch.setattr(local, "get_engine", lambda n_ctx, precision, adapter=None: engine)
    model = LocalChatModel(temperature=0.0, max_tokens=20)
    reply = model.invoke("capital of Germany?")
    assert reply.content == "Berlin."
    prompt_tokens = len(
        engine.encode(render_chatml([("system", DEFAULT_SYSTEM_PROMPT), ("user", "capital of Germany?")]))
    )
    assert reply.usage_metadata == {
        "input_tokens": prompt_tokens,
        "output_tokens": 7,
        "total_tokens": prompt_tokens + 7,
    }
    assert reply.response_metadata["finish_reason"] == "stop"
    assert reply.response_metadata["truncated_prompt_tokens"] == 0


def test_chat_model_accepts_per_call_options_and_rejects_unknown_ones(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(local, "get_engine", lambda n_ctx, precision, adapter=None: engine_for("abcdef", end=False))
    model = LocalChatModel(temperature=0.0, max_tokens=20)
    assert model.invoke("q", max_tokens=3).content == "abc"
    with pytest.raises(ValueError, match="does not support tools"):
        model.invoke("q", tools=[])


def test_chat_model_validates_its_settings() -> None:
    with pytest.raises(ValueError, match="top_p"):
        LocalChatModel(top_p=1.5)
    with pytest.raises(ValueError, match="n_ctx"):
        LocalChatModel(n_ctx=100000)


def test_missing_gguf_override_is_reported(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    monkeypatch.setenv("GRAPHREASON_SMOLLM_GGUF", str(tmp_path / "absent.gguf"))
    with pytest.raises(LocalModelError, match="absent.gguf, which is not a file"):
        find_gguf()


def test_an_unfinished_cache_is_not_current(tmp_path) -> None:
    gguf = tmp_path / "model.gguf"
    gguf.write_bytes(b"GGUF")
    (tmp_path / "cache").mkdir()
    (tmp_path / "cache" / "model.safetensors").write_bytes(b"")
    assert not cache_is_current(tmp_path / "cache", gguf)


def test_streamed_pieces_join_to_the_reply_and_never_show_a_stop_sequence() -> None:
    engine = engine_for("Thought: go\nObservation: made up", end=False)
    pieces: list[str] = []
    result = engine.generate(USER, max_tokens=100, stop=["\nObservation:"], on_text=pieces.append)
    assert "".join(pieces) == result.text == "Thought: go"
    assert len(pieces) > 1  # sent as it was generated, not in one piece at the end
    assert all("\n" not in piece for piece in pieces)  # the held-back start of the stop sequence


def test_streaming_without_stop_sequences_sends_every_token() -> None:
    engine = engine_for("abc", end=True)
    pieces: list[str] = []
    result = engine.generate(USER, max_tokens=10, on_text=pieces.append)
    assert pieces == ["a", "b", "c"] and result.text == "abc"


def test_an_abandoned_stream_stops_generation_and_frees_the_engine() -> None:
    engine = engine_for("abcdefghij", end=False)

    def hang_up(_piece: str) -> None:
        raise ConnectionError("client went away")

    with pytest.raises(ConnectionError):
        engine.generate(USER, max_tokens=10, on_text=hang_up)
    assert engine._lock.acquire(blocking=False)  # the lock was released
    engine._lock.release()
    assert engine.generate(USER, max_tokens=3).completion_tokens == 3


def test_chat_model_streams_chunks_with_usage_last(monkeypatch: pytest.MonkeyPatch) -> None:
    engine = engine_for("Berlin.")
    monkeypatch.setattr(local, "get_engine", lambda n_ctx, precision, adapter=None: engine)
    chunks = list(LocalChatModel(temperature=0.0, max_tokens=20).stream("capital of Germany?"))
    assert "".join(c.content for c in chunks) == "Berlin."
    assert len([c for c in chunks if c.content]) >= 3  # piece by piece
    final = [c for c in chunks if c.usage_metadata]
    assert len(final) == 1 and not final[0].content  # usage comes once, after the text
    assert final[0].usage_metadata["output_tokens"] == 7
    assert final[0].response_metadata["finish_reason"] == "stop"
    whole = chunks[0]
    for chunk in chunks[1:]:
        whole += chunk
    assert whole.content == "Berlin." and whole.usage_metadata["output_tokens"] == 7


def test_shared_engines_belong_to_the_cache_folder_they_came_from(
    monkeypatch: pytest.MonkeyPatch, tmp_path
) -> None:
    """An engine converted under another GRAPHREASON_CACHE is never reused (order-independent tests)."""
    loads: list[str] = []

    def fake_load(n_ctx: int, precision: str, adapter: str | None = None) -> LocalEngine:
        loads.append(str(local.model_cache_dir()) + (f"+{adapter}" if adapter else ""))
        return engine_for("x")

    monkeypatch.setattr(local, "load_engine", fake_load)
    local.reset_engines()
    try:
        monkeypatch.setenv("GRAPHREASON_CACHE", str(tmp_path / "a"))
        first = local.get_engine(64, "int8")
        assert local.get_engine(64, "int8") is first
        monkeypatch.setenv("GRAPHREASON_CACHE", str(tmp_path / "b"))
        second = local.get_engine(64, "int8")
        assert second is not first
        assert loads == [
            str(tmp_path / "a" / "models" / "smollm2-135m"),
            str(tmp_path / "b" / "models" / "smollm2-135m"),
        ]
        tuned = local.get_engine(64, "int8", adapter="toolformer")  # a merged adapter is another engine
        assert tuned is not second and local.get_engine(64, "int8", adapter="toolformer") is tuned
        assert loads[-1] == str(tmp_path / "b" / "models" / "smollm2-135m") + "+toolformer"
        local.reset_engines()
        assert local.get_engine(64, "int8") is not second
    finally:
        local.reset_engines()


def test_first_conversion_says_what_it_does_and_where(
    monkeypatch: pytest.MonkeyPatch, tmp_path, capsys: pytest.CaptureFixture[str]
) -> None:
    gguf = tmp_path / "model.gguf"
    gguf.write_bytes(b"GGUF")
    monkeypatch.setenv("GRAPHREASON_SMOLLM_GGUF", str(gguf))
    monkeypatch.setenv("GRAPHREASON_CACHE", str(tmp_path / "cache"))

    def stop_here(_gguf, _folder) -> None:
        raise LocalModelError("conversion reached")

    monkeypatch.setattr(local, "convert_gguf", stop_here)
    with pytest.raises(LocalModelError, match="conversion reached"):
        local.load_engine(64, "int8")
    err = capsys.readouterr().err
    assert "converting model.gguf" in err
    assert str(tmp_path / "cache" / "models" / "smollm2-135m") in err
    assert "later starts" in err
