"""Model specs: parsing, validation and the chat model each backend builds."""

from __future__ import annotations

import json

import pytest
from langchain_openai import ChatOpenAI

from graphreason.llm.engine.local_smollm import LocalChatModel
from graphreason.workflows.models.factory import ModelConfigError, ModelSpec, make_chat_model
from graphreason.workflows.models.scripted import ScriptedChatModel


@pytest.fixture(autouse=True)
def no_openai_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)


@pytest.mark.parametrize(
    ("text", "backend", "model"),
    [
        ("local", "local", "smollm2-135m"),
        ("local:smollm2-135m", "local", "smollm2-135m"),
        ("local:SmolLM2-135M-Toolformer", "local", "smollm2-135m-toolformer"),
        ("  LOCAL  ", "local", "smollm2-135m"),
        ("openai:gpt-4o-mini", "openai", "gpt-4o-mini"),
        ("scripted:replies.json", "scripted", "replies.json"),
        ("scripted:C:/dir/replies.json", "scripted", "C:/dir/replies.json"),
    ],
)
def test_parse_splits_backend_and_model(text: str, backend: str, model: str) -> None:
    spec = ModelSpec.parse(text)
    assert (spec.backend, spec.model) == (backend, model)


def test_parse_applies_overrides_and_ignores_none() -> None:
    spec = ModelSpec.parse("local", temperature=0.0, max_tokens=32, seed=None)
    assert spec.temperature == 0.0
    assert spec.max_tokens == 32
    assert spec.seed is None
    assert spec.top_p == ModelSpec().top_p


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty model spec"),
        ("   ", "empty model spec"),
        ("llamacpp:foo", "unknown model backend 'llamacpp'"),
        ("openai", "openai spec needs a name"),
        ("scripted:", "scripted spec needs a name"),
        ("local:gpt2", "unknown embedded model 'gpt2'.*local:smollm2-135m-toolformer"),
    ],
)
def test_bad_specs_are_rejected_with_a_reason(text: str, message: str) -> None:
    with pytest.raises(ModelConfigError, match=message):
        ModelSpec.parse(text)


def test_local_spec_builds_the_embedded_model_lazily() -> None:
    model = make_chat_model("local", temperature=0.0, top_p=0.5, max_tokens=12, seed=7)
    assert isinstance(model, LocalChatModel)
    assert (model.temperature, model.top_p, model.max_tokens, model.seed) == (0.0, 0.5, 12, 7)
    assert model.adapter is None


def test_the_tuned_local_model_names_its_adapter() -> None:
    model = make_chat_model("local:smollm2-135m-toolformer")
    assert isinstance(model, LocalChatModel) and model.adapter == "toolformer"


def test_openai_needs_a_key_or_a_base_url() -> None:
    with pytest.raises(ModelConfigError, match=r"needs an API key in \$OPENAI_API_KEY or a base_url"):
        make_chat_model("openai:gpt-4o-mini")


def test_openai_with_base_url_needs_no_key() -> None:
    model = make_chat_model("openai:local", base_url="http://127.0.0.1:9/v1", max_retries=0, timeout=2.0)
    assert isinstance(model, ChatOpenAI)
    assert model.openai_api_base == "http://127.0.0.1:9/v1"
    assert model.model_name == "local"
    assert model.max_retries == 0


def test_openai_reads_the_key_from_the_named_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MY_LLM_KEY", "sk-test")
    model = make_chat_model("openai:gpt-4o-mini", api_key_env="MY_LLM_KEY")
    assert isinstance(model, ChatOpenAI)
    assert model.openai_api_key.get_secret_value() == "sk-test"


def test_openai_base_url_may_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    model = make_chat_model("openai:local")
    assert model.openai_api_base == "http://127.0.0.1:9/v1"


def test_spec_objects_accept_overrides_too() -> None:
    model = make_chat_model(ModelSpec(backend="local"), max_tokens=5)
    assert isinstance(model, LocalChatModel)
    assert model.max_tokens == 5


