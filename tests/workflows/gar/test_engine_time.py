"""GAR's wall-clock budget of the distributed execution (engine_seconds): the engine stops, the answer says so."""

from __future__ import annotations

import pytest

from graphreason.tools.core.policy import PolicyError
from graphreason.tools.gar.vertex import VertexGraph, get_algorithm, run
from graphreason.workflows.gar.context import SERVER_ENGINE_SECONDS, GARContext
from graphreason.workflows.gar.execute import _run_details, engine_seconds


@pytest.fixture
def untrusted(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("GRAPHREASON_TRUST_CLIENTS", "GRAPHREASON_SERVER_LIMITS"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("GRAPHREASON_SERVER", "1")


def path_graph(n: int) -> VertexGraph:
    return VertexGraph.from_edges(n, [(i, i + 1, 1.0) for i in range(n - 1)], directed=False)


def test_a_run_past_its_budget_stops_at_the_end_of_a_superstep() -> None:
    graph = path_graph(200)
    full = run(get_algorithm("bfs_levels"), graph, {"source": 0})
    cut = run(get_algorithm("bfs_levels"), graph, {"source": 0}, seconds=0.0)
    assert full.complete and full.rounds == 200  # 199 hops, and one round in which nothing changes
    assert (cut.rounds, cut.stop_reason, cut.complete) == (1, "time_limit", False)
    details = _run_details(cut, "compiled")
    assert details["complete"] is False and "past the time budget engine_seconds" in details["text"]
    assert "the answer may be incomplete" in details["text"]


def test_a_server_client_gets_the_servers_budget_and_no_more(untrusted, monkeypatch: pytest.MonkeyPatch) -> None:
    assert engine_seconds(GARContext()) == SERVER_ENGINE_SECONDS == 300.0
    assert engine_seconds(GARContext(engine_seconds=20.0)) == 20.0
    with pytest.raises(PolicyError, match="engine_seconds"):
        GARContext(engine_seconds=1e9)
    monkeypatch.setenv("GRAPHREASON_SERVER_LIMITS", "engine_seconds=5")
    assert engine_seconds(GARContext()) == 5.0


def test_the_cli_and_python_have_no_budget_unless_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GRAPHREASON_SERVER", raising=False)
    monkeypatch.delenv("LANGSERVE_GRAPHS", raising=False)
    assert engine_seconds(GARContext()) is None
    assert engine_seconds(GARContext(engine_seconds=2.5)) == 2.5
    with pytest.raises(ValueError, match="engine_seconds must be positive"):
        GARContext(engine_seconds=0.0)
