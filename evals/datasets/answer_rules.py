"""How a reference action's result becomes the final answer.

Every generated question carries one Counselor action (``reference_action``)
and the name of a rule (``meta["reference_answer_rule"]``). The action's result
is a plain value: a scalar, a list (a nested call maps over lists), or a tuple
of such values when the action has several comma-separated calls. The rules:

``value``               the scalar itself (a feature value or a Degree count).
``list``                the distinct non-empty strings of the (flattened) list.
``list_without_target`` as ``list``, minus the question's own subject.
``count``               an int as is; a list: the number of distinct items.
``count_distinct``      the number of distinct values in the (flattened) list.
``most_common``         the most frequent value in the (flattened) list.
``mean``                the mean of the numbers in the list.
``weighted_mean``       ``[n_1, ..., n_5]`` counts per star value -> mean stars.
``argmax``              ``(names, numbers)`` aligned -> the name with the largest number.
``count_differing``     ``(value, values)`` -> how many of ``values`` differ from ``value`` (an int: that count).
``count_same``          ``(value, values)`` -> how many of ``values`` equal ``value``.
``argmin``              ``(names, numbers)`` aligned -> the name with the smallest number.
``count_common``        ``(list, list)`` -> how many distinct items both lists hold.
``count_union``         ``(list, list)`` -> how many distinct items either list holds.
``contains``            ``(list, value)`` -> ``yes`` when the list holds the value, else ``no``.
``any``                 a count (an int, or a list's distinct items) -> ``yes`` when above zero, else ``no``.

Numbers are written with at most two decimals and no trailing zeros. List
answers are sorted (case-insensitively) and joined with ``", "``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

RULES = (
    "value",
    "list",
    "list_without_target",
    "count",
    "count_distinct",
    "most_common",
    "mean",
    "weighted_mean",
    "argmax",
    "count_differing",
    "count_same",
    "argmin",
    "count_common",
    "count_union",
    "contains",
    "any",
)


def format_number(value: float) -> str:
    """``3.0`` -> ``"3"``, ``3.876`` -> ``"3.88"``, ``2.5`` -> ``"2.5"``."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def sorted_items(values: Iterable[Any]) -> list[str]:
    """Distinct non-empty strings, sorted case-insensitively (ties broken exactly)."""
    distinct = {str(v).strip() for v in values if v is not None and str(v).strip()}
    return sorted(distinct, key=lambda s: (s.casefold(), s))


def flatten(value: Any) -> list[Any]:
    """Nested lists/tuples flattened to one list, order kept."""
    if isinstance(value, (list, tuple)):
        return [x for item in value for x in flatten(item)]
    return [value]


def same_key(value: Any) -> str:
    """What two mentions of one node or value share: its text, with an all-digit id read as its number.

    An observation may show an id such as ``07212190`` once as text and once read as the number 7212190.
    """
    text = str(value).strip()
    return str(int(text)) if text.isdigit() else text


def unique_mode(values: Iterable[Any]) -> Any | None:
    """The single most frequent value, or ``None`` when the top count is tied or empty."""
    ranked = Counter(values).most_common(2)
    if not ranked or (len(ranked) == 2 and ranked[0][1] == ranked[1][1]):
        return None
    return ranked[0][0]


def apply_answer_rule(rule: str, result: Any, target: str | None = None) -> tuple[str, list[str] | None]:
    """``(answer, answers)`` from an action result; ``answers`` is set for list answers.

    ``target`` is the question's subject text (used by ``list_without_target``).
    Raises ``ValueError`` when the result does not have the shape the rule needs
    (for example a tie for ``most_common``/``argmax``).
    """
    if rule == "value":
        if isinstance(result, (list, tuple)):
            raise ValueError(f"rule 'value' needs a scalar, got {result!r:.80}")
        return (format_number(result) if isinstance(result, float) else str(result)), None
    if rule in ("list", "list_without_target"):
        items = sorted_items(flatten(result))
        if rule == "list_without_target":
            items = [i for i in items if i != (target or "").strip()]
        return ", ".join(items), items
    if rule == "count":
        count = result if isinstance(result, int) else len({str(v) for v in flatten(result) if v is not None})
        return str(count), None
    if rule == "count_distinct":
        return str(len(sorted_items(flatten(result)))), None
    if rule == "most_common":
        mode = unique_mode(str(v) for v in flatten(result) if v not in (None, ""))
        if mode is None:
            raise ValueError(f"no single most common value in {result!r:.80}")
        return mode, None
    if rule == "mean":
        numbers = [float(v) for v in flatten(result) if v is not None]
        if not numbers:
            raise ValueError("rule 'mean' got no numbers")
        return format_number(sum(numbers) / len(numbers)), None
    if rule == "weighted_mean":
        counts = [int(c) for c in flatten(result)]
        if not sum(counts):
            raise ValueError("rule 'weighted_mean' got no counts")
        return format_number(sum(star * c for star, c in enumerate(counts, 1)) / sum(counts)), None
    if rule in ("argmax", "argmin"):
        names, numbers = result
        best = max(numbers) if rule == "argmax" else min(numbers)
        winners = {str(n) for n, v in zip(names, numbers, strict=True) if v == best}
        if len(winners) != 1:
            raise ValueError(f"rule {rule!r} found a tie between {sorted(winners)}")
        return winners.pop(), None
    if rule == "count_differing":
        if isinstance(result, int):  # the Differing aggregate counted them
            return str(result), None
        own, others = result
        return str(sum(1 for v in flatten(others) if v != own)), None
    if rule == "count_same":
        own, others = result
        return str(sum(1 for v in flatten(others) if v == own)), None
    if rule in ("count_common", "count_union"):
        first, second = ({same_key(v) for v in flatten(side) if v not in (None, "")} for side in result)
        return str(len(first & second if rule == "count_common" else first | second)), None
    if rule == "contains":
        values, wanted = result
        return ("yes" if same_key(wanted) in {same_key(v) for v in flatten(values)} else "no"), None
    if rule == "any":
        count = result if isinstance(result, int) else len({str(v) for v in flatten(result) if v is not None})
        return ("yes" if count > 0 else "no"), None
    raise ValueError(f"unknown answer rule {rule!r}; rules: {', '.join(RULES)}")
