"""Request limits: --timeout / --max-retries reach the openai client, from the CLI or the environment."""

from __future__ import annotations

import argparse

import pytest

from graphreason.cli.main import build_parser
from graphreason.cli.options import prepared_models
from graphreason.workflows.models.factory import (
    DEFAULT_MAX_RETRIES,
    DEFAULT_TIMEOUT,
    ModelConfigError,
    ModelSpec,
    make_chat_model,
    request_limit_overrides,
    set_request_limits,
)

URL = "http://127.0.0.1:9/v1"  # never contacted: building a client opens no connection


@pytest.fixture(autouse=True)
def _clean(monkeypatch: pytest.MonkeyPatch):  # noqa: ANN202
    for name in ("GRAPHREASON_TIMEOUT", "GRAPHREASON_MAX_RETRIES", "OPENAI_API_KEY", "OPENAI_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    before = request_limit_overrides()
    yield
    set_request_limits(**before)


def test_defaults_reach_the_chat_model() -> None:
    model = make_chat_model("openai:fake", base_url=URL)
    assert (model.request_timeout, model.max_retries) == (DEFAULT_TIMEOUT, DEFAULT_MAX_RETRIES)


def test_environment_then_process_setting_then_spec_override(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRAPHREASON_TIMEOUT", "7.5")
    monkeypatch.setenv("GRAPHREASON_MAX_RETRIES", "0")
    assert (ModelSpec.parse("openai:x").timeout, ModelSpec.parse("openai:x").max_retries) == (7.5, 0)
    set_request_limits(timeout=3.0)  # the CLI's --timeout beats the environment
    assert ModelSpec.parse("openai:x").timeout == 3.0 and ModelSpec.parse("openai:x").max_retries == 0
    assert ModelSpec.parse("openai:x", timeout=1.0).timeout == 1.0  # an explicit override wins


@pytest.mark.parametrize(
    ("env", "value"),
    [("GRAPHREASON_TIMEOUT", "soon"), ("GRAPHREASON_TIMEOUT", "-1"), ("GRAPHREASON_MAX_RETRIES", "1.5")],
)
def test_bad_environment_values_are_config_errors(
    monkeypatch: pytest.MonkeyPatch, env: str, value: str
) -> None:
    monkeypatch.setenv(env, value)
    with pytest.raises(ModelConfigError):
        ModelSpec.parse("openai:x")


@pytest.mark.parametrize("limits", [{"timeout": 0}, {"timeout": float("inf")}, {"max_retries": -1}])
def test_bad_limits_are_refused_when_set(limits: dict) -> None:
    with pytest.raises(ModelConfigError):
        set_request_limits(**limits)


@pytest.mark.parametrize(
    "command",
    [
        ["run", "counselor", "--question", "q"],
        ["run", "gar", "--question", "q"],
        ["eval", "counselor"],
        ["eval", "gar"],
        ["demo"],
        ["case-study", "pagerank"],
    ],
)
def test_every_run_and_eval_command_takes_the_limits(command: list[str]) -> None:
    args = build_parser().parse_args([*command, "--timeout", "2.5", "--max-retries", "0"])
    assert (args.timeout, args.max_retries) == (2.5, 0)


def test_prepared_models_applies_the_limits_only_inside_the_block() -> None:
    with prepared_models(argparse.Namespace(model="local", timeout=4.0, max_retries=1)):
        assert (ModelSpec.parse("openai:x").timeout, ModelSpec.parse("openai:x").max_retries) == (4.0, 1)
    assert ModelSpec.parse("openai:x").timeout == DEFAULT_TIMEOUT
