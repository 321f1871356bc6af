"""Runtime context of a Graph Counselor run: models per role, limits, ablation switches.

Studio renders these fields (with their descriptions) as the assistant's
configuration; the Python API passes ``context=CounselorContext(...)``.
``tool_calling="native"`` binds the registry's graph functions to the
execution agent's model as tools (see :mod:`graphreason.workflows.counselor.execution`);
it needs a reasoner model that calls tools, and is refused here otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from graphreason.workflows.counselor.tuned import TRAINED_FORM, PromptForm, adapter_prompt_form
from graphreason.workflows.kit.native import TOOL_CALLING_HELP, ToolCalling, check_native_model
from graphreason.workflows.kit.review import REVIEW_HELP
from graphreason.workflows.run_context import (
    MAX_CLIENT_TOKENS,
    GraphSpec,
    ModelName,
    RunContext,
    main_model,
    names_embedded_model,
    setting,
)

Mode = Literal["counselor", "no_reflection", "graph_cot", "base"]
# the order evals run and report them: the ablation ladder, weakest first
MODES: tuple[str, ...] = ("base", "graph_cot", "no_reflection", "counselor")


# (T, N) when unset: the paper's, and a bounded one for the embedded 135M model, which is not tuned for
# Graph Counselor (under the call grammar its Actions run, but it rarely picks the calls a question needs):
# 3 steps, no reflection
PAPER_BUDGET = (10, 2)
PAPER_TEMPERATURE = 0.7
TUNED_ADAPTER = "counselor"  # the shipped LoRA adapter of the tuned reasoner (llm/engine/adapter.py: SHIPPED)
EMBEDDED_BUDGET = (3, 0)
# Token budget of one line, and of a Plan or Thought line of the embedded model when note_tokens is unset
# (its long notes only repeat the question; its Actions keep the full budget)
LINE_TOKENS = 128
EMBEDDED_NOTE_TOKENS = 48


# The largest budget a server client may ask for: five times the paper's T, more than twice its N.
# The compiled graph's recursion guard (graph.RECURSION_LIMIT) covers exactly this budget.
SERVER_MAX_STEPS = 50
SERVER_MAX_REFLECTIONS = 5


@dataclass(kw_only=True)
class CounselorContext(RunContext):
    """One Counselor run: the graph, a model and temperature per role, the T/N limits and ablation switches."""

    graph: GraphSpec = setting(
        "cora",
        "Graph to reason over: a known name (cora, citeseer, movielens, wikispeedia, wn18rr, fb15k-237, last-fm) or a path "
        "to a GRBench graph.json "
        "(from a server client: a path relative to the server's data root).",
    )
    reasoner_model: ModelName = main_model("Model for the planner, thought and execution agents")
    # not nullable (empty = the reasoner's model), so Studio keeps a plain string field for them
    reflector_model: ModelName = setting(
        "",
        "Model that writes reflections after a failed trial (the paper uses a smaller one); "
        "empty = the reasoner's model.",
    )
    judge_model: ModelName = setting(
        "",
        "Model that judges a finished trial [yes]/[no] from its trajectory, never from a gold answer; "
        "empty = the reasoner's model.",
    )
    temperature: float | None = setting(
        None,
        f"Sampling temperature of the reasoning agents; unset = {PAPER_TEMPERATURE} (paper), or 0 (greedy) for "
        "the tuned reasoner, which answers best greedily.",
        low=0.0,
        high=2.0,
    )
    reflector_temperature: float | None = setting(
        None, "Temperature of the reflector; unset = the reasoning temperature.", low=0.0, high=2.0
    )
    judge_temperature: float | None = setting(
        None, "Temperature of the judge; unset = the reasoning temperature.", low=0.0, high=2.0
    )
    max_tokens: int = setting(
        LINE_TOKENS, "Token budget of one Plan/Thought/Action line.", server_max=MAX_CLIENT_TOKENS
    )
    note_tokens: int | None = setting(
        None,
        f"Token budget of one Plan or Thought line; unset = max_tokens, or {EMBEDDED_NOTE_TOKENS} with the "
        "embedded model, whose long notes only repeat the question.",
        low=1,
        server_max=MAX_CLIENT_TOKENS,
    )
    reflection_max_tokens: int = setting(
        320, "Token budget of one reflection.", low=1, server_max=MAX_CLIENT_TOKENS
    )
    max_steps: int | None = setting(
        None,
        "T: Plan-Thought-Action-Observation steps per trial (paper: 10); unset = 10, or 3 with the embedded "
        "135M model (a bounded budget for a small model, tuned reasoner or not).",
        low=1,
        server_max=SERVER_MAX_STEPS,
    )
    max_reflections: int | None = setting(
        None, "N: reflections, so up to N+1 trials (paper: 2); unset = 2, or 0 with the embedded model.", low=0,
        server_max=SERVER_MAX_REFLECTIONS,
    )
    mode: Mode = setting(
        "counselor",
        "counselor (full), no_reflection (ablation), graph_cot (thought/action baseline) or base (LLM only, no graph).",
    )
    use_planner: bool = setting(
        True, "Run the planning agent each step (off = the paper's w/o Plan ablation).", negate="--no-planner"
    )
    compound: bool = setting(
        True,
        "Allow nested and parallel graph calls in one action (off = the paper's w/o Complex ablation).",
        negate="--no-compound",
    )
    max_depth: int | None = setting(
        None, "Optional nesting limit of compound calls (None = unlimited).", low=1, server_max=50
    )
    reflection_policy: Literal["accumulate", "replace"] = setting(
        "accumulate", "Keep every reflection in later trials, or only the latest."
    )
    retrieval: Literal["hybrid", "lexical", "dense"] = setting(
        "hybrid",
        "How Retrieve ranks nodes: hybrid = a node whose name or title is the search text (case, spacing and "
        "punctuation aside) first, then near-exact names, then lexical (BM25) and dense ranks fused; lexical = "
        "names, then BM25 alone; dense = similarity of the embedding alone (the paper's Retrieve). Above 50,000 "
        "nodes hybrid's dense side uses minilm-static when the embedding is minilm.",
    )
    tool_calling: ToolCalling = setting("text", TOOL_CALLING_HELP)
    grammar: bool = setting(
        True,
        "With the embedded model, constrain each Action's decoding to the call language: registered "
        "functions, the graph's own relations and features, node ids and search text taken from the "
        "question or an observation (off = free decoding).",
        negate="--no-grammar",
    )
    operation_confidence: float = setting(
        0.3,
        "With the embedded model and grammar on, the operation planner (a small text classifier trained by "
        "`graphreason train planner`) predicts which functions, nested how, the question's Action needs; when "
        "its probability reaches this value the Action is decoded in that shape, the subject, relations and "
        "features still the model's choice. 0 = off (the Action's shape is free).",
        low=0.0,
        high=1.0,
    )
    review_actions: bool = setting(False, REVIEW_HELP)
    tuned_reasoner: bool = setting(
        True,
        "With the embedded model, the planner, thought and execution agents run the reasoner fine-tuned for "
        "Graph Counselor (SmolLM2-135M with the shipped LoRA adapter of `graphreason train reasoner`) on the "
        "short prompt it was trained on; off = the plain embedded model on the paper's prompt. Other models "
        "are never swapped.",
        negate="--no-tuned-reasoner",
    )
    reasoner_prompt: Literal["auto", "paper", "tuned"] = setting(
        "auto",
        "Prompt of the planner, thought and execution agents: auto = the tuned reasoner's short prompt when "
        "the tuned reasoner runs, the paper's otherwise; tuned = the short prompt for any model (one serving "
        "the adapter elsewhere, or the teacher that records the training data); paper = the paper's prompt.",
    )

    def __post_init__(self) -> None:
        if self.temperature is None:  # resolved first: the shared checks read a number
            self.temperature = 0.0 if self.tuned_spec is not None else PAPER_TEMPERATURE
        super().__post_init__()
        if self.tool_calling == "native" and self.mode != "base":  # the execution agent calls the tools
            check_native_model("reasoner_model", self.reasoner_model)
        # an unset budget is the paper's, or a bounded one for the embedded model (see EMBEDDED_BUDGET)
        steps, reflections = EMBEDDED_BUDGET if self.embedded_reasoner else PAPER_BUDGET
        if self.max_steps is None:
            self.max_steps = steps
        if self.max_reflections is None:
            self.max_reflections = reflections

    def line_tokens(self, line: str) -> int:
        """Token budget of one ``plan``, ``thought`` or ``action`` line (``note_tokens``, ``max_tokens``)."""
        if line not in ("plan", "thought"):
            return self.max_tokens
        if self.note_tokens is not None:
            return self.note_tokens
        return min(self.max_tokens, EMBEDDED_NOTE_TOKENS) if self.embedded_reasoner else self.max_tokens

    @property
    def embedded_reasoner(self) -> bool:
        """The reasoning agents run on the embedded SmolLM2 (a ``local`` spec)."""
        return names_embedded_model(self.reasoner_model)

    @property
    def tuned_spec(self) -> str | None:
        """The tuned reasoner's model spec when it runs the reasoning agents (embedded model, ``tuned_reasoner``)."""
        from graphreason.workflows.models.factory import tuned_local_spec

        return tuned_local_spec(self.reasoner_model, self.tuned_reasoner, TUNED_ADAPTER)

    @property
    def prompt_form(self) -> PromptForm:
        """The short prompt's graph-line form: the shipped adapter's own when the tuned reasoner runs
        (:func:`~graphreason.workflows.counselor.tuned.adapter_prompt_form`), else the form training writes."""
        if self.tuned_spec is not None:
            return adapter_prompt_form(TUNED_ADAPTER)
        return TRAINED_FORM

    @property
    def short_prompt(self) -> bool:
        """The reasoning agents get the tuned reasoner's short prompt (see ``reasoner_prompt``)."""
        if self.reasoner_prompt == "auto":
            return self.tuned_spec is not None
        return self.reasoner_prompt == "tuned"

    def model_of(self, role: str) -> str:
        """The model spec of one role: reasoner, reflector or judge (unset roles use the reasoner's).

        The reasoning agents run the tuned reasoner where it applies (:attr:`tuned_spec`);
        the reflector and judge, which it was not trained for, keep the plain model.
        """
        own = {"reflector": self.reflector_model, "judge": self.judge_model}.get(role)
        if role == "reasoner" and self.tuned_spec is not None:
            return self.tuned_spec
        return own or self.reasoner_model

    def temperature_of(self, role: str) -> float:
        """Sampling temperature of one role: reasoner, reflector or judge."""
        own = {"reflector": self.reflector_temperature, "judge": self.judge_temperature}.get(role)
        return self.temperature if own is None else own  # set by __post_init__ when it was left unset

    @property
    def planner_on(self) -> bool:
        """Graph-CoT has no planning agent; the w/o Plan ablation switches it off too."""
        return self.use_planner and self.mode in ("counselor", "no_reflection")

    @property
    def reflection_on(self) -> bool:
        return self.mode == "counselor" and self.max_reflections > 0
