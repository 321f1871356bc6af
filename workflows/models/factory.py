"""One factory that turns a model spec into a LangChain chat model.

Spec strings (the form used in runtime contexts, the CLI and ``langgraph dev``):

* ``local`` or ``local:smollm2-135m`` - the embedded SmolLM2-135M-Instruct, in-process;
  ``local:smollm2-135m-toolformer`` - the same model with the shipped Graph-ToolFormer
  generator adapter merged in (:mod:`graphreason.llm.engine.adapter`);
* ``scripted:FILE.json`` - a JSON list of replies (tests, reproducible demos);
* ``openai:MODEL`` - any OpenAI-compatible endpoint; base URL from the spec's
  ``base_url`` or ``OPENAI_BASE_URL``, key from the env var named by ``api_key_env``;
* ``PROVIDER:MODEL`` for any other provider that langchain's ``init_chat_model``
  knows (``anthropic:...``, ``mistralai:...``, ``ollama:...``), when its
  integration package is installed; its key comes from the provider's own
  environment variable.

``local`` and ``scripted`` are ours; every provider spec, ``openai`` included,
is built by ``init_chat_model``, which parses ``provider:model`` and constructs
the provider's chat model class (for ``openai`` the same ``ChatOpenAI`` with
the same settings as before). A provider spec is checked when parsed: an
unknown provider or a missing integration package is a :class:`ModelConfigError`,
so the CLI reports it before any work.

Endpoint requests are bounded by the openai client's own timeout and retries
(429, 5xx, 408/409, connection errors and timeouts, exponential backoff of
0.5-8 s). One call therefore gives up after at most
``(max_retries + 1) * timeout`` seconds plus the backoff between attempts (a
server's ``Retry-After`` header, which the client honours up to 120 s, can
lengthen that pause). Defaults: :data:`DEFAULT_TIMEOUT` and
:data:`DEFAULT_MAX_RETRIES`, or ``GRAPHREASON_TIMEOUT`` /
``GRAPHREASON_MAX_RETRIES`` in the environment (for ``langgraph dev``), or the
CLI's ``--timeout`` / ``--max-retries`` through :func:`set_request_limits`.
Other providers get the same ``timeout`` and ``max_retries`` settings, which
their clients apply in their own way.
"""

from __future__ import annotations

import importlib.util
import os
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # kept out of the import path so the CLI can check specs cheaply
    from langchain_core.language_models import BaseChatModel

from graphreason.settings import SettingError, max_retries, request_timeout
from graphreason.tools.core.policy import check_model_spec

OWN_BACKENDS = ("local", "scripted")  # every other backend is a provider of init_chat_model
# local model names -> the shipped LoRA adapter merged into the embedded weights (None: plain)
LOCAL_MODELS: dict[str, str | None] = {
    "smollm2-135m": None,
    "smollm2-135m-toolformer": "toolformer",
    "smollm2-135m-graphagent": "graphagent",
    "smollm2-135m-counselor": "counselor",
}
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
        text = canonical_spec(spec or "").strip()
        if not text:
            raise ModelConfigError("empty model spec; use 'local', 'openai:MODEL' or 'scripted:FILE'")
        backend, _, model = text.partition(":")
        backend = backend.lower()
        if backend not in OWN_BACKENDS:
            check_provider(backend, spec)
        if backend != "local" and not model:
            raise ModelConfigError(f"{backend} spec needs a name after the colon, e.g. '{backend}:...'")
        if backend == "local":
            model = model.strip().lower() or cls.model
            if model not in LOCAL_MODELS:
                raise ModelConfigError(
                    f"unknown embedded model {model!r} in {spec!r}; use "
                    + " or ".join(f"local:{name}" for name in LOCAL_MODELS)
                )
        base = cls(backend=backend, model=model or cls.model, **request_limits())
        fields = {k: v for k, v in overrides.items() if v is not None}
        return replace(base, **fields)


def tuned_model_spec(adapter: str) -> str:
    """``local:NAME`` of the local model that merges ``adapter`` (see :data:`LOCAL_MODELS`)."""
    return "local:" + next(name for name, merged in LOCAL_MODELS.items() if merged == adapter)


def tuned_local_spec(model: Any, use_tuned: bool, adapter: str) -> str | None:
    """``local:NAME`` of the local model tuned with ``adapter`` when it should run for ``model``, else None.

    Naming the tuned model always selects it; the plain embedded model (a local
    name with no adapter in :data:`LOCAL_MODELS`) is swapped for it unless
    ``use_tuned`` is off. Endpoints and ready chat models are never swapped.
    """
    if not isinstance(model, str):
        return None
    backend, _, name = model.strip().lower().partition(":")
    if backend != "local":
        return None
    name = name.strip() or ModelSpec.model
    tuned = tuned_model_spec(adapter)
    if f"local:{name}" == tuned or (use_tuned and name in LOCAL_MODELS and LOCAL_MODELS[name] is None):
        return tuned
    return None


