"""Runtime context of a GraphAgent-Reasoner (GAR) run: master model, retrieval, limits.

Studio renders these fields (with their descriptions) as the assistant's
configuration; the Python API passes ``context=GARContext(...)``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from workflows.run_context import RunContext, describe

# compiled: the vertex-program engine; agents: the paper's node agents (LLM calls
# batched per round, fanned out with Send), checked against compiled mode.
Mode = Literal["compiled", "agents"]
MODES: tuple[str, ...] = ("compiled", "agents")


@dataclass(kw_only=True)
class GARContext(RunContext):
    """Configuration of one run. ``master_model`` takes a spec string (or, from Python, a chat model).

    Shared fields (endpoint, encoder, top-p, seed, request limits) come from
    :class:`~workflows.run_context.RunContext`. Model fields are declared ``str``
    so Studio offers a text field; Python callers may also pass a chat model.
    """

    MODEL_FIELDS = ("master_model", "agent_model")

    master_model: str = field(
        default="local",
        metadata=describe(
            "Master LLM that picks the algorithm and confirms its parameters: local (embedded SmolLM2), "
            "openai:MODEL (scripted:FILE.json from the CLI and Python only).",
            flag="--model",
        ),
    )
    top_k: int = field(
        default=3,
        metadata=describe("How many library algorithms the master chooses from (retrieval top-k)."),
    )
    temperature: float = field(
        default=0.0, metadata=describe("Sampling temperature of the master (paper: 0 for every call).")
    )
    max_tokens: int = field(default=200, metadata=describe("Token budget of the master's reply."))
    max_rounds: int | None = field(
        default=None,
        metadata=describe(
            "Round cap of the distributed execution (unset: the algorithm's own cap, about n)."
        ),
    )
    mode: Mode = field(
        default="compiled",
        metadata=describe(
            "compiled: the vertex-program engine runs the six parts over all nodes with arrays. "
            "agents: the paper's mode, node agents are LLM calls per round (batched), checked against compiled."
        ),
    )
    agent_model: str | None = field(
        default=None, metadata=describe("Model of the node agents in agents mode (unset: the master model).")
    )
    agent_batch_size: int = field(default=8, metadata=describe("Node agents answered by one LLM call."))
    agent_max_tokens: int = field(
        default=1024,
        metadata=describe("Token budget of one node-agent reply (a batch of agent_batch_size nodes)."),
    )
    max_agent_calls: int = field(
        default=200, metadata=describe("Hard cap on node-agent LLM calls per question (agents mode).")
    )
    search_max_steps: int = field(
        default=2_000_000,
        metadata=describe("Step budget of the exact search for Hamiltonian path and substructure."),
    )
    search_seconds: float = field(
        default=30.0, metadata=describe("Time budget (seconds) of that exact search.")
    )

    llm_parse: bool = field(
        default=True,
        metadata=describe(
            "When the deterministic parser cannot read the graph text, ask the master to write the graph as JSON "
            "(checked against the text) instead of failing at once."
        ),
    )
    parse_max_tokens: int = field(default=1024, metadata=describe("Token budget of that graph-as-JSON reply."))
    design_attempts: int = field(
        default=2,
        metadata=describe(
            "LLM calls allowed for designing a new algorithm when no library entry fits (the first design plus "
            "repairs after a failed check)."
        ),
    )
    design_max_tokens: int = field(default=700, metadata=describe("Token budget of one design reply."))
    design_check_graphs: int = field(
        default=6, metadata=describe("Small graphs a designed algorithm must answer right before it runs.")
    )
    design_cpu_seconds: float = field(
        default=10.0, metadata=describe("CPU-time limit of one sandboxed run of a designed algorithm.")
    )
    design_memory_mb: int = field(
        default=512, metadata=describe("Memory limit (MB) of one sandboxed run of a designed algorithm.")
    )

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.mode not in MODES:
            raise ValueError(f"unknown mode {self.mode!r}; choose one of {', '.join(MODES)}")
        if self.agent_batch_size < 1 or self.max_agent_calls < 1 or self.agent_max_tokens < 1:
            raise ValueError("agent_batch_size, agent_max_tokens and max_agent_calls must be at least 1")
        if self.top_k < 1:
            raise ValueError("top_k must be at least 1")
        if self.max_rounds is not None and self.max_rounds < 0:
            raise ValueError("max_rounds must be 0 or more (or unset)")
        if self.design_attempts < 0 or self.design_check_graphs < 0:
            raise ValueError("design_attempts and design_check_graphs must be 0 or more")
        if self.design_cpu_seconds <= 0 or self.design_memory_mb < 64:
            raise ValueError("design_cpu_seconds must be positive and design_memory_mb at least 64")
        if self.search_max_steps < 1 or self.search_seconds <= 0:
            raise ValueError("the search budget (search_max_steps, search_seconds) must be positive")
        self.check_policy()
