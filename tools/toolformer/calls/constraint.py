"""Graph-ToolFormer's call language as a decoding constraint for the embedded engine.

The engine (:mod:`graphreason.llm.engine.constraint`) knows no grammar: it takes
any object with ``viable(text)`` and ``complete(text)`` from its caller. The
Graph-ToolFormer workflow builds a :class:`ToolformerCalls` per input and passes
it with the generator's call (``call_options={"grammar": ToolformerCalls(...)}``),
so the engine stays below the tools layer.
"""

from __future__ import annotations

from dataclasses import dataclass

from graphreason.tools.toolformer.calls.known_names import KnownNames
from graphreason.tools.toolformer.calls.prefix import complete, count_calls, viable


@dataclass(frozen=True)
class ToolformerCalls:
    """Graph-ToolFormer's call language inside ``[...]``; prose outside it is free; a call stays on one line.

    With ``source`` (the input being annotated) node ids must also be copied
    from it, as every id in the prompt data is (:mod:`graphreason.tools.toolformer.calls.copied_ids`).
    ``min_calls``: the reply may not end, nor start a second line, before that
    many calls that parse are written (every one of the 25,116 prompts_train
    outputs holds a call, and the workflow keeps a reply's first line only).
    ``names``: a ``GR`` call's graph and function must also be known ones
    (:mod:`graphreason.tools.toolformer.calls.known_names`).
    """

    source: str | None = None
    min_calls: int = 0
    names: KnownNames | None = None

    def viable(self, text: str) -> bool:
        """The reply so far can still become one whose call brackets all parse."""
        if self.min_calls and "\n" in text and count_calls(text.split("\n", 1)[0]) < self.min_calls:
            return False  # the workflow keeps the first line: the calls must be on it
        if self.names is not None and not self.names.viable(text):
            return False
        return viable(text, single_line=True, source=self.source)

    def complete(self, text: str) -> bool:
        """The reply may end here: its brackets parse and it holds at least ``min_calls`` calls."""
        if self.names is not None and not self.names.viable(text):
            return False
        return complete(text, source=self.source) and count_calls(text) >= self.min_calls
