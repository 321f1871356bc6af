"""A cancelled served run stops the embedded engine at its next token, invoked or streamed."""

from __future__ import annotations

import contextvars
import threading
import time
from types import SimpleNamespace

import pytest
import torch

import graphreason.llm.engine.local_smollm as local
from graphreason.runtime.cancel import RunCancelled, cancel_scope


class Chars:
    """Tokenizer stand-in: one id per character (0 is the end token, never produced here)."""

    def encode(self, text: str) -> SimpleNamespace:
        return SimpleNamespace(ids=[1 + ord(c) % 255 for c in text])

    def decode(self, ids: list[int], skip_special_tokens: bool = True) -> str:
        return "".join(chr(i - 1) for i in ids if i)

    def token_to_id(self, token: str) -> int | None:
        return 0 if token == "<|im_end|>" else None


class Endless:
    """Decoder stand-in proposing 't' forever, 5 ms per step (4,000 tokens would take 20 s)."""

    n_ctx = 8192

    def __init__(self) -> None:
        self.steps = 0

    def __call__(self, ids: torch.Tensor, start: int) -> torch.Tensor:
        self.steps += 1
        time.sleep(0.005)
        logits = torch.zeros(256)
        logits[1 + ord("t")] = 1.0
        return logits


@pytest.fixture
def engine(monkeypatch: pytest.MonkeyPatch) -> local.LocalEngine:
    made = local.LocalEngine(Endless(), Chars(), "fp32")  # type: ignore[arg-type]
    monkeypatch.setattr(local, "get_engine", lambda n_ctx, precision, adapter=None: made)
    return made


def _cancel_while(call, after: float = 0.3) -> tuple[list[object], float]:
    """Run ``call`` in a thread of a cancel scope, cancel after ``after`` s; (its outcome, join seconds)."""
    outcome: list[object] = []

    def work() -> None:
        try:
            outcome.append(call())
        except RunCancelled as exc:
            outcome.append(exc)

    with cancel_scope() as token:
        thread = threading.Thread(target=contextvars.copy_context().run, args=(work,))
        thread.start()
        time.sleep(after)
        began = time.monotonic()
        token.cancel()
        thread.join(10)
    return outcome, time.monotonic() - began


@pytest.mark.parametrize("how", ["invoke", "stream"])
def test_a_cancelled_run_stops_generation(engine: local.LocalEngine, how: str) -> None:
    model = local.LocalChatModel(temperature=0.0, max_tokens=4000, n_ctx=8192)
    call = (lambda: model.invoke("hello")) if how == "invoke" else (lambda: list(model.stream("hello")))
    outcome, took = _cancel_while(call)
    assert outcome and isinstance(outcome[0], RunCancelled), outcome
    assert took < 2
    steps = engine.decoder.steps
    time.sleep(0.3)
    assert engine.decoder.steps <= steps + 1  # the worker thread stopped too
    assert engine._lock.acquire(timeout=1)  # and the engine is free for the next call
    engine._lock.release()


def test_generation_outside_a_served_run_is_not_affected(engine: local.LocalEngine) -> None:
    reply = local.LocalChatModel(temperature=0.0, max_tokens=5, n_ctx=8192).invoke("hello")
    assert reply.content == "ttttt"
