"""Runtime context of a GraphAgent-Reasoner (GAR) run: master model, retrieval, limits.

Studio renders these fields (with their descriptions) as the assistant's
configuration; the Python API passes ``context=GARContext(...)``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

from graphreason.workflows.run_context import (
    MAX_CLIENT_TOKENS,
    ModelName,
    OptionalModelName,
    OwnerPath,
    RunContext,
    main_model,
    setting,
)

# compiled: the vertex-program engine; agents: the paper's node agents (LLM calls
# batched per round, fanned out with Send), checked against compiled mode.
Mode = Literal["compiled", "agents"]
MODES: tuple[str, ...] = get_args(Mode)

# Where compiled mode's supersteps run: numpy arrays in this process, or Spark DataFrames (a cluster, or
# local[*]); auto: Spark only for a graph that cannot be in this process's memory.
Engine = Literal["auto", "compiled", "spark"]
ENGINES: tuple[str, ...] = get_args(Engine)


# The time a server client's GAR execution may take when it sets none (and the most it may ask for; the owner
# changes it with GRAPHREASON_SERVER_LIMITS=engine_seconds=N).
SERVER_ENGINE_SECONDS = 300.0
# The time a server client's question may take to read when it sets none (and the most it may ask for;
# GRAPHREASON_SERVER_LIMITS=parse_seconds=N). Reading is linear: 2,000,000 characters of edges take a few seconds.
SERVER_PARSE_SECONDS = 10.0
# The most entries of a list or mapping answer a server client's run state carries (the rest is written to a file).
SERVER_ANSWER_ITEMS = 1000


@dataclass(kw_only=True)
class GARContext(RunContext):
    """One GAR run: master and node-agent models, library retrieval, execution mode, search and design budgets."""

    master_model: ModelName = main_model("Master LLM that picks the algorithm and confirms its parameters")
    top_k: int = setting(
        3, "How many library algorithms the master chooses from (retrieval top-k).", server_max=20
    )
    temperature: float = setting(
        0.0, "Sampling temperature of the master (paper: 0 for every call).", server_max=2.0
    )
    max_tokens: int = setting(200, "Token budget of the master's reply.", server_max=MAX_CLIENT_TOKENS)
    grammar: bool = setting(
        True,
        "With the embedded model, decode the master's choice as one JSON object naming a retrieved "
        "candidate (design_new is not offered to it); its parameters then come from the question "
        "(off = free decoding).",
        negate="--no-grammar",
    )
    max_rounds: int | None = setting(
        None,
        "Round cap of the distributed execution (unset: the algorithm's own cap, about n).",
        server_max=100_000,
    )
    engine_seconds: float | None = setting(
        None,
        "Wall-clock budget of the distributed execution in seconds, on either engine: the run stops at the end of "
        f"the first superstep past it and says its answer may be incomplete (unset: no limit; for a server client, "
        f"{SERVER_ENGINE_SECONDS:g} s).",
        server_max=SERVER_ENGINE_SECONDS,
    )
    parse_seconds: float | None = setting(
        None,
        "Wall-clock budget of reading the question's graph text and task; past it the run stops with a message "
        f"(unset: no limit; for a server client, {SERVER_PARSE_SECONDS:g} s).",
        server_max=SERVER_PARSE_SECONDS,
    )
    answer_items: int | None = setting(
        None,
        "Most entries of a list or mapping answer (a node order, a value per node) the run's state carries; a "
        "longer answer is written whole as JSON to the run's results folder and the state keeps its first entries "
        f"and the file's name (unset: whole answers; for a server client, {SERVER_ANSWER_ITEMS:,}).",
        low=1,
        server_max=SERVER_ANSWER_ITEMS,
    )
    mode: Mode = setting(
        "compiled",
        "compiled: the vertex-program engine runs the six parts over all nodes with arrays. "
        "agents: the paper's mode, node agents are LLM calls per round (batched), checked against compiled.",
    )
    engine: Engine = setting(
        "auto",
        "Executor of the library algorithms in compiled mode. compiled: numpy arrays in this process (as "
        "large as its memory allows). spark: Pregel supersteps on Spark DataFrames (graphs beyond one "
        "machine's memory; each superstep carries Spark's fixed cost, so small graphs are faster compiled). "
        "auto: compiled for a graph "
        "held in memory, spark for a dataset. The exact searches (Hamiltonian path, substructure) and designed "
        "programs always run on one machine.",
    )
    spark_master: OwnerPath = setting(
        None,
        "Spark master URL for engine=spark: local[*], local[2], spark://host:7077, yarn, "
        "k8s://https://host:443 (unset: local[*]). Only the server's owner may set it.",
    )
    spark_conf: OwnerPath = setting(
        None,
        "Extra Spark settings for engine=spark, comma-separated spark.key=value (e.g. "
        "spark.executor.memory=8g,spark.ui.enabled=true). Only the server's owner may set it.",
    )
    spark_checkpoint_dir: OwnerPath = setting(
        None,
        "Folder of the Spark engine's reliable checkpoints, which must be one every executor reaches: on a "
        "cluster of several machines a shared store (hdfs://, s3a://, an NFS mount). Unset: the cache's "
        "spark-checkpoints folder (enough for local mode and a cluster on this machine). Only the server's "
        "owner may set it.",
    )
    spark_checkpoint_interval: int | None = setting(
        None,
        "Supersteps between reliable checkpoints on Spark; rounds in between keep their lineage, so a lost "
        "executor costs at most this many rounds of recomputation. 0: cut every round in the executors' memory "
        "(fast, but a lost executor fails the run). Unset: 0 in local mode, 10 on a cluster.",
        server_max=10_000,
    )
    spark_results_dir: OwnerPath = setting(
        None,
        "Folder where a Spark run on an edge dataset writes an answer that maps every node (Parquet: id, value), "
        "and any run an answer longer than answer_items (JSON); on a cluster, a folder every executor reaches. "
        "Unset: the cache's gar-results folder. Only the server's owner may set it.",
    )
    edge_dataset: OwnerPath = setting(
        None,
        "An edge dataset every question is about, instead of a graph in the question: Parquet or CSV with "
        "src, dst and an optional weight, ids integers or strings, at a local path or any URI Spark reads "
        "(hdfs://, s3a://, ...). It is loaded once on Spark (engine auto or spark) and the library's vertex "
        "programs run there; node ids in questions are the dataset's. Only the server's owner may set it.",
    )
    edge_dataset_directed: bool = setting(False, "Whether the edge dataset's edges are directed (src -> dst).")
    agent_model: OptionalModelName = setting(
        None,
        "Model of the node agents in agents mode: a model spec, or rules (a rule-following stand-in "
        "that applies the vertex program's rules without an LLM: checks and tests); unset: the master model.",
    )
    agent_batch_size: int = setting(8, "Node agents answered by one LLM call.", server_max=64)
    agent_max_tokens: int = setting(
        1024,
        "Token budget of one node-agent reply (a batch of agent_batch_size nodes).",
        server_max=MAX_CLIENT_TOKENS,
    )
    max_agent_calls: int = setting(
        200, "Hard cap on node-agent LLM calls per question (agents mode).", server_max=1000
    )
    search_max_steps: int = setting(
        2_000_000,
        "Step budget of the exact search for Hamiltonian path and substructure.",
        server_max=20_000_000,
    )
    search_seconds: float = setting(30.0, "Time budget (seconds) of that exact search.", server_max=60.0)

    llm_parse: bool = setting(
        True,
        "When the deterministic parser cannot read the graph text, ask the master to write the graph as JSON "
        "(checked against the text) instead of failing at once.",
    )
    parse_max_tokens: int = setting(
        1024, "Token budget of that graph-as-JSON reply.", server_max=MAX_CLIENT_TOKENS
    )
    design_attempts: int = setting(
        2,
        "LLM calls allowed for designing a new algorithm when no library entry fits (the first design plus "
        "repairs after a failed check).",
        server_max=5,
    )
    design_max_tokens: int = setting(700, "Token budget of one design reply.", server_max=MAX_CLIENT_TOKENS)
    design_check_graphs: int = setting(
        6, "Small graphs a designed algorithm must answer right before it runs.", server_max=20
    )
    design_cpu_seconds: float = setting(
        10.0, "CPU-time limit of one sandboxed run of a designed algorithm.", server_max=30.0
    )
    design_memory_mb: int = setting(
        512, "Memory limit (MB) of one sandboxed run of a designed algorithm.", server_max=2048
    )

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.agent_batch_size < 1 or self.max_agent_calls < 1 or self.agent_max_tokens < 1:
            raise ValueError("agent_batch_size, agent_max_tokens and max_agent_calls must be at least 1")
        if self.top_k < 1:
            raise ValueError("top_k must be at least 1")
        if self.spark_checkpoint_interval is not None and self.spark_checkpoint_interval < 0:
            raise ValueError("spark_checkpoint_interval must be 0 or more (or unset)")
        for name in ("engine_seconds", "parse_seconds"):  # above 0, which an inclusive low bound cannot say
            if getattr(self, name) is not None and not getattr(self, name) > 0:
                raise ValueError(f"{name} must be positive (or unset)")
        if self.max_rounds is not None and self.max_rounds < 0:
            raise ValueError("max_rounds must be 0 or more (or unset)")
        if self.design_attempts < 0 or self.design_check_graphs < 0:
            raise ValueError("design_attempts and design_check_graphs must be 0 or more")
        if self.design_cpu_seconds <= 0 or self.design_memory_mb < 64:
            raise ValueError("design_cpu_seconds must be positive and design_memory_mb at least 64")
        if self.search_max_steps < 1 or self.search_seconds <= 0:
            raise ValueError("the search budget (search_max_steps, search_seconds) must be positive")
