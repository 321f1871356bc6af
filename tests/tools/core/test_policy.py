"""graphreason.tools.core.policy: who is trusted, and what an untrusted run context may name."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from graphreason.tools.core.errors import GraphFileError
from graphreason.tools.core.loaders import load_graph
from graphreason.tools.core.policy import (
    PolicyError,
    check_base_url,
    check_embedding_model,
    check_model_spec,
    check_model_value,
    confine_path,
    context_is_untrusted,
)

TINY = {"node_nodes": {"a": {"features": {"name": "A"}, "neighbors": {"link": ["b"]}}, "b": {}}}


@pytest.fixture
def trusted(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("GRAPHREASON_SERVER", "GRAPHREASON_TRUST_CLIENTS", "LANGSERVE_GRAPHS"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def server(trusted, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> dict[str, Path]:
    """An untrusted process with a private data root, an outside folder and a symlink out."""
    root, outside = tmp_path / "data", tmp_path / "outside"
    (root / "mine").mkdir(parents=True)
    outside.mkdir()
    (root / "mine" / "graph.json").write_text(json.dumps(TINY), encoding="utf-8")
    (outside / "graph.json").write_text(json.dumps(TINY), encoding="utf-8")
    (root / "escape").symlink_to(outside, target_is_directory=True)
    monkeypatch.setenv("GRAPHREASON_DATA_ROOT", str(root))
    monkeypatch.setenv("GRAPHREASON_SERVER", "1")
    return {"root": root, "outside": outside}


def test_trust_comes_from_the_environment(trusted, monkeypatch: pytest.MonkeyPatch) -> None:
    assert not context_is_untrusted()
    monkeypatch.setenv("LANGSERVE_GRAPHS", '{"g": "x.py:g"}')  # set by every LangGraph API server
    assert context_is_untrusted()
    monkeypatch.setenv("GRAPHREASON_TRUST_CLIENTS", "1")
    assert not context_is_untrusted()
    monkeypatch.delenv("LANGSERVE_GRAPHS")
    monkeypatch.delenv("GRAPHREASON_TRUST_CLIENTS")
    monkeypatch.setenv("GRAPHREASON_SERVER", "1")
    assert context_is_untrusted()


def test_paths_inside_the_data_root_resolve(server) -> None:
    assert confine_path("mine") == (server["root"] / "mine").resolve()
    assert confine_path("mine/./graph.json").name == "graph.json"
    assert load_graph("mine").neighbors("a", "link") == ["b"]


@pytest.mark.parametrize(
    "how", ["absolute", "inside_but_absolute", "dotdot", "home", "symlink", "file_in_symlink"]
)
def test_paths_leading_out_are_refused(server, how: str) -> None:
    spec = {
        "absolute": str(server["outside"] / "graph.json"),
        "inside_but_absolute": str(server["root"] / "mine"),  # clients name paths relative to the root
        "home": "~/graph.json",
        "dotdot": "../outside/graph.json",
        "symlink": "escape",
        "file_in_symlink": "escape/graph.json",
    }[how]
    with pytest.raises(PolicyError, match="is refused") as err:
        load_graph(spec)
    assert str(server["root"]) not in str(err.value).replace(spec, "")  # nothing learnt about the disk


def test_allowlisted_folder(server, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRAPHREASON_GRAPH_DIRS", str(server["outside"].parent))
    assert len(load_graph("outside/graph.json")) == 2


def test_missing_graph_inside_the_root_is_a_graph_file_error(server) -> None:
    with pytest.raises(GraphFileError, match="no file or folder exists under the data root"):
        load_graph("nothing/here.json")


def test_trusted_process_loads_any_path(trusted, server, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GRAPHREASON_SERVER")
    assert len(load_graph(str(server["outside"]))) == 2


def test_model_values(server) -> None:
    check_model_value("local", "reasoner_model")
    check_model_value("openai:gpt-4o-mini", "judge_model")
    for spec in ("scripted:/etc/passwd", " Scripted:x.json"):
        with pytest.raises(PolicyError, match="scripted models read a file"):
            check_model_value(spec, "reasoner_model")
    with pytest.raises(PolicyError, match="must be a model spec string"):
        check_model_value(42, "reasoner_model")


def test_owner_can_limit_the_models(server, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRAPHREASON_MODELS", "local, openai:gpt-4o-mini")
    check_model_value("openai:gpt-4o-mini", "judge_model")
    with pytest.raises(PolicyError, match="this server offers local, openai:gpt-4o-mini"):
        check_model_value("openai:o1-pro", "judge_model")


def test_base_url_and_factory_guard(server, monkeypatch: pytest.MonkeyPatch) -> None:
    check_base_url(None)
    with pytest.raises(PolicyError, match="would receive the server's API key"):
        check_base_url("http://attacker.example/v1")
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    check_model_spec("openai", "http://127.0.0.1:9/v1")  # the configured endpoint itself
    with pytest.raises(PolicyError):
        check_model_spec("openai", "http://attacker.example/v1")
    with pytest.raises(PolicyError):
        check_model_spec("scripted", None)


def test_embedding_models(server) -> None:
    for name in ("minilm", "mpnet", "hash", "hash:64"):
        check_embedding_model(name)
    for name in ("hash:99999999999", "hash:0", str(server["outside"]), "mine", "", None):
        with pytest.raises(PolicyError, match="model folders are set by the server's owner"):
            check_embedding_model(name)


@pytest.mark.parametrize("spec", ["mine/graph.json\x00.txt", "mine\x00", "mine/\ngraph.json"])
def test_control_characters_in_a_path_get_the_policy_message(server, spec: str) -> None:
    with pytest.raises(PolicyError, match="may not hold control characters"):
        confine_path(spec)


def test_a_symlink_loop_gets_the_policy_message(server) -> None:
    (server["root"] / "loop").symlink_to(server["root"] / "loop")
    with pytest.raises(PolicyError, match="cannot be resolved") as err:
        load_graph("loop/graph.json")
    assert str(server["root"]) not in str(err.value)


def test_a_data_root_reached_through_a_symlink_still_takes_relative_paths(
    server, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from graphreason import settings

    linked = tmp_path / "work"
    (linked / "shared").mkdir(parents=True)
    (linked / "shared" / "data").symlink_to(server["root"], target_is_directory=True)
    monkeypatch.delenv("GRAPHREASON_DATA_ROOT")
    monkeypatch.setattr(settings, "REPO_ROOT", linked / "main")
    monkeypatch.chdir(tmp_path)
    assert settings.data_root() == server["root"].resolve()
    assert confine_path("mine") == (server["root"] / "mine").resolve()
    assert load_graph("mine").neighbors("a", "link") == ["b"]
