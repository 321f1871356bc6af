"""GraphAgent's commands, declared once: get_features, get_neighbors, predict_label, analyze_label, answer.

Each command is a registry :class:`~graphreason.tools.core.registry.Entry`; its
name, typed parameters and description are read from here by the reply parser
(:mod:`graphreason.workflows.graphagent.parsing`), the prompt's command list
(:mod:`graphreason.workflows.graphagent.prompts`), the context's list of the
commands a run offers and the executor, and the non-terminal ones become
LangChain tools through :meth:`~graphreason.tools.core.registry.Registry.as_tools`
(native tool calling, :meth:`NodeEnvironment.as_tools`).

The entries run against a :class:`CommandContext`: the run's
:class:`~graphreason.tools.graphagent.actions.NodeEnvironment` and, for the
``analyze_label`` ablation (an LLM call over the agent's history, which this
layer cannot make), the callable that makes it. Every command renders its own
bounded observation, so an entry's observation is the text the environment
returned. ``answer`` is terminal: the workflow reads its label and reason, it
runs nothing.

Unlike Graph Counselor's vocabulary, these commands have no aliases: the
paper's agent must spell them exactly (``neighbors`` is its failure case, and
the correction names the closest command without running it, so the ablations
stay honest). :data:`NEAR_MISSES` are the words the parser reads as an attempt
at a command so that it can correct them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from graphreason.tools.core.registry import Applied, Entry, MapMode, Param, ParamKind, Registry

if TYPE_CHECKING:  # the entries receive it at run time; importing it here would be circular
    from graphreason.tools.graphagent.actions import NodeEnvironment

# How a model may spell each argument in a JSON command, most specific first (the parser tries them in order).
NODE_KEYS = ("node_id", "node", "id", "nodeid", "node_ids", "paper", "paper_id", "target")
LABEL_KEYS = ("label", "label_id", "category", "class", "answer", "label_name", "topic", "name")
REASON_KEYS = ("reason", "reasoning", "why", "explanation", "because")

NODE_ID = ParamKind("node", "a node id", frozenset(NODE_KEYS))
LABEL = ParamKind("label", "a label of the label set, by id or name", frozenset(LABEL_KEYS))
REASON = ParamKind("reason", "why the label was chosen", frozenset(REASON_KEYS))
_KEYS = {NODE_ID.name: NODE_KEYS, LABEL.name: LABEL_KEYS, REASON.name: REASON_KEYS}

# Words a model writes for a command that does not exist; read as a (refused) attempt at one.
NEAR_MISSES = ("neighbors", "neighbours", "feature", "features", "label")


def argument_keys(param: Param) -> tuple[str, ...]:
    """The JSON keys that may carry ``param``, in the order they are tried (its own name first)."""
    return tuple(dict.fromkeys((param.name, *_KEYS.get(param.kind.name, sorted(param.kind.json_keys)))))


def args_text(entry: Entry) -> str:
    """The args object the prompt shows for ``entry``: ``{"node_id": <id>}``."""
    return "{" + ", ".join(f'"{p.name}": {p.shown}' for p in entry.params) + "}"


@dataclass
class CommandContext:
    """What the entries run against: one run's node environment and, optionally, its label analyst.

    ``analyst(node_id)`` returns the observation of ``analyze_label`` (the
    workflow supplies it, since it is an LLM call); without one the command
    says it is not available.
    """

    env: NodeEnvironment
    analyst: Callable[[str], str] | None = None

    def render_list(self, items: Sequence[Any], noun: str = "nodes") -> str:
        return "[" + ", ".join(str(item) for item in items) + "]" if items else f"no {noun}"

    def arity_hint(self, entry: Entry, args: Sequence[Any]) -> str:
        return f" Give its args as {args_text(entry)}."

    def analyze(self, node_id: Any) -> str:
        if self.analyst is None:
            return f"{ANALYZE.name} is not available in this run."
        return self.analyst(str(node_id))


def _node(node_id: Any) -> str:
    return str(node_id[0] if isinstance(node_id, list | tuple) and node_id else node_id)


def _command(method: str) -> Callable[..., Applied]:
    """The entry's ``run``: the environment's command of that name on the node (its text is the value)."""

    def run(ctx: CommandContext, node_id: Any) -> Applied:
        return Applied(getattr(ctx.env, method)(node_id), subject=_node(node_id))

    return run


def _observe(ctx: CommandContext, applied: Applied) -> str:
    return str(applied.value)


_NODE = Param("node_id", NODE_ID, "Id of the node (the target node or one of its neighbours).", placeholder="<id>")

FEATURES = Entry(
    "get_features",
    (_NODE,),
    "the title and content of a node",
    run=_command("get_features"),
    observe=_observe,
    maps=MapMode.NONE,  # a list of ids reads as its first id, as in the text commands
)

NEIGHBOURS = Entry(
    "get_neighbors",
    (_NODE,),
    "the neighbours of a node (with the labels of training nodes)",
    run=_command("get_neighbors"),
    observe=_observe,
    maps=MapMode.NONE,
)

PREDICT = Entry(
    "predict_label",
    (_NODE,),
    "a trained graph model's label and class probabilities for a node",
    run=_command("predict_label"),
    observe=_observe,
    maps=MapMode.NONE,
)

ANALYZE = Entry(
    "analyze_label",
    (_NODE,),
    "list the labels the history so far points to",
    run=lambda ctx, node_id: Applied(ctx.analyze(_node(node_id)), subject=_node(node_id)),
    observe=_observe,
    maps=MapMode.NONE,
)

ANSWER = Entry(
    "answer",
    (
        Param("label", LABEL, "The final label: its id in the label set or its name.",
              placeholder="<label id or name>"),
        Param("reason", REASON, "Why this label, in one sentence.", placeholder="<why>", optional=True),
    ),
    "give the final label of the target node (ends the task)",
    terminal=True,
)

COMMANDS = Registry([FEATURES, NEIGHBOURS, PREDICT, ANALYZE, ANSWER])


def node_commands(registry: Registry = COMMANDS) -> list[Entry]:
    """The entries that run on a node (every non-terminal one), in registration order."""
    return [entry for entry in registry if not entry.terminal]


def final_command(registry: Registry = COMMANDS) -> Entry:
    """The terminal entry (``answer``)."""
    return next(entry for entry in registry if entry.terminal)
