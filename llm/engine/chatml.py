"""ChatML, the prompt format of SmolLM2-Instruct: turns of LangChain messages rendered as text."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from langchain_core.messages import BaseMessage

DEFAULT_SYSTEM_PROMPT = "You are a helpful AI assistant named SmolLM, trained by Hugging Face"
END_TOKENS = ("<|im_end|>", "<|endoftext|>")


def render_chatml(turns: Sequence[tuple[str, str]], add_generation_prompt: bool = True) -> str:
    """ChatML text for ``(role, content)`` turns, opening an assistant turn at the end."""
    text = "".join(f"<|im_start|>{role}\n{content}<|im_end|>\n" for role, content in turns)
    return text + ("<|im_start|>assistant\n" if add_generation_prompt else "")


_ROLES = {"system": "system", "human": "user", "ai": "assistant", "tool": "tool", "function": "tool"}


def _content_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    parts = []
    for block in content:
        if isinstance(block, str):
            parts.append(block)
        elif isinstance(block, dict) and block.get("type") == "text":
            parts.append(str(block.get("text", "")))
    return "".join(parts)


def message_turns(messages: Sequence[BaseMessage], default_system: str | None) -> list[tuple[str, str]]:
    """``(role, content)`` turns for LangChain messages; a default system turn is added if none leads."""
    turns: list[tuple[str, str]] = []
    for message in messages:
        role = _ROLES.get(message.type, message.type)
        text = _content_text(message.content)
        tool_calls = getattr(message, "tool_calls", None)
        if tool_calls:  # the model was not trained on tool calls; show them as JSON text
            calls = json.dumps([{"name": c["name"], "arguments": c["args"]} for c in tool_calls])
            text = f"{text}\n{calls}" if text else calls
        turns.append((role, text))
    if default_system and (not turns or turns[0][0] != "system"):
        turns.insert(0, ("system", default_system))
    return turns
