"""LoRA fine-tuning of the embedded SmolLM2 generator on Graph-ToolFormer's prompt data.

:mod:`llm.finetune.data` turns prompt records into masked training examples,
:mod:`llm.finetune.base_model` loads the base model for training, and
:mod:`llm.finetune.train` runs the resumable training loop.
"""
