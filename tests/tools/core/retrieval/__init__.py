"""Tests of graphreason.tools.core.retrieval."""
