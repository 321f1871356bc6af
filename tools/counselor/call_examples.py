"""Example calls built from the loaded graph, for prompts and corrective hints.

A small model copies what its prompt shows. Examples that name an edge type or
a node id the graph lacks (``Neighbour[12, cites]`` on a graph whose edge type
is ``reference``) teach it calls that fail, and a format line such as
``Finish[answer]`` gets copied as the answer itself. So every example here uses
the loaded graph's own relation names, feature keys and one real node, chosen
deterministically (the same graph always gives the same examples).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import islice
from typing import Any

from graphreason.tools.core.store import GraphStore, per_store

# How many nodes to inspect when looking for a good example node: bounded so a
# graph with millions of nodes costs nothing noticeable.
_SCAN = 2000
_MAX_VALUE_CHARS = 40
_MAX_TEXT_WORDS = 8

# Words small models write instead of an answer (compared after normalising).
PLACEHOLDER_ANSWERS = frozenset(
    {
        "answer", "the answer", "your answer", "final answer", "the final answer", "your final answer",
        "answer here", "your answer here", "insert answer", "answer text", "the answer text",
        "...", "…", "..", "?", "placeholder", "text", "node", "nodeid", "node id",
    }
)  # fmt: skip


def is_placeholder_answer(answer: str) -> bool:
    """Whether a Finish payload is a format placeholder rather than an answer.

    ``<answer>``, ``[your answer]``, ``"..."``, ``Answer`` and an empty text
    count; brackets, quotes, case and surrounding blanks are ignored.
    """
    text = re.sub(r"\s+", " ", str(answer)).strip().lower()
    text = text.strip("<>[]{}()\"'`*_ ").rstrip(".:").strip()
    return not text or text in PLACEHOLDER_ANSWERS or set(text) <= set(".…_-")


@dataclass(frozen=True)
class CallExample:
    """One real node of the graph and what the example calls return for it."""

    node: str
    node_type: str
    text_key: str | None  # the feature Retrieve matches on (title, name...)
    text: str  # the node's text, shortened to a Retrieve query
    feature: str | None  # a short-valued feature to read, other than the text when possible
    value: str
    relation: str | None  # an edge type with at least one neighbour at this node
    degree: int

    def feature_call(self) -> str:
        return f"Feature[{self.node}, {self.feature or 'name'}]"

    def neighbour_call(self) -> str:
        return f"Neighbour[{self.node}, {self.relation or 'neighbor_type'}]"

    def degree_call(self) -> str:
        return f"Degree[{self.node}, {self.relation or 'neighbor_type'}]"


def _short(value: Any) -> str | None:
    """A feature value fit for an example (one short line), else None."""
    if isinstance(value, bool) or value is None or isinstance(value, (list, dict, tuple)):
        return None
    text = str(value).strip()
    if not text or len(text) > _MAX_VALUE_CHARS or "\n" in text or any(c in text for c in "[]"):
        return None
    return text


def _query(text: str) -> str:
    """A node's text as a Retrieve query: its first words, no brackets."""
    words = re.sub(r"[\[\]()]", " ", text).split()
    return " ".join(words[:_MAX_TEXT_WORDS])


def _score(store: GraphStore, node: str) -> tuple[int, int, int]:
    features = store.features(node)
    has_text = bool(_query(store.text(node)))
    has_short = any(
        _short(v) is not None for k, v in features.items() if k != store.text_keys.get(store.node_type(node))
    )
    has_relation = any(store.degree(node, r) for r in store.relations(node))
    return int(has_text), int(has_relation), int(has_short)


@per_store
def call_example(store: GraphStore) -> CallExample | None:
    """The example node of ``store`` (the first, in file order, with text, an edge and a short feature).

    Returns None for an empty graph. Cached per store (a store that grows after first use gets fresh examples).
    """
    best: tuple[tuple[int, int, int], str] | None = None
    for node in islice(store.nodes(), _SCAN):
        score = _score(store, node)
        if best is None or score > best[0]:
            best = (score, node)
        if score == (1, 1, 1):
            break
    return None if best is None else _build(store, best[1])


def _build(store: GraphStore, node: str) -> CallExample:
    node_type = store.node_type(node)
    text_key = store.text_keys.get(node_type)
    features = store.features(node)
    shorts = [(k, _short(v)) for k, v in features.items()]
    shorts = [(k, v) for k, v in shorts if v is not None]
    other = [(k, v) for k, v in shorts if k != text_key]
    feature, value = (other or shorts or [(None, "")])[0]
    relations = [r for r in store.relations(node) if store.degree(node, r)] or store.relations(node)
    relation = relations[0] if relations else None
    return CallExample(
        node=node,
        node_type=node_type,
        text_key=text_key,
        text=_query(store.text(node)),
        feature=feature,
        value=value,
        relation=relation,
        degree=store.degree(node, relation) if relation else 0,
    )


def syntax_help(store: GraphStore | None = None) -> str:
    """How to write a call, with examples from ``store`` when given (else in words only)."""
    example = call_example(store) if store is not None else None
    if example is None:
        return (
            "Write one function call: Retrieve[text to search for], Feature[NodeID, feature name], "
            "Neighbour[NodeID, neighbor type] or Degree[NodeID, neighbor type], or Finish[...] with the "
            "answer itself between the brackets. Calls may be nested or separated by commas."
        )
    calls = [f"Retrieve[{example.text}]" if example.text else None, example.feature_call()]
    if example.relation:
        calls += [example.neighbour_call(), example.degree_call()]
    listed = ", ".join(c for c in calls if c)
    nested = (
        f"Feature[Retrieve[{example.text}], {example.feature}]" if example.text and example.feature else ""
    )
    return (
        f"Write one function call such as {listed}, or Finish[...] with the answer itself between the "
        "brackets. Calls may be nested"
        + (f", e.g. {nested}," if nested else "")
        + " or several may be separated by commas."
    )


@per_store
def graph_names(store: GraphStore) -> tuple[list[str], list[str]]:
    """The graph's feature names and edge types (both in first-seen order), read once per store (again when the
    graph grows)."""
    keys: dict[str, None] = {}
    for node in store.nodes():
        keys.update(dict.fromkeys(store.features(node)))
    return list(keys), list(store.relations())


def vocabulary(store: GraphStore) -> tuple[str, str]:
    """The graph's feature names and edge types as comma lists."""
    features, relations = graph_names(store)
    return _listing(features), _listing(relations)


def _listing(names: list[str], limit: int = 15) -> str:
    """Names as a comma list, cut after ``limit`` so a wide schema cannot swamp the prompt."""
    shown = ", ".join(names[:limit])
    return shown + (f", ... ({len(names)} in all)" if len(names) > limit else "")
