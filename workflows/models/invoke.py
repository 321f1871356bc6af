"""Calling a chat model from a workflow node: text out, usage and timing recorded.

Retries and timeouts belong to the client library (the openai client retries
429, 5xx, 408/409, connection errors and timeouts with backoff; see
:mod:`graphreason.workflows.models.factory` for the limits), so a call here is made once.
Whatever an endpoint does wrong - refuses the connection, hangs, answers 5xx,
429, 401 or 404, or sends a body that is not valid JSON - ends in one
:class:`ModelUnavailableError` whose message names the endpoint and the cause.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from graphreason.workflows.usage import Usage

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel
    from langchain_core.messages import BaseMessage


class ModelUnavailableError(RuntimeError):
    """A model endpoint failed: unreachable, too slow, or answering with an error or garbage."""


@dataclass
class LLMReply:
    text: str
    input_tokens: int
    output_tokens: int
    seconds: float
    constrained_tokens: int = 0  # tokens the embedded engine's grammar replaced (graphreason.llm.engine.constraint)

    def usage(self) -> Usage:
        """This one call as usage counters (for a state's ``llm_usage`` reducer)."""
        return {
            "llm_calls": 1,
            "input_tokens": self.input_tokens,
            "output_tokens": self.output_tokens,
            "llm_seconds": self.seconds,
        }


def endpoint_of(model: BaseChatModel) -> str | None:
    """The base URL an HTTP-backed chat model talks to (``None`` for in-process models)."""
    for attr in ("openai_api_base", "base_url"):
        value = getattr(model, attr, None)
        if value:
            return str(value).rstrip("/")
    client = getattr(model, "root_client", None)  # ChatOpenAI with the default endpoint
    value = getattr(client, "base_url", None)
    return str(value).rstrip("/") if value else None


def _first_line(text: str, limit: int = 160) -> str:
    line = " ".join(str(text).split())
    return line if len(line) <= limit else line[: limit - 3] + "..."


def _root_cause(exc: BaseException) -> str:
    """The innermost reason in a chain of wrappers ("Connection refused" rather than "Connection error.")."""
    inner = exc
    for _ in range(10):  # wrappers are a few deep; the bound only guards against odd cycles
        wrapped = inner.__cause__ or inner.__context__
        if wrapped is None:
            break
        inner = wrapped
    return _first_line(str(inner)) or type(inner).__name__


def describe_failure(exc: BaseException, timeout: float | None = None) -> tuple[str, bool]:
    """A short cause for an endpoint failure, and whether the client retried it.

    Classified by class name so that this module needs no openai import (the
    local and scripted backends never load it).
    """
    names = {cls.__name__ for cls in type(exc).__mro__}
    if "APITimeoutError" in names or isinstance(exc, TimeoutError):
        within = f" within {timeout:g} s" if timeout else ""
        return f"no reply{within} (timed out)", True
    if "APIConnectionError" in names or isinstance(exc, ConnectionError):
        return f"connection failed ({_root_cause(exc)})", True
    status = getattr(exc, "status_code", None)
    if isinstance(status, int):
        response = getattr(exc, "response", None)
        phrase = getattr(response, "reason_phrase", "") or ""
        body = getattr(exc, "body", None)
        message = body.get("message") if isinstance(body, dict) else None
        extra = f": {_first_line(str(message), 120)}" if message else ""
        retried = status in (408, 409, 429) or status >= 500
        return f"HTTP {status} {phrase}".rstrip() + extra, retried
    if isinstance(exc, json.JSONDecodeError) or "APIResponseValidationError" in names:
        return f"invalid response body (not the expected JSON: {_first_line(str(exc), 100)})", False
    return f"unexpected response ({type(exc).__name__}: {_first_line(str(exc), 120)})", False


def endpoint_error(model: BaseChatModel, exc: BaseException) -> ModelUnavailableError:
    """The one-line :class:`ModelUnavailableError` for ``exc`` raised by ``model``'s endpoint."""
    timeout = getattr(model, "request_timeout", None)
    retries = getattr(model, "max_retries", None)
    cause, retried = describe_failure(exc, timeout if isinstance(timeout, (int, float)) else None)
    after = f" after {retries} retr{'y' if retries == 1 else 'ies'}" if retried and retries else ""
    return ModelUnavailableError(f"model endpoint {endpoint_of(model)} failed: {cause}{after}")


def invoke_text(
    model: BaseChatModel,
    messages: list[BaseMessage],
    stop: list[str] | None = None,
) -> LLMReply:
    """Invoke ``model`` once and return its text with token usage and wall time.

    For an HTTP-backed model every failure becomes :class:`ModelUnavailableError`;
    in-process models (embedded, scripted) raise their own errors unchanged.
    """
    start = time.perf_counter()
    try:
        message = model.invoke(messages, stop=stop) if stop else model.invoke(messages)
    except Exception as exc:
        if endpoint_of(model) is None:
            raise
        raise endpoint_error(model, exc) from exc
    usage = getattr(message, "usage_metadata", None) or {}
    content = message.content if isinstance(message.content, str) else str(message.content)
    return LLMReply(
        text=content,
        input_tokens=int(usage.get("input_tokens", 0)),
        output_tokens=int(usage.get("output_tokens", 0)),
        seconds=time.perf_counter() - start,
        constrained_tokens=int((getattr(message, "response_metadata", None) or {}).get("constrained_tokens") or 0),
    )


def probe_endpoint(model: BaseChatModel, timeout: float = 5.0) -> None:
    """Check, with one short request and no retries, that ``model``'s endpoint answers at all.

    Asks ``GET {base_url}/models``. A refused connection, a timeout or a rejected
    key (401/403) raises :class:`ModelUnavailableError`; any other answer counts
    as reachable, since not every OpenAI-compatible server lists its models and
    the real calls (with retries) report their own failures.
    """
    client = getattr(model, "root_client", None)
    if client is None or endpoint_of(model) is None:
        return  # in-process model: nothing to reach
    try:
        client.with_options(timeout=timeout, max_retries=0).models.list()
    except Exception as exc:
        cause, _ = describe_failure(exc, timeout)
        status = getattr(exc, "status_code", None)
        transport = {cls.__name__ for cls in type(exc).__mro__} & {"APIConnectionError", "APITimeoutError"}
        if transport or status in (401, 403):
            raise ModelUnavailableError(f"model endpoint {endpoint_of(model)} failed: {cause}") from exc
