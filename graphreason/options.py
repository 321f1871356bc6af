"""Command-line pieces shared by the ``graphreason`` sub-commands (kept free of heavy imports)."""

from __future__ import annotations

import argparse


def positive(text: str) -> int:
    """argparse type: an integer of at least 1."""
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def add_gar_master_options(parser: argparse.ArgumentParser) -> argparse._ArgumentGroup:
    """``--model``, ``--embedding`` and ``--base-url`` of a GAR master, in a "models" group (returned)."""
    group = parser.add_argument_group("models")
    group.add_argument(
        "--model",
        default="local",
        help="master model spec: local (embedded SmolLM2), openai:MODEL or scripted:FILE.json (default: local)",
    )
    group.add_argument(
        "--embedding", default="minilm", help="library retrieval encoder: minilm (default), mpnet or hash"
    )
    group.add_argument(
        "--base-url", default=None, help="base URL of an OpenAI-compatible endpoint for openai:MODEL"
    )
    return group
