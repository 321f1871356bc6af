"""``graphreason run NAME`` for a method that brings no run hook of its own, built from its :class:`Method`.

Each field of the method's pydantic ``input_schema`` becomes an option (a
required field a required option; ``text`` -> ``--text``; the ``messages`` chat channel is left out), each field of its
runtime context a run setting (as for every method, through
:mod:`graphreason.cli.context_options`). The handler validates the input with
the schema, calls ``method.stream_solve(**input, context=..., on_event=...)``,
prints each event as it arrives and then the output as JSON.
"""

from __future__ import annotations

import argparse
import inspect
import json
import sys
import types
import typing
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal, get_args, get_origin

from graphreason.cli.context_options import add_run_settings, context_from_args

if TYPE_CHECKING:
    from graphreason.workflows.method import Method

INPUT_DEST = "input__"  # prefix of the parsed input values, apart from the context's settings
CHAT_FIELD = "messages"  # the chat channel every input schema carries (graphreason.workflows.kit.chat)


def _optional_of(annotation: Any) -> Any:
    """``X | None`` -> ``X``; anything else unchanged."""
    if get_origin(annotation) in (typing.Union, types.UnionType):
        args = [a for a in get_args(annotation) if a is not type(None)]
        if len(args) == 1:
            return args[0]
    return annotation


def _json_value(flag: str) -> Callable[[str], Any]:
    def parse(text: str) -> Any:
        try:
            return json.loads(text)
        except json.JSONDecodeError as exc:
            raise argparse.ArgumentTypeError(f"{flag} takes a JSON value: {exc}") from None

    parse.__name__ = "JSON"
    return parse


def _input_option(group: argparse._ArgumentGroup, name: str, info: Any, required: bool) -> None:
    """One option for the input field ``name`` (a pydantic ``FieldInfo``)."""
    flag = "--" + name.replace("_", "-")
    kind = _optional_of(info.annotation)
    text = (info.description or "").rstrip(".").replace("%", "%%")
    how: dict[str, Any] = {"dest": INPUT_DEST + name, "default": None, "required": required}
    if kind is bool:
        how["action"] = argparse.BooleanOptionalAction
    elif get_origin(kind) is Literal:
        how["choices"] = list(get_args(kind))
    elif kind in (str, int, float):
        how["type"] = kind
        how["metavar"] = name.upper()
    elif get_origin(kind) is list and len(get_args(kind)) == 1 and get_args(kind)[0] in (str, int, float):
        how["nargs"] = "+"
        how["type"] = get_args(kind)[0]
        how["metavar"] = name.upper()
    else:  # objects, nested models, mixed lists: one JSON value
        how["type"] = _json_value(flag)
        how["metavar"] = "JSON"
        text = f"{text} (JSON)" if text else "a JSON value"
    group.add_argument(flag, help=text or None, **how)


def add_run_parser(methods: argparse._SubParsersAction, method: Method) -> None:
    """``run NAME`` for ``method``: its input fields and its context's settings as options."""
    run = methods.add_parser(method.name, help=method.description, description=method.description)
    inputs = run.add_argument_group("input (the method's input schema)")
    solve_takes = inspect.signature(method.stream_solve).parameters
    for name, info in method.input_schema.model_fields.items():
        if name == CHAT_FIELD:
            continue  # Studio's chat channel: on the command line the input field is given itself
        # required where the schema or stream_solve requires it (an input field a chat message may stand in for
        # is optional in the schema, but the command line has no chat)
        takes = solve_takes.get(name)
        required = bool(info.is_required()) or (takes is not None and takes.default is inspect.Parameter.empty)
        _input_option(inputs, name, info, required)
    try:
        add_run_settings(run, method.context)
    except argparse.ArgumentError as exc:
        raise TypeError(
            f"method {method.name!r}: an input field and a context field share an option ({exc}); "
            "rename one of them or give the method its own CLI hooks"
        ) from None
    run.set_defaults(handler=lambda args: cmd_run(method, args))


def input_values(method: Method, args: argparse.Namespace) -> dict[str, Any]:
    """The input the options describe, validated by the method's schema (only the fields given are returned)."""
    from pydantic import ValidationError

    given = {
        name: getattr(args, INPUT_DEST + name)
        for name in method.input_schema.model_fields
        if name != CHAT_FIELD and getattr(args, INPUT_DEST + name, None) is not None
    }
    try:
        checked = method.input_schema(**given)
    except ValidationError as exc:
        problems = "; ".join(
            f"--{'.'.join(map(str, e['loc'])).replace('_', '-')}: {e['msg']}" for e in exc.errors()
        )
        raise ValueError(f"bad input for {method.name}: {problems}") from None
    return checked.model_dump(include=set(given))


def cmd_run(method: Method, args: argparse.Namespace) -> int:
    """Stream the run's events, one line each, then print the output as JSON."""
    from graphreason.cli.trace import EventPrinter

    values = input_values(method, args)
    context = context_from_args(method.context, args)
    printer = EventPrinter(sys.stdout)
    output = method.stream_solve(**values, context=context, on_event=printer)
    printer.flush()
    print(json.dumps(_output_fields(method, output), indent=2, ensure_ascii=False, default=str))
    return 0


def _output_fields(method: Method, state: dict[str, Any]) -> dict[str, Any]:
    """The fields of ``state`` the graph declares as output (a stream's final state holds internal ones too),
    without the chat channel, which repeats the answer for Studio."""
    try:
        declared = method.compiled_graph().get_output_jsonschema().get("properties") or {}
    except Exception:  # noqa: BLE001 - a graph without an output schema: print the whole state
        declared = {}
    shown = {k: v for k, v in state.items() if k in declared} if declared else dict(state)
    shown.pop(CHAT_FIELD, None)
    return shown
