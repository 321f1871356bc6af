"""Graph-ToolFormer's vocabulary, declared once: the ``GR`` functions by ``domain:function``.

``[GR(GL("cora"), "graph_bert:topic", paper#31336)-->r]`` names the entry
``graph_bert:topic`` and gives it the loaded graph and a node. Every entry
takes the graph (a :class:`~graphreason.tools.toolformer.hub.LoadedGraph` from ``GL``) first,
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
:mod:`graphreason.tools.graph_models.hub`); a dataset the data root lacks gives a
:class:`~graphreason.tools.graph_models.base.GraphModelError` naming it.

Every entry is also a LangChain tool (``toolx_order``, ``graph_bert_topic``,
...: :meth:`~graphreason.tools.core.registry.Registry.as_tools` over a
:class:`GRContext`). The workflow's executor
(:mod:`graphreason.workflows.toolformer.execute`) runs each GR call as a call of
its tool, with the graph ``GL(...)`` loaded; :meth:`TOOLFORMER_FUNCTIONS.as_tools <graphreason.tools.core.registry.Registry.as_tools>` gives the
same tools to a tool-calling model, whose graph argument is a name the tool
loads (``"cora"``, ``"gpr:bull_graph"``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from graphreason.tools.core.errors import GraphError
from graphreason.tools.core.registry import NODE, Applied, Entry, Param, ParamKind, Registry

if TYPE_CHECKING:
    pass

GRAPH = ParamKind(
    "graph",
    "a graph loaded by GL(...) or a variable bound to one; as a tool argument, a dataset name",
    frozenset({"graph", "g"}),
)
NUMBER = ParamKind("number", "a whole number", frozenset({"k", "number", "top_k"}), json_type="integer")
FLAG = ParamKind("flag", "True or False", frozenset({"is_directed", "directed"}), json_type="boolean")
KG_ID = ParamKind("kg-id", "an entity or relation id of a knowledge graph", frozenset({"entity", "relation"}))
CONVENTION = ParamKind("convention", "networkx or paper")


def _graph_param(which: str) -> Param:
    """The leading graph parameter of an entry, saying which graphs it runs on."""
    return Param(
        "graph",
        GRAPH,
        f"Which graph ({which}). In call text a GL(...) call or a variable bound to one; as a tool "
        'argument the dataset name ("cora"), or "gpr:<graph name>" for one GPR graph ("gpr:bull_graph").',
        placeholder="G",
    )


class CallArgumentError(GraphError):
    """A GR call's argument has the wrong type or shape (said with what was expected)."""


def render_value(value: Any) -> str:
    """The text a result is substituted as: Python's own spelling, as the prompts' gold values are."""
    return str(value)  # lists, dicts and floats as Python writes them (4.0 stays 4.0, as in the rating golds)


def _observe(_ctx: Any, applied: Applied) -> str:
    return render_value(applied.value)


def _observe_many(_ctx: Any, _label: str, _subjects: str, value: Any) -> str:
    return render_value(value)  # a call mapped over several graphs reads as the list of its values


