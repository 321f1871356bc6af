"""Graph-ToolFormer's vocabulary, declared once: the ``GR`` functions by ``domain:function``.

``[GR(GL("cora"), "graph_bert:topic", paper#31336)-->r]`` names the entry
``graph_bert:topic`` and gives it the loaded graph and a node. Every entry
takes the graph (a :class:`~tools.graph_hub.LoadedGraph` from ``GL``) first,
then its own arguments as the parser read them (node references arrive as
their id text: ``paper#31336`` -> ``"31336"``). Spelling variants are one
entry: the registry ignores case, ``-`` and ``_`` (``graph-bert:Topic``), and
the toolx names of both the paper's Table 1 and its prompts are aliases
(``avg-shortest-path`` / ``avg_path_length``).

Families (the paper's graph model hub):

=============  ===============================================  ==========================================
domain         functions                                        runs on
=============  ===============================================  ==========================================
toolx          order, size, density, eccentricity, radius,      the GPR graph (networkx, exact)
               center, shortest_path, avg/max/min path length,
               diameter, periphery
graph_bert     topic                                            node classifier on Cora / CiteSeer
seg_bert       molecule_function                                GIN graph classifier on MUTAG / PTC / ...
bpr            recommendation, topk_recommendation              LightGCN trained with BPR
kmeans         community, community_count, ... common check     KMeans / Louvain partition
transe         head_entity, relation, tail_entity               TransE link prediction
=============  ===============================================  ==========================================

The graph models are trained on first use and cached (see
:mod:`tools.graph_models.hub`); a dataset the data root lacks gives a
:class:`~tools.graph_models.base.GraphModelError` naming it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tools.errors import GraphError
from tools.registry import NODE, Applied, Entry, Param, ParamKind, Registry

GRAPH = ParamKind("graph", "a graph loaded by GL(...) or a variable bound to one", frozenset({"graph", "g"}))
NUMBER = ParamKind("number", "a whole number", frozenset({"k", "number", "top_k"}))
FLAG = ParamKind("flag", "True or False", frozenset({"is_directed", "directed"}))
KG_ID = ParamKind("kg-id", "an entity or relation id of a knowledge graph", frozenset({"entity", "relation"}))

_GRAPH = Param("graph", GRAPH, "The graph, from GL(...).", placeholder="G")


class CallArgumentError(GraphError):
    """A GR call's argument has the wrong type or shape (said with what was expected)."""


def render_value(value: Any) -> str:
    """The text a result is substituted as: Python's own spelling, as the prompts' gold values are."""
    return str(value)  # lists, dicts and floats as Python writes them (4.0 stays 4.0, as in the rating golds)


def _observe(_ctx: Any, applied: Applied) -> str:
    return render_value(applied.value)


def _graph_of(graph: Any, needs_instance: bool = False) -> Any:
    """The loaded graph argument, checked: a GL(...) result (or a variable bound to one)."""
    if not hasattr(graph, "dataset"):
        raise CallArgumentError(
            f"The first argument of GR must be a graph loaded with GL(...), got {graph!r}; "
            'e.g. GR(GL("cora"), "graph_bert:topic", paper#1).'
        )
    if needs_instance and getattr(graph, "graph", None) is None:
        raise CallArgumentError(
            f"toolx functions need one concrete graph, e.g. GL(\"gpr\", \"lollipop_graph\"); "
            f"GL({graph.dataset!r}) names a whole dataset."
        )
    return graph


def _integer(value: Any, what: str) -> int:
    try:
        number = int(str(value).strip())
    except ValueError:
        raise CallArgumentError(f"{what} must be a whole number, got {value!r}.") from None
    return number