def canonical_spec(spec: str) -> str:
    """``provider/model`` (the form LangGraph's templates use, e.g. ``openai/gpt-4o-mini``) as
    ``provider:model``; every other spec, and a path whose first part is not a backend, unchanged."""
    text = spec.strip()
    slash, colon = text.find("/"), text.find(":")
    if slash > 0 and (colon < 0 or slash < colon):
        prefix = text[:slash].strip().lower()
        if prefix in OWN_BACKENDS or prefix == "openai" or prefix in (_provider_modules() or {}):
            return f"{prefix}:{text[slash + 1:]}"
    return spec


def _provider_modules() -> dict[str, str] | None:
    """Provider name -> integration module, from the table ``init_chat_model`` parses specs against.

    The table is private to langchain: should it move, ``None`` (nothing is
    checked here and ``init_chat_model`` reports an unknown provider itself).
    """
    try:
        from langchain.chat_models.base import _BUILTIN_PROVIDERS
    except ImportError:
        return None
    return {name: entry[0] for name, entry in _BUILTIN_PROVIDERS.items()}


def check_provider(provider: str, spec: str = "") -> None:
    """Refuse a provider ``init_chat_model`` does not know, or one whose integration package is missing."""
    if provider == "openai":  # langchain-openai is a dependency: nothing to look up
        return
    modules = _provider_modules()
    if modules is None:
        return
    if provider not in modules:
        raise ModelConfigError(
            f"unknown model backend {provider!r} in {spec or provider!r}; use local, scripted:FILE, "
            f"openai:MODEL or another provider:MODEL that langchain's init_chat_model knows "
            f"(e.g. anthropic, mistralai, ollama; {len(modules)} in all)"
        )
    package = modules[provider].split(".")[0].replace("_", "-")
    if importlib.util.find_spec(modules[provider].split(".")[0]) is None:
        raise ModelConfigError(
            f"{provider} models need the {package} package: pip install {package} (or use openai:MODEL or local)"
        )


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
    try:
        from_env = {"timeout": request_timeout(), "max_retries": max_retries()}
    except SettingError as exc:
        raise ModelConfigError(str(exc)) from None
    limits.update({name: value for name, value in from_env.items() if value is not None})
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
        from graphreason.workflows.models.scripted import ScriptedChatModel

        return ScriptedChatModel.from_file(spec.model)
    if spec.backend == "local":
        from graphreason.llm.engine.local_smollm import LocalChatModel

        return LocalChatModel(
            temperature=spec.temperature, top_p=spec.top_p, max_tokens=spec.max_tokens, seed=spec.seed,
            adapter=LOCAL_MODELS.get(spec.model),
        )
    return _provider_model(spec)


def _provider_model(spec: ModelSpec) -> BaseChatModel:
    """``init_chat_model`` on ``provider:model`` with the spec's sampling and request limits."""
    from langchain.chat_models import init_chat_model

    settings: dict[str, Any] = {
        "temperature": spec.temperature,
        "top_p": spec.top_p,
        "max_tokens": spec.max_tokens,
        "timeout": spec.timeout,
        "max_retries": spec.max_retries,
    }
    if spec.backend == "openai":
        settings.update(_openai_endpoint(spec), seed=spec.seed)
    elif spec.seed is not None:  # not every provider takes a seed; pass it only when one is asked for
        settings["seed"] = spec.seed
    try:
        return init_chat_model(f"{spec.backend}:{spec.model}", **settings)
    except ImportError as exc:  # the integration went missing after the spec was parsed
        raise ModelConfigError(str(exc)) from None
    except (TypeError, ValueError) as exc:  # a setting the provider's class refuses
        raise ModelConfigError(f"cannot build {spec.backend}:{spec.model}: {exc}") from None


def _openai_endpoint(spec: ModelSpec) -> dict[str, str | None]:
    """Base URL and key of an OpenAI-compatible endpoint (a local server needs no real key)."""
    base_url = spec.base_url or os.environ.get("OPENAI_BASE_URL")
    api_key = os.environ.get(spec.api_key_env)
    if not api_key:
        if base_url:  # local servers usually accept any key
            api_key = "not-needed"
        else:
            raise ModelConfigError(
                f"openai backend needs an API key in ${spec.api_key_env} or a base_url for a local server"
            )
    return {"base_url": base_url, "api_key": api_key}


# model-field values that name no model: GAR's rule-following node agents, Graph-ToolFormer's oracle
NO_MODEL_SPECS = ("rules", "gold")


def check_context_models(context: Any) -> None:
    """Refuse a context whose model specs cannot work, before any graph, index or model is loaded.

    Every model field holding a spec is parsed, and an endpoint or provider
    model is built (no request is sent): a misspelt spec, an unknown provider,
    a missing integration package or a missing API key fails here in well under
    a second instead of after minutes of set-up. The embedded model is parsed
    only (building it loads the weights).
    """
    fields = context.model_fields() if hasattr(context, "model_fields") else ()
    limits = {"timeout": getattr(context, "timeout", None), "max_retries": getattr(context, "max_retries", None)}
    for name in fields:
        value = getattr(context, name, None)
        if not isinstance(value, str) or not value.strip() or value.strip() in NO_MODEL_SPECS:
            continue
        try:
            spec = ModelSpec.parse(value, base_url=getattr(context, "base_url", None), **limits)
            if spec.backend not in OWN_BACKENDS:
                make_chat_model(spec)
        except ModelConfigError as exc:
            raise ModelConfigError(f"{name} {value!r}: {exc}") from None
