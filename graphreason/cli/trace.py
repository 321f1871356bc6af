"""Printing any workflow's stream events as readable trace lines, one printer for every method.

Events are the custom stream events the workflows emit (:func:`graphreason.workflows.kit.events.emit`).
Counselor's carry ``trial`` and ``step``: a header opens each trial and lines
show the step number and the protocol label (Plan, Thought, Action, ...).
Events without a trial (GAR's steps and rounds) print as ``kind: text``; round
events past the first few are counted rather than printed.
"""

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
_ROUND_EVENTS = ("round", "agent_round")
ROUNDS_SHOWN = 12  # round events printed before the rest are only counted


def usage_line(usage: dict[str, Any] | None, seconds: Any, count: int, unit: str) -> str:
    """``(3 LLM calls, 900 tokens in / 120 out, 4.2 s, 2 trial(s))``: a run's cost in one line."""
    usage = usage or {}
    return (
        f"({usage.get('llm_calls', 0)} LLM calls, {usage.get('input_tokens', 0)} tokens in / "
        f"{usage.get('output_tokens', 0)} out"
        + (f", {seconds:.1f} s" if isinstance(seconds, (int, float)) else "")
        + f", {count} {unit}(s))"
    )


def shorten(text: str, limit: int) -> str:
    """One-line text, cut at ``limit`` characters with an ellipsis."""
    flat = " ".join(str(text).split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


class EventPrinter:
    """Prints stream events as they arrive; call :meth:`flush` at the end for the count of hidden rounds."""

    def __init__(self, out: TextIO, width: int = 400, rounds_shown: int = ROUNDS_SHOWN) -> None:
        self.out = out
        self.width = width
        self.rounds_shown = rounds_shown
        self.hidden_rounds = 0
        self._trial: int | None = None

    def __call__(self, event: dict[str, Any]) -> None:
        kind = str(event.get("event", ""))
        if kind in _ROUND_EVENTS and int(event.get("round") or 0) > self.rounds_shown:
            self.hidden_rounds += 1
            return
        if kind not in _ROUND_EVENTS:
            self.flush()
        text = shorten(event.get("text", ""), self.width)
        if "trial" not in event:
            self._print(f"{kind or 'event':>10}: {text}")
            return
        trial = int(event.get("trial") or 0)
        if trial != self._trial:
            self._trial = trial
            self._print(f"── trial {trial + 1} " + "─" * 40)
        step = event.get("step")
        where = f"{step:>3}" if isinstance(step, int) else "   "
        self._print(f"{where} {_LABELS.get(kind, kind.capitalize() or 'Event'):<11}: {text}")

    def flush(self) -> None:
        """Print the count of round events not shown, if any."""
        if self.hidden_rounds:
            self._print(f"{'round':>10}: ... {self.hidden_rounds} more round(s)")
            self.hidden_rounds = 0

    def _print(self, line: str) -> None:
        print(line, file=self.out, flush=True)
