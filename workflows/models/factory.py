"""One factory that turns a model spec into a LangChain chat model.

Spec strings (the form used in runtime contexts, the CLI and ``langgraph dev``):

* ``local`` or ``local:smollm2-135m`` - the embedded SmolLM2-135M-Instruct, in-process;
* ``openai:MODEL`` - any OpenAI-compatible endpoint; base URL from the spec's
  ``base_url`` or ``OPENAI_BASE_URL``, key from the env var named by ``api_key_env``;
* ``scripted:FILE.json`` - a JSON list of replies (tests, reproducible demos).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace

from langchain_core.language_models import BaseChatModel


class ModelConfigError(ValueError):
    """A model spec cannot be turned into a chat model."""


@dataclass(frozen=True)
class ModelSpec:
    """Everything needed to build one role's chat model."""

    backend: str = "local"
    model: str = "smollm2-135m"
    base_url: str | None = None
    api_key_env: str = "OPENAI_API_KEY"
    temperature: float = 0.7
    top_p: float = 0.9
    max_tokens: int = 256
    timeout: float = 60.0
    max_retries: int = 3
    seed: int | None = None

    @classmethod
    def parse(cls, spec: str, **overrides: object) -> ModelSpec:
        """Parse ``backend[:model]``; keyword overrides fill the remaining fields."""
        text = (spec or "").strip()
        if not text:
            raise ModelConfigError("empty model spec; use 'local', 'openai:MODEL' or 'scripted:FILE'")
        backend, _, model = text.partition(":")
        backend = backend.lower()
        if backend not in {"local", "openai", "scripted"}:
            raise ModelConfigError(
                f"unknown model backend {backend!r} in {spec!r}; use local, openai or scripted"
            )
        if backend in {"openai", "scripted"} and not model:
            raise ModelConfigError(f"{backend} spec needs a name after the colon, e.g. '{backend}:...'")
        base = cls(backend=backend, model=model or cls.model)
        fields = {k: v for k, v in overrides.items() if v is not None}
        return replace(base, **fields)


def make_chat_model(spec: ModelSpec | str, **overrides: object) -> BaseChatModel:
    """Build the chat model for one role."""
    if isinstance(spec, str):
        spec = ModelSpec.parse(spec, **overrides)
    elif overrides:
        spec = replace(spec, **{k: v for k, v in overrides.items() if v is not None})
    if spec.backend == "scripted":
        from workflows.models.scripted import ScriptedChatModel

        return ScriptedChatModel.from_file(spec.model)
    if spec.backend == "local":
        from workflows.models.local_smollm import LocalChatModel

        return LocalChatModel(
            temperature=spec.temperature, top_p=spec.top_p, max_tokens=spec.max_tokens, seed=spec.seed
        )
    return _openai_model(spec)


def _openai_model(spec: ModelSpec) -> BaseChatModel:
    from langchain_openai import ChatOpenAI

    base_url = spec.base_url or os.environ.get("OPENAI_BASE_URL")
    api_key = os.environ.get(spec.api_key_env)
    if not api_key:
        if base_url:  # local servers usually accept any key
            api_key = "not-needed"
        else:
            raise ModelConfigError(
                f"openai backend needs an API key in ${spec.api_key_env} or a base_url for a local server"
            )
    return ChatOpenAI(
        model=spec.model,
        base_url=base_url,
        api_key=api_key,
        temperature=spec.temperature,
        top_p=spec.top_p,
        max_tokens=spec.max_tokens,
        timeout=spec.timeout,
        max_retries=spec.max_retries,
        seed=spec.seed,
    )
