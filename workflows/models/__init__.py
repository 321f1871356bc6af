"""Chat-model backends: the embedded local model, scripted replies, and any init_chat_model provider (openai:...)."""

from graphreason.workflows.models.factory import ModelConfigError, ModelSpec, make_chat_model

__all__ = ["ModelConfigError", "ModelSpec", "make_chat_model"]
