"""Every context field's environment variable: ``GRAPHREASON_<METHOD>_<FIELD>`` changes its default.

The CLI and Python read them (a given flag or keyword wins); a server's untrusted clients never do.
"""

from __future__ import annotations

import argparse
from dataclasses import fields, replace

import pytest

from graphreason.cli.context_options import add_run_settings, context_from_args
from graphreason.settings import SETTINGS
from graphreason.workflows.counselor.context import CounselorContext
from graphreason.workflows.gar.context import GARContext
from graphreason.workflows.methods import METHODS
from graphreason.workflows.run_context import env_key, env_name
from tests.security_cases import untrusted_server


def test_each_method_names_its_variables_after_itself() -> None:
    for method in METHODS:
        assert env_key(method.context) == method.name.upper()
    assert env_name(CounselorContext, "max_steps") == "GRAPHREASON_COUNSELOR_MAX_STEPS"
    assert env_name(GARContext, "engine") == "GRAPHREASON_GAR_ENGINE"


def test_no_field_variable_is_also_a_process_setting() -> None:
    process = {item.name for item in SETTINGS}
    seen: dict[str, str] = {}
    for method in METHODS:
        for item in fields(method.context):
            name = env_name(method.context, item.name)
            assert name not in process, name
            assert seen.setdefault(name, method.name) == method.name, name


@pytest.mark.parametrize(
    ("variable", "raw", "field", "expected"),
    [
        ("GRAPHREASON_COUNSELOR_MAX_REFLECTIONS", "2", "max_reflections", 2),  # int
        ("GRAPHREASON_COUNSELOR_TEMPERATURE", " 0.25 ", "temperature", 0.25),  # float, spaces around
        ("GRAPHREASON_COUNSELOR_USE_PLANNER", "no", "use_planner", False),  # bool
        ("GRAPHREASON_COUNSELOR_MODE", "graph_cot", "mode", "graph_cot"),  # Literal
        ("GRAPHREASON_COUNSELOR_SEED", "11", "seed", 11),  # optional int
        ("GRAPHREASON_COUNSELOR_GRAPH", "movielens", "graph", "movielens"),  # str
        ("GRAPHREASON_GAR_ENGINE_SECONDS", "30", "engine_seconds", 30.0),
    ],
)
def test_a_variable_sets_the_default_of_a_context_built_in_python(
    monkeypatch: pytest.MonkeyPatch, variable: str, raw: str, field: str, expected: object
) -> None:
    cls = CounselorContext if "COUNSELOR" in variable else GARContext
    monkeypatch.setenv(variable, raw)
    assert getattr(cls(), field) == expected


def test_a_given_keyword_wins_and_a_copy_keeps_its_values(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRAPHREASON_COUNSELOR_MAX_REFLECTIONS", "2")
    assert CounselorContext(max_reflections=1).max_reflections == 1
    made = CounselorContext(max_reflections=0)
    assert replace(made, temperature=0.5).max_reflections == 0  # replace gives every field again


def test_unset_or_blank_variables_leave_the_declared_default(monkeypatch: pytest.MonkeyPatch) -> None:
    declared = CounselorContext()
    monkeypatch.setenv("GRAPHREASON_COUNSELOR_MAX_REFLECTIONS", "  ")
    assert CounselorContext() == declared


def test_none_means_unset_only_for_a_field_that_may_be_unset(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRAPHREASON_COUNSELOR_SEED", "null")
    assert CounselorContext().seed is None
    monkeypatch.setenv("GRAPHREASON_COUNSELOR_MAX_TOKENS", "none")
    with pytest.raises(ValueError, match="GRAPHREASON_COUNSELOR_MAX_TOKENS='none' is refused"):
        CounselorContext()


@pytest.mark.parametrize(
    ("variable", "raw", "message"),
    [
        ("GRAPHREASON_COUNSELOR_MAX_REFLECTIONS", "two", "takes a whole number"),
        ("GRAPHREASON_COUNSELOR_TEMPERATURE", "inf", "takes a finite number"),
        ("GRAPHREASON_COUNSELOR_USE_PLANNER", "maybe", "takes true or false"),
        ("GRAPHREASON_COUNSELOR_TEMPERATURE", "7", "temperature must be in"),  # the field's own range
        ("GRAPHREASON_COUNSELOR_MODE", "fast", "unknown mode 'fast'"),
    ],
)
def test_a_bad_value_is_refused_with_the_variable_named(
    monkeypatch: pytest.MonkeyPatch, variable: str, raw: str, message: str
) -> None:
    monkeypatch.setenv(variable, raw)
    with pytest.raises(ValueError) as caught:
        CounselorContext()
    assert message in str(caught.value) and variable in str(caught.value)


def test_a_bad_value_for_a_given_field_does_not_matter(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRAPHREASON_COUNSELOR_MAX_REFLECTIONS", "two")
    assert CounselorContext(max_reflections=1).max_reflections == 1


def test_server_clients_get_the_declared_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    with untrusted_server():
        monkeypatch.setenv("GRAPHREASON_COUNSELOR_MAX_REFLECTIONS", "2")
        monkeypatch.setenv("GRAPHREASON_COUNSELOR_GRAPH", "/etc")  # would be refused from a client
        context = CounselorContext()
    assert context.max_reflections == CounselorContext(max_reflections=0).max_reflections == 0
    assert context.graph == "cora"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="run counselor")
    add_run_settings(parser, CounselorContext)
    return parser


def test_the_command_line_reads_the_variable_and_a_flag_wins(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRAPHREASON_COUNSELOR_MAX_REFLECTIONS", "2")
    parser = _parser()
    assert context_from_args(CounselorContext, parser.parse_args([])).max_reflections == 2
    assert context_from_args(CounselorContext, parser.parse_args(["--max-reflections", "1"])).max_reflections == 1


def test_help_shows_a_default_the_environment_set(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRAPHREASON_COUNSELOR_MAX_REFLECTIONS", "2")
    monkeypatch.setenv("GRAPHREASON_COUNSELOR_TEMPERATURE", "hot")  # help still renders; the run refuses it
    text = " ".join(_parser().format_help().split())
    assert "(default: 2 from $GRAPHREASON_COUNSELOR_MAX_REFLECTIONS)" in text
    assert "GRAPHREASON_COUNSELOR_<FIELD>" in text