class GRContext:
    """What the GR entries run against: list rendering, arity hints and the graph argument.

    Every GR entry takes its graph as first argument. In call text that is a
    :class:`~graphreason.tools.toolformer.hub.LoadedGraph` from ``GL(...)``, and anything
    else is refused (the workflow's executor uses ``GRContext()``). With
    ``load_by_name=True`` (the tools a tool-calling model gets, see
    :meth:`~graphreason.tools.core.registry.Registry.as_tools`) a name is accepted too and loaded through
    :func:`graphreason.tools.toolformer.hub.load`: ``"cora"``, or
    ``"gpr:bull_graph"`` for one GPR graph (``dataset:instance``).
    """

    def __init__(self, load_by_name: bool = False) -> None:
        self.load_by_name = load_by_name

    def render_list(self, items: Sequence[Any], noun: str = "nodes") -> str:
        return render_value(list(items))

    def arity_hint(self, entry: Entry, args: Sequence[Any]) -> str:
        return f" Parameters after the graph: {', '.join(p.name for p in entry.params[1:]) or 'none'}."

    def graph(self, value: Any, needs_instance: bool = False) -> Any:
        """The loaded graph ``value`` means, checked; :class:`CallArgumentError` if none."""
        if not hasattr(value, "dataset") and self.load_by_name and isinstance(value, str) and value.strip():
            from graphreason.tools.toolformer import hub  # networkx only when a name is loaded

            dataset, _, instance = value.strip().partition(":")
            value = hub.load(dataset.strip(), instance=instance.strip() or None)
        if not hasattr(value, "dataset"):
            if self.load_by_name:
                raise CallArgumentError(
                    f'The graph argument must name a dataset, e.g. "cora", or one GPR graph as '
                    f'"gpr:<graph name>", e.g. "gpr:bull_graph"; got {value!r}.'
                )
            raise CallArgumentError(
                f"The first argument of GR must be a graph loaded with GL(...), got {value!r}; "
                'e.g. GR(GL("cora"), "graph_bert:topic", paper#1).'
            )
        if needs_instance and getattr(value, "graph", None) is None:
            example = '"gpr:lollipop_graph"' if self.load_by_name else 'GL("gpr", "lollipop_graph")'
            raise CallArgumentError(
                f"toolx functions need one concrete graph, e.g. {example}; "
                f"{_named(value.dataset, self.load_by_name)} names a whole dataset."
            )
        return value


def _named(dataset: str, by_name: bool) -> str:
    return repr(dataset) if by_name else f"GL({dataset!r})"


_STRICT = GRContext()


def _graph_of(ctx: Any, graph: Any, needs_instance: bool = False) -> Any:
    """The loaded graph argument as ``ctx`` reads it (a context without ``graph``: GL results only)."""
    reader = ctx if isinstance(ctx, GRContext) else _STRICT
    return reader.graph(graph, needs_instance)


def _integer(value: Any, what: str) -> int:
    try:
        number = int(str(value).strip())
    except ValueError:
        raise CallArgumentError(f"{what} must be a whole number, got {value!r}.") from None
    return number


# --------------------------------------------------------------------- toolx
def _toolx(function: str) -> Callable[..., Applied]:
    """A runner calling ``graphreason.tools.toolformer.toolx.call(function, nx_graph, *args)`` on a GPR graph."""

    def run(ctx: Any, graph: Any, *args: Any) -> Applied:
        from graphreason.tools.toolformer import toolx  # networkx only when a toolx call runs

        loaded = _graph_of(ctx, graph, needs_instance=True)
        return Applied(toolx.call(function, loaded.graph, *args), subject=str(loaded.instance or loaded.dataset))

    return run


def _node(name: str, description: str, optional: bool = False) -> Param:
    return Param(name, NODE, description, optional=optional)


_GPR = _graph_param('one graph of the GPR set, e.g. GL("gpr", {"bull_graph"})')


def _toolx_entry(name: str, description: str, *params: Param, aliases: tuple[str, ...] = ()) -> Entry:
    return Entry(
        f"toolx:{name}", (_GPR, *params), f"toolx, exact on one GPR graph: {description}",
        run=_toolx(name), observe=_observe, observe_many=_observe_many, aliases=tuple(f"toolx:{a}" for a in aliases),
    )


