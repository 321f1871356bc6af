"""Every ``run`` and ``eval`` option reaches the method's runtime context, and defaults live in the context.

Each CLI field of a context gets a value other than its default on the command
line; the context the command builds (handed to the eval, or built for a run)
must carry exactly that value.
"""

from __future__ import annotations

import typing
from dataclasses import MISSING, fields
from typing import Any, Literal, get_args, get_origin

import pytest

from graphreason.cli.context_options import cli_fields, option_name
from graphreason.cli.main import build_parser
from graphreason.cli.methods.counselor import counselor_context
from graphreason.cli.methods.gar import gar_context
from graphreason.workflows.counselor.context import CounselorContext
from graphreason.workflows.gar.context import GARContext
from graphreason.workflows.run_context import base_type

_STRINGS = {
    "graph": "movielens",
    "embedding_model": "hash",
    "base_url": "http://127.0.0.1:9/v1",
    "spark_master": "local[2]",
    "spark_conf": "spark.executor.memory=2g",
    "spark_checkpoint_dir": "hdfs://head:8020/graphreason/checkpoints",
    "spark_results_dir": "hdfs://head:8020/graphreason/results",
    "edge_dataset": "/data/web/edges.parquet",
}


def _argv_and_expected(context_cls: type, skip: tuple[str, ...] = ()) -> tuple[list[str], dict[str, Any]]:
    """Command-line words setting every CLI field to a non-default value, and the values expected."""
    hints = typing.get_type_hints(context_cls)
    argv: list[str] = []
    expected: dict[str, Any] = {}
    for item in cli_fields(context_cls):
        if item.name in skip:
            continue
        kind = base_type(hints[item.name])
        default = None if item.default is MISSING else item.default
        if kind is bool:
            if item.metadata.get("negate"):
                argv.append(item.metadata["negate"])
                expected[item.name] = False
            else:
                flag = option_name(item)
                argv.append(flag.replace("--", "--no-", 1) if default else flag)
                expected[item.name] = not default
            continue
        if get_origin(kind) is Literal:
            value: Any = next(c for c in get_args(kind) if c != default)
        elif kind is int:
            value = 3 if default is None else default + 1
        elif kind is float:
            value = 0.25 if default is None or default > 1 else round(default / 2 + 0.01, 3)
        elif item.name.endswith("_model"):
            # an endpoint spec (never called): the non-default tool_calling=native needs a tool-calling model
            value = "openai:never-called"
        else:
            value = _STRINGS[item.name]
        argv += [option_name(item), str(value)]
        expected[item.name] = value
    argv += ["--timeout", "12.5", "--max-retries", "4"]
    expected.update(timeout=12.5, max_retries=4)
    return argv, expected


def _check(context: Any, expected: dict[str, Any]) -> None:
    assert expected, "no option was checked"
    for name, value in expected.items():
        assert getattr(context, name) == value, name


def test_every_run_counselor_option_reaches_the_context():
    argv, expected = _argv_and_expected(CounselorContext)
    args = build_parser().parse_args(["run", "counselor", "--question", "q", *argv])
    _check(counselor_context(args), expected)


def test_every_run_gar_option_reaches_the_context():
    argv, expected = _argv_and_expected(GARContext)
    args = build_parser().parse_args(["run", "gar", "--question", "q", *argv])
    _check(gar_context(args), expected)


@pytest.mark.parametrize("method", ["counselor", "gar"])
def test_every_eval_option_reaches_the_context_given_to_the_eval(method, monkeypatch):
    seen: dict[str, Any] = {}

    class Stop(Exception):
        pass

    def capture(**kwargs: Any) -> None:
        seen.update(kwargs)
        raise Stop

    if method == "counselor":
        import graphreason.evals.counselor.evaluate as module

        monkeypatch.setattr(module, "run_counselor_eval", capture)
        argv, expected = _argv_and_expected(CounselorContext, skip=("graph", "mode"))
        argv += ["--graph", "movielens"]
        expected["graph"] = "movielens"
    else:
        import graphreason.evals.gar.evaluate as module

        monkeypatch.setattr(module, "run_gar_eval", capture)
        argv, expected = _argv_and_expected(GARContext)
    args = build_parser().parse_args(["eval", method, *argv])
    with pytest.raises(Stop):
        args.handler(args)
    _check(seen["context"], expected)


@pytest.mark.parametrize("context_cls", [CounselorContext, GARContext])
def test_options_left_out_leave_the_context_defaults(context_cls):
    command = {CounselorContext: "counselor", GARContext: "gar"}[context_cls]
    args = build_parser().parse_args(["run", command, "--question", "q"])
    built = (counselor_context if command == "counselor" else gar_context)(args)
    assert built == context_cls()


def test_every_context_field_is_described_for_studio_and_help():
    for context_cls in (CounselorContext, GARContext):
        for item in fields(context_cls):
            assert str(item.metadata.get("description", "")).strip(), f"{context_cls.__name__}.{item.name}"


def test_bad_values_are_refused_by_the_context_with_its_message():
    args = build_parser().parse_args(["run", "counselor", "--question", "q", "--max-steps", "0"])
    with pytest.raises(ValueError, match="max_steps must be at least 1"):
        counselor_context(args)
    with pytest.raises(SystemExit):
        build_parser().parse_args(["run", "gar", "--question", "q", "--temperature", "inf"])
