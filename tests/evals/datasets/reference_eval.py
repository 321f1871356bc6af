"""A minimal evaluator of reference actions over a GraphStore (test helper).

It follows the documented call semantics - Retrieve by the node's main text,
Feature and Degree mapped element-wise over a list, a mapped Neighbour giving
the de-duplicated union, the aggregates Count, Mode and MaxDegree taking the
whole list, Matching keeping a list's nodes with a feature value, Differing comparing a node's neighbours with the node, MostLinked counting
the members that reach each node, comma-separated calls giving a tuple - so that a
question's gold (computed from the raw files) can be checked against what the
loaded graph yields. Retrieve is an exact, case-insensitive title lookup and
fails on ambiguity, which also proves the subject title is unique.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from graphreason.evals.datasets.answer_rules import flatten, unique_mode
from graphreason.evals.datasets.template_base import unique_argmax
from graphreason.tools.core.store import GraphStore

_CALL = re.compile(r"^(\w+)\[(.*)\]$", re.DOTALL)


def split_top_level(text: str) -> list[str]:
    """Split on commas outside brackets."""
    parts, depth, current = [], 0, []
    for char in text:
        if char == "[":
            depth += 1
        elif char == "]":
            depth -= 1
        if char == "," and depth == 0:
            parts.append("".join(current).strip())
            current = []
        else:
            current.append(char)
    parts.append("".join(current).strip())
    return parts


class ReferenceEvaluator:
    """Evaluates bracket actions against one store."""

    def __init__(self, store: GraphStore) -> None:
        self.store = store
        self.by_text: dict[str, list[str]] = {}
        for node in store.nodes():
            self.by_text.setdefault(store.text(node).casefold(), []).append(node)

    def run(self, action: str) -> Any:
        values = [self.call(part) for part in split_top_level(action)]
        return values[0] if len(values) == 1 else tuple(values)

    def call(self, text: str) -> Any:
        match = _CALL.match(text.strip())
        if not match:
            return text.strip()  # a literal: node id, feature or relation name
        name, inner = match.groups()
        if name == "Retrieve":
            hits = self.by_text.get(inner.strip().casefold(), [])
            assert len(hits) == 1, f"Retrieve[{inner}] matches {len(hits)} nodes"
            return hits[0]
        if name in ("Count", "Mode"):  # aggregates over the whole list, never mapped
            values = [str(v).strip() for v in flatten(self.call(inner)) if v is not None and str(v).strip()]
            if name == "Count":
                return len(set(values))
            mode = unique_mode(values)
            assert mode is not None, f"{text}: tied"
            return mode
        if name in ("Differing", "Same"):
            node_text, relation, feature = split_top_level(inner)
            node = self.call(node_text)
            own = self.store.feature(node, feature)
            neighbours = self.store.neighbors(node, relation)
            return sum(1 for other in neighbours if (self.store.feature(other, feature) == own) == (name == "Same"))
        if name in ("Intersect", "Union", "Contains"):  # two arguments, both evaluated
            first, second = (self.call(part) for part in split_top_level(inner))
            if name == "Contains":
                return "yes" if second in first else "no"
            first, second = ([v] if isinstance(v, str) else v for v in (first, second))  # one node: a list of one
            return [n for n in first if n in second] if name == "Intersect" else list(dict.fromkeys([*first, *second]))
        if name == "Exists":
            return "yes" if flatten(self.call(inner)) else "no"
        if name in ("MoreThan", "FewerThan", "Difference"):  # two single nodes compared by their neighbours
            first_text, second_text, relation = split_top_level(inner)
            first, second = (self.call(part) for part in (first_text, second_text))
            mine, theirs = (len(self.store.neighbors(node, relation)) for node in (first, second))
            if name == "Difference":
                return abs(mine - theirs)
            return "yes" if (mine > theirs if name == "MoreThan" else mine < theirs) else "no"
        if name == "Matching":  # the nodes of a list whose feature is the value (case, _ and spaces aside)
            nodes_text, feature, value = split_top_level(inner)
            nodes = self.call(nodes_text)

            def fold(v: Any) -> str:
                return re.sub(r"[\s_]+", " ", str(v)).strip().casefold()

            return [n for n in nodes if fold(self.store.features(n).get(feature, "")) == fold(value)]
        subject_text, key = split_top_level(inner)
        subject = self.call(subject_text)
        if name in ("MaxDegree", "MinDegree"):
            sign = 1 if name == "MaxDegree" else -1
            best = unique_argmax({node: sign * len(self.store.neighbors(node, key)) for node in subject})
            assert best is not None, f"{text}: tied"
            return best[0]
        if name == "MostLinked":  # the node the most members reach, each member counted once
            reached = Counter(n for node in dict.fromkeys(subject) for n in set(self.store.neighbors(node, key)))
            best = unique_argmax(dict(reached))
            assert best is not None, f"{text}: tied"
            return best[0]
        if name == "Feature":
            one = lambda node: self.store.feature(node, key)  # noqa: E731
        elif name == "Degree":
            one = lambda node: self.store.degree(node, key)  # noqa: E731
        elif name == "Neighbour":
            one = lambda node: self.store.neighbors(node, key)  # noqa: E731
        else:
            raise AssertionError(f"unknown function {name}")
        if not isinstance(subject, list):
            return one(subject)
        results = [one(node) for node in subject]
        if name == "Neighbour":
            return list(dict.fromkeys(n for ids in results for n in ids))
        return results
