"""Constrained decoding for the embedded engine: only tokens that keep the reply on a grammar are emitted.

A :class:`TextConstraint` judges text, not tokens: ``viable(text)`` says the
reply so far can still be finished correctly, ``complete(text)`` says it may
end here. At each step the engine proposes its usual token (greedy or
sampled); when that token would make the reply not viable (or ends it too
early) the engine walks down the logits, best first, and takes the first token
that passes. Judging decoded text keeps the grammar independent of the
tokenizer: a token may carry ``)]`` or ``", "`` at once.

Grammars are named so a model option can carry one (``grammar="toolformer-calls"``);
:data:`GRAMMARS` lists them. In-process callers may pass a constraint object
instead, e.g. ``ToolformerCalls(source=text)``, which also holds node ids to
the input.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from tools.calls.toolformer.prefix import complete, count_calls, viable

if TYPE_CHECKING:  # the workflow imports this module on light paths (CLI help) that must not load torch
    import torch

# how far down the logits a refused step looks before giving up on the constraint for this reply
MAX_CANDIDATES = 2048


class TextConstraint(Protocol):
    def viable(self, text: str) -> bool:
        """The reply so far can still be continued into one the grammar accepts."""

    def complete(self, text: str) -> bool:
        """The reply may end here."""


@dataclass(frozen=True)
class ToolformerCalls:
    """Graph-ToolFormer's call language inside ``[...]``; prose outside it is free; a call stays on one line.

    With ``source`` (the input being annotated) node ids must also be copied
    from it, as every id in the prompt data is (:mod:`tools.calls.toolformer.copied_ids`).
    ``min_calls``: the reply may not end, nor start a second line, before that
    many calls that parse are written (every one of the 25,116 prompts_train
    outputs holds a call, and the workflow keeps a reply's first line only).
    """

    source: str | None = None
    min_calls: int = 0

    def viable(self, text: str) -> bool:
        if self.min_calls and "\n" in text and count_calls(text.split("\n", 1)[0]) < self.min_calls:
            return False  # the workflow keeps the first line: the calls must be on it
        return viable(text, single_line=True, source=self.source)

    def complete(self, text: str) -> bool:
        return complete(text, source=self.source) and count_calls(text) >= self.min_calls


GRAMMARS: dict[str, TextConstraint] = {"toolformer-calls": ToolformerCalls()}


def named_grammar(name: str | TextConstraint | None) -> TextConstraint | None:
    """The constraint named ``name`` (None for none; a constraint object passes through).

    Unknown names are refused with the known ones.
    """
    if name is None:
        return None
    if not isinstance(name, str):
        if not (callable(getattr(name, "viable", None)) and callable(getattr(name, "complete", None))):
            raise ValueError(f"a grammar is a name or an object with viable() and complete(), got {name!r}")
        return name
    if name not in GRAMMARS:
        raise ValueError(f"unknown grammar {name!r}; known: {', '.join(sorted(GRAMMARS))}")
    return GRAMMARS[name]


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
    replaced: int = 0
    gave_up: bool = False

    def passes(self, out: list[int], token: int) -> bool:
        if token in self.end_ids:
            return self.constraint.complete(self.decode(out))
        return self.constraint.viable(self.decode([*out, token]))

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
            text = self.decode([*out, token])
            if text != before and self.constraint.viable(text):
                self.replaced += 1
                return token
        self.gave_up = True
        return proposed
