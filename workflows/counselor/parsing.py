"""Tolerant readers of model output: step lines, judge verdicts, final answers.

Small models add prefixes, repeat the label, write several lines or wrap things
in JSON or markdown. These functions take what is usable and never raise: their
patterns are written so that no input makes them backtrack (linear time), and
JSON is only decoded when it is shallow enough for Python's recursion limit.
"""

from __future__ import annotations

import json
import re

from graphreason.tools.core.lenient_json import read_value
from graphreason.tools.counselor.calls import MAX_NESTING, nesting_depth

# One optional number between blanks, written so that a long run of blanks has one parse only.
_INDEX = r"\s*(?:\d+\s*)?"
_LABEL = re.compile(rf"^[*#>\-\s]*(plan|thought|action|observation|step){_INDEX}[:.)\-]\s*", re.IGNORECASE)
_FENCE = re.compile(r"```[a-z]*", re.IGNORECASE)


def clean_line(text: str, label: str) -> str:
    """The content of the first useful line for a ``label`` step.

    Prefers a line carrying the wanted label; otherwise the first non-empty line,
    with any step label stripped. JSON objects such as ``{"plan": "..."}`` are unwrapped.
    """
    text = _FENCE.sub("", text or "").strip()
    unwrapped = _unwrap_json(text, label)
    if unwrapped is not None:
        return unwrapped
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    wanted = re.compile(rf"\b{re.escape(label)}{_INDEX}[:.)\-]\s*", re.IGNORECASE)
    for line in lines:  # the labelled line, even after chatter such as "Sure! Plan 1: ..."
        found = wanted.search(line)
        if found and line[found.end() :].strip():
            return line[found.end() :].strip()
    for line in lines:
        stripped = _LABEL.sub("", line).strip()
        if stripped:
            return stripped
    return ""


def _unwrap_json(text: str, label: str) -> str | None:
    if not text.startswith("{") or nesting_depth(text) > MAX_NESTING:
        return None
    data = read_value(text, ints_as_text=True)  # a huge integer must not hit the int-string limit
    if not isinstance(data, dict):
        return None
    for key, value in data.items():
        if key.lower().startswith(label.lower()) and isinstance(value, str):
            return value.strip()
    return None


_VERDICT = re.compile(r"\[\s*(yes|no)\s*\]", re.IGNORECASE)
_BARE = re.compile(r"\b(yes|no|correct|incorrect)\b", re.IGNORECASE)


def parse_verdict(text: str) -> str:
    """``"yes"``, ``"no"`` or ``"unclear"`` from a judge reply.

    The bracketed tag wins (its last occurrence); otherwise the last bare yes/no
    or correct/incorrect word. Unclear verdicts are treated as not accepted.
    """
    tags = _VERDICT.findall(text or "")
    if tags:
        return tags[-1].lower()
    words = _BARE.findall(text or "")
    if words:
        word = words[-1].lower()
        return "yes" if word in ("yes", "correct") else "no"
    return "unclear"


_ANSWER_PREFIX = re.compile(r"^\s*(the\s+)?(final\s+)?answer\s*(is|:)\s*", re.IGNORECASE)


def regularize_answer(text: str) -> str:
    """Rule-based clean-up of a ``Finish[...]`` payload (the paper's Regularize)."""
    answer = (text or "").strip()
    answer = _ANSWER_PREFIX.sub("", answer)
    if len(answer) >= 2 and answer[0] == answer[-1] and answer[0] in "\"'`":
        answer = answer[1:-1]
    if answer.startswith("[") and answer.endswith("]"):
        try:
            if nesting_depth(answer) > MAX_NESTING:
                raise ValueError("too deeply nested to be a list of answers")
            items = json.loads(answer.replace("'", '"'), parse_int=str)
            if isinstance(items, list):
                answer = ", ".join(str(x) for x in items)
        except (ValueError, RecursionError):
            answer = answer[1:-1]
    return answer.strip().rstrip(".").strip()
