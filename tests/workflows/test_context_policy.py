"""Run contexts of both workflows under the server policy, and their JSON schema."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from langchain_core.language_models.fake_chat_models import FakeListChatModel

from graphreason.tools.core.policy import PolicyError
from graphreason.workflows.counselor.context import CounselorContext
from graphreason.workflows.gar.context import GARContext
from graphreason.workflows.models import make_chat_model


@pytest.fixture
def trusted(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("GRAPHREASON_SERVER", "GRAPHREASON_TRUST_CLIENTS", "LANGSERVE_GRAPHS"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def server(trusted, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    (tmp_path / "g").mkdir()
    (tmp_path / "g" / "graph.json").write_text("{}", encoding="utf-8")
    monkeypatch.setenv("GRAPHREASON_DATA_ROOT", str(tmp_path))
    monkeypatch.setenv("GRAPHREASON_SERVER", "1")
    return tmp_path


def test_trusted_callers_keep_base_url_scripted_and_model_objects(trusted, tmp_path: Path) -> None:
    model = FakeListChatModel(responses=["x"])
    ctx = CounselorContext(
        graph=str(tmp_path), reasoner_model=model, judge_model="scripted:s.json", base_url="http://h/v1"
    )
    assert ctx.reasoner_model is model and ctx.base_url == "http://h/v1"
    assert GARContext(master_model=model, agent_model="scripted:a.json").master_model is model


@pytest.mark.parametrize(
    "fields, message",
    [
        ({"base_url": "http://127.0.0.1:1/v1"}, "would receive the server's API key"),
        ({"reasoner_model": "scripted:/etc/passwd"}, "scripted models read a file"),
        ({"judge_model": "scripted:/etc/passwd"}, "scripted models read a file"),
        ({"graph": "/etc"}, "graph '/etc' is refused"),
        ({"graph": "../../etc/passwd"}, "is refused"),
        ({"graph": "~/graph.json"}, "is refused"),
        ({"embedding_model": "/usr/lib"}, "embedding_model='/usr/lib' is refused"),
    ],
)
def test_counselor_context_from_a_client_is_checked(server, fields: dict, message: str) -> None:
    with pytest.raises(PolicyError, match=message):
        CounselorContext(**fields)


@pytest.mark.parametrize(
    "fields",
    [
        {"base_url": "http://127.0.0.1:1/v1"},
        {"master_model": "scripted:/etc/passwd"},
        {"agent_model": "scripted:/etc/passwd"},
        {"embedding_model": "/usr/lib"},
    ],
)
def test_gar_context_from_a_client_is_checked(server, fields: dict) -> None:
    with pytest.raises(PolicyError, match="refused"):
        GARContext(**fields)


def test_allowed_choices_pass_on_a_server(server) -> None:
    ctx = CounselorContext(graph="g", reasoner_model="openai:gpt-4o-mini", embedding_model="hash")
    assert ctx.graph == "g" and CounselorContext(graph="cora").graph == "cora"
    assert GARContext(master_model="local", agent_model="rules").agent_model == "rules"


def test_factory_refuses_scripted_models_on_a_server(server, tmp_path: Path) -> None:
    script = tmp_path / "s.json"
    script.write_text(json.dumps(["secret"]), encoding="utf-8")
    with pytest.raises(PolicyError):
        make_chat_model(f"scripted:{script}")


def test_context_schema_offers_string_model_fields() -> None:
    from graphreason.workflows.counselor.graph import graph as counselor
    from graphreason.workflows.gar.graph import graph as gar

    for graph, names in (
        (counselor, ("reasoner_model", "reflector_model", "judge_model")),
        (gar, ("master_model", "agent_model")),
    ):
        props = graph.get_context_jsonschema()["properties"]
        for name in names:
            types = {props[name].get("type")} | {t.get("type") for t in props[name].get("anyOf", [])}
            assert "string" in types and props[name]["description"], (name, props[name])
