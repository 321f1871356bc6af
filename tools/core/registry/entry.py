"""One declared function: its name, aliases, typed parameters and implementation.

An :class:`Entry` is everything the parsers, the executor and the LangChain
tool builder need to know about one graph function or graph-model predictor,
written once. Nothing in an entry is specific to one method's call syntax: the
bracket parser reads ``aliases`` and ``verbatim``, the JSON parser reads the
parameters' names and kinds, the tool builder reads ``description`` and the
parameters' descriptions, and :func:`graphreason.tools.core.registry.dispatch.apply` runs
``run`` (mapping it over a list argument as ``maps`` says) and ``observe``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Any


@dataclass(frozen=True)
class ParamKind:
    """What an argument denotes; shared by every method's vocabulary.

    ``json_keys`` are the keys a model may use for such an argument in a JSON
    call (``{"id": 12}`` means the node), so JSON arguments given as an object
    can be put in parameter order whatever the model called them.
    ``json_type`` is the JSON Schema type a generated tool declares for such
    an argument (``"string"``, ``"integer"``, ``"boolean"``, ...); text kinds
    are coerced to text, the others are passed on for the implementation to
    check.
    """

    name: str
    description: str
    json_keys: frozenset[str] = frozenset()
    json_type: str = "string"


NODE = ParamKind("node", "a node id", frozenset({"node", "id", "node_id", "nodeid"}))
RELATION = ParamKind(
    "relation",
    "an edge type (neighbor type)",
    frozenset({"relation", "neighbor_type", "neighbour_type", "edge_type"}),
)
FEATURE_KEY = ParamKind("feature-key", "a feature name", frozenset({"key", "feature", "feature_name"}))
TEXT = ParamKind("text", "free text", frozenset({"text", "query", "keyword", "keywords"}))
ANSWER = ParamKind("answer", "the final answer", frozenset({"answer"}))
VALUES = ParamKind(
    "values", "a list of values returned by an inner call", frozenset({"values", "items", "list"}), json_type="array"
)


@dataclass(frozen=True)
class Param:
    """One typed parameter.

    ``name`` is the keyword (LangChain argument, JSON key); ``placeholder`` is
    how the bracket syntax shows it to the model (``Feature[node, feature]``)
    and defaults to ``name``.
    """

    name: str
    kind: ParamKind
    description: str
    placeholder: str = ""
    optional: bool = False  # may be left out (only trailing parameters); the implementation has a default

    @property
    def shown(self) -> str:
        return self.placeholder or self.name


class MapMode(Enum):
    """How an entry treats a list where its first argument should be one item.

    A list arrives there when an inner call returned several nodes, e.g.
    ``Feature[Neighbour[1, cites], title]``.
    """

    EACH = "each"  # applied to every item; values stay aligned with the items (None where one failed)
    UNION = "union"  # applied to every item; the list values are merged, de-duplicated in first-seen order
    NONE = "none"  # not mapped: the list is passed to the implementation as one argument


@dataclass(frozen=True)
class Applied:
    """What one application of an entry produced, before rendering.

    ``subject`` is the first argument as resolved (a node id, a query) and
    ``label`` the name the function resolved for its key argument (a feature
    name, an edge type), or None; mapped observations name both.
    """

    value: Any
    subject: str = ""
    label: str | None = None


# run(context, first_argument, *other_arguments) -> Applied; raises GraphError on bad input.
Runner = Callable[..., Applied]
# observe(context, applied) -> the observation text of one application.
Observer = Callable[[Any, Applied], str]
# observe_many(context, label, subjects_text, value) -> the observation of a mapped application;
# without one, a mapped application shows each item's own observation.
ManyObserver = Callable[[Any, str, str, Any], str]


@dataclass(frozen=True)
class Entry:
    """One function of a registry (see the module docstring).

    ``terminal`` entries (Finish) end the agent's task: they have no ``run``,
    cannot be nested and are not offered as tools. ``verbatim`` entries take
    their whole bracket content as one argument, commas included; a verbatim
    entry that is not terminal may still wrap one nested call
    (``Retrieve[Feature[3, title]]``). ``usage`` replaces the bracket syntax
    where the valid functions are listed for the model.
    """

    name: str
    params: tuple[Param, ...]
    description: str
    run: Runner | None = None
    observe: Observer | None = None
    observe_many: ManyObserver | None = None
    aliases: tuple[str, ...] = ()
    maps: MapMode = MapMode.EACH
    verbatim: bool = False
    terminal: bool = False
    usage: str = ""
    returns: ParamKind | None = None  # what its value denotes, where it may fill such an argument (a node id)

    def __post_init__(self) -> None:
        if not self.terminal and (self.run is None or self.observe is None):
            raise ValueError(f"{self.name}: a non-terminal entry needs run and observe")

    @property
    def required(self) -> int:
        """How many leading parameters a call must give."""
        return sum(not p.optional for p in self.params)

    @property
    def syntax(self) -> str:
        """The bracket form shown to the model, e.g. ``Feature[node, feature]``."""
        return f"{self.name}[{', '.join(p.shown for p in self.params)}]"

    @property
    def listing(self) -> str:
        """How the entry appears in a list of valid functions."""
        return self.usage or self.syntax
