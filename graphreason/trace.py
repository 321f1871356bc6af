"""Printing a Counselor run's stream events as readable trace lines."""

from __future__ import annotations

from typing import Any, TextIO

_LABELS = {
    "plan": "Plan",
    "thought": "Thought",
    "action": "Action",
    "observation": "Observation",
    "answer": "Finish",
    "verdict": "Verdict",
    "reflection": "Reflection",
}


def shorten(text: str, limit: int) -> str:
    """One-line text, cut at ``limit`` characters with an ellipsis."""
    flat = " ".join(str(text).split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


class TracePrinter:
    """Prints stream events as they arrive, with a header whenever a new trial starts."""

    def __init__(self, out: TextIO, width: int = 400) -> None:
        self.out = out
        self.width = width
        self._trial: int | None = None

    def __call__(self, event: dict[str, Any]) -> None:
        kind = str(event.get("event", ""))
        trial = int(event.get("trial") or 0)
        if trial != self._trial:
            self._trial = trial
            print(f"── trial {trial + 1} " + "─" * 40, file=self.out, flush=True)
        step = event.get("step")
        where = f"{step:>3}" if isinstance(step, int) else "   "
        label = _LABELS.get(kind, kind.capitalize() or "Event")
        print(f"{where} {label:<11}: {shorten(event.get('text', ''), self.width)}", file=self.out, flush=True)
