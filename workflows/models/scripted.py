"""A scripted chat model for tests and reproducible demos.

Each call consumes the next entry of the script. An entry is a string, an
``AIMessage`` (tool calls included) or a callable that receives the prompt
messages and returns either. When the script runs out the model raises
:class:`ScriptExhaustedError` instead of inventing an answer, so a test that
makes more LLM calls than it planned fails loudly.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import ConfigDict, Field, PrivateAttr

ScriptEntry = str | AIMessage | Callable[[list[BaseMessage]], "str | AIMessage"]


class ScriptExhaustedError(RuntimeError):
    """The scripted model was called more times than its script allows."""


def approx_tokens(text: str) -> int:
    """Whitespace token count: enough for accounting in tests."""
    return len(text.split())


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


class ScriptedChatModel(BaseChatModel):
    """Replays a fixed script; supports ``bind_tools`` and structured output."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    script: list[Any] = Field(default_factory=list)
    name_: str = "scripted"
    _cursor: int = PrivateAttr(default=0)
    _lock: Any = PrivateAttr(default_factory=threading.Lock)
    calls: list[list[BaseMessage]] = Field(default_factory=list, exclude=True)
    bound_tools: list[Any] = Field(default_factory=list, exclude=True)

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
        return len(self.script) - self._cursor

    def _next_entry(self) -> Any:
        with self._lock:
            if self._cursor >= len(self.script):
                raise ScriptExhaustedError(
                    f"scripted model exhausted after {len(self.script)} replies; the workflow made more LLM calls than scripted"
                )
            entry = self.script[self._cursor]
            self._cursor += 1
            return entry

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        self.calls.append(list(messages))
        entry = self._next_entry()
        reply = entry(messages) if callable(entry) else entry
        if isinstance(reply, AIMessage):
            message = reply.model_copy()
        else:
            message = AIMessage(content=cut_at_stop(str(reply), stop))
        prompt_tokens = sum(approx_tokens(str(m.content)) for m in messages)
        completion_tokens = approx_tokens(str(message.content))
        message.usage_metadata = {
            "input_tokens": prompt_tokens,
            "output_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        }
        return ChatResult(generations=[ChatGeneration(message=message)])

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> ScriptedChatModel:
        """Record the tools and return self: the script decides which calls appear."""
        self.bound_tools = list(tools)
        return self
