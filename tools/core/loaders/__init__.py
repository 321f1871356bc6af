"""Graph loaders: the bundled real graphs by name, or any GRBench ``graph.json``.

``load_graph("cora")`` / ``"citeseer"`` / ``"movielens"`` / ``"wikispeedia"`` / ``"wn18rr"`` /
``"fb15k-237"`` / ``"last-fm"`` read the shared
data root (see :mod:`graphreason.settings`; a missing dataset raises
:class:`~graphreason.settings.DataMissingError`); ``load_graph("path/graph.json")`` or a
folder holding ``graph.json`` reads that file. In a server process a path must
lie inside the data root or ``GRAPHREASON_GRAPH_DIRS`` (see :mod:`graphreason.tools.core.policy`).
Graph-ToolFormer's 37 GPR graphs are generated, not read: :mod:`graphreason.tools.toolformer.loaders.gpr`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from graphreason.tools.core.errors import GraphFileError
from graphreason.tools.core.loaders.citeseer import load_citeseer
from graphreason.tools.core.loaders.cora import load_cora
from graphreason.tools.core.loaders.grbench import load_graph_json, save_graph_json
from graphreason.tools.core.loaders.knowledge_graphs import load_fb15k237, load_wn18rr
from graphreason.tools.core.loaders.lastfm import load_lastfm
from graphreason.tools.core.loaders.movielens import load_movielens
from graphreason.tools.core.loaders.wikispeedia import load_wikispeedia
from graphreason.tools.core.policy import confine_file, confine_path, context_is_untrusted
from graphreason.tools.core.store import GraphStore

# The brief's unseen graphs: evaluation only, never training data for any model the project trains.
UNSEEN_GRAPHS = frozenset({"citeseer", "last-fm", "lastfm"})

KNOWN_GRAPHS: dict[str, Callable[[], GraphStore]] = {
    "cora": load_cora,
    "citeseer": load_citeseer,
    "movielens": load_movielens,
    "wikispeedia": load_wikispeedia,
    "wn18rr": load_wn18rr,
    "fb15k-237": load_fb15k237,
    "last-fm": load_lastfm,
}


def load_graph(spec: str) -> GraphStore:
    """Load a graph by name (see :data:`KNOWN_GRAPHS`) or by ``graph.json`` path / folder."""
    text = str(spec).strip()
    if not text:
        raise GraphFileError(
            f"empty graph spec; use one of {', '.join(KNOWN_GRAPHS)} or a path to a graph.json file"
        )
    loader = KNOWN_GRAPHS.get(text.lower())
    if loader is not None:
        return loader()
    # a server client names graphs relative to the data root and cannot leave it
    path = confine_path(text) if context_is_untrusted() else Path(text).expanduser()
    if path.exists():
        confine_file(path / "graph.json" if path.is_dir() else path, text)  # the file too, not only the folder
        return load_graph_json(path)
    where = "under the data root" if context_is_untrusted() else f"at {path.resolve()}"
    raise GraphFileError(
        f"unknown graph {text!r}: not a known name ({', '.join(KNOWN_GRAPHS)}) "
        f"and no file or folder exists {where}"
    )


__all__ = [
    "KNOWN_GRAPHS",
    "UNSEEN_GRAPHS",
    "load_citeseer",
    "load_cora",
    "load_fb15k237",
    "load_graph",
    "load_graph_json",
    "load_lastfm",
    "load_movielens",
    "load_wikispeedia",
    "load_wn18rr",
    "save_graph_json",
]
