"""Runtime context of a GraphAgent run: the model, the dataset, the budget, memories, switches, tool guard.

Studio renders these fields as the assistant's configuration; the Python API
passes ``context=GraphAgentContext(...)``; ``graphreason run graphagent``
generates its options from them. Defaults the paper leaves open are chosen
and explained here:

* ``max_steps`` (T_max) = 6: the natural plan is four decisions
  (``get_features``, ``get_neighbors``, ``predict_label`` in tool mode,
  ``answer``); two more leave room for a neighbour's features or for
  corrected bad replies, while each step costs up to two LLM calls (decide +
  summary), so a larger budget mostly buys a small model more loops.
* ``max_bad_replies`` = 2: a refused reply is corrected once; a second
  unusable reply in a row ends the run with the fallback (``ended_by`` =
  ``errors``). A model that cannot write the JSON (SmolLM2-135M never did in
  our probes) then costs two calls instead of T_max; 0 restores the paper's
  pure budget.
* ``top_k`` = 3 lessons (each <=100 words: the prompt stays short for small
  models), ``alpha`` = 5 with ``experience_bonus`` = success
  (see :mod:`graphreason.memory.experience`).
* Tool guard (tool mode only): the agent may replace the graph model's answer
  only when the model's confidence is below a threshold calibrated on the
  validation part so that at most ``override_risk`` of validation nodes are
  ones the model gets right below it (the most an override could cost), and
  only with a label among the model's ``override_top`` most probable ones
  (see :mod:`graphreason.workflows.graphagent.guard`).
* ``tuned_agent`` = on: with the embedded model, the decisions go to the
  GraphAgent adapter with the short prompt it was trained on
  (:mod:`graphreason.workflows.graphagent.tuned`); observations are then kept
  as they are, and its long-term memory is label recall (``recall_k`` = 10
  labelled nodes most like the node, :mod:`graphreason.tools.graphagent.recall`)
  instead of lessons, as in its training.
* ``grammar`` = on: with the embedded model, each decision is decoded under
  the reply format (:class:`graphreason.tools.graphagent.constraint.AgentReply`),
  so SmolLM2-135M writes a command the run offers instead of prose; other
  models are not constrained (a remote endpoint has no such hook).
* ``tool_calling`` = text: the paper's JSON reply, which every model can
  write; native binds the offered commands (registry entries,
  :mod:`graphreason.tools.graphagent.registry`) to the model as tools (see
  :mod:`graphreason.workflows.graphagent.decide`) and is refused here for the
  embedded and scripted models, which do not call tools.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from graphreason.tools.graphagent.recall import RECALL_K
from graphreason.tools.graphagent.registry import ANALYZE, COMMANDS, FEATURES, NEIGHBOURS, PREDICT
from graphreason.workflows.kit.native import TOOL_CALLING_HELP, ToolCalling, check_native_model
from graphreason.workflows.kit.review import REVIEW_HELP
from graphreason.workflows.run_context import (
    MAX_CLIENT_TOKENS,
    DataPath,
    ModelName,
    OwnerPath,
    PlainName,
    RunContext,
    main_model,
    names_embedded_model,
    setting,
)

Bonus = Literal["success", "short", "none"]
RecallBy = Literal["text", "words"]


@dataclass(kw_only=True)
class GraphAgentContext(RunContext):
    """One GraphAgent run: model, dataset and split, T_max, memories, ablation switches, tool guard."""

    agent_model: ModelName = main_model(
        "LLM that decides each command and writes the summaries and lessons"
    )
    dataset: PlainName = setting("cora", "Node dataset: cora or citeseer (a folder in OGB's format goes in data_path).")
    data_path: DataPath = setting(
        None, "Folder of a node-property dataset in OGB's on-disk format (ogbn-arxiv, ogbn-products); "
        "replaces dataset when given.", flag="--path",
    )
    split: str = setting(
        "public", "Train/val/test split: public (Planetoid for Cora), random (seeded 60/20/20), given (OGB)."
    )
    max_steps: int = setting(6, "T_max: decisions per node before the fallback answer (paper: not stated).", low=1, high=50)
    max_bad_replies: int = setting(
        2, "Unusable replies in a row that end a run early with the fallback (0: only T_max ends it).",
        low=0, high=50,
    )
    temperature: float = setting(
        0.0, "Sampling temperature of every call (0: greedy, reproducible).", server_max=2.0
    )
    max_tokens: int = setting(
        320, "Token budget of one decision (the JSON reply).", server_max=MAX_CLIENT_TOKENS
    )
    summary_tokens: int = setting(
        160, "Token budget of one observation summary or lesson.", low=8, server_max=MAX_CLIENT_TOKENS
    )
    tool_calling: ToolCalling = setting("text", TOOL_CALLING_HELP)
    grammar: bool = setting(
        True,
        "With the embedded model, constrain each decision's decoding to the JSON reply format: an offered "
        "command, a node id or a label of the label set, short one-line thoughts (off = free decoding).",
        negate="--no-grammar",
    )
    tuned_agent: bool = setting(
        True,
        "With the embedded model, decide with the agent fine-tuned for GraphAgent (LoRA on a teacher's "
        "decisions over Cora's training and validation nodes) and its short prompt; off = the plain model "
        "with the paper's prompts.",
        negate="--no-tuned-agent",
    )
    review_actions: bool = setting(False, REVIEW_HELP)
    graph_tool: bool = setting(
        True, f"Offer {PREDICT.name} (the graph model as a tool); off = the paper's faithful agent.",
        negate="--no-graph-tool",
    )
    tool_first: bool = setting(
        True, "Tool mode: the graph model's prediction is the first observation of a run.",
        negate="--no-tool-first",
    )
    features_action: bool = setting(True, f"Offer {FEATURES.name} (off = w/o get_feature ablation).",
                                     negate="--no-features")
    neighbors_action: bool = setting(True, f"Offer {NEIGHBOURS.name} (off = w/o get_neighbors ablation).",
                                     negate="--no-neighbors")
    analyze_label: bool = setting(False, f"Offer {ANALYZE.name}, an LLM call over the history (ablation).")
    reasoning_field: bool = setting(True, "Ask for thoughts.reasoning in the JSON reply.", negate="--no-reasoning")
    plan_field: bool = setting(True, "Ask for thoughts.plan in the JSON reply.", negate="--no-plan")
    summarise: bool = setting(
        True, "Summarise each observation with the LLM (off: the bounded observation itself is kept).",
        negate="--no-summarise",
    )
    summary_words: int = setting(4000, "Word budget of the short-term memory (paper: 4,000).", low=50, high=100_000)
    long_term: bool = setting(
        True,
        "Long-term memory: replay lessons from similar past episodes; the tuned agent instead recalls the "
        "labels of the labelled nodes most like the node (recall_k).",
        negate="--no-long-term",
    )
    recall_k: int = setting(
        RECALL_K, "Tuned agent: labelled nodes recalled by text and neighbourhood similarity (0: none).",
        low=0, high=50,
    )
    recall_by: RecallBy = setting(
        "text",
        "Tuned agent: what label recall compares: text (embeddings of title and abstract, computed once per "
        "graph and cached; the graph model reads the same) or words (the dataset's word features, no embedding).",
    )
    experience_path: OwnerPath = setting(
        None, "SQLite file of the experience store (unset: this process's in-memory store)."
    )
    top_k: int = setting(3, "k: past episodes replayed as lessons.", low=0, high=20)
    alpha: float = setting(
        5.0, "alpha in sim + T_i/alpha (larger: similarity counts more).", server_max=1e6
    )
    experience_bonus: Bonus = setting(
        "success", "T_i: success (1 if the episode was right), short (1/steps) or none."
    )
    show_train_labels: bool = setting(
        True, f"{NEIGHBOURS.name} shows the labels of training-part neighbours.", negate="--hide-train-labels"
    )
    tool_guard: bool = setting(
        True, "Tool mode: keep the graph model's answer unless an override passes the guard.",
        negate="--no-tool-guard",
    )
    override_risk: float = setting(
        0.005, "Guard: share of validation nodes the model gets right below the confidence threshold.",
        low=0.0, high=1.0,
    )
    override_threshold: float | None = setting(
        None, "Guard: confidence threshold set by hand (unset: calibrated from override_risk).",
        low=0.0, high=1.0,
    )
    override_top: int = setting(
        2, "Guard: an override must be among the model's N most probable labels (0: any).", low=0, server_max=1000
    )

    def __post_init__(self) -> None:
        super().__post_init__()
        if not (self.alpha > 0 and not math.isnan(self.alpha)):
            raise ValueError(f"alpha must be positive, got {self.alpha}")
        if self.tool_calling == "native":
            check_native_model("agent_model", self.agent_model)
        # the trust policy (RunContext) follows: dataset is a name only (a folder read from there would
        # bypass the data_path rule), data_path stays inside the data root, experience_path is the owner's

    @property
    def source(self) -> str | Path:
        """What the data loader and the classifier take: the OGB folder (a Path), else the dataset name.

        A server client's folder is resolved inside the data root (``..``, absolute paths and symlinks
        leading out are refused); on the command line a relative folder is looked up in the working
        directory, then under the data root.
        """
        return self.path_of("data_path") if self.data_path else self.dataset

    @property
    def embedded_agent(self) -> bool:
        """The agent runs on the embedded SmolLM2 (a ``local`` spec), whose decoding a grammar can steer."""
        return names_embedded_model(self.agent_model)

    @property
    def tuned_spec(self) -> str | None:
        """The tuned agent's model spec when it decides this run (embedded model, ``tuned_agent`` on), else None."""
        from graphreason.workflows.graphagent.tuned import tuned_spec

        return tuned_spec(self.agent_model, self.tuned_agent)

    @property
    def llm_summaries(self) -> bool:
        """Observations are summarised by the model (``summarise``), never for the tuned agent."""
        return self.summarise and self.tuned_spec is None

    @property
    def replays_lessons(self) -> bool:
        """Lessons of past episodes go into the prompt (``long_term``, ``top_k``), never for the tuned agent."""
        return self.long_term and self.top_k > 0 and self.tuned_spec is None

    @property
    def recalls_labels(self) -> bool:
        """The tuned agent's long-term memory: the labels of similar labelled nodes (``long_term``, ``recall_k``)."""
        return self.long_term and self.recall_k > 0 and self.tuned_spec is not None

    def commands(self) -> list[str]:
        """The commands this run offers, in the registry's order (the order the prompt lists them).

        Each switch offers one registry entry; the terminal entry (the answer) is always offered.
        """
        offered = {
            FEATURES.name: self.features_action,
            NEIGHBOURS.name: self.neighbors_action,
            PREDICT.name: self.graph_tool,
            ANALYZE.name: self.analyze_label,
        }
        return [entry.name for entry in COMMANDS if entry.terminal or offered.get(entry.name, True)]

