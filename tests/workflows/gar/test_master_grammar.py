"""With the embedded model the master's choice is decoded as one readable object; other models are left free."""

from __future__ import annotations

import pytest

from graphreason.llm.engine.constraint import OneOf
from graphreason.workflows.gar import choose as choose_module
from graphreason.workflows.gar import solve
from graphreason.workflows.gar.choose import choice_grammar, parse_choice
from graphreason.workflows.gar.context import GARContext
from graphreason.workflows.gar.prompts import DESIGN_NEW
from graphreason.workflows.models.invoke import LLMReply
from tests.workflows.gar.test_graph import PROBLEMS

CANDIDATES = ["connectivity", "connected_components", "topological_sort", DESIGN_NEW]


def test_one_of_accepts_exactly_its_texts_and_their_prefixes() -> None:
    grammar = OneOf(('{"algorithm": "degree"}', '{"algorithm": "bfs_levels"}'))
    assert grammar.viable("") and grammar.viable('{"algorithm": "d') and grammar.viable('{"algorithm": "bfs')
    assert not grammar.viable('{"algorithm": "pagerank') and not grammar.viable('{"algorithm": "degree"} ')
    assert grammar.complete('{"algorithm": "degree"}')
    assert not grammar.complete('{"algorithm": "degree"') and not grammar.complete("")


def test_every_choice_the_grammar_accepts_reads_as_that_candidate_without_parameters() -> None:
    grammar = choice_grammar(GARContext(master_model="local", embedding_model="hash"), CANDIDATES)
    assert isinstance(grammar, OneOf) and len(grammar.texts) == len(CANDIDATES) - 1
    for text, name in zip(grammar.texts, CANDIDATES, strict=False):
        assert grammar.complete(text)
        assert parse_choice(text, CANDIDATES) == (name, {})
    # a 135M model cannot write the six parts of a new algorithm: it is not offered design_new
    assert not grammar.viable('{"algorithm": "design')


@pytest.mark.parametrize(
    "context",
    [
        GARContext(master_model="local", grammar=False, embedding_model="hash"),
        GARContext(master_model="openai:gpt-4o-mini", embedding_model="hash"),
    ],
    ids=["grammar off", "capable endpoint"],
)
def test_no_grammar_when_switched_off_or_for_other_models(context: GARContext) -> None:
    assert choice_grammar(context, CANDIDATES) is None


def test_the_embedded_masters_call_carries_the_grammar_and_its_choice_is_used(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: list[dict | None] = []

    def fake_ask(context, model, prompt, *, stop=None, call_options=None, **params):
        seen.append(call_options)
        grammar = call_options["grammar"]
        return LLMReply(text=grammar.texts[0], input_tokens=len(prompt.split()), output_tokens=8, seconds=0.01)

    monkeypatch.setattr(choose_module, "ask_role", fake_ask)
    question, entry, expected = PROBLEMS["connectivity"]
    out = solve(question, GARContext(master_model="local", embedding_model="hash"))
    assert out["algorithm"] == entry and out["structured"]["value"] == expected
    grammar = seen[0]["grammar"]
    assert isinstance(grammar, OneOf) and len(seen) == 1
    note = next(n for n in out["trace"] if n.get("step") == "choose")
    assert note["picked"] is not None and note["fallback_used"] is False
    assert all(DESIGN_NEW not in text for text in grammar.texts)
