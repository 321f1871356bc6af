"""Model specs in the ``provider/model`` form of the LangGraph templates read as ``provider:model``."""

from __future__ import annotations

import pytest

from graphreason.workflows.counselor.context import CounselorContext
from graphreason.workflows.gar.context import GARContext
from graphreason.workflows.models.factory import ModelSpec, canonical_spec


@pytest.mark.parametrize(
    ("spec", "read"),
    [
        ("openai/gpt-4o-mini", "openai:gpt-4o-mini"),
        ("OpenAI/gpt-4o-mini", "openai:gpt-4o-mini"),
        ("anthropic/claude-3-5-haiku-latest", "anthropic:claude-3-5-haiku-latest"),
        ("openai/meta-llama/Llama-3-8B", "openai:meta-llama/Llama-3-8B"),  # a hub name after the provider
        ("openai:meta-llama/Llama-3-8B", "openai:meta-llama/Llama-3-8B"),  # already a colon spec
        ("scripted:/tmp/replies.json", "scripted:/tmp/replies.json"),
        ("models/my-encoder", "models/my-encoder"),  # not a backend: a path, left alone
        ("local", "local"),
    ],
)
def test_slash_specs_read_as_colon_specs(spec: str, read: str) -> None:
    assert canonical_spec(spec) == read


def test_contexts_and_the_factory_take_the_slash_form() -> None:
    spec = ModelSpec.parse("openai/gpt-4o-mini")
    assert (spec.backend, spec.model) == ("openai", "gpt-4o-mini")
    context = CounselorContext(reasoner_model="openai/gpt-4o-mini", judge_model="openai/gpt-4o")
    assert (context.reasoner_model, context.judge_model) == ("openai:gpt-4o-mini", "openai:gpt-4o")
    gar = GARContext(master_model="openai/gpt-4o-mini", agent_model="openai/gpt-4o-mini")
    assert gar.master_model == gar.agent_model == "openai:gpt-4o-mini"
    with pytest.raises(ValueError, match="unknown model backend 'nosuchprovider'"):
        ModelSpec.parse("nosuchprovider:x")
