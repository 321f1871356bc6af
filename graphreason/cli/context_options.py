"""Command-line options generated from a runtime context's fields, and the context built back from them.

Every option's type, choices and help text come from the dataclass field
(its annotation, default and ``describe(...)`` metadata), so a default lives
in the context alone: options are registered with ``default=None`` and an
option left out leaves the field at the context's default. A sub-command can
still change a default for itself with ``parser.set_defaults`` (the demo does).
"""

from __future__ import annotations

import argparse
import math
import typing
from collections.abc import Mapping
from dataclasses import MISSING, Field, fields
from typing import Any, Literal, get_args, get_origin


def _converter(kind: Any, name: str) -> Any:
    """argparse ``type`` for a field: numbers are checked finite (``--temperature inf`` is refused)."""
    if kind is int:
        return int
    if kind is float:

        def finite(text: str) -> float:
            try:
                value = float(text)
            except ValueError:
                raise argparse.ArgumentTypeError(f"must be a number, got {text!r}") from None
            if not math.isfinite(value):
                raise argparse.ArgumentTypeError(f"must be a finite number, got {text}")
            return value

        finite.__name__ = name
        return finite
    return str


def _help(item: Field, shown_default: Any) -> str:
    text = str(item.metadata.get("description", "")).rstrip(".").replace("%", "%%")
    if shown_default is not None:
        text += f" (default: {shown_default})"
    return text


def _shown_default(context_cls: type, item: Field) -> Any:
    """The default ``--help`` shows: the field's environment variable's value where one is set."""
    from graphreason.workflows.run_context import env_default

    if item.default is MISSING:
        return None
    try:
        value, variable = env_default(context_cls, item)
    except ValueError:  # a bad value is reported when the context is built; help still shows the declared one
        return item.default
    return f"{value} from ${variable}" if variable else item.default


def cli_fields(context_cls: type) -> list[Field]:
    """The fields of ``context_cls`` that appear on the command line, in declaration order."""
    return [f for f in fields(context_cls) if f.metadata.get("cli", True)]


def option_name(item: Field) -> str:
    """The field's flag: its ``flag`` metadata, else ``--`` plus the name with hyphens."""
    return item.metadata.get("flag") or "--" + item.name.replace("_", "-")


def add_context_options(
    parser: argparse.ArgumentParser | argparse._ArgumentGroup,
    context_cls: type,
    *,
    skip: tuple[str, ...] = (),
    defaults: Mapping[str, Any] | None = None,
) -> None:
    """Add one option per CLI field of ``context_cls`` (except ``skip``), with ``default=None``.

    The parsed value lands under the field's own name (``args.reasoner_model``
    for ``--model``), so :func:`context_from_args` finds it without a table.
    ``defaults`` are the command's own defaults where they differ from the
    context's (the caller sets them with ``set_defaults``); the help shows them.
    """
    from graphreason.workflows.run_context import base_type

    hints = typing.get_type_hints(context_cls)
    own = dict(defaults or {})
    for item in cli_fields(context_cls):
        if item.name in skip:
            continue
        kind = base_type(hints[item.name])
        default = own.get(item.name, _shown_default(context_cls, item))
        if kind is bool:
            negate = item.metadata.get("negate")
            if negate:  # a switch that turns a default-on feature off
                parser.add_argument(
                    negate,
                    dest=item.name,
                    action="store_const",
                    const=False,
                    default=None,
                    help="switch off: " + _help(item, None),
                )
            else:
                parser.add_argument(
                    option_name(item),
                    dest=item.name,
                    action=argparse.BooleanOptionalAction,
                    default=None,
                    help=_help(item, default),
                )
            continue
        extra: dict[str, Any] = {}
        if get_origin(kind) is Literal:
            extra["choices"] = list(get_args(kind))
        else:
            extra["type"] = _converter(kind, item.name)
            extra["metavar"] = option_name(item).lstrip("-").replace("-", "_").upper()
        parser.add_argument(
            option_name(item), dest=item.name, default=None, help=_help(item, default), **extra
        )


def add_run_settings(
    parser: argparse.ArgumentParser,
    context_cls: type,
    skip: tuple[str, ...] = (),
    defaults: Mapping[str, Any] | None = None,
) -> argparse._ArgumentGroup:
    """A "run settings" group: one option per context field (except ``skip``), plus the request limits.

    Every method's ``run`` / ``eval`` / ``train`` sub-command takes its settings
    this way, so a new context field shows up on each of them with no CLI edit.
    ``defaults`` (field name -> value) replace the context's defaults for this
    command, in its parsed values and in its help.
    """
    from graphreason.cli.options import add_request_options
    from graphreason.workflows.run_context import env_name

    example = env_name(context_cls, "<field>")
    group = parser.add_argument_group(
        "run settings (the method's runtime context)",
        f"Each setting left out takes its environment variable ({example}, the field's name in capitals) "
        "where one is set, else its default.",
    )
    add_context_options(group, context_cls, skip=skip, defaults=defaults)
    add_request_options(group)
    if defaults:
        parser.set_defaults(**defaults)
    return group


def context_values(context_cls: type, args: argparse.Namespace) -> dict[str, Any]:
    """The context fields the command line set (options left out are absent, so defaults apply)."""
    values = {}
    for item in fields(context_cls):
        value = getattr(args, item.name, None)
        if value is not None:
            values[item.name] = value
    return values


def context_from_args(context_cls: type, args: argparse.Namespace, **overrides: Any) -> Any:
    """``context_cls`` built from the parsed options (plus ``overrides``); bad values raise ``ValueError``."""
    values = {**context_values(context_cls, args), **overrides}
    return context_cls(**values)


def add_method_parser(
    subparsers: argparse._SubParsersAction,
    name: str,
    *,
    context_cls: type,
    handler: Any,
    skip: tuple[str, ...] = (),
    **parser_options: Any,
) -> argparse.ArgumentParser:
    """``NAME`` under ``subparsers`` with its ``handler`` and the run settings of ``context_cls``.

    The caller adds the command's own options to the parser returned; argparse
    shows them before the "run settings" group whatever the order of the calls.
    """
    parser = subparsers.add_parser(name, **parser_options)
    parser.set_defaults(handler=handler)
    add_run_settings(parser, context_cls, skip=skip)
    return parser