TOOLX = [
    _toolx_entry("order", "the number of nodes |V| (an integer)."),
    _toolx_entry("size", "the number of edges |E| (an integer)."),
    _toolx_entry(
        "density",
        "the edge density, |E|/(n(n-1)) counted as directed or 2|E|/(n(n-1)) as undirected (a float).",
        Param("is_directed", FLAG, "Count the graph as directed (default: as the graph is).", optional=True),
    ),
    _toolx_entry(
        "eccentricity",
        "the eccentricity (greatest distance to any other node) of every node as a {node: distance} dict, "
        "or of the node given.",
        _node("node", "One node, e.g. node#4; left out: every node.", optional=True),
    ),
    _toolx_entry("radius", "the smallest eccentricity of any node (an integer)."),
    _toolx_entry("center", "the nodes whose eccentricity equals the radius (a list)."),
    _toolx_entry(
        "shortest_path", "the length of the shortest path between two nodes (an integer; inf if unconnected).",
        _node("source", "The start node, e.g. node#0."), _node("target", "The end node, e.g. node#3."),
    ),
    _toolx_entry(
        "avg_path_length",
        "the mean shortest-path length over ordered node pairs (a float). The default divides by n(n-1) as "
        'networkx does and the prompts\' gold values do; convention "paper" divides by n^2 as the paper\'s '
        "Table 1 does.",
        Param("convention", CONVENTION, 'How to average: "networkx" (default) or "paper".', optional=True),
        aliases=("avg_shortest_path", "average_shortest_path_length"),
    ),
    _toolx_entry(
        "max_path_length", "the longest shortest-path length between two nodes, i.e. the diameter (an integer).",
        aliases=("max_shortest_path",),
    ),
    _toolx_entry(
        "min_path_length", "the shortest shortest-path length between two distinct nodes (an integer).",
        aliases=("min_shortest_path",),
    ),
    _toolx_entry("diameter", "the largest eccentricity of any node (an integer)."),
    _toolx_entry("periphery", "the nodes whose eccentricity equals the diameter (a list)."),
]


# --------------------------------------------------------------------- graph models
def _model_call(domain: str, method: str, convert: Callable[..., tuple[Any, ...]] | None = None) -> Callable[..., Applied]:
    """A runner asking the hub's ``domain`` model of the graph's dataset for ``method(*args)``."""

    def run(ctx: Any, graph: Any, *args: Any) -> Applied:
        from graphreason.tools.graph_models.hub import get_model  # torch only when a model call runs

        loaded = _graph_of(ctx, graph)
        if domain == "graph_bert":
            from graphreason.tools.graph_models.topic import check_prompt_ids

            check_prompt_ids(loaded.dataset)
        call_args = convert(*args) if convert else tuple(args)
        model = get_model(domain, loaded.dataset)
        return Applied(getattr(model, method)(*call_args), subject=loaded.dataset)

    return run


def _model_entry(
    name: str, method: str, graphs: str, params: tuple[Param, ...], description: str, *,
    aliases: tuple[str, ...] = (), convert: Callable[..., tuple[Any, ...]] | None = None,
) -> Entry:
    domain = name.split(":", 1)[0]
    return Entry(
        name, (_graph_param(graphs), *params), description, run=_model_call(domain, method, convert),
        observe=_observe, observe_many=_observe_many, aliases=aliases,
    )


def _as_text(*args: Any) -> tuple[Any, ...]:
    return tuple(str(a) for a in args)


def _user_and_k(user: Any, k: Any = 10) -> tuple[Any, ...]:
    count = _integer(k, "k (how many items)")
    if not 1 <= count <= 1000:
        raise CallArgumentError(f"k must be between 1 and 1000, got {count}.")
    return str(user), count


# The datasets each domain has models for (the paper's graph model hub), as the decoding grammar holds a call
# to them (tools/toolformer/calls/known_names.py); the tool descriptions below name those in the data root.
RUNS_ON: dict[str, tuple[str, ...]] = {
    "toolx": ("gpr",),
    "graph_bert": ("cora", "citeseer", "pubmed"),
    "seg_bert": ("mutag", "ptc", "proteins", "nci1"),
    "bpr": ("movielens", "last-fm", "amazon"),
    "kmeans": ("foursquare", "twitter"),
    "transe": ("wordnet", "freebase"),
}
_PAPERS = 'the citation network "cora" or "citeseer"'
_MOLECULES = 'a set of molecule graphs: "mutag", "ptc", "proteins" or "nci1"'
_RATINGS = 'a user-item graph: "movielens" or "last-fm"'
_SOCIAL = 'a social network: "foursquare" or "twitter"'
_KGS = 'a knowledge graph: "wordnet" or "freebase"'
_USER = Param("user", NODE, "A user id, e.g. user#u3.")
_ITEM = Param("item", NODE, "An item id, e.g. movie#i349 or artist#i18097.")
_SOCIAL_USER = Param("node", NODE, "A user id of the social network, e.g. user#1234.")
_RELATION = Param("relation", KG_ID, "A relation id of the knowledge graph, e.g. relation#_hypernym.")

