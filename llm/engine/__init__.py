"""The embedded chat model, SmolLM2-135M-Instruct, run in-process with plain torch (see docs/embedded_model.md)."""
