"""The ``graphreason`` command line (the top layer: it may import every other layer)."""

from graphreason.cli.main import main

__all__ = ["main"]
