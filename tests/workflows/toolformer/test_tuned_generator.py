"""Which generator writes the calls, with which prompt; generation without execution."""

from __future__ import annotations

from typing import Any

import pytest

import graphreason.workflows.toolformer.generate as generate_module
from graphreason.tools.toolformer.calls.constraint import ToolformerCalls
from graphreason.tools.toolformer.calls.known_names import known_names
from graphreason.workflows.models.invoke import LLMReply
from graphreason.workflows.models.scripted import ScriptedChatModel
from graphreason.workflows.toolformer import ToolformerContext, solve
from graphreason.workflows.toolformer.generate import TUNED_SPEC, tuned_spec
from graphreason.workflows.toolformer.prompts import INSTRUCTION, tuned_prompt

CALL = 'The topic of paper #35 in cora is [GR(GL("cora"), "graph_bert:topic", paper#35)-->r].'


@pytest.mark.parametrize(
    ("model", "use_tuned", "expected"),
    [
        ("local", True, TUNED_SPEC),
        (" LOCAL:smollm2-135m ", True, TUNED_SPEC),
        ("local", False, None),
        (TUNED_SPEC, False, TUNED_SPEC),  # named explicitly: always the tuned prompt
        ("openai:gpt-4o-mini", True, None),
        (ScriptedChatModel(script=["x"]), True, None),
    ],
)
def test_tuned_generator_replaces_only_the_plain_embedded_model(model: Any, use_tuned: bool, expected) -> None:
    assert tuned_spec(model, use_tuned) == expected


def _capture(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    calls: list[dict[str, Any]] = []

    def fake_ask(context: Any, model: Any, prompt: str, **params: Any) -> LLMReply:
        calls.append({"model": model, "prompt": prompt, "call_options": params.get("call_options")})
        return LLMReply(text=CALL, input_tokens=9, output_tokens=30, seconds=0.1)

    monkeypatch.setattr(generate_module, "ask_role", fake_ask)
    return calls


def test_the_tuned_generator_gets_its_training_prompt_and_no_examples(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _capture(monkeypatch)
    out = solve("What is the topic of paper #35 in cora?", ToolformerContext(
        generator_model="local", few_shot=4, embedding_model="hash", execute_calls=False))
    assert calls == [{"model": TUNED_SPEC, "prompt": tuned_prompt("What is the topic of paper #35 in cora?"),
                      "call_options": {"grammar": ToolformerCalls(
                          source="What is the topic of paper #35 in cora?", min_calls=1, names=known_names())}}]
    assert out["annotated"] == CALL and out["examples"] == []
    assert out["trace"][0]["generator"] == "tuned" and out["trace"][0]["grammar"] is True


def test_the_grammar_can_be_switched_off(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _capture(monkeypatch)
    out = solve("What is the topic of paper #35 in cora?", ToolformerContext(
        generator_model="local", grammar=False, embedding_model="hash", execute_calls=False))
    assert calls[0]["model"] == TUNED_SPEC and calls[0]["call_options"] is None
    assert out["trace"][0]["grammar"] is False


def test_switching_the_tuned_generator_off_prompts_the_plain_model(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _capture(monkeypatch)
    solve("What is the topic of paper #35 in cora?", ToolformerContext(
        generator_model="local", tuned_generator=False, few_shot=0, embedding_model="hash", execute_calls=False))
    assert calls[0]["model"] == "local" and calls[0]["prompt"].startswith(INSTRUCTION)
    assert calls[0]["call_options"] is None  # a prompted generator is never constrained


def test_without_execution_the_calls_are_parsed_but_not_run() -> None:
    out = solve("q", ToolformerContext(
        generator_model=ScriptedChatModel(script=[CALL]), embedding_model="hash", execute_calls=False))
    assert len(out["calls"]) == 1 and "graph_bert:topic" in out["calls"][0]
    assert out["results"] == [] and out["parse_errors"] == []
    assert out["final"] == CALL  # nothing substituted


def test_the_grammar_reaches_the_embedded_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    """solve -> ask_role -> LocalChatModel -> engine: the broken call the decoder prefers comes out parsed."""
    import graphreason.llm.engine.local_smollm as local
    from tests.llm.engine.test_constraint import WithSecondChoices
    from tests.llm.engine.test_local_engine import CharTokenizer

    def engine(n_ctx: int, precision: str, adapter: str | None = None) -> local.LocalEngine:
        assert adapter == "toolformer"
        return local.LocalEngine(WithSecondChoices("[f(x]"), CharTokenizer(), "fp32")

    monkeypatch.setattr(local, "PREFILL_CHUNK", 100_000)
    monkeypatch.setattr(local, "get_engine", engine)
    context = dict(generator_model="local", embedding_model="hash", execute_calls=False)
    assert solve("q", ToolformerContext(**context))["annotated"] == "[f(x)]"
    assert solve("q", ToolformerContext(**context, grammar=False))["annotated"] == "[f(x]"
