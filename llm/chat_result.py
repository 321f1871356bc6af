"""What every in-process chat model of the project shares: one ``_generate`` and its usage accounting.

The embedded model, the scripted model and GAR's rule-following agent each make one
reply per call. They subclass :class:`ReplyChatModel` and write only ``_reply``;
the reply carries ``usage_metadata`` built by :func:`reply_message` (or
:func:`usage_metadata` for a streamed chunk), so token accounting reads the same
from every model.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.messages.ai import UsageMetadata
from langchain_core.outputs import ChatGeneration, ChatResult


def usage_metadata(input_tokens: int, output_tokens: int) -> UsageMetadata:
    """LangChain's usage record for one call."""
    return {
        "input_tokens": input_tokens,
        "output_tokens": output_tokens,
        "total_tokens": input_tokens + output_tokens,
    }


def reply_message(
    reply: str | AIMessage, input_tokens: int, output_tokens: int, **response_metadata: Any
) -> AIMessage:
    """The reply as an ``AIMessage`` carrying its usage (a given message is copied, never changed).

    ``response_metadata`` keywords (model name, finish reason, ...) are added to the message's own.
    """
    usage = usage_metadata(input_tokens, output_tokens)
    if isinstance(reply, AIMessage):
        metadata = {**reply.response_metadata, **response_metadata}
        return reply.model_copy(update={"usage_metadata": usage, "response_metadata": metadata})
    return AIMessage(content=reply, usage_metadata=usage, response_metadata=response_metadata)


def approx_tokens(text: str) -> int:
    """Whitespace token count, for models without a tokenizer: enough for accounting in tests."""
    return len(text.split())


def approx_prompt_tokens(messages: Sequence[BaseMessage]) -> int:
    """:func:`approx_tokens` summed over a prompt's messages."""
    return sum(approx_tokens(str(m.content)) for m in messages)


class ReplyChatModel(BaseChatModel):
    """A chat model that makes one reply per call: subclasses implement :meth:`_reply` only.

    ``_generate`` wraps that reply into LangChain's ``ChatResult``. Per-call keyword
    options (``temperature``, ``max_tokens``, ...) reach ``_reply`` untouched.
    """

    def _reply(self, messages: list[BaseMessage], stop: list[str] | None, **kwargs: Any) -> AIMessage:
        """The reply to ``messages``, with ``usage_metadata`` (see :func:`reply_message`)."""
        raise NotImplementedError

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        return ChatResult(generations=[ChatGeneration(message=self._reply(messages, stop, **kwargs))])
