"""The ``messages`` channel every method's state carries, so LangGraph Studio's chat view works.

A chat client sends ``{"messages": [{"role": "user", "content": "..."}]}``: when
the method's own input field (``question``, ``text``, ``node``) is not given,
the last human message is taken as that input, and the run's answer goes out
as one AI message appended to the channel (``add_messages``). The typed fields
stay the method's real interface; the channel only carries text in and out.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any

from langchain_core.messages import AIMessage, AnyMessage, BaseMessage
from langgraph.graph.message import add_messages
from pydantic import Field

MESSAGES_HELP = (
    "Chat channel (LangGraph Studio's chat view): without the input field, the last human message is the "
    "input; the answer is appended as an AI message."
)
# the reducer comes last: LangGraph reads the last Annotated item as the channel's reducer
Messages = Annotated[list[AnyMessage], Field(description=MESSAGES_HELP), add_messages]


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):  # content blocks: keep the text ones
        return " ".join(str(b.get("text", "")) if isinstance(b, dict) else str(b) for b in content).strip()
    return str(content)


def _kind_and_content(message: Any) -> tuple[Any, Any]:
    if isinstance(message, BaseMessage):
        return message.type, message.content
    if isinstance(message, Mapping):
        return message.get("role") or message.get("type"), message.get("content")
    return None, None


def last_human_text(state: Mapping[str, Any]) -> str | None:
    """The text of the last human message in ``state["messages"]``, or None when there is none."""
    for message in reversed(state.get("messages") or []):
        kind, content = _kind_and_content(message)
        if kind in ("human", "user"):
            return _text(content)
    return None


def input_from_chat(state: Mapping[str, Any], field: str) -> Any:
    """This run's input: an unanswered human message (the channel ends with it), else ``state[field]``.

    On a thread the field keeps the previous run's value, so a new chat message
    (the channel's last message, not yet answered) wins over it; a run started
    with the field and no new message reads the field. None when neither is there.
    """
    messages = state.get("messages") or []
    kind, content = _kind_and_content(messages[-1]) if messages else (None, None)
    if kind in ("human", "user"):
        return _text(content)
    value = state.get(field)
    return value if value is not None else last_human_text(state)


def answer_message(answer: Any) -> dict[str, list[AIMessage]]:
    """The state update that puts the run's answer on the chat channel."""
    return {"messages": [AIMessage(content=str(answer) if answer not in (None, "") else "(no answer)")]}
