"""The Python API checks model specs before any heavy work, as the CLI does."""

from __future__ import annotations

import pytest

from graphreason.workflows.models.factory import ModelConfigError


@pytest.fixture()
def no_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)


def _never_runs(monkeypatch: pytest.MonkeyPatch, module: str) -> None:
    import importlib

    graph = importlib.import_module(module).graph

    def fail(*args, **kwargs):
        raise AssertionError("the workflow started before its model spec was checked")

    monkeypatch.setattr(type(graph), "invoke", fail)
    monkeypatch.setattr(type(graph), "stream", fail)


def test_a_missing_key_fails_before_the_toolformer_workflow_starts(no_key, monkeypatch) -> None:
    from graphreason.workflows.toolformer import solve, stream_solve
    from graphreason.workflows.toolformer.context import ToolformerContext

    _never_runs(monkeypatch, "graphreason.workflows.toolformer.graph")
    context = ToolformerContext(generator_model="openai:gpt-4o-mini")
    for run in (solve, stream_solve):
        with pytest.raises(ModelConfigError, match="generator_model 'openai:gpt-4o-mini': .* needs an API key"):
            run("What is the diameter of the lollipop graph?", context)


def test_an_unknown_provider_fails_before_the_counselor_workflow_starts(monkeypatch) -> None:
    from graphreason.workflows.counselor import CounselorContext, solve

    _never_runs(monkeypatch, "graphreason.workflows.counselor.graph")
    with pytest.raises(ValueError, match="unknown model backend 'nosuch'"):
        solve("Who wrote it?", CounselorContext(judge_model="nosuch:model"))


def test_special_specs_and_the_embedded_model_are_not_built(monkeypatch) -> None:
    from graphreason.workflows.gar.context import GARContext
    from graphreason.workflows.models import factory

    monkeypatch.setattr(factory, "make_chat_model", lambda *a, **k: pytest.fail("no model may be built here"))
    factory.check_context_models(GARContext(master_model="local", agent_model="rules"))
