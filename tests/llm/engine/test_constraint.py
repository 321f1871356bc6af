"""Grammar-constrained decoding in the engine, driven by a scripted decoder whose second choices are known."""

from __future__ import annotations

import pytest
import torch

import graphreason.llm.engine.local_smollm as local
from graphreason.llm.engine.constraint import ConstrainedPicker, as_constraint
from graphreason.llm.engine.local_smollm import LocalChatModel, LocalEngine
from graphreason.tools.toolformer.calls.constraint import ToolformerCalls
from tests.llm.engine.test_local_engine import VOCAB, CharTokenizer, ScriptedDecoder

USER = [("user", "hi")]
END = VOCAB.index("<|im_end|>")


class WithSecondChoices(ScriptedDecoder):
    """The scripted token scores 10 at each step; ``')'``, ``']'`` and ``','`` score 5, 4 and 3."""

    def __call__(self, ids: torch.Tensor, start: int) -> torch.Tensor:
        logits = super().__call__(ids, start)
        for score, char in zip((5.0, 4.0, 3.0), ")],", strict=True):
            logits[VOCAB.index(char)] = max(float(logits[VOCAB.index(char)]), score)
        return logits


@pytest.fixture(autouse=True)
def _one_prefill_call(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(local, "PREFILL_CHUNK", 100_000)


def _engine(reply: str) -> LocalEngine:
    return LocalEngine(WithSecondChoices(reply), CharTokenizer(), "fp32")


def test_free_decoding_writes_the_broken_call() -> None:
    result = _engine("[f(x]").generate(USER, max_tokens=20, temperature=0.0)
    assert result.text == "[f(x]" and result.constrained_tokens == 0


def test_the_grammar_replaces_the_tokens_that_would_break_the_call() -> None:
    result = _engine("[f(x]").generate(
        USER, max_tokens=20, temperature=0.0, constraint=ToolformerCalls()
    )
    # ']' before ')' is refused, so ')' comes; ending inside the bracket is refused, so ']' closes it
    assert result.text == "[f(x)]"
    assert result.constrained_tokens == 2 and not result.constraint_gave_up
    assert result.finish_reason == "stop"


def test_prose_and_valid_calls_pass_untouched() -> None:
    text = 'See [GR(GL("cora"), "graph_bert:topic", paper#1)-->r], and [TBR] or [1].'
    result = _engine(text).generate(USER, max_tokens=200, temperature=0.0, constraint=ToolformerCalls())
    assert result.text == text and result.constrained_tokens == 0


def test_sampled_tokens_are_held_to_the_grammar_too() -> None:
    result = _engine("[f(x]").generate(
        USER, max_tokens=20, temperature=0.01, seed=3, constraint=ToolformerCalls()
    )
    assert result.text == "[f(x)]"


class RefuseAll:
    def viable(self, text: str) -> bool:
        return text == ""

    def complete(self, text: str) -> bool:
        return False


def test_when_nothing_passes_the_constraint_gives_up_and_decoding_goes_on() -> None:
    result = _engine("ab").generate(USER, max_tokens=20, temperature=0.0, constraint=RefuseAll())
    assert result.text == "ab" and result.constraint_gave_up and result.constrained_tokens == 0


def test_the_picker_counts_what_it_replaced() -> None:
    tokenizer = CharTokenizer()
    picker = ConstrainedPicker(ToolformerCalls(), tokenizer.decode, {END})
    out = tokenizer.encode("[f(x").ids
    logits = torch.zeros(len(VOCAB))
    logits[VOCAB.index("]")], logits[VOCAB.index(")")] = 9.0, 8.0
    assert picker.pick(VOCAB.index("]"), logits, out) == VOCAB.index(")")
    assert picker.pick(VOCAB.index("y"), logits, out) == VOCAB.index("y")
    assert picker.replaced == 1


def test_the_engine_takes_constraint_objects_only() -> None:
    assert as_constraint(None) is None
    calls = ToolformerCalls()
    assert as_constraint(calls) is calls
    # the engine has no grammar names of its own: a name is refused with what to pass instead
    with pytest.raises(ValueError, match=r"viable\(text\) and complete\(text\), got 'toolformer-calls'"):
        as_constraint("toolformer-calls")
    with pytest.raises(ValueError, match="a grammar is an object"):
        as_constraint(object())


def test_chat_model_takes_the_grammar_per_call_and_reports_replaced_tokens(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(local, "get_engine", lambda n_ctx, precision, adapter=None: _engine("[f(x]"))
    model = LocalChatModel(temperature=0.0, max_tokens=20)
    assert model.invoke("q").content == "[f(x]"
    reply = model.bind(grammar=ToolformerCalls()).invoke("q")
    assert reply.content == "[f(x)]"
    assert reply.response_metadata["constrained_tokens"] == 2
    with pytest.raises(ValueError, match="a grammar is an object"):
        model.invoke("q", grammar="sql")


def test_min_calls_holds_the_end_until_a_call_is_written_on_the_first_line() -> None:
    grammar = ToolformerCalls(min_calls=1)
    assert not grammar.complete("The graph has nodes.")
    assert grammar.complete('The graph [GL("g", "all nodes", "all links")] has nodes.')
    assert not grammar.complete('The graph [GL("g", "all nodes"]')  # a call that does not parse does not count
    # the workflow keeps the first line, so a newline before any call is refused
    assert not grammar.viable("The graph has nodes.\n")
    assert grammar.viable('[GL("g")] has nodes.\nmore')
    assert grammar.viable("The graph has")
    assert ToolformerCalls().complete("The graph has nodes.")  # no minimum by default


def test_the_engine_writes_past_the_end_token_until_the_minimum_is_met() -> None:
    result = _engine("ab").generate(USER, max_tokens=4, temperature=0.0, constraint=ToolformerCalls(min_calls=1))
    # the scripted decoder never writes a call: the end is refused and the budget runs out instead
    assert result.text.startswith("ab") and len(result.text) == 4 and result.finish_reason == "length"
    assert result.constrained_tokens >= 1


def test_a_character_the_model_scores_low_is_still_found(monkeypatch: pytest.MonkeyPatch) -> None:
    """When none of the best candidates passes, the one-character tokens are tried before giving up."""
    import graphreason.llm.engine.constraint as constraint

    monkeypatch.setattr(constraint, "MAX_CANDIDATES", 1)  # only the model's own choice is looked at
    result = _engine("[f(x]").generate(USER, max_tokens=20, temperature=0.0, constraint=ToolformerCalls())
    assert result.text == "[f(x)]" and not result.constraint_gave_up


class Copies:
    """Replies that are exactly one of ``texts``; names the characters a reply's unfinished bytes may begin."""

    def __init__(self, *texts: str) -> None:
        self.texts = texts

    def viable(self, text: str) -> bool:
        return any(choice.startswith(text) for choice in self.texts)

    def complete(self, text: str) -> bool:
        return text in self.texts

    def characters_after(self, lead: bytes) -> list[str]:
        return sorted({c for text in self.texts for c in text if ord(c) > 127 and c.encode().startswith(lead)})


BYTE_TOKENS = [bytes([b]) for b in range(256)]  # a byte-level vocabulary: token i writes byte i


def _byte_picker(constraint: object) -> ConstrainedPicker:
    def decode(ids: list[int]) -> str:
        return b"".join(BYTE_TOKENS[i] for i in ids).decode("utf-8", errors="replace")

    def pending(ids: list[int]) -> bytes:
        return local._incomplete_end(b"".join(BYTE_TOKENS[i] for i in ids[-4:]))

    return ConstrainedPicker(constraint, decode, {999}, pending=pending)  # type: ignore[arg-type]


def test_a_character_of_several_byte_tokens_is_judged_once_it_could_be_a_character_the_reply_may_write() -> None:
    picker = _byte_picker(Copies("Μύρωνας"))
    lead, rest = "Μ".encode()  # two bytes: the first decodes as U+FFFD alone
    assert picker.passes([], lead)  # it may begin "Μ"
    assert not picker.passes([], "З".encode()[0])  # a Cyrillic lead byte begins no character of the copy
    assert picker.passes([lead], rest) and not picker.passes([lead], "ν".encode()[1])  # "Μ" whole, then judged
    # a constraint that names no characters keeps the plain rule: an unfinished character is not viable text
    plain = _byte_picker(OneOfCopy("Μύρωνας"))
    assert not plain.passes([], lead)


class OneOfCopy(Copies):
    characters_after = None  # type: ignore[assignment]


@pytest.mark.parametrize(
    ("data", "pending"),
    [(b"ab", b""), ("Μ".encode()[:1], b"\xce"), ("東".encode()[:2], "東".encode()[:2]), ("東".encode(), b""),
     (b"a" + "𝄞".encode()[:3], "𝄞".encode()[:3]), (b"", b"")],
)
def test_the_unfinished_bytes_at_the_end_of_a_reply(data: bytes, pending: bytes) -> None:
    assert local._incomplete_end(data) == pending


def test_the_byte_alphabet_is_the_byte_level_tokenizers_own() -> None:
    from tokenizers.pre_tokenizers import ByteLevel

    alphabet = local._byte_alphabet()
    assert sorted(alphabet) == list(range(256)) and set(alphabet.values()) == set(ByteLevel.alphabet())
    assert alphabet[ord(" ")] == "Ġ" and alphabet[ord("a")] == "a" and alphabet[0xCE] == "Î"
