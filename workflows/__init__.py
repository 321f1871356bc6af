"""Layer 3: one LangGraph workflow per method, plus the shared model factory."""
