"""Resolve a workflow's role models (reasoner, judge, ...) from its runtime context.

Spec strings become chat models through the factory. Stateless backends are
cached for the process; scripted models are built fresh for each run context
and shared between roles that name the same script, so one script file drives
a whole run in order.
"""

from __future__ import annotations

import threading
import weakref
from functools import lru_cache
from typing import Any

from langchain_core.language_models import BaseChatModel

from graphreason.workflows.models.factory import ModelSpec, make_chat_model

_lock = threading.Lock()
_per_run: dict[int, dict[str, BaseChatModel]] = {}


@lru_cache(maxsize=32)
def _cached(spec: ModelSpec) -> BaseChatModel:
    return make_chat_model(spec)


def role_model(context: Any, value: Any, **params: Any) -> BaseChatModel:
    """The chat model for one role: ``value`` is a spec string or a ready chat model.

    Endpoint, top-p, seed and request limits come from the context's
    ``request_params()`` (a :class:`~graphreason.workflows.run_context.RunContext`);
    ``params`` (the role's temperature, token budget) override them.
    """
    if isinstance(value, BaseChatModel):
        return value
    shared = context.request_params() if hasattr(context, "request_params") else {}
    shared.setdefault("base_url", getattr(context, "base_url", None))
    spec = ModelSpec.parse(str(value), **{**shared, **params})
    if spec.backend != "scripted":
        return _cached(spec)
    key = id(context)
    with _lock:
        models = _per_run.get(key)
        if models is None:
            models = _per_run[key] = {}
            weakref.finalize(context, _per_run.pop, key, None)
        if spec.model not in models:
            models[spec.model] = make_chat_model(spec)
        return models[spec.model]
