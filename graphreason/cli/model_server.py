"""Serve any model spec over the OpenAI chat-completions API: ``graphreason.llm.server`` with the model factory.

``python -m graphreason.llm.server`` serves the embedded model only (the ``llm`` layer never
imports the workflows); this entry point takes every spec of
:func:`graphreason.workflows.models.factory.make_chat_model`, e.g.::

    python -m graphreason.cli.model_server --model scripted:replies.json --port 8765
"""

from __future__ import annotations

from graphreason.llm.server import main as serve_main
from graphreason.workflows.models.factory import make_chat_model


def main(argv: list[str] | None = None) -> None:
    """Command-line entry point (same options as ``python -m graphreason.llm.server``)."""
    serve_main(argv, make_model=make_chat_model)


if __name__ == "__main__":
    main()
