"""One role's model called on a prompt, with the usage of that call: the pattern every role node repeats."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain_core.messages import BaseMessage, HumanMessage

from graphreason.workflows.models.invoke import LLMReply, invoke_text
from graphreason.workflows.models.roles import role_model


def ask_role(
    context: Any,
    model: Any,
    prompt: str | Sequence[BaseMessage],
    *,
    stop: list[str] | None = None,
    call_options: dict[str, Any] | None = None,
    **params: Any,
) -> LLMReply:
    """Call the role whose model spec (or chat model) is ``model`` on ``prompt``; the reply carries usage.

    ``params`` (temperature, max_tokens, ...) are the role's own settings; the
    context supplies endpoint, top-p, seed and request limits. A string prompt
    is sent as one user message. Endpoint failures raise
    :class:`~graphreason.workflows.models.invoke.ModelUnavailableError`.
    """
    messages = [HumanMessage(content=prompt)] if isinstance(prompt, str) else list(prompt)
    chat = role_model(context, model, **params)
    if call_options:  # options only some models take (the embedded model's grammar), bound to this call
        chat = chat.bind(**call_options)
    return invoke_text(chat, messages, stop=stop)
