"""What every call parser produces and the limits they all enforce.

A parsed Action is a list of :class:`Call` trees; a parser that finds no call
raises :class:`ActionParseError`, whose message teaches the syntax.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from graphreason.tools.counselor.call_examples import syntax_help

# No real call nests more than a handful of functions; JSON wrappers add a few levels.
MAX_NESTING = 32
# A longer Action is runaway generation, not a call; refusing it bounds parsing time.
MAX_ACTION_CHARS = 20_000

# Graph-free wording; run_action and execute use examples from the loaded graph instead.
SYNTAX_HELP = syntax_help(None)

_ANY_BRACKET = re.compile(r"[\[\](){}]")


class ActionParseError(ValueError):
    """The Action text holds no readable call; the message teaches the syntax."""

    def __init__(self, problem: str) -> None:
        self.problem = problem
        super().__init__(f"{problem} {SYNTAX_HELP}")


@dataclass(frozen=True)
class Call:
    """One function application; ``args`` are literals (str) or nested calls.

    ``args`` is stored as a tuple (a list given to the constructor is converted)
    so that calls are hashable and can key a result cache.
    """

    name: str
    args: tuple[Call | str, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "args", tuple(self.args))

    def render(self) -> str:
        """The call back as bracket text, e.g. ``Feature[Retrieve[x], title]``."""
        return f"{self.name}[{', '.join(a.render() if isinstance(a, Call) else a for a in self.args)}]"

    def nested(self) -> Iterator[Call]:
        """This call, then every call nested in it (depth first, in argument order)."""
        yield self
        for arg in self.args:
            if isinstance(arg, Call):
                yield from arg.nested()

    @property
    def depth(self) -> int:
        """How many functions are nested: ``Feature[12, title]`` is 1."""
        return 1 + max((a.depth for a in self.args if isinstance(a, Call)), default=0)


def nesting_depth(text: str) -> int:
    """Deepest bracket nesting (``[]``, ``()``, ``{}`` alike) in one linear scan."""
    depth = deepest = 0
    for match in _ANY_BRACKET.finditer(text):
        if match.group() in "[({":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth = max(depth - 1, 0)
    return deepest
