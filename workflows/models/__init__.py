"""Chat-model backends: OpenAI-compatible endpoints, the embedded local model, scripted replies."""

from workflows.models.factory import ModelConfigError, ModelSpec, make_chat_model

__all__ = ["ModelConfigError", "ModelSpec", "make_chat_model"]
