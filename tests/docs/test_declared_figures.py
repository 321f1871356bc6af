"""The hand-written docs hold no measured figure: every time, size or rate in them is a declared value.

Measured figures (timings, memory, accuracies, rates) live in result files and adapter cards and reach
the docs through ``docs/generate.py``. A figure with a unit written by hand in README.md or a docs page
must be one of the declared values below, each tied to the constant or default it states, and that
value is checked: a changed constant fails here until its sentence is changed too.
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

# A number with a unit of time, size, share or rate (``k8s`` and ``2^32`` are not figures).
FIGURE = re.compile(r"(?<![\w.^])(\d[\d.,]*)\s?(ms|s|min|h|kB|KB|KiB|MB|MiB|GB|GiB|%|tokens/s)(?![\w])")

# (page, the words around the figure, where the value is declared, the value there: 15% is declared as 0.15)
DECLARED: list[tuple[str, str, str, float]] = [
    ("docs/embedded_model.md", "a body of at most 1 MiB", "graphreason.llm.server:DEFAULT_MAX_BODY_BYTES", 2**20),
    ("docs/serving.md", "up to 1 MiB", "graphreason.llm.server:DEFAULT_MAX_BODY_BYTES", 2**20),
    ("docs/getting-started.md", "with a 5 s timeout", "graphreason.cli.options:prepared_models.probe_seconds", 5),
    ("docs/getting-started.md", "back-off of 0.5 to 8 s", "openai._constants:INITIAL_RETRY_DELAY", 0.5),
    ("docs/getting-started.md", "back-off of 0.5 to 8 s", "openai._constants:MAX_RETRY_DELAY", 8),
    ("docs/getting-started.md", "honoured up to 120 s", "openai._constants:MAX_RETRY_AFTER_DELAY", 120),
    ("docs/getting-started.md", "of 20 MB or more", "graphreason.tools.core.loaders.grbench:PROGRESS_BYTES", 20e6),
    ("docs/serving.md", "`timeout` 600 s", "graphreason.workflows.run_context:MAX_REQUEST_TIMEOUT", 600),
    ("docs/serving.md", "bodies over 8 MiB", "graphreason.llm.http_guard:DEFAULT_MAX_BODY_BYTES", 8 * 2**20),
    ("docs/serving.md", "may hold 256 KiB", "graphreason.cli.serve_auth:DEFAULT_QUOTAS.store_item_bytes", 256 * 2**10),
    ("docs/serving.md", "metadata 16 KiB", "graphreason.cli.serve_auth:DEFAULT_QUOTAS.thread_metadata_bytes", 16 * 2**10),
    ("docs/serving.md", "every 0.5 s", "graphreason.workflows.kit.compile:CANCEL_POLL_SECONDS", 0.5),
    ("docs/serving.md", "the server 8 s", "graphreason.cli.http_app:SHUTDOWN_SECONDS", 8),
    ("docs/methods/gar.md", "| 300 s |", "graphreason.workflows.gar.context:SERVER_ENGINE_SECONDS", 300),
    ("docs/methods/gar.md", "| 10 s |", "graphreason.workflows.gar.context:SERVER_PARSE_SECONDS", 10),
    ("docs/methods/counselor.md", "A seeded 15% of the questions", "graphreason.evals.counselor.trajectories:RECOVERY_SHARE", 0.15),
    ("docs/methods/counselor.md", "20% of each template's questions", "graphreason.evals.counselor.trajectories:VALIDATION_FRACTION", 0.2),
    # LangGraph's in-memory runtime stops relaying cancels after 240 s (a literal in its ops module)
    ("docs/serving.md", "to a run after 240 s", "langgraph_runtime_inmem.ops:240", 240),
    ("docs/serving.md", "runtime's 240 s", "langgraph_runtime_inmem.ops:240", 240),
]


def _pages() -> list[Path]:
    pages = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md")), *sorted((REPO / "docs" / "methods").glob("*.md"))]
    return [page for page in pages if page.name != "changelog.md"]


def _declared(where: str) -> float:
    module_name, _, name = where.partition(":")
    module = importlib.import_module(module_name)
    if name.isdigit():  # a literal in a library's source: it must still be there
        source = Path(module.__file__).read_text()
        assert re.search(rf"\b{name}\b", source), f"{module_name} no longer holds {name}"
        return float(name)
    head, _, tail = name.partition(".")
    value = getattr(module, head)
    if tail and isinstance(value, dict):
        return float(value[tail])
    if tail:  # a function's keyword default
        import inspect

        return float(inspect.signature(value).parameters[tail].default)
    return float(value)


def test_every_hand_written_figure_is_a_declared_value() -> None:
    allowed: dict[str, list[str]] = {}
    for page, words, _, _ in DECLARED:
        allowed.setdefault(page, []).append(words)
    stray = []
    for page in _pages():
        name = str(page.relative_to(REPO))
        lines = page.read_text().splitlines()
        for number, line in enumerate(lines, 1):
            joined = " ".join(lines[max(0, number - 2) : number + 1])  # a phrase may wrap onto the next line
            for match in FIGURE.finditer(line):
                if not any(words in joined and match.group(0) in words for words in allowed.get(name, [])):
                    stray.append(f"{name}:{number}: {match.group(0)!r} in {line.strip()!r}")
    assert not stray, "measured figures belong in result files or cards, shown by docs/generate.py:\n" + "\n".join(stray)


@pytest.mark.parametrize(("page", "words", "where", "value"), DECLARED, ids=[f"{d[0]}:{d[1]}" for d in DECLARED])
def test_each_declared_figure_states_its_source(page: str, words: str, where: str, value: float) -> None:
    text = " ".join((REPO / page).read_text().split())
    assert words in text, f"{page} no longer says {words!r}: update DECLARED"
    assert _declared(where) == value, f"{where} is {_declared(where)}, but {page} says {words!r}"
