"""Constrained decoding for the embedded engine: only tokens that keep the reply on a grammar are emitted.

A :class:`TextConstraint` judges text, not tokens: ``viable(text)`` says the
reply so far can still be finished correctly, ``complete(text)`` says it may
end here. At each step the engine proposes its usual token (greedy or
sampled); when that token would make the reply not viable (or ends it too
early) the engine walks down the logits, best first, and takes the first token
that passes. Judging decoded text keeps the grammar independent of the
tokenizer: a token may carry ``)]`` or ``", "`` at once.

The engine knows no grammar of its own: the caller passes the constraint
object (``constraint=`` to :meth:`LocalEngine.generate`, or ``grammar=`` as a
call option of the chat model). Graph-ToolFormer's call language is
:class:`graphreason.tools.toolformer.calls.constraint.ToolformerCalls`, built by
its workflow for each input; this layer imports nothing above it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:  # importing this module must not load torch (light paths such as CLI help reach it)
    import torch

# how far down the logits a refused step looks before giving up on the constraint for this reply
MAX_CANDIDATES = 2048
_PENDING = "\ufffd"  # what the tokenizer writes for the bytes of a character whose last byte is still to come
MAX_PENDING_CHARS = 64  # the characters tried in place of a character's first bytes


class TextConstraint(Protocol):
    def viable(self, text: str) -> bool:
        """The reply so far can still be continued into one the grammar accepts."""

    def complete(self, text: str) -> bool:
        """The reply may end here."""


def as_constraint(grammar: object) -> TextConstraint | None:
    """``grammar`` checked as a constraint (``None`` for none).

    A constraint is an object with ``viable(text)`` and ``complete(text)``;
    anything else (a grammar name included: the engine has none of its own) is
    refused with a ValueError saying what to pass.
    """
    if grammar is None:
        return None
    if callable(getattr(grammar, "viable", None)) and callable(getattr(grammar, "complete", None)):
        return grammar  # type: ignore[return-value]
    raise ValueError(
        f"a grammar is an object with viable(text) and complete(text), got {grammar!r}; "
        "e.g. graphreason.tools.toolformer.calls.constraint.ToolformerCalls() for Graph-ToolFormer's calls"
    )


@dataclass(frozen=True)
class OneOf:
    """The smallest grammar: the reply is exactly one of ``texts`` (a choice among a few names)."""

    texts: tuple[str, ...]

    def viable(self, text: str) -> bool:
        return any(choice.startswith(text) for choice in self.texts)

    def complete(self, text: str) -> bool:
        return text in self.texts


@dataclass
class ConstrainedPicker:
    """Applies one constraint over one reply; counts the tokens it replaced.

    ``gave_up`` turns true when no token among the best :data:`MAX_CANDIDATES`
    passes; the rest of the reply is then decoded without the constraint (the
    reply is still parsed and judged downstream, like any model output).
    """

    constraint: TextConstraint
    decode: Callable[[list[int]], str]
    end_ids: set[int]
    # tokens of one character each, tried (best scored first) when none of the top candidates passes: the
    # grammar may need a character the model scores low (a closing quote at a field's length limit)
    single_chars: Callable[[], list[int]] | None = None
    # the bytes at the end of a reply's tokens that do not make a whole character yet (b"": none)
    pending: Callable[[list[int]], bytes] | None = None
    replaced: int = 0
    gave_up: bool = False

    def passes(self, out: list[int], token: int) -> bool:
        if token in self.end_ids:
            return self.constraint.complete(self.decode(out))
        return self._viable(self.decode([*out, token]), [*out, token])

    def _viable(self, text: str, ids: list[int]) -> bool:
        """``text`` (of ``ids``) viable. A character of several byte tokens ("Μ" is two) is decoded as U+FFFD until
        its last byte comes; for a constraint that names the characters it may take next
        (``characters_after(lead_bytes)``), such a text is viable when one of those characters, put in place of the
        bytes so far, is."""
        after = getattr(self.constraint, "characters_after", None)
        if after is not None and self.pending is not None and text.endswith(_PENDING):
            lead = self.pending(ids)
            if lead:
                cut = text.rstrip(_PENDING)
                return any(self.constraint.viable(cut + char) for char in after(lead)[:MAX_PENDING_CHARS])
        return self.constraint.viable(text)

    def pick(self, proposed: int, logits: torch.Tensor, out: list[int]) -> int:
        """``proposed`` when it passes, else the best-scored token that does and writes something.

        Replacements must add text: a special token decodes to nothing, so it
        would always pass and let the reply drift without writing.
        """
        if self.gave_up or self.passes(out, proposed):
            return proposed
        before = self.decode(out)
        order = logits.float().argsort(descending=True)[:MAX_CANDIDATES].tolist()
        for token in order:
            if token == proposed:
                continue
            if token in self.end_ids:
                if self.constraint.complete(before):
                    self.replaced += 1
                    return token
                continue
            if self._writes_viable_text(out, token, before):
                self.replaced += 1
                return token
        if self.single_chars is not None:
            chars = self.single_chars()
            for index in logits.float()[chars].argsort(descending=True).tolist():
                if self._writes_viable_text(out, chars[index], before):
                    self.replaced += 1
                    return chars[index]
        self.gave_up = True
        return proposed

    def _writes_viable_text(self, out: list[int], token: int, before: str) -> bool:
        """``token`` after ``out`` adds text (to ``before``, the text of ``out``) and keeps the reply viable."""
        text = self.decode([*out, token])
        return text != before and self._viable(text, [*out, token])
