"""Errors raised by the graph layer.

Each message says what was wrong *and* what is valid, because these messages
are shown to the model as observations: a weak model can only repair a call
when the observation names the options.
"""

from __future__ import annotations

from collections.abc import Iterable
from difflib import SequenceMatcher


def _preview(items: Iterable[str], limit: int = 12, near: str = "") -> str:
    """Up to ``limit`` names; when there are more, those spelled most like ``near`` (the name given) come first."""
    items = list(items)
    if len(items) > limit and near:
        wanted = near.lower()
        closeness = {item: SequenceMatcher(None, wanted, item.lower()).ratio() for item in items}
        items = sorted(items, key=lambda item: -closeness[item])
    shown = ", ".join(items[:limit])
    return shown + (f", ... ({len(items)} in all)" if len(items) > limit else "") if items else "(none)"


class GraphError(ValueError):
    """Base class of every graph-layer error.

    A ``ValueError``: the input (a graph, a call, a file) is what is wrong, and a
    LangGraph server shows a client the message of a ``ValueError`` (it hides
    the messages of other exception types). Served runs strip server folders
    from messages first (:func:`graphreason.tools.core.policy.scrub_paths`).
    """


class GraphFileError(GraphError):
    """A graph file is missing, unreadable or not in the expected format."""


class UnknownNodeError(GraphError, KeyError):
    def __init__(self, node: str, suggestions: Iterable[str] = ()) -> None:
        self.node = node
        hint = f" Similar ids: {_preview(suggestions, 5)}." if suggestions else ""
        super().__init__(
            f"The node {node!r} does not exist in the graph.{hint} "
            "Use Retrieve[text] to find a node id from its name or title."
        )

    def __str__(self) -> str:  # KeyError would otherwise quote the message
        return self.args[0]


class UnknownRelationError(GraphError, KeyError):
    """A relation the node cannot have; with ``node_type``, the message names that type's relations."""

    def __init__(self, node: str, relation: str, valid: Iterable[str], node_type: str | None = None) -> None:
        self.node, self.relation, self.valid, self.node_type = node, relation, list(valid), node_type
        # "Valid neighbor types here" is the wording the tuned reasoner was trained to read; the type is added
        where = f"node {node}" if node_type is None else f"node {node} (type {node_type})"
        super().__init__(
            f"The neighbor type {relation!r} does not exist for {where}. "
            f"Valid neighbor types here: {_preview(self.valid, near=relation)}."
        )

    def __str__(self) -> str:
        return self.args[0]


class UnknownFeatureError(GraphError, KeyError):
    def __init__(self, node: str, key: str, valid: Iterable[str]) -> None:
        self.node, self.key, self.valid = node, key, list(valid)
        super().__init__(
            f"The feature {key!r} does not exist for node {node}. "
            f"Valid feature names: {_preview(self.valid, near=key)}."
        )

    def __str__(self) -> str:
        return self.args[0]
