"""The bracket call language shared by the agents: parse, then execute.

An Action line such as ``Feature[Neighbour[Retrieve[graph agents], cites], title]``
parses to a tree of :class:`Call` nodes and is evaluated innermost-first
against :class:`~tools.functions.GraphFunctions`.

Parsing is lenient, because small models write calls loosely:

* ``Action 3:`` prefixes, markdown, backticks, a trailing full stop and prose
  around the call are ignored; of several lines the first one holding a call
  wins (lines starting with ``Action`` are tried first);
* ``Feature(12, title)`` works like ``Feature[12, title]``;
* function names are case-insensitive with aliases (``Neighbors`` -> ``Neighbour``,
  ``Search`` -> ``Retrieve``, ``Final Answer`` -> ``Finish``, ...);
* several calls are separated by ``,`` ``;`` or ``and`` at bracket depth 0;
* ``Retrieve`` and ``Finish`` take their whole bracket content verbatim (commas
  included), except that ``Retrieve[Feature[...]]`` nests;
* JSON: ``{"function": "Feature", "args": ["12", "title"]}``,
  ``{"name": ..., "arguments": ...}`` (arguments may be a list, an object or a
  JSON string), wrappers ``command``/``action``/``function``, or a list of these.

Execution rules (see :func:`execute`):

* a list returned by an inner call is mapped over by the outer call;
* several top-level calls give one observation each, joined by single spaces so
  the Observation stays one line;
* ``Finish`` must be the only call of its Action; mixed with other calls nothing
  runs and the observation says so;
* ``allow_compound=False`` (the paper's "w/o Complex" ablation) accepts only one
  call without nesting; ``max_depth`` caps how many functions one call nests;
* every error comes back as observation text naming what is valid; ``execute``
  and :func:`run_action` never raise.

Hostile or degenerate text is bounded: an Action longer than
:data:`MAX_ACTION_CHARS` or nesting brackets deeper than :data:`MAX_NESTING` is
refused before parsing (the parser recurses once per nesting level, so this
also keeps it far from Python's recursion limit), JSON integers are kept as
text (no int-size limit), and every scan is linear in the text's length.
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass, field
from functools import lru_cache, partial
from typing import Any

from tools.call_examples import is_placeholder_answer, syntax_help
from tools.functions import FUNCTION_SPECS, FunctionResult, GraphFunctions, strip_quotes

FINISH = "Finish"
# No real call nests more than a handful of functions; JSON wrappers add a few levels.
MAX_NESTING = 32
# A longer Action is runaway generation, not a call; refusing it bounds parsing time.
MAX_ACTION_CHARS = 20_000
_VERBATIM = {"Retrieve", FINISH}

FUNCTION_ALIASES: dict[str, str] = {
    "retrieve": "Retrieve",
    "retrieval": "Retrieve",
    "search": "Retrieve",
    "lookup": "Retrieve",
    "feature": "Feature",
    "features": "Feature",
    "neighbour": "Neighbour",
    "neighbours": "Neighbour",
    "neighbor": "Neighbour",
    "neighbors": "Neighbour",
    "degree": "Degree",
    "degrees": "Degree",
    "finish": FINISH,
    "answer": FINISH,
    "finalanswer": FINISH,
}

# Graph-free wording; run_action and execute use examples from the loaded graph instead.
SYNTAX_HELP = syntax_help(None)


@lru_cache(maxsize=4096)
def canonical_name(name: str) -> str | None:
    """Canonical function name for a spelling or alias, or None if unknown."""
    return FUNCTION_ALIASES.get(re.sub(r"[\s_\-]", "", name.lower()))


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

    @property
    def depth(self) -> int:
        """How many functions are nested: ``Feature[12, title]`` is 1."""
        return 1 + max((a.depth for a in self.args if isinstance(a, Call)), default=0)


# ---------------------------------------------------------------- bracket parser
# The look-behind keeps a long word from being retried at each of its letters (quadratic).
_CALL_START = re.compile(r"(?<![A-Za-z0-9_])([A-Za-z_][A-Za-z0-9_]*)(\s*)([\[(])")
_SEPARATOR = re.compile(r"(?:[\s,;&*`]|\b(?:and|then)\b)*", re.IGNORECASE)
_OPEN, _CLOSE = "[(", "])"
_BRACKET = re.compile(r"[\[\]()]")
_BRACKET_OR_COMMA = re.compile(r"[\[\](),]")
_ANY_BRACKET = re.compile(r"[\[\](){}]")


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


def _match_close(text: str, open_at: int) -> int:
    """Index of the bracket closing the one at ``open_at``; -1 if it never closes."""
    depth = 0
    for match in _BRACKET.finditer(text, open_at):  # jumps from bracket to bracket
        if match.group() in _OPEN:
            depth += 1
        else:
            depth -= 1
            if depth == 0:
                return match.start()
    return -1


def _split_top(text: str) -> list[str]:
    """Split at commas that are not inside brackets."""
    parts, depth, start = [], 0, 0
    for match in _BRACKET_OR_COMMA.finditer(text):
        char = match.group()
        if char in _OPEN:
            depth += 1
        elif char in _CLOSE:
            depth = max(depth - 1, 0)
        elif depth == 0:
            parts.append(text[start : match.start()])
            start = match.end()
    parts.append(text[start:])
    return parts


def _accepts(match: re.Match[str], known_only: bool, brackets: str) -> bool:
    """Whether a ``Name[`` / ``Name(`` match counts as a call start."""
    name, space, opener = match.groups()
    known = canonical_name(name) is not None
    if opener == "(":  # parentheses are common in prose: only known names, no gap
        return "(" in brackets and known and not space
    return "[" in brackets and (known or not known_only)


def _parse_call(text: str, start: int) -> tuple[Call, int]:
    """Parse the call starting at ``start``; return it and the index after it."""
    match = _CALL_START.match(text, start)
    assert match is not None  # callers only start at a matched position
    raw_name, open_at = match.group(1), match.end() - 1
    close = _match_close(text, open_at)
    closed = close >= 0
    if not closed:  # a missing final bracket (e.g. cut by a stop sequence) is forgiven
        close = len(text)
    content = text[open_at + 1 : close]
    if not closed:
        content = content.rstrip(" .`*")
    name = canonical_name(raw_name) or raw_name
    if name in _VERBATIM:
        inner = content.strip()
        nested = _whole_call(inner, known_only=True) if name == "Retrieve" else None
        if nested is not None:
            args: tuple[Call | str, ...] = (nested,)
        else:
            value = _unquote_answer(inner) if name == FINISH else strip_quotes(inner)
            args = (value,) if value else ()
    elif content.strip():
        args = tuple(_parse_arg(piece) for piece in _split_top(content))
    else:
        args = ()
    return Call(name, args), min(close + 1, len(text))


def _whole_call(text: str, known_only: bool) -> Call | None:
    """``text`` parsed as one call if a call spans all of it, else None."""
    match = _CALL_START.match(text)
    if not match or not _accepts(match, known_only, "[("):
        return None
    close = _match_close(text, match.end() - 1)
    if close not in (-1, len(text) - 1):
        return None
    return _parse_call(text, 0)[0]


def _parse_arg(piece: str) -> Call | str:
    text = piece.strip()
    return _whole_call(text, known_only=False) or strip_quotes(text)


def _unquote_answer(text: str) -> str:
    """A Finish answer verbatim, minus one pair of matching surrounding quotes."""
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"`":
        return text[1:-1].strip()
    return text


def _parse_line(line: str, brackets: str, known_only: bool) -> list[Call]:
    """Calls found in one line (first acceptable call start, then its siblings)."""
    for match in _CALL_START.finditer(line):
        if match.start() > 0 and (line[match.start() - 1].isalnum() or line[match.start() - 1] == "_"):
            continue
        if not _accepts(match, known_only, brackets):
            continue
        calls, pos = [], match.start()
        while True:
            call, pos = _parse_call(line, pos)
            calls.append(call)
            nxt = _SEPARATOR.match(line, pos).end()
            follow = _CALL_START.match(line, nxt)
            if not follow or not _accepts(follow, False, brackets):
                return calls
            pos = nxt
    return []


# ---------------------------------------------------------------- JSON form
_NODE_FIRST_KEYS = {"node", "id", "node_id", "nodeid", "text", "query", "keyword", "keywords", "answer"}


def _json_args(name: str, raw: Any) -> tuple[Call | str, ...]:
    if isinstance(raw, str):
        try:
            decoded = json.loads(raw, parse_int=str) if nesting_depth(raw) <= MAX_NESTING else None
        except (ValueError, RecursionError):
            decoded = None
        if isinstance(decoded, (list, dict)):
            raw = decoded
        elif name in _VERBATIM:
            return (raw.strip(),) if raw.strip() else ()
        else:
            return tuple(_parse_arg(piece) for piece in _split_top(raw)) if raw.strip() else ()
    if isinstance(raw, dict):
        # keep the model's order but put the node/text argument first
        raw = [raw[k] for k in sorted(raw, key=lambda k: str(k).lower() not in _NODE_FIRST_KEYS)]
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raw = [raw]
    args: list[Call | str] = []
    for item in raw:
        if isinstance(item, dict):
            args.extend(_json_calls(item)[:1])
        elif isinstance(item, str):
            args.append(_whole_call(item.strip(), known_only=True) or strip_quotes(item))
        else:
            args.append(str(item))
    return tuple(args)


def _json_calls(obj: Any) -> list[Call]:
    if isinstance(obj, list):
        return [call for item in obj for call in _json_calls(item)]
    if not isinstance(obj, dict):
        raise ActionParseError(f"The JSON action holds {type(obj).__name__}, not a function call.")
    for wrapper in ("command", "action", "function", "function_call", "tool_call"):
        if isinstance(obj.get(wrapper), (dict, list)):
            return _json_calls(obj[wrapper])
    name = obj.get("function", obj.get("name", obj.get("tool")))
    if not isinstance(name, str) or not name.strip():
        raise ActionParseError("The JSON action has no function name (use the key 'function' or 'name').")
    canonical = canonical_name(name) or name.strip()
    raw_args = next((obj[k] for k in ("args", "arguments", "parameters", "input") if k in obj), None)
    return [Call(canonical, _json_args(canonical, raw_args))]


def _parse_json(text: str) -> list[Call] | None:
    start = text.find("{")
    if start < 0:
        return None
    before = text[:start].rstrip()
    if before.endswith("["):  # a JSON list of call objects
        start, end = len(before) - 1, text.rfind("]")
    else:
        end = text.rfind("}")
    snippet = text[start : end + 1]
    # integers stay text: a 5,000-digit id must not hit Python's int-string limit
    for loader in (partial(json.loads, parse_int=str), ast.literal_eval):
        try:
            obj = loader(snippet)
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            continue
        if isinstance(obj, (dict, list)):
            return _json_calls(obj)
    return None


# ---------------------------------------------------------------- public parse
def parse_action(text: str) -> list[Call]:
    """Parse one Action (text or JSON) into its top-level calls.

    Raises :class:`ActionParseError`, whose message explains the valid syntax,
    and nothing else: limits are checked first and any unforeseen failure of
    the lenient readers is reported the same way.
    """
    if not isinstance(text, str) or not text.strip():
        raise ActionParseError("The Action is empty.")
    if len(text) > MAX_ACTION_CHARS:
        raise ActionParseError(
            f"The Action is {len(text)} characters long, more than the limit of {MAX_ACTION_CHARS}."
        )
    depth = nesting_depth(text)
    if depth > MAX_NESTING:
        raise ActionParseError(
            f"The Action nests brackets {depth} levels deep, more than the limit of {MAX_NESTING}."
        )
    try:
        return _parse_checked(text)
    except ActionParseError:
        raise
    except (ValueError, TypeError, RecursionError, MemoryError) as exc:
        raise ActionParseError(f"The Action could not be read ({type(exc).__name__}).") from exc


def _parse_checked(text: str) -> list[Call]:
    """:func:`parse_action` on text already within the size and nesting limits."""
    json_error: ActionParseError | None = None
    if "{" in text:
        try:
            calls = _parse_json(text)
        except ActionParseError as err:  # maybe braces inside a bracket call; try that first
            calls, json_error = None, err
        if calls:
            return calls
    lines = [
        line.strip() for line in text.splitlines() if line.strip() and not line.strip().startswith("```")
    ]
    # Lines starting with "Action" first: a Thought line may mention a function in prose.
    lines.sort(key=lambda line: not re.match(r"[*`\s]*action\b", line, re.IGNORECASE))
    for brackets, known_only in (("[", True), ("(", True), ("[", False)):
        for line in lines:
            found = _parse_line(line, brackets, known_only)
            if found:
                return found
    if json_error is not None:
        raise json_error
    preview = text.strip().splitlines()[0][:120]
    raise ActionParseError(f"Could not find a function call in the Action {preview!r}.")


# ---------------------------------------------------------------- execution
@dataclass
class ExecutionResult:
    """What one Action produced.

    ``calls`` are the top-level calls as rendered text, ``errors`` the error
    observations, ``n_calls`` the number of function applications run (a
    mapped call counts once; Finish and rejected actions count zero).
    """

    observation: str
    ok: bool
    finish: str | None = None
    calls: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    n_calls: int = 0


def placeholder_message(answer: str) -> str:
    """The corrective observation for a Finish that holds a format placeholder."""
    return (
        f"{answer.strip()[:40]!r} is a placeholder, not an answer; the task is not finished. Find the answer "
        "with the graph functions, then write it (a name, title, number or list from the Observations) "
        "between Finish's brackets."
    )


class _NestedFailure(Exception):
    """An inner call failed; carries the observation for the whole call."""


def _reject(message: str, calls: list[Call]) -> ExecutionResult:
    return ExecutionResult(message, ok=False, calls=[c.render() for c in calls], errors=[message])


def _evaluate(call: Call, functions: GraphFunctions, counter: list[int], nested: bool) -> FunctionResult:
    values: list[Any] = []
    for arg in call.args:
        if not isinstance(arg, Call):
            values.append(arg)
            continue
        if arg.name == FINISH:
            raise _NestedFailure(
                f"Finish cannot be nested inside {call.name}; write Finish on its own with the answer between its brackets."
            )
        values.append(_evaluate(arg, functions, counter, nested=True).value)
    counter[0] += 1
    result = functions.call(call.name, *values)
    if nested and not result.ok:
        raise _NestedFailure(f"In {call.render()}: {result.observation}")
    return result


def execute(
    calls: list[Call],
    functions: GraphFunctions,
    allow_compound: bool = True,
    max_depth: int | None = None,
) -> ExecutionResult:
    """Run parsed calls and render their observation (never raises)."""
    rendered = [c.render() for c in calls]
    if not calls:
        return _reject(f"The Action holds no function call. {syntax_help(functions.store)}", calls)
    if len(calls) > 1 and any(c.name == FINISH for c in calls):
        return _reject(
            "Finish must be the only call in its Action; nothing was executed. "
            "Run the other calls first, or write just Finish with the answer between its brackets.",
            calls,
        )
    if not allow_compound and (len(calls) > 1 or calls[0].depth > 1):
        return _reject(
            "Only one simple function call is allowed per Action: no nesting and no several calls "
            "at once; nothing was executed. Call one function, e.g. Retrieve[keyword], and use the "
            "id it returns in the next Action.",
            calls,
        )
    if max_depth is not None:
        deep = [c for c in calls if c.depth > max_depth]
        if deep:
            return _reject(
                f"{deep[0].render()} combines {deep[0].depth} functions, more than the limit of "
                f"{max_depth}; nothing was executed. Split it over several Actions.",
                calls,
            )
    if calls[0].name == FINISH:
        answer = " ".join(a.render() if isinstance(a, Call) else a for a in calls[0].args).strip()
        if not answer:
            return _reject("Finish needs the answer itself between its brackets.", calls)
        if is_placeholder_answer(answer):
            return _reject(placeholder_message(answer), calls)
        return ExecutionResult(f"Answer is {answer}", ok=True, finish=answer, calls=rendered)

    observations, errors, counter = [], [], [0]
    for call in calls:
        try:
            result = _evaluate(call, functions, counter, nested=False)
            text, ok = result.observation, result.ok
        except _NestedFailure as failure:
            text, ok = str(failure), False
        except Exception as exc:  # noqa: BLE001 - the contract is: errors become observations
            text, ok = f"{call.render()} failed: {type(exc).__name__}: {exc}", False
        observations.append(text)
        if not ok:
            errors.append(text)
    return ExecutionResult(
        " ".join(observations), ok=not errors, calls=rendered, errors=errors, n_calls=counter[0]
    )


def run_action(
    text: str,
    functions: GraphFunctions,
    allow_compound: bool = True,
    max_depth: int | None = None,
) -> ExecutionResult:
    """Parse and execute one Action; a parse failure becomes a corrective observation."""
    try:
        calls = parse_action(text)
    except ActionParseError as err:
        message = f"{err.problem} {syntax_help(functions.store)}"
        return ExecutionResult(message, ok=False, errors=[message])
    try:
        return execute(calls, functions, allow_compound=allow_compound, max_depth=max_depth)
    except Exception as exc:  # noqa: BLE001 - the contract is: errors become observations
        message = f"The Action could not be executed ({type(exc).__name__}: {str(exc)[:200]}). {SYNTAX_HELP}"
        return ExecutionResult(message, ok=False, errors=[message])


__all__ = [
    "FUNCTION_ALIASES",
    "FUNCTION_SPECS",
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
