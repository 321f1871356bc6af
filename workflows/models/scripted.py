"""A scripted chat model for tests and reproducible demos, built on langchain_core's fake chat model.

Each call consumes the next entry of the script. An entry is a string, an
``AIMessage`` (tool calls included) or a callable that receives the prompt
messages and returns either. When the script runs out the model raises
:class:`ScriptExhaustedError` instead of inventing an answer, so a test that
makes more LLM calls than it planned fails loudly.

From :class:`~langchain_core.language_models.fake_chat_models.GenericFakeChatModel`
come the ``messages`` iterator (here it walks the script) and the word-by-word
stream. Added on top: callable entries, stop sequences, the exhaustion error,
whitespace token usage on every reply (on the closing chunk of a stream), the
recorded prompts and ``bind_tools``.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage
from langchain_core.messages.tool import tool_call_chunk
from langchain_core.outputs import ChatGenerationChunk
from pydantic import ConfigDict, Field, PrivateAttr

from graphreason.llm.chat_result import ReplyChatModel, approx_prompt_tokens, approx_tokens, reply_message

__all__ = ["ScriptEntry", "ScriptExhaustedError", "ScriptedChatModel", "approx_tokens", "cut_at_stop"]

ScriptEntry = str | AIMessage | Callable[[list[BaseMessage]], "str | AIMessage"]
_END = object()


class ScriptExhaustedError(RuntimeError):
    """The scripted model was called more times than its script allows."""


def cut_at_stop(text: str, stop: Sequence[str] | None) -> str:
    """Truncate ``text`` at the first stop sequence, as a real endpoint would."""
    if not stop:
        return text
    cut = len(text)
    for s in stop:
        i = text.find(s)
        if i != -1:
            cut = min(cut, i)
    return text[:cut]


class ScriptedChatModel(ReplyChatModel, GenericFakeChatModel):
    """Replays a fixed script; supports ``bind_tools``, structured output and streaming."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    script: list[Any] = Field(default_factory=list)
    # GenericFakeChatModel's reply iterator; set to walk ``script`` (entries of any ScriptEntry kind).
    messages: Iterator[Any] = Field(default_factory=lambda: iter(()), exclude=True)
    name_: str = "scripted"
    _used: int = PrivateAttr(default=0)
    _lock: Any = PrivateAttr(default_factory=threading.Lock)
    calls: list[list[BaseMessage]] = Field(default_factory=list, exclude=True)
    bound_tools: list[Any] = Field(default_factory=list, exclude=True)

    def model_post_init(self, context: Any, /) -> None:
        super().model_post_init(context)
        self.messages = iter(self.script)

    @classmethod
    def from_file(cls, path: str | Path) -> ScriptedChatModel:
        """Load a JSON list of reply strings (used by ``scripted:FILE`` model specs)."""
        try:
            data = json.loads(Path(path).read_text())
        except (OSError, json.JSONDecodeError) as exc:
            raise ValueError(f"cannot read model script {path}: {exc}") from exc
        if not isinstance(data, list) or not all(isinstance(x, str) for x in data):
            raise ValueError(f"model script {path} must be a JSON list of strings")
        return cls(script=data)

    @property
    def _llm_type(self) -> str:
        return "scripted"

    @property
    def remaining(self) -> int:
        return len(self.script) - self._used

    def _next_entry(self) -> Any:
        with self._lock:
            entry = next(self.messages, _END)
            if entry is _END:
                raise ScriptExhaustedError(
                    f"scripted model exhausted after {len(self.script)} replies; the workflow made more LLM calls than scripted"
                )
            self._used += 1
            return entry

    def _reply(self, messages: list[BaseMessage], stop: list[str] | None, **kwargs: Any) -> AIMessage:
        self.calls.append(list(messages))
        entry = self._next_entry()
        reply = entry(messages) if callable(entry) else entry
        if not isinstance(reply, AIMessage):  # a scripted message is returned as written
            reply = cut_at_stop(str(reply), stop)
        text = reply.content if isinstance(reply, AIMessage) else reply
        return reply_message(reply, approx_prompt_tokens(messages), approx_tokens(str(text)))

    def _stream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> Iterator[ChatGenerationChunk]:
        """The reply word by word (GenericFakeChatModel's stream), then one closing chunk.

        The closing chunk carries what the word stream leaves out: usage, response
        metadata, tool calls and additional kwargs. Chunks join to the invoked reply.
        """
        reply = self._generate(messages, stop=stop, run_manager=run_manager, **kwargs).generations[0].message
        content = reply.content
        if isinstance(content, str):
            words = GenericFakeChatModel(messages=iter([AIMessage(content=content, id=reply.id)]))
            for chunk in words._stream(messages, run_manager=run_manager):
                chunk.message.chunk_position = None  # the closing chunk below is the last
                yield chunk
            content = ""
        calls = getattr(reply, "tool_calls", None) or []
        closing = AIMessageChunk(
            content=content,
            id=reply.id,
            additional_kwargs=reply.additional_kwargs,
            response_metadata=reply.response_metadata,
            usage_metadata=getattr(reply, "usage_metadata", None),
            tool_call_chunks=[
                tool_call_chunk(name=c["name"], args=json.dumps(c["args"]), id=c.get("id"), index=i)
                for i, c in enumerate(calls)
            ],
            chunk_position="last",
        )
        yield ChatGenerationChunk(message=closing)

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> ScriptedChatModel:
        """Record the tools and return self: the script decides which calls appear."""
        self.bound_tools = list(tools)
        return self
