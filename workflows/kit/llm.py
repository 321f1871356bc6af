"""One role's model called on a prompt, with the usage of that call: the pattern every role node repeats."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain_core.messages import BaseMessage, HumanMessage

from workflows.models.invoke import LLMReply, invoke_text
from workflows.models.roles import role_model


def ask_role(
    context: Any,
    model: Any,
    prompt: str | Sequence[BaseMessage],
    *,
    stop: list[str] | None = None,
    **params: Any,
) -> LLMReply:
    """Call the role whose model spec (or chat model) is ``model`` on ``prompt``; the reply carries usage.

    ``params`` (temperature, max_tokens, ...) are the role's own settings; the
    context supplies endpoint, top-p, seed and request limits. A string prompt
    is sent as one user message. Endpoint failures raise
    :class:`~workflows.models.invoke.ModelUnavailableError`.
    """
    messages = [HumanMessage(content=prompt)] if isinstance(prompt, str) else list(prompt)
    return invoke_text(role_model(context, model, **params), messages, stop=stop)