MODELS = [
    _model_entry(
        "graph_bert:topic", "topic", _PAPERS, (Param("paper", NODE, "A paper id, e.g. paper#31336."),),
        "graph_bert: the topic (class label) a trained node classifier predicts for one paper.", convert=_as_text,
    ),
    _model_entry(
        "seg_bert:molecule_function", "function", _MOLECULES,
        (Param("instance", NODE, "The index of one graph of the set, e.g. instance#31."),),
        "seg_bert: the function (class label) a trained graph classifier (GIN) predicts for one molecule graph.",
        convert=_as_text,
    ),
    _model_entry(
        "bpr:recommendation", "score", _RATINGS, (_USER, _ITEM),
        "bpr: how likely the user is to like the item, as a recommender trained with BPR (LightGCN) scores "
        "it; the recorded rating or weight when the data holds the pair.",
        convert=_as_text,
    ),
    _model_entry(
        "bpr:topk_recommendation", "topk", _RATINGS,
        (_USER, Param("k", NUMBER, "How many items to list, 1 to 1000 (default 10).", optional=True)),
        "bpr: the k items, not seen by the user in training, that the recommender ranks highest for the user.",
        convert=_user_and_k,
    ),
    _model_entry(
        "kmeans:community", "community", _SOCIAL, (_SOCIAL_USER,),
        "kmeans: the community (cluster id of the graph's partition) a user belongs to.", convert=_as_text,
    ),
    _model_entry(
        "kmeans:community_count", "community_count", _SOCIAL, (),
        "kmeans: how many communities the graph's partition has.",
    ),
    _model_entry(
        "kmeans:community_avg_size", "community_avg_size", _SOCIAL, (),
        "kmeans: the mean number of users per community.", aliases=("kmeans:avg_community_size",),
    ),
    _model_entry(
        "kmeans:community_max_size", "community_max_size", _SOCIAL, (),
        "kmeans: the number of users in the largest community.", aliases=("kmeans:max_community_size",),
    ),
    _model_entry(
        "kmeans:community_size", "community_size", _SOCIAL, (_SOCIAL_USER,),
        "kmeans: the number of users in the community of the given user.", convert=_as_text,
    ),
    _model_entry(
        "kmeans:common_community_check", "common_community_check", _SOCIAL,
        (Param("node1", NODE, "A user id, e.g. user#1234."), Param("node2", NODE, "Another user id.")),
        "kmeans: whether two users are in the same community (True or False).", convert=_as_text,
    ),
    _model_entry(
        "transe:head_entity", "head_entity", _KGS,
        (_RELATION, Param("entity", KG_ID, "The tail entity id, e.g. entity#state.v.01 or entity#/m/0gs9p.")),
        "transe: the head entity h that a trained TransE model ranks best for the triple (h, relation, entity).",
        convert=_as_text, aliases=("transe:search_head_entity",),
    ),
    _model_entry(
        "transe:tail_entity", "tail_entity", _KGS,
        (Param("entity", KG_ID, "The head entity id, e.g. entity#state.v.01 or entity#/m/0gs9p."), _RELATION),
        "transe: the tail entity t that a trained TransE model ranks best for the triple (entity, relation, t).",
        convert=_as_text, aliases=("transe:search_tail_entity",),
    ),
    _model_entry(
        "transe:relation", "relation", _KGS,
        (Param("entity", KG_ID, "The head entity id, e.g. entity#state.v.01."),
         Param("tail", KG_ID, "The tail entity id, e.g. entity#group.n.01.")),
        "transe: the relation r that a trained TransE model ranks best for the triple (entity, r, tail).",
        convert=_as_text, aliases=("transe:search_relation",),
    ),
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
