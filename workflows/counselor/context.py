"""Runtime context of a Graph Counselor run: models per role, limits, ablation switches.

Studio renders these fields (with their descriptions) as the assistant's
configuration; the Python API passes ``context=CounselorContext(...)``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from workflows.run_context import RunContext, describe

Mode = Literal["counselor", "no_reflection", "graph_cot", "base"]
MODES: tuple[str, ...] = ("base", "graph_cot", "no_reflection", "counselor")


@dataclass(kw_only=True)
class CounselorContext(RunContext):
    """Configuration of one run: the graph, a model per role, sampling, limits and ablation switches.

    Shared fields (endpoint, encoder, top-p, seed, request limits) come from
    :class:`~workflows.run_context.RunContext`. Model fields are declared ``str``
    so Studio offers a text field; Python callers may also pass a chat model.
    """

    MODEL_FIELDS = ("reasoner_model", "reflector_model", "judge_model")

    graph: str = field(
        default="cora",
        metadata=describe(
            "Graph to reason over: a known name (cora, movielens, wikispeedia) or a path to a GRBench graph.json "
            "(from a server client: a path relative to the server's data root)."
        ),
    )
    reasoner_model: str = field(
        default="local",
        metadata=describe(
            "Model for the planner, thought and execution agents: local (embedded SmolLM2), openai:MODEL "
            "(scripted:FILE.json from the CLI and Python only).",
            flag="--model",
        ),
    )
    # plain strings (empty = the reasoner's model) so Studio shows a text field, not a nullable one
    reflector_model: str = field(
        default="",
        metadata=describe(
            "Model that writes reflections after a failed trial (the paper uses a smaller one); "
            "empty = the reasoner's model."
        ),
    )
    judge_model: str = field(
        default="",
        metadata=describe(
            "Model that judges a finished trial [yes]/[no] from its trajectory, never from a gold answer; "
            "empty = the reasoner's model."
        ),
    )
    temperature: float = field(
        default=0.7, metadata=describe("Sampling temperature of the reasoning agents (paper: 0.7).")
    )
    reflector_temperature: float | None = field(
        default=None, metadata=describe("Temperature of the reflector; unset = the reasoning temperature.")
    )
    judge_temperature: float | None = field(
        default=None, metadata=describe("Temperature of the judge; unset = the reasoning temperature.")
    )
    max_tokens: int = field(default=128, metadata=describe("Token budget of one Plan/Thought/Action line."))
    reflection_max_tokens: int = field(default=320, metadata=describe("Token budget of one reflection."))
    max_steps: int = field(
        default=10, metadata=describe("T: Plan-Thought-Action-Observation steps per trial (paper: 10).")
    )
    max_reflections: int = field(
        default=2, metadata=describe("N: reflections, so up to N+1 trials (paper: 2).")
    )
    mode: Mode = field(
        default="counselor",
        metadata=describe(
            "counselor (full), no_reflection (ablation), graph_cot (thought/action baseline) or base (LLM only, no graph)."
        ),
    )
    use_planner: bool = field(
        default=True,
        metadata=describe(
            "Run the planning agent each step (off = the paper's w/o Plan ablation).", negate="--no-planner"
        ),
    )
    compound: bool = field(
        default=True,
        metadata=describe(
            "Allow nested and parallel graph calls in one action (off = the paper's w/o Complex ablation).",
            negate="--no-compound",
        ),
    )
    max_depth: int | None = field(
        default=None, metadata=describe("Optional nesting limit of compound calls (None = unlimited).")
    )
    reflection_policy: Literal["accumulate", "replace"] = field(
        default="accumulate", metadata=describe("Keep every reflection in later trials, or only the latest.")
    )

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.mode not in MODES:
            raise ValueError(f"unknown mode {self.mode!r}; choose one of {', '.join(MODES)}")
        if self.max_steps < 1:
            raise ValueError("max_steps must be at least 1")
        if self.max_reflections < 0:
            raise ValueError("max_reflections must be 0 or more")
        self.check_policy(graph_fields=("graph",))

    def model_of(self, role: str) -> str:
        """The model spec of one role: reasoner, reflector or judge (unset roles use the reasoner's)."""
        own = {"reflector": self.reflector_model, "judge": self.judge_model}.get(role)
        return own or self.reasoner_model

    def temperature_of(self, role: str) -> float:
        """Sampling temperature of one role: reasoner, reflector or judge."""
        own = {"reflector": self.reflector_temperature, "judge": self.judge_temperature}.get(role)
        return self.temperature if own is None else own

    @property
    def planner_on(self) -> bool:
        """Graph-CoT has no planning agent; the w/o Plan ablation switches it off too."""
        return self.use_planner and self.mode in ("counselor", "no_reflection")

    @property
    def reflection_on(self) -> bool:
        return self.mode == "counselor" and self.max_reflections > 0
