"""One factory that turns a model spec into a LangChain chat model.

Spec strings (the form used in runtime contexts, the CLI and ``langgraph dev``):

* ``local`` or ``local:smollm2-135m`` - the embedded SmolLM2-135M-Instruct, in-process;
* ``openai:MODEL`` - any OpenAI-compatible endpoint; base URL from the spec's
  ``base_url`` or ``OPENAI_BASE_URL``, key from the env var named by ``api_key_env``;
* ``scripted:FILE.json`` - a JSON list of replies (tests, reproducible demos).

Endpoint requests are bounded by the openai client's own timeout and retries
(429, 5xx, 408/409, connection errors and timeouts, exponential backoff of
0.5-8 s). One call therefore gives up after at most
``(max_retries + 1) * timeout`` seconds plus the backoff between attempts (a
server's ``Retry-After`` header, which the client honours up to 120 s, can
lengthen that pause). Defaults: :data:`DEFAULT_TIMEOUT` and
:data:`DEFAULT_MAX_RETRIES`, or ``GRAPHREASON_TIMEOUT`` /
``GRAPHREASON_MAX_RETRIES`` in the environment (for ``langgraph dev``), or the
CLI's ``--timeout`` / ``--max-retries`` through :func:`set_request_limits`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # kept out of the import path so the CLI can check specs cheaply
    from langchain_core.language_models import BaseChatModel

from tools.policy import check_model_spec

DEFAULT_TIMEOUT = 60.0  # seconds one request may take
DEFAULT_MAX_RETRIES = 2  # retries after the first attempt
_limits: dict[str, float | int] = {}  # set by set_request_limits (the CLI options)


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
    timeout: float = DEFAULT_TIMEOUT
    max_retries: int = DEFAULT_MAX_RETRIES
    seed: int | None = None

    def __post_init__(self) -> None:
        # a float('inf') or negative limit would make the bound meaningless
        if not (isinstance(self.timeout, (int, float)) and 0 < self.timeout < float("inf")):
            raise ModelConfigError(f"timeout must be a positive number of seconds, got {self.timeout!r}")
        retries = self.max_retries
        if not isinstance(retries, int) or isinstance(retries, bool) or retries < 0:
            raise ModelConfigError(f"max_retries must be an integer of 0 or more, got {self.max_retries!r}")

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
        base = cls(backend=backend, model=model or cls.model, **request_limits())
        fields = {k: v for k, v in overrides.items() if v is not None}
        return replace(base, **fields)


def set_request_limits(timeout: float | None = None, max_retries: int | None = None) -> None:
    """Process-wide request timeout (seconds) and retry count of every spec parsed afterwards.

    ``None`` leaves a limit at its environment or built-in default.
    """
    given = {"timeout": timeout, "max_retries": max_retries}
    ModelSpec(**{k: v for k, v in given.items() if v is not None})  # refused now, not at the first call
    for name, value in given.items():
        if value is None:
            _limits.pop(name, None)
        else:
            _limits[name] = value


def request_limit_overrides() -> dict[str, float | int | None]:
    """The values last given to :func:`set_request_limits` (``None``: not set), to restore them later."""
    return {"timeout": _limits.get("timeout"), "max_retries": _limits.get("max_retries")}


def request_limits() -> dict[str, float | int]:
    """The current ``timeout`` and ``max_retries``: set_request_limits, else the environment, else defaults."""
    limits: dict[str, float | int] = {"timeout": DEFAULT_TIMEOUT, "max_retries": DEFAULT_MAX_RETRIES}
    for name, env, kind, wanted in (
        ("timeout", "GRAPHREASON_TIMEOUT", float, "a positive number of seconds"),
        ("max_retries", "GRAPHREASON_MAX_RETRIES", int, "an integer of 0 or more"),
    ):
        text = os.environ.get(env, "").strip()
        if text:
            try:
                limits[name] = kind(text)
                ModelSpec(**{name: limits[name]})
            except ValueError:  # ModelConfigError included
                raise ModelConfigError(f"${env} must be {wanted}, got {text!r}") from None
    limits.update(_limits)
    return limits


def make_chat_model(spec: ModelSpec | str, **overrides: object) -> BaseChatModel:
    """Build the chat model for one role."""
    if isinstance(spec, str):
        spec = ModelSpec.parse(spec, **overrides)
    elif overrides:
        spec = replace(spec, **{k: v for k, v in overrides.items() if v is not None})
    check_model_spec(spec.backend, spec.base_url)  # server clients: no scripted files, no own endpoint
    if spec.backend == "scripted":
        from workflows.models.scripted import ScriptedChatModel

        return ScriptedChatModel.from_file(spec.model)
    if spec.backend == "local":
        from llm.engine.local_smollm import LocalChatModel

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
