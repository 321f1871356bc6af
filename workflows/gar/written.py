"""Answers too long for the run's state: written whole to the run's results folder, summarised in the state.

An answer that lists or maps every node (a topological order, the distance to every node,
each node's component) grows with the graph; a server keeps every run's state in its
checkpoints and sends it to the client. With ``answer_items`` set (a server client that sets
none gets the server's maximum), a list or mapping longer than that is written as JSON to
``<results>/<time>-<algorithm>-<id>/answer.json`` (owner-only), and the state keeps its
first ``answer_items`` entries, the count and the file's name; the engine's sentence, which spells
the answer out, is cut to :data:`TEXT_CHARS` characters.
"""

from __future__ import annotations

import json
import os
from itertools import islice
from pathlib import Path
from typing import Any

from graphreason.tools.core.policy import context_is_untrusted, scrub_paths
from graphreason.tools.gar.results import run_folder
from graphreason.workflows.gar.context import GARContext

# How much of the engine's sentence about an answer that was cut is kept
TEXT_CHARS = 2000


def results_folder(ctx: GARContext, algorithm: str) -> Path:
    """A new folder for one run's written answers (the context's results folder, else the cache's gar-results)."""
    root = str(Path(ctx.spark_results_dir).expanduser()) if ctx.spark_results_dir else None
    folder = Path(run_folder(algorithm, root))
    folder.mkdir(parents=True, mode=0o700)
    return folder


def bounded(result: dict[str, Any], ctx: GARContext, algorithm: str) -> dict[str, Any]:
    """``result`` with an answer longer than the run's ``answer_items`` written to a file and cut to its head."""
    limit = ctx.budget("answer_items")
    answer = result.get("answer")
    if limit is None or not isinstance(answer, list | dict) or len(answer) <= limit:
        return result
    limit = int(limit)
    path = results_folder(ctx, algorithm) / "answer.json"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        json.dump(answer, out)
    head = answer[:limit] if isinstance(answer, list) else dict(islice(answer.items(), limit))
    shown = scrub_paths(str(path)) if context_is_untrusted() else str(path)
    said = str(result.get("text", ""))
    if len(said) > TEXT_CHARS:  # the engine's sentence spells the answer out: cut it at a word
        said = said[:TEXT_CHARS].rsplit(" ", 1)[0].rstrip(",;") + " ..."
    text = (
        f"{said} (the answer has {len(answer):,} entries; the first {limit:,} are given here and "
        f"all of them are in {shown})"
    ).strip()
    return {**result, "answer": head, "answer_items": len(answer), "answer_file": shown, "text": text}