def test_scripted_spec_replays_its_file(tmp_path) -> None:
    path = tmp_path / "replies.json"
    path.write_text(json.dumps(["Answer: Paris"]))
    model = make_chat_model(f"scripted:{path}")
    assert isinstance(model, ScriptedChatModel)
    assert model.invoke("capital of France?").content == "Answer: Paris"


def test_scripted_spec_with_a_missing_file_fails(tmp_path) -> None:
    with pytest.raises(ValueError, match="cannot read model script"):
        make_chat_model(f"scripted:{tmp_path / 'missing.json'}")


# ------------------------------------------------------------ provider specs through init_chat_model


@pytest.fixture
def init_calls(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, dict]]:
    """Record what the factory asks ``init_chat_model`` for (and build a fake model instead)."""
    import langchain.chat_models
    from langchain_core.language_models.fake_chat_models import FakeListChatModel

    calls: list[tuple[str, dict]] = []

    def fake(model: str, **kwargs: object) -> FakeListChatModel:
        calls.append((model, kwargs))
        return FakeListChatModel(responses=["ok"])

    monkeypatch.setattr(langchain.chat_models, "init_chat_model", fake)
    return calls


def test_openai_specs_are_built_by_init_chat_model(init_calls, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MY_LLM_KEY", "sk-test")
    make_chat_model("openai:ft:gpt-4o:org", api_key_env="MY_LLM_KEY", timeout=7.0, max_retries=1, seed=3)
    assert init_calls == [
        (
            "openai:ft:gpt-4o:org",
            {
                "temperature": 0.7, "top_p": 0.9, "max_tokens": 256, "timeout": 7.0, "max_retries": 1,
                "base_url": None, "api_key": "sk-test", "seed": 3,
            },
        )
    ]  # fmt: skip


def test_other_providers_get_the_shared_settings_only(init_calls, monkeypatch: pytest.MonkeyPatch) -> None:
    from graphreason.workflows.models import factory

    monkeypatch.setattr(factory, "_provider_modules", lambda: {"acme": "json"})  # an importable module
    make_chat_model("acme:big-1", base_url="http://127.0.0.1:9/v1", max_tokens=64)
    make_chat_model("acme:big-1", seed=5)
    (first, settings), (_, seeded) = init_calls
    assert first == "acme:big-1" and "base_url" not in settings and "api_key" not in settings
    assert settings["max_tokens"] == 64 and "seed" not in settings and seeded["seed"] == 5


def test_provider_specs_are_checked_when_parsed(monkeypatch: pytest.MonkeyPatch) -> None:
    from graphreason.workflows.models import factory

    with pytest.raises(ModelConfigError, match="init_chat_model knows"):
        ModelSpec.parse("llamacpp:foo")
    monkeypatch.setattr(factory, "_provider_modules", lambda: {"acme": "acme_chat_missing.models"})
    with pytest.raises(ModelConfigError, match="acme models need the acme-chat-missing package"):
        ModelSpec.parse("acme:big-1")
    monkeypatch.setattr(factory, "_provider_modules", lambda: {"acme": "json"})
    with pytest.raises(ModelConfigError, match="acme spec needs a name"):
        ModelSpec.parse("acme")
    monkeypatch.setattr(factory, "_provider_modules", lambda: None)  # langchain's table moved: it decides
    assert ModelSpec.parse("acme:big-1").backend == "acme"


def test_a_setting_the_provider_refuses_is_a_config_error(monkeypatch: pytest.MonkeyPatch) -> None:
    import langchain.chat_models

    def refuse(model: str, **kwargs: object) -> None:
        raise ValueError("timeout is not a field")

    monkeypatch.setattr(langchain.chat_models, "init_chat_model", refuse)
    with pytest.raises(ModelConfigError, match="cannot build openai:m: timeout is not a field"):
        make_chat_model("openai:m", base_url="http://127.0.0.1:9/v1")
