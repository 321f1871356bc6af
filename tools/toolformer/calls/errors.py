"""Errors of Graph-ToolFormer's call language.

A syntax error carries where it happened and what was expected there, because
the message is what a model (or a person reading a failed evaluation) sees when
a generated call does not parse.
"""

from __future__ import annotations

from graphreason.tools.core.errors import GraphError

EXAMPLE = '[GR(GL("cora"), "graph_bert:topic", paper#1)-->r]'


class ToolformerSyntaxError(GraphError):
    """A call, bracket or value that does not follow the grammar.

    ``position`` is the 0-based offset in ``source`` (the text handed to the
    parser), ``expected`` names what would have been valid there and ``found``
    shows what was there instead (``"end of text"`` at the end).
    """

    def __init__(self, source: str, position: int, expected: str, found: str | None = None) -> None:
        self.source = source
        self.position = position
        self.expected = expected
        self.found = found if found is not None else _found_at(source, position)
        super().__init__(
            f"Graph-ToolFormer call syntax error at offset {position}: expected {expected}, "
            f"found {self.found}. A call looks like {EXAMPLE}."
        )


class ToolformerPrintError(GraphError):
    """A tree that has no text form the parser would read back as the same tree."""


def _found_at(source: str, position: int) -> str:
    if position >= len(source):
        return "end of text"
    snippet = source[position : position + 12]
    more = "..." if position + 12 < len(source) else ""
    return repr(snippet + more)
