"""GraphReason: LLM-on-graph reasoning methods as LangGraph workflows (layer 5: the CLI)."""

__version__ = "0.1.0"
