"""The bottom layer for language models: the embedded engine and the OpenAI-compatible server.

Nothing here imports ``workflows``, ``evals`` or ``graphreason``; only
``graphreason.settings`` (for the cache folder) is used from the project.

* :mod:`graphreason.llm.engine` - SmolLM2-135M-Instruct in plain torch: the Llama decoder
  (:mod:`~graphreason.llm.engine.llama_net`), GGUF conversion into the cache
  (:mod:`~graphreason.llm.engine.weights`), ChatML prompts (:mod:`~graphreason.llm.engine.chatml`),
  generation and the LangChain model (:mod:`~graphreason.llm.engine.local_smollm`), CPU threads
  (:mod:`~graphreason.llm.engine.cpu_threads`);
* :mod:`graphreason.llm.chat_result` - the one ``_generate`` and usage accounting that every
  in-process chat model of the project shares;
* :mod:`graphreason.llm.server` - any LangChain chat model behind the OpenAI chat-completions API.

Submodules are imported on demand: importing :mod:`llm` costs nothing (no torch).
"""