# --------------------------------------------------------------------- toolx
def _toolx(function: str) -> Callable[..., Applied]:
    """A runner calling ``tools.toolx.call(function, nx_graph, *args)`` on a GPR graph."""

    def run(_ctx: Any, graph: Any, *args: Any) -> Applied:
        from tools import toolx  # networkx only when a toolx call runs

        loaded = _graph_of(graph, needs_instance=True)
        return Applied(toolx.call(function, loaded.graph, *args), subject=str(loaded.instance or loaded.dataset))

    return run


def _node(name: str = "node", optional: bool = False) -> Param:
    return Param(name, NODE, "A node, e.g. node#4.", optional=optional)


def _toolx_entry(name: str, description: str, *params: Param, aliases: tuple[str, ...] = ()) -> Entry:
    return Entry(
        f"toolx:{name}", (_GRAPH, *params), description, run=_toolx(name), observe=_observe,
        aliases=tuple(f"toolx:{a}" for a in aliases),
    )


TOOLX = [
    _toolx_entry("order", "Number of nodes |V|."),
    _toolx_entry("size", "Number of edges |E|."),
    _toolx_entry(
        "density", "Edge density (directed: |E|/(n(n-1)), undirected: 2|E|/(n(n-1))).",
        Param("is_directed", FLAG, "Count the graph as directed.", optional=True),
    ),
    _toolx_entry("eccentricity", "Eccentricity of every node (a dict), or of one node.", _node(optional=True)),
    _toolx_entry("radius", "Smallest eccentricity."),
    _toolx_entry("center", "Nodes whose eccentricity equals the radius."),
    _toolx_entry("shortest_path", "Length of the shortest path between two nodes.", _node("source"), _node("target")),
    _toolx_entry(
        "avg_path_length",
        "Mean shortest-path length over ordered node pairs (networkx, n(n-1), the default: it matches the "
        'prompts\' gold values); convention:"paper" divides by n^2 as the paper\'s Table 1 does.',
        Param("convention", ParamKind("convention", "networkx or paper"), "networkx (default) or paper.",
              optional=True),
        aliases=("avg_shortest_path", "average_shortest_path_length"),
    ),
    _toolx_entry("max_path_length", "Longest shortest-path length (the diameter).", aliases=("max_shortest_path",)),
    _toolx_entry(
        "min_path_length", "Shortest shortest-path length between two distinct nodes.",
        aliases=("min_shortest_path",),
    ),
    _toolx_entry("diameter", "Largest eccentricity."),
    _toolx_entry("periphery", "Nodes whose eccentricity equals the diameter."),
]


# --------------------------------------------------------------------- graph models
def _model_call(domain: str, method: str, convert: Callable[..., tuple[Any, ...]] | None = None) -> Callable[..., Applied]:
    """A runner asking the hub's ``domain`` model of the graph's dataset for ``method(*args)``."""

    def run(_ctx: Any, graph: Any, *args: Any) -> Applied:
        from tools.graph_models.hub import get_model  # torch only when a model call runs

        loaded = _graph_of(graph)
        if domain == "graph_bert":
            from tools.graph_models.topic import check_prompt_ids

            check_prompt_ids(loaded.dataset)
        call_args = convert(*args) if convert else tuple(args)
        model = get_model(domain, loaded.dataset)
        return Applied(getattr(model, method)(*call_args), subject=loaded.dataset)

    return run


def _model_entry(
    name: str, method: str, params: tuple[Param, ...], description: str, *,
    aliases: tuple[str, ...] = (), convert: Callable[..., tuple[Any, ...]] | None = None,
) -> Entry:
    domain = name.split(":", 1)[0]
    return Entry(
        name, (_GRAPH, *params), description, run=_model_call(domain, method, convert), observe=_observe,
        aliases=aliases,
    )


def _as_text(*args: Any) -> tuple[Any, ...]:
    return tuple(str(a) for a in args)


def _user_and_k(user: Any, k: Any = 10) -> tuple[Any, ...]:
    count = _integer(k, "k (how many items)")
    if not 1 <= count <= 1000:
        raise CallArgumentError(f"k must be between 1 and 1000, got {count}.")
    return str(user), count


