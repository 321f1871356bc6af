"""Input checks shared by the workflows: a question that must not be blank, a bounded text."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from pydantic import BaseModel, Field, field_validator

from graphreason.workflows.kit.chat import Messages, input_from_chat


class QuestionInput(BaseModel):
    """A natural-language question; subclasses may redefine the field's description.

    ``messages`` is the chat channel (:mod:`graphreason.workflows.kit.chat`): a chat
    client sends the question as its last human message instead.
    """

    question: str | None = Field(default=None, description="The question to answer.")
    messages: Messages = Field(default_factory=list)

    @field_validator("question")
    @classmethod
    def _not_blank(cls, value: str | None) -> str | None:
        if value is None:
            return None
        value = value.strip()
        if not value:
            raise ValueError("question must not be empty")
        return value


def check_text(text: str, *, name: str, limit: int, empty: str) -> str:
    """``text`` if it is neither blank nor longer than ``limit`` characters; ``ValueError`` saying which.

    ``empty`` is the whole message for a blank text (it tells the caller what to
    send); ``name`` is what the length message calls the text.
    """
    if not text.strip():
        raise ValueError(empty)
    if len(text) > limit:
        raise ValueError(f"{name} has {len(text):,} characters; at most {limit:,} are accepted")
    return text


class QuestionError(ValueError):
    """The run's input has no usable ``question`` (missing, not a string, or blank)."""


def question_of(state: Mapping[str, Any], limit: int | None = None) -> str:
    """The run's question, stripped; :class:`QuestionError` saying what is wrong otherwise.

    LangGraph does not validate a graph's input against its pydantic input schema,
    so an HTTP client can start a run with ``{}``: the first node checks instead,
    and the client gets this message rather than a ``KeyError``. ``limit`` caps
    the question's length in characters (checked before any work).
    """
    value = input_from_chat(state, "question")  # a chat client sends the question as a message
    if value is None:
        raise QuestionError(
            "the input has no 'question': send {\"question\": \"...\"} (or the question as a human message)"
        )
    if not isinstance(value, str):
        raise QuestionError(f"'question' must be a string, got {type(value).__name__}")
    if not value.strip():
        raise QuestionError("question must not be empty")
    if limit is not None:
        _within("question", value, limit)
    return value.strip()


def _within(name: str, value: str, limit: int) -> None:
    if len(value) > limit:
        raise QuestionError(f"the {name} has {len(value):,} characters; at most {limit:,} are accepted")


def bounded_state(name: str, limit: int) -> Callable[[Mapping[str, Any]], None]:
    """A check of the state every node receives: its ``name`` field, when set, is a string of at most ``limit``.

    A run's first node checks its input, but a thread's state can be written by other
    routes too (``POST /threads/{id}/state`` as any node, a resumed checkpoint, a
    ``Command``), after which the run starts further on. Each node runs this check
    first (:func:`graphreason.workflows.kit.compile.add_nodes`), so no route skips it.
    """

    def check(state: Mapping[str, Any]) -> None:
        value = state.get(name) if isinstance(state, Mapping) else getattr(state, name, None)
        if value is None:
            return
        if not isinstance(value, str):
            raise QuestionError(f"'{name}' must be a string, got {type(value).__name__}")
        _within(name, value, limit)

    return check
