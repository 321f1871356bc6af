"""The call language shared by the agents: parse an Action, then execute it.

An Action line such as ``Feature[Neighbour[Retrieve[graph agents], cites], title]``
parses to a tree of :class:`Call` nodes and is evaluated innermost-first
against :class:`~graphreason.tools.counselor.functions.GraphFunctions`. Which names are functions,
their aliases (``Neighbors`` -> ``Neighbour``, ``Search`` -> ``Retrieve``,
``Final Answer`` -> ``Finish``), which take their argument verbatim and what
each one does all come from a :class:`~graphreason.tools.core.registry.Registry` (by default
:data:`graphreason.tools.counselor.registry.GRAPH_FUNCTIONS`); nothing here names a
function.

Modules:

* :mod:`graphreason.tools.counselor.calls.base` - :class:`Call`, :class:`ActionParseError`, the limits
  :data:`MAX_ACTION_CHARS` and :data:`MAX_NESTING`, :func:`nesting_depth`;
* :mod:`graphreason.tools.counselor.calls.bracket` - the bracket form, ``Feature[12, title]`` / ``Feature(12, title)``;
* :mod:`graphreason.tools.counselor.calls.json_calls` - the JSON form, ``{"name": "Feature", "arguments": {...}}``;
* :mod:`graphreason.tools.counselor.calls.parse` - :func:`parse_action`: limits, then JSON, then bracket lines;
* :mod:`graphreason.tools.counselor.calls.entry_tools` - each registry entry as a generated LangChain tool;
* :mod:`graphreason.tools.counselor.calls.execute` - :func:`execute` and :func:`run_action` (never raise), which
  apply every function through its entry tool.

Hostile or degenerate text is bounded: an Action longer than
:data:`MAX_ACTION_CHARS` or nesting brackets deeper than :data:`MAX_NESTING` is
refused before parsing (the parser recurses once per nesting level, so this
also keeps it far from Python's recursion limit), JSON integers are kept as
text (no int-size limit), and every scan is linear in the text's length.
"""

from __future__ import annotations

from collections.abc import Mapping

from graphreason.tools.counselor.call_examples import is_placeholder_answer
from graphreason.tools.counselor.calls.base import (
    MAX_ACTION_CHARS,
    MAX_NESTING,
    SYNTAX_HELP,
    ActionParseError,
    Call,
    nesting_depth,
)
from graphreason.tools.counselor.calls.execute import (
    ExecutionResult,
    execute,
    placeholder_message,
    run_action,
)
from graphreason.tools.counselor.calls.parse import parse_action
from graphreason.tools.counselor.functions import FUNCTION_SPECS
from graphreason.tools.counselor.registry import FINISH, GRAPH_FUNCTIONS

# Live read-only view of the default registry's spellings: normalized alias -> function name.
FUNCTION_ALIASES: Mapping[str, str] = GRAPH_FUNCTIONS.aliases


def canonical_name(name: str) -> str | None:
    """Canonical function name of the default registry for a spelling or alias, or None if unknown."""
    return GRAPH_FUNCTIONS.canonical(name)


__all__ = [
    "FINISH",
    "FUNCTION_ALIASES",
    "FUNCTION_SPECS",
    "MAX_ACTION_CHARS",
    "MAX_NESTING",
    "SYNTAX_HELP",
    "ActionParseError",
    "Call",
    "ExecutionResult",
    "canonical_name",
    "execute",
    "is_placeholder_answer",
    "nesting_depth",
    "placeholder_message",
    "parse_action",
    "run_action",
]