_USER = Param("user", NODE, "A user, e.g. user#u3.")
_ITEM = Param("item", NODE, "An item, e.g. movie#i349 or artist#i18097.")
_ENTITY = Param("entity", KG_ID, "An entity id, e.g. entity#/m/0gs9p or entity#state.v.01.")
_RELATION = Param("relation", KG_ID, "A relation id, e.g. relation#_hypernym.")

MODELS = [
    _model_entry("graph_bert:topic", "topic", (Param("paper", NODE, "A paper, e.g. paper#31336."),),
                 "Topic (class label) of a paper in Cora or CiteSeer.", convert=_as_text),
    _model_entry("seg_bert:molecule_function", "function",
                 (Param("instance", NODE, "A graph of the dataset, e.g. instance#31."),),
                 "Function (class) of one molecule graph in MUTAG, PTC, PROTEINS or NCI1.", convert=_as_text),
    _model_entry("bpr:recommendation", "score", (_USER, _ITEM),
                 "How likely the user is to like the item (the rating or weight when the data has the pair).",
                 convert=_as_text),
    _model_entry("bpr:topk_recommendation", "topk", (_USER, Param("k", NUMBER, "How many items.", optional=True)),
                 "The k items the recommender ranks highest for the user (unseen in training).",
                 convert=_user_and_k),
    _model_entry("kmeans:community", "community", (Param("node", NODE, "A user, e.g. user#1234."),),
                 "The community a user belongs to.", convert=_as_text),
    _model_entry("kmeans:community_count", "community_count", (), "How many communities there are."),
    _model_entry("kmeans:community_avg_size", "community_avg_size", (), "Mean community size.",
                 aliases=("kmeans:avg_community_size",)),
    _model_entry("kmeans:community_max_size", "community_max_size", (), "Largest community size.",
                 aliases=("kmeans:max_community_size",)),
    _model_entry("kmeans:community_size", "community_size", (Param("node", NODE, "A user."),),
                 "Size of the community of a user.", convert=_as_text),
    _model_entry("kmeans:common_community_check", "common_community_check",
                 (Param("node1", NODE, "A user."), Param("node2", NODE, "Another user.")),
                 "Whether two users are in the same community.", convert=_as_text),
    _model_entry("transe:head_entity", "head_entity", (_RELATION, _ENTITY),
                 "The head entity h that best completes (h, relation, tail).", convert=_as_text,
                 aliases=("transe:search_head_entity",)),
    _model_entry("transe:tail_entity", "tail_entity", (_ENTITY, _RELATION),
                 "The tail entity t that best completes (head, relation, t).", convert=_as_text,
                 aliases=("transe:search_tail_entity",)),
    _model_entry("transe:relation", "relation", (_ENTITY, Param("tail", KG_ID, "The tail entity id.")),
                 "The relation that best links head to tail.", convert=_as_text,
                 aliases=("transe:search_relation",)),
]

TOOLFORMER_FUNCTIONS = Registry([*TOOLX, *MODELS])


def default_domain(dataset: str) -> str | None:
    """The domain a bare function name means on ``dataset`` (the paper's "task default domain")."""
    key = dataset.strip().lower().replace("_", "-")
    for domain, datasets in _DEFAULT_DOMAINS.items():
        if key in datasets:
            return domain
    return None


_DEFAULT_DOMAINS: dict[str, frozenset[str]] = {
    "toolx": frozenset({"gpr"}),
    "graph_bert": frozenset({"cora", "citeseer", "pubmed"}),
    "seg_bert": frozenset({"mutag", "ptc", "proteins", "nci1"}),
    "bpr": frozenset({"movielens", "last-fm", "amazon"}),
    "kmeans": frozenset({"foursquare", "twitter"}),
    "transe": frozenset({"wordnet", "freebase"}),
}
