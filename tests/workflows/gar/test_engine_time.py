"""GAR's wall-clock budgets: of the distributed execution (engine_seconds: the engine stops, the answer says so)
and of reading the question (parse_seconds: the run stops with a message); a server client gets the server's."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from graphreason.tools.core.policy import PolicyError
from graphreason.tools.gar.graph_text.budget import ReadingTooLong
from graphreason.tools.gar.vertex import VertexGraph, get_algorithm, run
from graphreason.workflows.gar import solve
from graphreason.workflows.gar.context import (
    SERVER_ANSWER_ITEMS,
    SERVER_ENGINE_SECONDS,
    SERVER_PARSE_SECONDS,
    GARContext,
)
from graphreason.workflows.gar.execute import _run_details
from graphreason.workflows.models.scripted import ScriptedChatModel


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
    assert GARContext().budget("engine_seconds") == SERVER_ENGINE_SECONDS == 300.0
    assert GARContext(engine_seconds=20.0).budget("engine_seconds") == 20.0
    with pytest.raises(PolicyError, match="engine_seconds"):
        GARContext(engine_seconds=1e9)
    monkeypatch.setenv("GRAPHREASON_SERVER_LIMITS", "engine_seconds=5")
    assert GARContext().budget("engine_seconds") == 5.0


def test_the_cli_and_python_have_no_budget_unless_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GRAPHREASON_SERVER", raising=False)
    monkeypatch.delenv("LANGSERVE_GRAPHS", raising=False)
    assert GARContext().budget("engine_seconds") is None
    assert GARContext(engine_seconds=2.5).budget("engine_seconds") == 2.5
    with pytest.raises(ValueError, match="engine_seconds must be positive"):
        GARContext(engine_seconds=0.0)


def test_a_question_read_past_parse_seconds_stops_the_run_with_a_message() -> None:
    question = "The edges are: " + "(0,1) " * 50_000 + "(1,2). Is there a path from node 0 to node 2?"
    context = {"master_model": ScriptedChatModel(script=["{}"]), "embedding_model": "hash", "llm_parse": False}
    with pytest.raises(ReadingTooLong, match="parse_seconds"):
        solve(question, GARContext(parse_seconds=1e-6, **context))
    assert solve(question, GARContext(parse_seconds=600.0, **context))["structured"]["value"] is True


def test_a_server_client_reads_within_the_servers_parse_budget(untrusted, monkeypatch: pytest.MonkeyPatch) -> None:
    assert GARContext().budget("parse_seconds") == SERVER_PARSE_SECONDS == 10.0
    with pytest.raises(PolicyError, match="parse_seconds"):
        GARContext(parse_seconds=60.0)
    monkeypatch.setenv("GRAPHREASON_SERVER_LIMITS", "parse_seconds=30")
    assert GARContext(parse_seconds=30.0).budget("parse_seconds") == 30.0


def test_an_answer_longer_than_answer_items_is_written_whole_and_cut_in_the_state(tmp_path) -> None:
    edges = " ".join(f"({i}->{i + 1})" for i in range(49))
    question = f"The nodes are numbered from 0 to 49, and the edges are: {edges}. Give one topological sort of this graph."
    context = {"master_model": ScriptedChatModel(script=["{}"] * 4), "embedding_model": "hash", "llm_parse": False}
    whole = solve(question, GARContext(**context))["structured"]
    assert whole["value"] == list(range(50)) and "file" not in whole
    out = solve(question, GARContext(answer_items=10, spark_results_dir=str(tmp_path), **context))
    structured = out["structured"]
    assert structured["value"] == list(range(10)) and structured["items"] == 50
    assert json.loads(Path(structured["file"]).read_text()) == list(range(50))
    assert Path(structured["file"]).parent.parent == tmp_path and oct(Path(structured["file"]).stat().st_mode)[-3:] == "600"
    assert "(50 in all)" in out["answer"] and structured["file"] in out["answer"]  # summarize read the state: its head


def test_a_server_client_gets_at_most_the_servers_answer_items(untrusted) -> None:
    assert GARContext().budget("answer_items") == SERVER_ANSWER_ITEMS == 1000
    with pytest.raises(PolicyError, match="answer_items"):
        GARContext(answer_items=5000)
