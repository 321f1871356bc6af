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
  (see :mod:`memory.experience`).
* Tool guard (tool mode only): the agent may replace the graph model's answer
  only when the model's confidence is below a threshold calibrated on the
  validation part so that at most ``override_risk`` of validation nodes are
  ones the model gets right below it (the most an override could cost), and
  only with a label among the model's ``override_top`` most probable ones
  (see :mod:`workflows.graphagent.guard`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from workflows.run_context import ModelName, RunContext, main_model, setting

Bonus = Literal["success", "short", "none"]


@dataclass(kw_only=True)
class GraphAgentContext(RunContext):
    """One GraphAgent run: model, dataset and split, T_max, memories, ablation switches, tool guard."""

    agent_model: ModelName = main_model(
        "LLM that decides each command and writes the summaries and lessons"
    )
    dataset: str = setting("cora", "Node dataset: cora or citeseer (a folder in OGB's format goes in data_path).")
    data_path: str | None = setting(
        None, "Folder of a node-property dataset in OGB's on-disk format (ogbn-arxiv, ogbn-products); "
        "replaces dataset when given.", flag="--path",
    )
    split: str = setting(
        "public", "Train/val/test split: public (Planetoid for Cora), random (seeded 60/20/20), given (OGB)."
    )
    max_steps: int = setting(6, "T_max: decisions per node before the fallback answer (paper: not stated).")
    max_bad_replies: int = setting(
        2, "Unusable replies in a row that end a run early with the fallback (0: only T_max ends it).",
    )
    temperature: float = setting(0.0, "Sampling temperature of every call (0: greedy, reproducible).")
    max_tokens: int = setting(320, "Token budget of one decision (the JSON reply).")
    summary_tokens: int = setting(160, "Token budget of one observation summary or lesson.")
    graph_tool: bool = setting(
        True, "Offer predict_label (the graph model as a tool); off = the paper's faithful agent.",
        negate="--no-graph-tool",
    )
    tool_first: bool = setting(
        True, "Tool mode: the graph model's prediction is the first observation of a run.",
        negate="--no-tool-first",
    )
    features_action: bool = setting(True, "Offer get_features (off = w/o get_feature ablation).",
                                     negate="--no-features")
    neighbors_action: bool = setting(True, "Offer get_neighbors (off = w/o get_neighbors ablation).",
                                     negate="--no-neighbors")
    analyze_label: bool = setting(False, "Offer analyze_label, an LLM call over the history (ablation).")
    reasoning_field: bool = setting(True, "Ask for thoughts.reasoning in the JSON reply.", negate="--no-reasoning")
    plan_field: bool = setting(True, "Ask for thoughts.plan in the JSON reply.", negate="--no-plan")
    summarise: bool = setting(
        True, "Summarise each observation with the LLM (off: the bounded observation itself is kept).",
        negate="--no-summarise",
    )
    summary_words: int = setting(4000, "Word budget of the short-term memory (paper: 4,000).")
    long_term: bool = setting(True, "Replay lessons from similar past episodes.", negate="--no-long-term")
    experience_path: str | None = setting(
        None, "SQLite file of the experience store (unset: this process's in-memory store)."
    )
    top_k: int = setting(3, "k: past episodes replayed as lessons.")
    alpha: float = setting(5.0, "alpha in sim + T_i/alpha (larger: similarity counts more).")
    experience_bonus: Bonus = setting(
        "success", "T_i: success (1 if the episode was right), short (1/steps) or none."
    )
    show_train_labels: bool = setting(
        True, "get_neighbors shows the labels of training-part neighbours.", negate="--hide-train-labels"
    )
    tool_guard: bool = setting(
        True, "Tool mode: keep the graph model's answer unless an override passes the guard.",
        negate="--no-tool-guard",
    )
    override_risk: float = setting(
        0.005, "Guard: share of validation nodes the model gets right below the confidence threshold.",
    )
    override_threshold: float | None = setting(
        None, "Guard: confidence threshold set by hand (unset: calibrated from override_risk)."
    )
    override_top: int = setting(2, "Guard: an override must be among the model's N most probable labels (0: any).")

    def __post_init__(self) -> None:
        super().__post_init__()
        if not 1 <= self.max_steps <= 50:
            raise ValueError(f"max_steps must be in 1..50, got {self.max_steps}")
        if not 0 <= self.max_bad_replies <= 50:
            raise ValueError(f"max_bad_replies must be in 0..50, got {self.max_bad_replies}")
        if not 0 <= self.top_k <= 20:
            raise ValueError(f"top_k must be in 0..20, got {self.top_k}")
        if not (self.alpha > 0 and not math.isnan(self.alpha)):
            raise ValueError(f"alpha must be positive, got {self.alpha}")
        if not 50 <= self.summary_words <= 100_000:
            raise ValueError(f"summary_words must be in 50..100000, got {self.summary_words}")
        if self.summary_tokens < 8:
            raise ValueError("summary_tokens must be at least 8")
        if not 0.0 <= self.override_risk <= 1.0:
            raise ValueError(f"override_risk must be in [0, 1], got {self.override_risk}")
        if self.override_threshold is not None and not 0.0 <= self.override_threshold <= 1.0:
            raise ValueError(f"override_threshold must be in [0, 1], got {self.override_threshold}")
        if self.override_top < 0:
            raise ValueError("override_top must be 0 (any label) or more")
        self.check_policy(graph_fields=("data_path",))
        from tools.policy import PolicyError, context_is_untrusted

        if _looks_like_path(self.dataset):
            # a name only: a folder read from here would bypass the data_path policy
            raise (PolicyError if context_is_untrusted() else ValueError)(
                f"dataset {self.dataset!r} is refused: dataset is a name (cora, citeseer); "
                "a folder in OGB's format goes in data_path (--path)."
            )
        if self.experience_path and context_is_untrusted():
            raise PolicyError(
                "experience_path is refused: it is a file on the server, and only its owner may choose it"
            )

    @property
    def source(self) -> str | Path:
        """What the data loader and the classifier take: the OGB folder (a Path), else the dataset name.

        A server client's folder is resolved inside the data root (``..``, absolute paths and symlinks
        leading out are refused); on the command line a relative folder is looked up in the working
        directory, then under the data root.
        """
        if not self.data_path:
            return self.dataset
        from tools.config import data_root
        from tools.policy import confine_path, context_is_untrusted

        if context_is_untrusted():
            return confine_path(self.data_path, "data_path")
        path = Path(self.data_path).expanduser()
        if not path.exists() and not path.is_absolute() and (data_root() / path).exists():
            return (data_root() / path).resolve()
        return path.resolve()

    def commands(self) -> list[str]:
        """The commands this run offers, in the order the prompt lists them."""
        names = []
        if self.features_action:
            names.append("get_features")
        if self.neighbors_action:
            names.append("get_neighbors")
        if self.graph_tool:
            names.append("predict_label")
        if self.analyze_label:
            names.append("analyze_label")
        return [*names, "answer"]


def _looks_like_path(name: str) -> bool:
    text = name.strip()
    return not text or any(mark in text for mark in ("/", "\\", "~")) or text.startswith(".")
