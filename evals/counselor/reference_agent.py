"""A scripted agent that follows a generated question's reference action.

It proves tool-set coverage: for each template, a trajectory through the real
Counselor workflow (real parser, graph functions, retriever, observations)
reaches the gold answer. The agent sees only what a model would see: it reads
the values back out of the Observation text in its prompt and applies the
question's answer rule. It never looks at the gold.
"""

from __future__ import annotations

import ast
import re
from typing import Any

from langchain_core.messages import BaseMessage

from graphreason.evals.datasets.answer_rules import apply_answer_rule
from graphreason.evals.datasets.items import QAItem
from graphreason.tools.counselor.registry import INPUT_NOTE

# Where a value starts in an observation sentence (see graphreason.tools.counselor.functions for the formats).
_VALUE_START = re.compile(
    r"The ID of this retrieval target node is |(?<=\S) are: |(?<=\S) is: |neighbor number of \S+ is "
)


class ObservationParseError(ValueError):
    """The observation does not contain values in the documented format."""


def _bracket_end(text: str, start: int) -> int:
    """Index just past the list literal starting at ``text[start] == '['`` (quote-aware)."""
    depth, quote, i = 0, "", start
    while i < len(text):
        ch = text[i]
        if quote:
            if ch == "\\":
                i += 1
            elif ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    raise ObservationParseError(f"unbalanced list in observation: {text[start : start + 80]!r}")


def _scalar(text: str) -> Any:
    for cast in (int, float):
        try:
            return cast(text)
        except ValueError:
            pass
    return text


def observation_values(observation: str) -> list[Any]:
    """The value of every function result in an observation, in order (an aggregate's input note left out)."""
    observation = INPUT_NOTE.sub("", observation)
    values: list[Any] = []
    pos = 0
    for match in _VALUE_START.finditer(observation):
        if match.start() < pos:
            continue
        start = match.end()
        if observation.startswith("[", start):
            end = _bracket_end(observation, start)
            literal = observation[start:end]
            if "... (" in literal:
                raise ObservationParseError(
                    "the observation list is truncated; the values are not all visible"
                )
            values.append(ast.literal_eval(literal))
            pos = end
        else:
            nxt = observation.find(". The ", start)
            end = nxt if nxt != -1 else len(observation.rstrip().rstrip("."))
            values.append(_scalar(observation[start:end].strip()))
            pos = end
    if not values:
        raise ObservationParseError(f"no function result found in {observation[:120]!r}")
    return values


def subject_text(item: QAItem) -> str | None:
    """The text the reference action retrieves the question's subject by (``Retrieve[...]``), if any."""
    match = re.search(r"Retrieve\[([^\[\]]+)\]", item.reference_action or "")
    return match.group(1) if match else None


def answer_with_items(item: QAItem, observation: str) -> tuple[str, list[str] | None]:
    """``(answer, items)``: the item's answer rule applied to the values shown in ``observation``
    (``items`` set for a list answer, see :func:`apply_answer_rule`)."""
    values = observation_values(observation)
    result = values[0] if len(values) == 1 else tuple(values)
    return apply_answer_rule(item.reference_answer_rule, result, subject_text(item))


def answer_from_observation(item: QAItem, observation: str) -> str:
    """Apply the item's answer rule to the values shown in ``observation``."""
    return answer_with_items(item, observation)[0]


def last_observation(messages: list[BaseMessage]) -> str:
    """The text of the last ``Observation N:`` line of the prompt (its last message)."""
    prompt = str(messages[-1].content)
    found = re.findall(r"^Observation \d+: (.*)$", prompt, flags=re.MULTILINE)
    if not found:
        raise ObservationParseError("no Observation line in the prompt")
    return found[-1]


def reference_script(item: QAItem, with_plan: bool = True) -> list[Any]:
    """Replies for a two-step trial: the reference action, then Finish with the derived answer."""
    if not item.reference_action:
        raise ValueError(f"item {item.qid} has no reference action")

    def finish(messages: list[BaseMessage]) -> str:
        return f"Action 2: Finish[{answer_from_observation(item, last_observation(messages))}]"

    plan = ["Plan 1: follow the reference path through the graph"] if with_plan else []
    plan2 = ["Plan 2: the observation holds the answer"] if with_plan else []
    return [
        *plan,
        "Thought 1: run the graph calls that expose the needed values",
        f"Action 1: {item.reference_action}",
        *plan2,
        "Thought 2: derive the answer from the observation",
        finish,
    ]
