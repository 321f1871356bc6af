"""Tests of tools.retrieval."""
