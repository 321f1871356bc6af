"""A server client's graph has at most SERVER_MAX_NODES nodes unless the owner says otherwise; the CLI keeps 5M."""

from __future__ import annotations

import pytest

from graphreason.tools.gar.graph_text.parse import parse_graph_problem
from graphreason.tools.gar.graph_text.problem import SERVER_MAX_NODES, GraphTextError, node_limit

QUESTION = "The nodes are numbered from 0 to 4999999, and the edges are: (0->1) (1->2). Give a topological sort."


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("GRAPHREASON_TRUST_CLIENTS", "GRAPHREASON_SERVER_LIMITS", "GRAPHREASON_MAX_NODES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("GRAPHREASON_SERVER", "1")


def test_a_server_client_is_refused_before_any_array_is_built(served) -> None:
    with pytest.raises(GraphTextError, match=f"says 5000000 nodes; the limit is {SERVER_MAX_NODES}") as err:
        parse_graph_problem(QUESTION)
    assert "GRAPHREASON_SERVER_LIMITS=max_nodes=N" in str(err.value)


def test_the_owner_raises_it_and_the_process_limit_still_holds(served, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRAPHREASON_SERVER_LIMITS", "max_nodes=10000000")
    assert node_limit()[0] == 5_000_000  # GRAPHREASON_MAX_NODES's default stays the ceiling
    monkeypatch.setenv("GRAPHREASON_SERVER_LIMITS", "max_nodes=100")
    with pytest.raises(GraphTextError, match="says 1000 nodes; the limit is 100"):
        parse_graph_problem("The nodes are numbered from 0 to 999, and the edges are: (0,1). Is there a path from 0 to 1?")


def test_the_cli_and_python_keep_the_process_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("GRAPHREASON_SERVER", "LANGSERVE_GRAPHS", "GRAPHREASON_MAX_NODES"):
        monkeypatch.delenv(name, raising=False)
    assert node_limit() == (5_000_000, "set GRAPHREASON_MAX_NODES to raise it")
