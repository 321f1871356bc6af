"""Safe by construction: every run context applies the server trust policy itself, by declared field kind."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

import pytest

from graphreason.tools.core.policy import PolicyError
from graphreason.workflows.graphagent.context import GraphAgentContext
from graphreason.workflows.methods import METHODS
from graphreason.workflows.run_context import (
    GRAPH,
    TEXT,
    DataPath,
    GraphSpec,
    ModelName,
    PlainText,
    RunContext,
    field_kinds,
    main_model,
    setting,
)
from tests.security_cases import assert_refuses_hostile_clients, undeclared_suspect_fields, untrusted_server


@pytest.fixture
def trusted(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("GRAPHREASON_SERVER", "GRAPHREASON_TRUST_CLIENTS", "LANGSERVE_GRAPHS"):
        monkeypatch.delenv(name, raising=False)


@pytest.mark.parametrize("method", METHODS, ids=[m.name for m in METHODS])
def test_every_method_context_refuses_hostile_clients(method) -> None:
    assert_refuses_hostile_clients(method.context)


def test_every_loaded_project_context_refuses_hostile_clients() -> None:
    """Contexts beside the methods' own (GAR's node-agent subgraph has one) are checked the same way."""
    found, queue = [], list(RunContext.__subclasses__())
    while queue:
        cls = queue.pop()
        queue.extend(cls.__subclasses__())
        if cls.__module__.startswith("graphreason."):
            found.append(cls)
    assert {m.context for m in METHODS} <= set(found)
    for cls in found:
        assert_refuses_hostile_clients(cls)


@dataclass(kw_only=True)
class SurveyContext(RunContext):
    """A new method's context: declared fields and no policy code of its own."""

    survey_model: ModelName = main_model("Model that writes the survey")
    source_graph: GraphSpec = setting("cora", "Graph the survey is about.")
    notes_folder: DataPath = setting(None, "Folder of notes read beside the graph.")
    style: str = setting("short", "How long the survey is.")


@dataclass(kw_only=True)
class ForgetfulContext(SurveyContext):
    """A subclass whose ``__post_init__`` forgets ``super().__post_init__()``."""

    rounds: int = setting(2, "Rounds.", server_max=10)

    def __post_init__(self) -> None:
        if self.rounds < 1:
            raise ValueError("rounds must be at least 1")


@dataclass(kw_only=True)
class RewritingContext(SurveyContext):
    """A subclass that changes a declared field after ``super().__post_init__()``."""

    def __post_init__(self) -> None:
        super().__post_init__()
        self.source_graph = self.source_graph.replace("@", "/")  # e.g. a legacy separator


def test_a_fresh_context_refuses_a_hostile_path_with_no_policy_code_of_its_own() -> None:
    assert "__post_init__" not in vars(SurveyContext) and "check_policy" not in dir(SurveyContext)
    with untrusted_server() as world:
        for graph in ("/etc/passwd", "../outside/graph.json", str(world.outside)):
            with pytest.raises(PolicyError, match="source_graph .* is refused"):
                SurveyContext(source_graph=graph)
        with pytest.raises(PolicyError, match="notes_folder .* is refused"):
            SurveyContext(notes_folder="../outside")
        with pytest.raises(PolicyError, match="source_graph 'escape' is refused"):
            SurveyContext(source_graph="escape").path_of("source_graph")  # symlinks: when the path is opened
        assert SurveyContext(source_graph="mine").path_of("source_graph") == world.root / "mine"
    assert_refuses_hostile_clients(SurveyContext)


@pytest.mark.parametrize("cls", [ForgetfulContext, RewritingContext])
def test_the_policy_runs_after_every_post_init_even_a_careless_one(cls: type) -> None:
    with untrusted_server():
        with pytest.raises(PolicyError, match="source_graph"):
            cls(source_graph="@etc@passwd" if cls is RewritingContext else "/etc/passwd")
        with pytest.raises(PolicyError, match="base_url is refused"):
            cls(base_url="http://attacker.invalid/v1")
    assert_refuses_hostile_clients(cls)


def test_the_policy_runs_once_per_build(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[type] = []
    original = RunContext._apply_trust_policy

    def counting(self: RunContext) -> None:
        calls.append(type(self))
        original(self)

    monkeypatch.setattr(RunContext, "_apply_trust_policy", counting)
    RewritingContext()
    ForgetfulContext()
    GraphAgentContext()
    assert calls == [RewritingContext, ForgetfulContext, GraphAgentContext]


def test_trusted_callers_keep_paths_endpoints_and_owner_files(trusted, tmp_path: Path) -> None:
    ctx = SurveyContext(source_graph=str(tmp_path), base_url="http://127.0.0.1:1/v1", survey_model="scripted:x.json")
    assert ctx.path_of("source_graph") == tmp_path.resolve()
    assert GraphAgentContext(experience_path=str(tmp_path / "e.sqlite")).experience_path.endswith("e.sqlite")
    with pytest.raises(ValueError, match="dataset is a name"):  # a name is never a path, in any process
        GraphAgentContext(dataset=str(tmp_path))


def test_field_kinds_are_declared_on_the_types() -> None:
    assert field_kinds(GraphAgentContext) == {
        "embedding_model": "embedder",
        "base_url": "endpoint",
        "agent_model": "model",
        "dataset": "name",
        "data_path": "path",
        "experience_path": "owner_path",
    }
    assert field_kinds(SurveyContext)["source_graph"] == GRAPH.name
    with pytest.raises(ValueError, match="style is not declared as a graph or data path"):
        SurveyContext().path_of("style")


def test_an_undeclared_path_or_model_field_fails_the_security_cases_loudly() -> None:
    @dataclass(kw_only=True)
    class CacheContext(RunContext):
        cache_dir: str = setting("", "Where to cache.")
        judge_model: str | None = setting(None, "A model typed plain str.")
        graph_tool: bool = setting(True, "A switch: holds no text, so it needs no kind.")
        note_file: PlainText = setting("", "Declared as naming nothing on disk.")

    assert undeclared_suspect_fields(CacheContext) == ["cache_dir", "judge_model"]
    assert field_kinds(CacheContext)["note_file"] == TEXT.name
    with pytest.raises(AssertionError, match="declares cache_dir, judge_model without saying what it names"):
        assert_refuses_hostile_clients(CacheContext)


def test_a_field_declared_as_two_kinds_is_refused() -> None:
    @dataclass(kw_only=True)
    class Confused(RunContext):
        MODEL_FIELDS = ("source",)
        source: Annotated[str, GRAPH] = setting("cora", "Both a graph and a model.")

    with pytest.raises(TypeError, match="Confused.source is declared as graph and model"):
        field_kinds(Confused)
