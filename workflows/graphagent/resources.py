"""What a GraphAgent run reads besides its model: node data, the graph model, its calibration, the store.

Everything here is loaded once per process and shared by runs:

* the node environment per (source, split) - ``graphreason.tools.core.loaders.node_data`` and,
  in tool mode, ``graphreason.tools.graph_models.hub.node_classifier`` (trained on the
  training part only, cached on disk by the hub);
* the guard's calibration of that classifier on the validation part;
* the experience store: SQLite per path, or one in-memory store per encoder
  (so ``collect_experience`` then ``solve`` in one process share episodes).

:func:`provide` installs a dataset and classifier of the caller's own under a
name (tests, notebooks, a graph not on disk): a context whose ``dataset`` is
that name then uses them.
"""

from __future__ import annotations

import copy
import threading
from pathlib import Path
from typing import Any

import numpy as np

from graphreason.tools.graphagent.actions import NodeEnvironment
from graphreason.workflows.graphagent.guard import Calibration, calibrate, fixed

_LOCK = threading.RLock()
_DATA: dict[tuple[str, str], Any] = {}
_CLASSIFIERS: dict[tuple[str, str], Any] = {}
_RECALL_ENVIRONMENTS: dict[tuple, NodeEnvironment] = {}
_ENVIRONMENTS: dict[tuple[str, str, bool, bool], NodeEnvironment] = {}
_CALIBRATION: dict[tuple[int, str], tuple[list[float], list[bool]]] = {}
_STORES: dict[tuple[str, str], Any] = {}


class GraphAgentInputError(ValueError):
    """A run cannot start: unknown dataset, split or node, or a label set that does not match."""


def provide(name: str, data: Any, classifier: Any | None = None, *, split: str = "public") -> None:
    """Make ``dataset=name`` (with ``split``) use ``data`` and ``classifier`` in this process."""
    key = (name, split)
    with _LOCK:
        _DATA[key] = data
        _CLASSIFIERS[key] = classifier
        for cache in (_ENVIRONMENTS, _RECALL_ENVIRONMENTS):
            for cached in [k for k in cache if k[:2] == key]:
                del cache[cached]


def node_data(source: str | Path, split: str) -> Any:
    key = (source, split)
    with _LOCK:
        if key in _DATA:
            return _DATA[key]
    from graphreason.tools.core.loaders.node_data import NAMED_SOURCES, load_node_data

    if isinstance(source, str) and source.strip().lower() not in NAMED_SOURCES:
        # a dataset is a name (a folder comes as a Path from data_path): never read a name as a folder
        raise GraphAgentInputError(
            f"unknown dataset {source!r}: use {', '.join(NAMED_SOURCES)}, or give an OGB folder as data_path (--path)"
        )
    try:
        data = load_node_data(source, split)
    except (ValueError, OSError, KeyError) as exc:
        raise GraphAgentInputError(str(exc)) from exc
    except Exception as exc:  # GraphError and friends: a clear message, not a traceback
        raise GraphAgentInputError(f"cannot load {source!r} ({split} split): {exc}") from exc
    with _LOCK:
        _DATA[key] = data
    return data


def classifier(source: str | Path, split: str, *, progress: bool = False) -> Any:
    """The node classifier of ``source``/``split``; ``progress`` shows its one-off training (embedding included)."""
    key = (source, split)
    with _LOCK:
        if key in _CLASSIFIERS:
            return _CLASSIFIERS[key]
    from graphreason.tools.graph_models.hub import node_classifier  # imports torch: tool mode only

    model = node_classifier(source, split, progress=progress)
    with _LOCK:
        _CLASSIFIERS[key] = model
    return model


def find_node(context: Any, asked: str) -> str:
    """The dataset's id of the node ``asked`` for, found before any graph model is loaded or trained.

    A wrong id or dataset is refused at once (:class:`GraphAgentInputError`), not after the
    minutes a graph model's first training takes.
    """
    data = node_data(context.source, context.split)
    lookup = NodeEnvironment(data, None, show_train_labels=context.show_train_labels)
    node = lookup.find(asked)
    if node is None:
        raise GraphAgentInputError(lookup.unknown(asked))
    return node


