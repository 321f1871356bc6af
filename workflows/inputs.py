"""Input schema shared by the workflows: a question that must not be blank."""

from __future__ import annotations

from pydantic import BaseModel, Field, field_validator


class QuestionInput(BaseModel):
    """A natural-language question; subclasses may redefine the field's description."""

    question: str = Field(description="The question to answer.")

    @field_validator("question")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        value = value.strip()
        if not value:
            raise ValueError("question must not be empty")
        return value
