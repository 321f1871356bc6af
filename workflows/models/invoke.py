"""Calling a chat model from a workflow node: text out, usage and timing recorded.

Transport failures are retried with exponential backoff (on top of whatever the
client does itself) and then raised as :class:`ModelUnavailableError` with a
message that names the endpoint, so a run fails clearly instead of hanging.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage

from workflows.usage import Usage


class ModelUnavailableError(RuntimeError):
    """The model endpoint could not be reached after all retries."""


@dataclass
class LLMReply:
    text: str
    input_tokens: int
    output_tokens: int
    seconds: float

    def usage(self) -> Usage:
        """This one call as usage counters (for a state's ``llm_usage`` reducer)."""
        return {
            "llm_calls": 1,
            "input_tokens": self.input_tokens,
            "output_tokens": self.output_tokens,
            "llm_seconds": self.seconds,
        }


_TRANSPORT_ERRORS = {
    "APIConnectionError",
    "APITimeoutError",
    "OpenAIConnectionError",
    "OpenAITimeoutError",
    "ConnectError",
    "ConnectTimeout",
    "ReadTimeout",
}


def _is_transport_error(exc: BaseException | None) -> bool:
    """A connection or timeout failure, however deeply the client wrapped it."""
    while exc is not None:
        if isinstance(exc, (ConnectionError, TimeoutError)):
            return True
        if any(cls.__name__ in _TRANSPORT_ERRORS for cls in type(exc).__mro__):
            return True
        exc = exc.__cause__
    return False


def _endpoint(model: BaseChatModel) -> str:
    for attr in ("openai_api_base", "base_url"):
        value = getattr(model, attr, None)
        if value:
            return str(value)
    return type(model).__name__


def invoke_text(
    model: BaseChatModel,
    messages: list[BaseMessage],
    stop: list[str] | None = None,
    attempts: int = 3,
    backoff: float = 1.0,
) -> LLMReply:
    """Invoke ``model`` and return its text with token usage and wall time."""
    start = time.perf_counter()
    for attempt in range(1, attempts + 1):
        try:
            message = model.invoke(messages, stop=stop) if stop else model.invoke(messages)
            break
        except Exception as exc:
            if not _is_transport_error(exc):
                raise
            if attempt == attempts:
                raise ModelUnavailableError(
                    f"model endpoint {_endpoint(model)} unreachable after {attempts} attempts: {exc}"
                ) from exc
            time.sleep(backoff * 2 ** (attempt - 1))
    usage = getattr(message, "usage_metadata", None) or {}
    content = message.content if isinstance(message.content, str) else str(message.content)
    return LLMReply(
        text=content,
        input_tokens=int(usage.get("input_tokens", 0)),
        output_tokens=int(usage.get("output_tokens", 0)),
        seconds=time.perf_counter() - start,
    )