def environment(context: Any, *, progress: bool = False) -> NodeEnvironment:
    """The node environment of ``context``'s dataset and split (with the classifier in tool mode).

    ``progress`` shows the classifier's one-off training on a fresh machine (minutes: every node's
    text is embedded first); the CLI asks for it, a server run does not.
    """
    source, split = context.source, context.split
    key = (source, split, bool(context.graph_tool), bool(context.show_train_labels))
    with _LOCK:
        if key in _ENVIRONMENTS:
            return _ENVIRONMENTS[key]
    data = node_data(source, split)
    model = classifier(source, split, progress=progress) if context.graph_tool else None
    if model is not None:
        check_labels(list(data.graph.classes), list(model.labels), "the graph model")
    env = NodeEnvironment(data, model, show_train_labels=context.show_train_labels)
    with _LOCK:
        _ENVIRONMENTS[key] = env
    return env


def recall_environment(context: Any) -> NodeEnvironment:
    """The run's environment with a label recall attached (embedding every node's text on first use).

    ``recall_by="text"`` compares a text-attributed graph's nodes by the embeddings of title and
    abstract (the graph model's cached vectors when the embedder is the same); ``"words"``, or a graph
    without texts, by its word features. It is an environment of its own, kept apart from
    :func:`environment`'s, which never recalls.
    """
    key = (context.source, context.split, bool(context.graph_tool), bool(context.show_train_labels),
           str(context.embedding_model), context.recall_by)
    with _LOCK:
        if key in _RECALL_ENVIRONMENTS:
            return _RECALL_ENVIRONMENTS[key]
    base = environment(context)
    graph = base.data.graph
    if graph.texts is not None and context.recall_by == "text":
        from graphreason.tools.graph_models.node_features import feature_blocks

        vectors = feature_blocks(graph, "text", context.embedding_model)[0]  # the graph model's text features
    elif getattr(graph, "features", None) is not None:
        vectors = np.asarray(graph.features, dtype=np.float32)
    else:
        other = "recall_by=text" if graph.texts is not None else "long_term off (--no-long-term)"
        raise GraphAgentInputError(f"{graph.name} has no word features to recall labelled nodes by; run with {other}")
    env = copy.copy(base)  # the same data, classifier and neighbour lists; only the recall is its own
    env.attach_recall(vectors)
    with _LOCK:
        return _RECALL_ENVIRONMENTS.setdefault(key, env)


def check_labels(expected: list[str], given: list[str], what: str) -> None:
    """Refuse a label set that is not the dataset's (names compared as sets)."""
    if set(given) != set(expected):
        missing = sorted(set(expected) - set(given))
        extra = sorted(set(given) - set(expected))
        raise GraphAgentInputError(
            f"{what} has another label set than the dataset: missing {missing or 'none'}, "
            f"unknown {extra or 'none'}; the dataset's labels are {', '.join(expected)}"
        )


def calibration(context: Any, env: NodeEnvironment) -> Calibration | None:
    """The guard's threshold and the model's validation accuracy (None without a classifier)."""
    model = env.classifier
    if model is None:
        return None
    key = (id(model), context.split)
    with _LOCK:
        cached = _CALIBRATION.get(key)
    if cached is None:
        confidences, correct = [], []
        for position in list(env.data.parts.get("val", [])):
            node = env.ids[int(position)]
            try:
                label, probabilities = model.predict(node)
            except Exception:  # a node the model cannot classify says nothing about its reliability
                continue
            confidences.append(float(probabilities.get(label, 0.0)))
            correct.append(label == env.gold(node))
        cached = (confidences, correct)
        with _LOCK:
            _CALIBRATION[key] = cached
    confidences, correct = cached
    if context.override_threshold is not None:
        return fixed(confidences, correct, context.override_threshold, context.override_risk)
    return calibrate(confidences, correct, context.override_risk)


def store(context: Any, path: str | None = None) -> Any:
    """The experience store: SQLite at ``path`` (or ``context.experience_path``), else in memory."""
    from graphreason.memory.longterm import make_store

    target = path or context.experience_path
    key = ("sqlite", str(target)) if target else ("memory", str(context.embedding_model))
    with _LOCK:
        if key not in _STORES:
            _STORES[key] = make_store(context.embedding_model, fields=("title",), path=target)
        return _STORES[key]


def forget_stores() -> None:
    """Drop the cached stores (tests start from an empty in-memory store)."""
    with _LOCK:
        _STORES.clear()
