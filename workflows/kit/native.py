"""Native tool calling (``tool_calling="native"``): a role's model bound to registry tools, its calls run.

In the text path (the default) a role writes its command as text and a
tolerant parser reads it. In the native path the same commands are LangChain
tools (:meth:`graphreason.tools.core.registry.Registry.as_tools`) bound to the
model with ``bind_tools``; the model answers with ``AIMessage.tool_calls``,
and each call is run by invoking its tool object. A method's terminal command
(Graph Counselor's ``Finish``, GraphAgent's ``answer``) is offered as a tool
schema too (:func:`terminal_schema`), but it is only read, never run.

Only models that call tools can take this path: the embedded local model and
the scripted test models cannot, and :func:`check_native_model` refuses them
when the context is built, naming the setting, rather than mid-run.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from graphreason.tools.core.jsonable import jsonable
from graphreason.workflows.usage import Usage

if TYPE_CHECKING:
    from langchain_core.tools import BaseTool

    from graphreason.tools.core.registry import Entry

ToolCalling = Literal["text", "native"]
TOOL_CALLING_HELP = (
    "How the agent calls graph functions: text (written in its reply and parsed; any model) or native "
    "(the functions bound as tools with bind_tools; needs an endpoint that supports tool calling, "
    "not local or scripted models)."
)
_NO_TOOLS = ("local", "scripted")  # our own backends: neither calls tools


class NativeToolsError(ValueError):
    """``tool_calling="native"`` was asked for with a model that cannot call tools."""


def check_native_model(field_name: str, value: Any) -> None:
    """Refuse ``value`` (a model spec or chat model) as the tool-calling role's model when it cannot call tools.

    Specs ``local[:...]`` and ``scripted:FILE`` are refused; so are this
    project's in-process chat models and any chat model that leaves
    ``bind_tools`` unimplemented. Other provider specs are accepted: whether
    the endpoint really supports tool calling shows on the first call.
    """
    why = _cannot_call_tools(value)
    if why is not None:
        raise NativeToolsError(
            f"tool_calling='native' needs a model that supports tool calling, but {field_name} is {why}; "
            "use tool_calling='text' (--tool-calling text) with it, or an openai:MODEL endpoint "
            "(or another provider:MODEL) that supports tool calling."
        )


def _cannot_call_tools(value: Any) -> str | None:
    from langchain_core.language_models import BaseChatModel

    if isinstance(value, BaseChatModel):
        from graphreason.llm.chat_result import ReplyChatModel

        if isinstance(value, ReplyChatModel):
            return f"this project's in-process {type(value).__name__}, which does not call tools"
        if type(value).bind_tools is BaseChatModel.bind_tools:
            return f"a {type(value).__name__}, which does not implement bind_tools"
        return None
    backend = str(value or "").strip().partition(":")[0].strip().lower()
    if backend in _NO_TOOLS:
        kind = "the embedded local model" if backend == "local" else "a scripted model"
        return f"{str(value)!r} ({kind}, which does not call tools)"
    return None


def terminal_schema(entry: Entry) -> dict[str, Any]:
    """An OpenAI-format function schema for a terminal entry (read from the model's call, never run)."""
    from graphreason.tools.core.registry.tools import tool_name

    properties = {
        param.name: {"type": param.kind.json_type, "description": param.description or param.kind.description}
        for param in entry.params
    }
    return {
        "type": "function",
        "function": {
            "name": tool_name(entry),
            "description": entry.description,
            "parameters": {
                "type": "object",
                "properties": properties,
                "required": [p.name for p in entry.params if not p.optional],
            },
        },
    }


@dataclass
class ToolReply:
    """One reply of a model bound to tools: its text, its tool calls (JSON-ready) and the call's usage."""

    text: str
    tool_calls: list[dict[str, Any]] = field(default_factory=list)  # {"name", "args", "id"}
    invalid: list[str] = field(default_factory=list)  # calls whose arguments were not valid JSON, described
    usage: Usage = field(default_factory=dict)


def ask_with_tools(
    context: Any,
    model: Any,
    prompt: str,
    tools: Sequence[BaseTool | dict[str, Any]],
    *,
    stop: list[str] | None = None,
    **params: Any,
) -> ToolReply:
    """Call the role whose model is ``model`` on ``prompt`` with ``tools`` bound; the calls it made, read.

    Endpoint failures raise :class:`~graphreason.workflows.models.invoke.ModelUnavailableError`,
    as for a text call.
    """
    from langchain_core.messages import HumanMessage

    from graphreason.workflows.models.invoke import endpoint_error, endpoint_of
    from graphreason.workflows.models.roles import role_model

    chat = role_model(context, model, **params)
    bound = chat.bind_tools(list(tools))
    start = time.perf_counter()
    try:
        message = bound.invoke([HumanMessage(content=prompt)], stop=stop) if stop else bound.invoke(
            [HumanMessage(content=prompt)]
        )
    except Exception as exc:
        if endpoint_of(chat) is None:
            raise
        raise endpoint_error(chat, exc) from exc
    seconds = time.perf_counter() - start
    counts = getattr(message, "usage_metadata", None) or {}
    content = message.content if isinstance(message.content, str) else _text_of(message.content)
    calls = [
        {"name": str(call.get("name") or ""), "args": jsonable(call.get("args") or {}, str_keys=True),
         "id": str(call.get("id") or f"call-{i}")}
        for i, call in enumerate(getattr(message, "tool_calls", None) or [])
    ]
    invalid = [
        f"{call.get('name') or '(no name)'}: {str(call.get('error') or 'arguments are not a JSON object')[:160]}"
        for call in getattr(message, "invalid_tool_calls", None) or []
    ]
    usage: Usage = {
        "llm_calls": 1,
        "input_tokens": int(counts.get("input_tokens", 0)),
        "output_tokens": int(counts.get("output_tokens", 0)),
        "llm_seconds": seconds,
    }
    return ToolReply(text=content or "", tool_calls=calls, invalid=invalid, usage=usage)


def run_tool_call(tools: Sequence[BaseTool], call: dict[str, Any]) -> tuple[str, Any]:
    """Invoke the tool ``call`` names with its args: (the observation text, the tool's artifact or None).

    Never raises: an unknown tool name is an observation naming the tools offered.
    """
    by_name = {tool.name: tool for tool in tools}
    tool = by_name.get(str(call.get("name")))
    if tool is None:
        offered = ", ".join(by_name) or "(none)"
        return f"There is no tool {str(call.get('name'))[:60]!r}. The tools are: {offered}.", None
    message = tool.invoke({"type": "tool_call", "name": tool.name, "args": dict(call.get("args") or {}),
                           "id": str(call.get("id") or "call")})
    content = getattr(message, "content", message)
    text = content if isinstance(content, str) else _text_of(content)
    return text, getattr(message, "artifact", None)


def render_call(call: dict[str, Any]) -> str:
    """A tool call as one line of text: ``name({"arg": value})`` (for traces and prompts)."""
    return f"{call.get('name')}({json.dumps(call.get('args') or {}, ensure_ascii=False)})"


def _text_of(content: Any) -> str:
    """The text parts of a list-of-blocks message content."""
    if isinstance(content, list):
        return "".join(
            part if isinstance(part, str) else str(part.get("text", "")) for part in content
            if isinstance(part, str) or isinstance(part, dict)
        )
    return str(content or "")
