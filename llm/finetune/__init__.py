"""LoRA fine-tuning of the embedded SmolLM2 generator on Graph-ToolFormer's prompt data.

:mod:`graphreason.llm.finetune.data` turns input/output records into masked training examples
(Graph-ToolFormer's records come from :mod:`graphreason.tools.toolformer.training_data`),
:mod:`graphreason.llm.finetune.base_model` loads the base model for training,
:mod:`graphreason.llm.finetune.device` checks the torch device a run asks for, and
:mod:`graphreason.llm.finetune.train` runs the resumable training loop.
"""
