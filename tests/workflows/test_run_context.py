"""The shared run context: field helpers, model-spec fields (Studio's picker, the policy), Literal checks."""

from __future__ import annotations

import typing
from dataclasses import dataclass, fields
from typing import Literal

import pytest
from pydantic import TypeAdapter

from graphreason.tools.core.policy import PolicyError
from graphreason.workflows.counselor.context import CounselorContext
from graphreason.workflows.gar.context import GARContext
from graphreason.workflows.run_context import (
    SPEC_FORMS,
    ModelName,
    OptionalModelName,
    RunContext,
    main_model,
    model_field_names,
    setting,
)

PICKER = {"kind": "llm"}


@dataclass(kw_only=True)
class ToyContext(RunContext):
    """A method context written with the helpers alone."""

    MODEL_FIELDS = ("legacy_model",)  # a model field declared the old way still reaches the policy

    main: ModelName = main_model("Model that does the work")
    helper: OptionalModelName = setting(None, "Second model; unset = the main one.")
    legacy_model: str = setting("", "A model field typed plain str.")
    mode: Literal["fast", "slow"] = setting("fast", "How to run.")
    rounds: int = setting(3, "Rounds per run.", flag="--n-rounds")  # no policy code: RunContext applies it


def test_setting_declares_default_description_and_flag() -> None:
    rounds = next(f for f in fields(ToyContext) if f.name == "rounds")
    assert rounds.default == 3
    assert dict(rounds.metadata) == {"description": "Rounds per run.", "cli": True, "flag": "--n-rounds"}
    main = next(f for f in fields(ToyContext) if f.name == "main")
    assert main.default == "local" and main.metadata["flag"] == "--model"
    assert main.metadata["description"] == f"Model that does the work: {SPEC_FORMS}."


def test_model_fields_are_found_by_their_type() -> None:
    assert model_field_names(ToyContext) == ("main", "helper")
    assert ToyContext.model_fields() == ("main", "helper", "legacy_model")
    assert CounselorContext.model_fields() == ("reasoner_model", "reflector_model", "judge_model")
    assert GARContext.model_fields() == ("master_model", "agent_model")


def test_model_fields_stay_plain_strings_for_python_and_the_cli() -> None:
    hints = typing.get_type_hints(ToyContext)  # what graphreason.cli.context_options reads
    assert hints["main"] is str and hints["helper"] == str | None


def test_json_schema_marks_every_model_field_for_studio() -> None:
    props = TypeAdapter(ToyContext).json_schema()["properties"]
    assert props["main"]["__template_metadata__"] == PICKER and props["main"]["type"] == "string"
    assert props["helper"]["__template_metadata__"] == PICKER
    assert {t["type"] for t in props["helper"]["anyOf"]} == {"string", "null"}
    assert "__template_metadata__" not in props["rounds"] and "__template_metadata__" not in props["legacy_model"]


def test_both_workflows_serve_the_picker_metadata() -> None:
    from graphreason.workflows.counselor.graph import graph as counselor
    from graphreason.workflows.gar.graph import graph as gar

    for graph, names in ((counselor, CounselorContext.model_fields()), (gar, GARContext.model_fields())):
        props = graph.get_context_jsonschema()["properties"]  # what `langgraph dev` sends Studio
        assert {n for n, p in props.items() if p.get("__template_metadata__") == PICKER} == set(names)


def test_every_literal_field_is_checked() -> None:
    assert ToyContext(mode="slow").mode == "slow"
    with pytest.raises(ValueError, match="unknown mode 'medium'; choose one of fast, slow"):
        ToyContext(mode="medium")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown reflection_policy 'forget'; choose one of accumulate, replace"):
        CounselorContext(reflection_policy="forget")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="choose one of compiled, agents"):
        GARContext(mode="fast")  # type: ignore[arg-type]


def test_the_policy_checks_typed_and_listed_model_fields(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GRAPHREASON_TRUST_CLIENTS", raising=False)
    monkeypatch.setenv("GRAPHREASON_SERVER", "1")
    for name in ("main", "helper", "legacy_model"):
        with pytest.raises(PolicyError, match=f"{name}='scripted:x.json' is refused"):
            ToyContext(**{name: "scripted:x.json"})
