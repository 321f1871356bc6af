"""The Graph-ToolFormer workflow end to end: scripted generator, real parser, executor and toolx."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from graphreason.workflows.models.scripted import ScriptedChatModel
from graphreason.workflows.toolformer import ToolformerContext, solve, stream_solve
from graphreason.workflows.toolformer.generate import clean_reply
from graphreason.workflows.toolformer.graph import graph
from tests.conftest import require_data

GOLD = 'The order of the bull graph is [GR(GL("gpr", {"bull_graph"}), "toolx:order")-->r].'


def context(*replies: str, few_shot: int = 0) -> ToolformerContext:
    return ToolformerContext(
        generator_model=ScriptedChatModel(script=list(replies)), few_shot=few_shot, embedding_model="hash"
    )


def test_generated_call_is_parsed_executed_and_substituted() -> None:
    out = solve("What is the order of the bull graph?", context(GOLD))
    assert out["annotated"] == GOLD
    assert out["calls"] == ['[GR(GL("gpr", {"bull_graph"}), "toolx:order")-->r]']
    assert out["results"][0]["ok"] and out["results"][0]["value"] == 5
    assert out["final"] == "The order of the bull graph is 5."
    assert out["usage"]["llm_calls"] == 1 and out["usage"]["seconds"] >= 0
    assert [n["step"] for n in out["trace"]] == ["generate", "parse", "execute", "post_process"]


def test_text_with_calls_skips_generation() -> None:
    out = solve(GOLD, ToolformerContext(generator_model="local", embedding_model="hash"), has_calls=True)
    assert out["final"] == "The order of the bull graph is 5."
    assert out["usage"]["llm_calls"] == 0


@pytest.mark.parametrize(
    "reply",
    [
        "",  # nothing at all
        "Sure! Here you go: the bull graph is nice.",  # no call
        'The order is [GR(GL("gpr", {"bull_graph"}), "toolx:order"-->r]',  # broken call
        'The order is [GR(GL("gpr", {"bull_graph"}), "toolx:ordre")-->r]',  # unknown function
    ],
)
def test_weak_generator_output_never_crashes(reply: str) -> None:
    out = solve("What is the order of the bull graph?", context(reply))
    assert isinstance(out["final"], str) and out["final"]
    assert all(not r["ok"] for r in out["results"])
    if "-->r]" in reply and '"toolx:order"-->' in reply:  # the broken call is reported, not dropped
        assert len(out["parse_errors"]) == 1 and "toolx:order" in out["parse_errors"][0]


def test_reply_cleaning_keeps_the_first_sentence_line() -> None:
    assert clean_reply("\n Output: The x is [TBR].\nInput: next") == "The x is [TBR]."
    assert clean_reply("   \n") == ""


def test_events_stream_in_order() -> None:
    events: list[dict] = []
    stream_solve("What is the order of the bull graph?", context(GOLD), on_event=events.append)
    kinds = [e["event"] for e in events]
    assert kinds == ["generated", "call", "result", "final"]


def test_input_is_validated() -> None:
    with pytest.raises(ValidationError):
        solve("   ", context(GOLD))
    with pytest.raises(ValidationError):
        solve("x" * 20_001, context(GOLD))


def test_graph_exports_typed_schemas() -> None:
    assert set(graph.get_input_jsonschema()["properties"]) == {"text", "has_calls", "messages"}  # messages: chat
    assert {"final", "results", "calls", "usage"} <= set(graph.get_output_jsonschema()["properties"])


@pytest.mark.data
def test_few_shot_examples_come_from_the_training_split(tmp_path, monkeypatch) -> None:
    require_data("Graph_Toolformer")
    monkeypatch.setenv("GRAPHREASON_CACHE", str(tmp_path))
    model = ScriptedChatModel(script=[GOLD])
    out = solve(
        "What is the order of the bull graph?",
        ToolformerContext(generator_model=model, few_shot=3, embedding_model="hash"),
    )
    assert len(out["examples"]) == 3
    prompt = model.calls[0][-1].content
    assert prompt.count("Input:") == 4 and prompt.rstrip().endswith("Output:")
    from graphreason.tools.toolformer.loaders.prompts import iter_prompt_files, read_prompts
    from graphreason.tools.toolformer.loaders.split import split_records

    held_out = set()
    for dataset, path in iter_prompt_files():
        if path.name == "prompts_train":
            held_out |= {f"{dataset}:{r.index}" for r in split_records(read_prompts(path, problems=[]))[1]}
    assert not set(out["examples"]) & held_out  # validation prompts are never shown
