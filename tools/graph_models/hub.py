"""The graph model hub: which model answers a domain on a dataset.

Models are imported only when first asked for (torch and PyG stay unloaded
for runs that never call a graph model) and kept per process, so a text with
ten ``graph_bert:topic`` calls trains or loads the model once.
"""

from __future__ import annotations

import importlib
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from graphreason.tools.core.errors import GraphError
from graphreason.tools.graph_models.base import GraphModel, GraphModelError, TrainReport

if TYPE_CHECKING:
    from graphreason.tools.graph_models.topic import TopicModel

# domain -> "module:class"; a domain is the part before ":" in "graph_bert:topic"
MODELS: dict[str, str] = {
    "graph_bert": "graphreason.tools.graph_models.topic:TopicModel",
    "seg_bert": "graphreason.tools.graph_models.molecule:MoleculeModel",
    "bpr": "graphreason.tools.graph_models.recommender:BPRModel",
    "kmeans": "graphreason.tools.graph_models.community:CommunityModel",
    "transe": "graphreason.tools.graph_models.kge:TransEModel",
}

# datasets the paper uses that the data root does not hold: asked for, they get this reason
ABSENT: dict[str, str] = {
    "pubmed": "PubMed is not in the data root (only Cora and CiteSeer with text are)",
    "amazon": "the Amazon (Software) ratings are not in the data root",
}

_LOCK = threading.Lock()
_LOADED: dict[tuple[str, str], GraphModel] = {}


def domain_key(domain: str) -> str:
    """``graph-bert`` / ``Graph_Bert`` -> ``graph_bert``."""
    return domain.strip().lower().replace("-", "_")


def model_class(domain: str) -> type[GraphModel]:
    key = domain_key(domain)
    if key not in MODELS:
        raise GraphModelError(f"Unknown graph model domain {domain!r}; known: {', '.join(MODELS)}.")
    module, _, name = MODELS[key].partition(":")
    return getattr(importlib.import_module(module), name)


def get_model(domain: str, dataset: str, *, progress: bool = False) -> GraphModel:
    """The trained model of ``domain`` on ``dataset`` (trained and cached on first use)."""
    name = dataset.strip().lower().replace("_", "-")
    if name in ABSENT:
        raise GraphModelError(f"No {domain_key(domain)} model for {dataset!r}: {ABSENT[name]}.")
    cls = model_class(domain)
    if cls.domain == "graph_bert":  # one node classifier for Graph-ToolFormer and GraphAgent
        return node_classifier(name, progress=progress)
    with _LOCK:
        model = _LOADED.get((cls.domain, name))
        if model is None:
            model = cls(name)
            model.ensure(progress=progress)
            _LOADED[(cls.domain, name)] = model
    return model


def node_classifier(
    source: str | Path = "cora", split: str = "public", *, progress: bool = False
) -> TopicModel:
    """The trained node classifier of ``source`` (``cora``, ``citeseer`` or an OGB folder) on ``split``.

    Trained on the split's training nodes only, with the default features and
    architecture (see :mod:`graphreason.tools.graph_models.topic`); cached on disk and per
    process, so ``get_model("graph_bert", "cora")`` and ``node_classifier("cora")``
    are the same object.
    """
    from graphreason.tools.core.loaders.node_data import NAMED_SOURCES, source_key
    from graphreason.tools.graph_models.topic import TopicModel

    try:
        key = source_key(source)
    except GraphError as exc:
        raise GraphModelError(str(exc)) from exc
    part = split.strip().lower()
    if key not in NAMED_SOURCES and part == "public":
        part = "given"  # an OGB folder's public split is its own
    slot = ("graph_bert", key if part == "public" else f"{key}|{part}")
    with _LOCK:
        model = _LOADED.get(slot)
        if model is None:
            model = TopicModel(key, split=part)
            model.ensure(progress=progress)
            _LOADED[slot] = model
    return model  # type: ignore[return-value]


def train(domain: str, dataset: str, *, force: bool = False, progress: bool = True) -> TrainReport:
    """Train (or, unless ``force``, load) one model and return its report."""
    cls = model_class(domain)
    model = cls(dataset)
    report = model.ensure(progress=progress, force=force)
    with _LOCK:
        _LOADED[(cls.domain, model.dataset)] = model
    return report


def available() -> list[tuple[str, str]]:
    """Every (domain, dataset) pair the hub can train."""
    return [(domain, ds) for domain in MODELS for ds in model_class(domain).datasets]
