"""Runtime context of a Graph Counselor run: models per role, limits, ablation switches.

Studio renders these fields (with their descriptions) as the assistant's
configuration; the Python API passes ``context=CounselorContext(...)``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Literal

from tools.policy import check_untrusted_context

Mode = Literal["counselor", "no_reflection", "graph_cot", "base"]
MODES: tuple[str, ...] = ("base", "graph_cot", "no_reflection", "counselor")


def _describe(text: str) -> dict[str, str]:
    return {"description": text}


@dataclass(kw_only=True)
class CounselorContext:
    """Configuration of one run. Model fields take a spec string (or, from Python, a chat model).

    The model fields are declared ``str`` so Studio and the JSON schema offer a
    text field; Python callers may still pass a ``BaseChatModel`` object. A
    context sent by a server client is checked by :mod:`tools.policy`.
    """

    graph: str = field(
        default="cora",
        metadata=_describe(
            "Graph to reason over: a known name (cora, movielens, wikispeedia) or a path to a GRBench graph.json "
            "(from a server client: a path relative to the server's data root)."
        ),
    )
    embedding_model: str = field(
        default="minilm",
        metadata=_describe(
            "Sentence encoder behind Retrieve: minilm (embedded default), mpnet (the paper's), hash (tests) or a local model folder."
        ),
    )
    reasoner_model: str = field(
        default="local",
        metadata=_describe(
            "Model for the planner, thought and execution agents: local or openai:MODEL "
            "(scripted:FILE.json from the CLI and Python only)."
        ),
    )
    reflector_model: str = field(
        default="local",
        metadata=_describe(
            "Model that writes reflections after a failed trial (the paper uses a smaller one): local or openai:MODEL."
        ),
    )
    judge_model: str = field(
        default="local",
        metadata=_describe(
            "Model that judges a finished trial [yes]/[no] from its trajectory, never from a gold answer: "
            "local or openai:MODEL."
        ),
    )
    base_url: str | None = field(
        default=None,
        metadata=_describe(
            "Base URL of an OpenAI-compatible endpoint for openai:MODEL specs (CLI and Python only; "
            "a server uses its own OPENAI_BASE_URL and refuses this field from clients)."
        ),
    )
    temperature: float = field(
        default=0.7, metadata=_describe("Sampling temperature of the reasoning agents (paper: 0.7).")
    )
    top_p: float = field(
        default=0.9, metadata=_describe("Nucleus sampling top-p of every role (paper: 0.9).")
    )
    reflector_temperature: float | None = field(
        default=None, metadata=_describe("Temperature of the reflector; unset = the reasoning temperature.")
    )
    judge_temperature: float | None = field(
        default=None, metadata=_describe("Temperature of the judge; unset = the reasoning temperature.")
    )
    max_tokens: int = field(default=128, metadata=_describe("Token budget of one Plan/Thought/Action line."))
    reflection_max_tokens: int = field(default=320, metadata=_describe("Token budget of one reflection."))
    max_steps: int = field(
        default=10, metadata=_describe("T: Plan-Thought-Action-Observation steps per trial (paper: 10).")
    )
    max_reflections: int = field(
        default=2, metadata=_describe("N: reflections, so up to N+1 trials (paper: 2).")
    )
    mode: Mode = field(
        default="counselor",
        metadata=_describe(
            "counselor (full), no_reflection (ablation), graph_cot (thought/action baseline) or base (LLM only, no graph)."
        ),
    )
    use_planner: bool = field(
        default=True,
        metadata=_describe("Run the planning agent each step (off = the paper's w/o Plan ablation)."),
    )
    compound: bool = field(
        default=True,
        metadata=_describe(
            "Allow nested and parallel graph calls in one action (off = the paper's w/o Complex ablation)."
        ),
    )
    max_depth: int | None = field(
        default=None, metadata=_describe("Optional nesting limit of compound calls (None = unlimited).")
    )
    reflection_policy: Literal["accumulate", "replace"] = field(
        default="accumulate", metadata=_describe("Keep every reflection in later trials, or only the latest.")
    )
    seed: int | None = field(
        default=None, metadata=_describe("Sampling seed passed to backends that accept one.")
    )

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ValueError(f"unknown mode {self.mode!r}; choose one of {', '.join(MODES)}")
        if self.max_steps < 1:
            raise ValueError("max_steps must be at least 1")
        if self.max_reflections < 0:
            raise ValueError("max_reflections must be 0 or more")
        check_untrusted_context(
            self,
            model_fields=("reasoner_model", "reflector_model", "judge_model"),
            embedding_fields=("embedding_model",),
            graph_fields=("graph",),
        )

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

    @classmethod
    def field_names(cls) -> list[str]:
        return [f.name for f in fields(cls)]
