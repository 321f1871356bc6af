"""Runtime context of a GraphAgent-Reasoner (GAR) run: master model, retrieval, limits.

Studio renders these fields (with their descriptions) as the assistant's
configuration; the Python API passes ``context=GARContext(...)``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Literal

from tools.policy import check_untrusted_context

# compiled: the vertex-program engine; agents: the paper's node agents (LLM calls
# batched per round, fanned out with Send), checked against compiled mode.
Mode = Literal["compiled", "agents"]
MODES: tuple[str, ...] = ("compiled", "agents")


def _describe(text: str) -> dict[str, str]:
    return {"description": text}


@dataclass(kw_only=True)
class GARContext:
    """Configuration of one run. ``master_model`` takes a spec string (or, from Python, a chat model).

    Model fields are declared ``str`` so Studio and the JSON schema offer a text
    field; Python callers may still pass a ``BaseChatModel`` object. A context
    sent by a server client is checked by :mod:`tools.policy`.
    """

    master_model: str = field(
        default="local",
        metadata=_describe(
            "Master LLM that picks the algorithm and confirms its parameters: local or openai:MODEL "
            "(scripted:FILE.json from the CLI and Python only)."
        ),
    )
    embedding_model: str = field(
        default="minilm",
        metadata=_describe(
            "Sentence encoder ranking the algorithm library for the question: minilm (default), mpnet, hash (tests)."
        ),
    )
    top_k: int = field(
        default=3,
        metadata=_describe("How many library algorithms the master chooses from (retrieval top-k)."),
    )
    base_url: str | None = field(
        default=None,
        metadata=_describe(
            "Base URL of an OpenAI-compatible endpoint for openai:MODEL specs (CLI and Python only; "
            "a server uses its own OPENAI_BASE_URL and refuses this field from clients)."
        ),
    )
    temperature: float = field(
        default=0.0, metadata=_describe("Sampling temperature of the master (paper: 0 for every call).")
    )
    max_tokens: int = field(default=200, metadata=_describe("Token budget of the master's reply."))
    max_rounds: int | None = field(
        default=None,
        metadata=_describe(
            "Round cap of the distributed execution (unset: the algorithm's own cap, about n)."
        ),
    )
    mode: Mode = field(
        default="compiled",
        metadata=_describe(
            "compiled: the vertex-program engine runs the six parts over all nodes with arrays. "
            "agents: the paper's mode, node agents are LLM calls per round (batched), checked against compiled."
        ),
    )
    agent_model: str | None = field(
        default=None, metadata=_describe("Model of the node agents in agents mode (unset: the master model).")
    )
    agent_batch_size: int = field(default=8, metadata=_describe("Node agents answered by one LLM call."))
    agent_max_tokens: int = field(
        default=1024,
        metadata=_describe("Token budget of one node-agent reply (a batch of agent_batch_size nodes)."),
    )
    max_agent_calls: int = field(
        default=200, metadata=_describe("Hard cap on node-agent LLM calls per question (agents mode).")
    )
    search_max_steps: int = field(
        default=2_000_000,
        metadata=_describe("Step budget of the exact search for Hamiltonian path and substructure."),
    )
    search_seconds: float = field(
        default=30.0, metadata=_describe("Time budget (seconds) of that exact search.")
    )

    llm_parse: bool = field(
        default=True,
        metadata=_describe(
            "When the deterministic parser cannot read the graph text, ask the master to write the graph as JSON "
            "(checked against the text) instead of failing at once."
        ),
    )
    parse_max_tokens: int = field(default=1024, metadata=_describe("Token budget of that graph-as-JSON reply."))
    design_attempts: int = field(
        default=2,
        metadata=_describe(
            "LLM calls allowed for designing a new algorithm when no library entry fits (the first design plus "
            "repairs after a failed check)."
        ),
    )
    design_max_tokens: int = field(default=700, metadata=_describe("Token budget of one design reply."))
    design_check_graphs: int = field(
        default=6, metadata=_describe("Small graphs a designed algorithm must answer right before it runs.")
    )
    design_cpu_seconds: float = field(
        default=10.0, metadata=_describe("CPU-time limit of one sandboxed run of a designed algorithm.")
    )
    design_memory_mb: int = field(
        default=512, metadata=_describe("Memory limit (MB) of one sandboxed run of a designed algorithm.")
    )

    def __post_init__(self) -> None:
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
        check_untrusted_context(
            self, model_fields=("master_model", "agent_model"), embedding_fields=("embedding_model",)
        )

    @classmethod
    def field_names(cls) -> list[str]:
        return [f.name for f in fields(cls)]
