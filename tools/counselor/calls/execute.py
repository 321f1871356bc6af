"""The executor: parsed calls evaluated innermost-first through the registry's LangChain tools.

Every function application is a tool call of the entry's generated LangChain
tool (:mod:`graphreason.tools.counselor.calls.entry_tools`, the tools a tool-calling model gets too),
whose artifact carries the value an outer call needs. A call that no tool can
take - an unknown name, the wrong number of arguments - runs nothing, and the
registry's dispatch words the error. Rules:

* a list returned by an inner call is mapped over by the outer call (as the
  entry's ``maps`` says);
* several top-level calls give one observation each, joined by single spaces
  so the Observation stays one line;
* a terminal entry (Finish) must be the only call of its Action and cannot be
  nested; mixed with other calls nothing runs and the observation says so;
* ``allow_compound=False`` (the paper's "w/o Complex" ablation) accepts only
  one call without nesting; ``max_depth`` caps how many functions one call nests;
* every error comes back as observation text naming what is valid;
  :func:`execute` and :func:`run_action` never raise.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from graphreason.tools.counselor.call_examples import is_placeholder_answer, syntax_help
from graphreason.tools.counselor.calls.base import SYNTAX_HELP, ActionParseError, Call
from graphreason.tools.counselor.calls.entry_tools import Toolbox
from graphreason.tools.counselor.calls.parse import parse_action
from graphreason.tools.counselor.functions import FunctionResult, GraphFunctions, retrieving_for
from graphreason.tools.counselor.registry import MOST_LINKED, NEIGHBOUR, RETRIEVE, UNION, WITHOUT, leaving_out


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


def _evaluate(call: Call, toolbox: Toolbox, counter: list[int], nested: bool) -> FunctionResult:
    values, origin = _arguments(call, toolbox, counter)
    with leaving_out(origin):  # the node a MostLinked's or a Without's list was taken from (None: none): not an answer
        return _applied(call, values, toolbox, counter, nested)


def _chain_root(call: Call) -> Call | str | None:
    """The node a chain of hops starts from (``Neighbour[Neighbour[Retrieve[X], r], r]``: ``Retrieve[X]``; None
    where a call that is no hop stands in the chain)."""
    node: Call | str = call
    while isinstance(node, Call) and node.name != RETRIEVE.name:
        if node.name != NEIGHBOUR.name or not node.args:
            return None
        node = node.args[0]
    return node


def _applied(call: Call, values: list[Any], toolbox: Toolbox, counter: list[int], nested: bool) -> FunctionResult:
    """``call`` applied to its evaluated ``values``; a nested call that fails raises for the whole call."""
    counter[0] += 1
    result = toolbox.apply(call.name, values)
    if nested and not result.ok:
        raise _NestedFailure(f"In {call.render()}: {result.observation}")
    return result


def _arguments(call: Call, toolbox: Toolbox, counter: list[int]) -> tuple[list[Any], Any]:
    """``call``'s arguments, inner calls evaluated; and, for a ``MostLinked`` over the ``Neighbour`` list of one
    node, that node, and for a ``Without`` or a ``Union`` of two chains of hops from one node (the friends of X's
    friends without X's friends; the papers one or two links from X), that node (else None)."""
    values: list[Any] = []
    origin = None
    for arg in call.args:
        if not isinstance(arg, Call):
            values.append(arg)
            continue
        if call.name == MOST_LINKED.name and not values and arg.name == NEIGHBOUR.name:
            inner, _ = _arguments(arg, toolbox, counter)
            values.append(_applied(arg, inner, toolbox, counter, nested=True).value)
            origin = inner[0] if inner and not isinstance(inner[0], (list, tuple)) else None  # one node's list
            continue
        if toolbox.functions.registry.is_terminal(arg.name):
            raise _NestedFailure(
                f"{arg.name} cannot be nested inside {call.name}; write {arg.name} on its own with the answer "
                "between its brackets."
            )
        if arg.name == RETRIEVE.name:  # of a name's namesakes, the one with what this call asks of it
            asked = [value for value in call.args if isinstance(value, str)]
            with retrieving_for(asked):
                values.append(_evaluate(arg, toolbox, counter, nested=True).value)
            continue
        values.append(_evaluate(arg, toolbox, counter, nested=True).value)
    if call.name in (WITHOUT.name, UNION.name) and len(call.args) == 2 and all(isinstance(a, Call) for a in call.args):
        first, second = (_root_node(_chain_root(arg), toolbox, counter) for arg in call.args)  # type: ignore[arg-type]
        if first is not None and first == second:  # two lists walked from one node: that node is no member of
            origin = first  # what they give (X, among its friends' friends)
    return values, origin


def _root_node(root: Call | str | None, toolbox: Toolbox, counter: list[int]) -> str | None:
    """The node id a chain's root names (an id as written, or the node its Retrieve finds); None where it names none
    (or several)."""
    try:
        found = root if isinstance(root, str) or root is None else _evaluate(root, toolbox, counter, nested=True).value
        if isinstance(found, (list, tuple)):
            found = found[0] if len(found) == 1 else None
        return None if found is None else toolbox.functions.resolve_node(found)
    except Exception:  # noqa: BLE001 - a root that names no node leaves nothing out (the call itself reports it)
        return None


def _finish(call: Call, rendered: list[str]) -> ExecutionResult:
    """The answer of a terminal call standing alone, or why it is not one."""
    answer = " ".join(a.render() if isinstance(a, Call) else a for a in call.args).strip()
    if not answer:
        return _reject(f"{call.name} needs the answer itself between its brackets.", [call])
    if is_placeholder_answer(answer):
        return _reject(placeholder_message(answer), [call])
    return ExecutionResult(f"Answer is {answer}", ok=True, finish=answer, calls=rendered)


def _refusal(
    calls: list[Call], functions: GraphFunctions, allow_compound: bool, max_depth: int | None
) -> str:
    """Why nothing of ``calls`` may run, or "" when they may."""
    if not calls:
        return f"The Action holds no function call. {syntax_help(functions.store)}"
    terminal = [c for c in calls if functions.registry.is_terminal(c.name)]
    if len(calls) > 1 and terminal:
        return (
            f"{terminal[0].name} must be the only call in its Action; nothing was executed. "
            f"Run the other calls first, or write just {terminal[0].name} with the answer between its brackets."
        )
    if not allow_compound and (len(calls) > 1 or calls[0].depth > 1):
        return (
            "Only one simple function call is allowed per Action: no nesting and no several calls "
            "at once; nothing was executed. Call one function, e.g. Retrieve[keyword], and use the "
            "id it returns in the next Action."
        )
    deep = [c for c in calls if max_depth is not None and c.depth > max_depth]
    if deep:
        return (
            f"{deep[0].render()} combines {deep[0].depth} functions, more than the limit of "
            f"{max_depth}; nothing was executed. Split it over several Actions."
        )
    return ""


def execute(
    calls: list[Call],
    functions: GraphFunctions,
    allow_compound: bool = True,
    max_depth: int | None = None,
) -> ExecutionResult:
    """Run parsed calls and render their observation (never raises)."""
    refusal = _refusal(calls, functions, allow_compound, max_depth)
    if refusal:
        return _reject(refusal, calls)
    rendered = [c.render() for c in calls]
    if functions.registry.is_terminal(calls[0].name):
        return _finish(calls[0], rendered)
    observations, errors, counter, toolbox = [], [], [0], Toolbox(functions)
    for call in calls:
        try:
            result = _evaluate(call, toolbox, counter, nested=False)
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
    """Parse (with ``functions``' registry) and execute one Action; a parse failure becomes a corrective observation."""
    try:
        calls = parse_action(text, functions.registry)
    except ActionParseError as err:
        message = f"{err.problem} {syntax_help(functions.store)}"
        return ExecutionResult(message, ok=False, errors=[message])
    try:
        return execute(calls, functions, allow_compound=allow_compound, max_depth=max_depth)
    except Exception as exc:  # noqa: BLE001 - the contract is: errors become observations
        message = f"The Action could not be executed ({type(exc).__name__}: {str(exc)[:200]}). {SYNTAX_HELP}"
        return ExecutionResult(message, ok=False, errors=[message])
