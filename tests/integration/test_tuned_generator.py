"""The shipped generator adapter, for real: its card, its merge into the engine, calls that parse.

What the tuned model writes differs between CPUs in detail (docs/embedded_model.md), so the
tests check properties: every reply parses into calls of the call language, on the graph the
question names, and generation stops on its own well inside the token budget.
"""

from __future__ import annotations

import hashlib
import json

import pytest

from graphreason.llm.engine.adapter import adapter_digest, shipped_adapter
from graphreason.llm.engine.local_smollm import get_engine
from graphreason.llm.engine.weights import model_cache_dir
from graphreason.workflows.toolformer import ToolformerContext, solve

pytestmark = pytest.mark.integration

QUESTIONS = [  # our own wording, in the styles of three datasets
    ("What is the topic of paper #1033 in the cora bibliographic network?", "cora"),
    ("The star graph has a diameter of [TBR].", "gpr"),
    ("In mutag, what is the function of the chemical molecular graph #40?", "mutag"),
]


def test_the_shipped_adapter_is_small_and_carries_its_card() -> None:
    folder = shipped_adapter("toolformer")
    weights = folder / "adapter_model.safetensors"
    assert weights.stat().st_size <= 10 * 1024 * 1024
    card = json.loads((folder / "card.json").read_text())
    assert card["shipped"]["sha256"] == hashlib.sha256(weights.read_bytes()).hexdigest()
    for field in ("base_model", "data", "split", "hyper_parameters", "training_seconds", "machine", "command",
                  "validation_scores"):
        assert card.get(field), field
    assert card["data"]["prompt_form"] == "short"  # what the workflow sends the tuned generator
    # the unseen graphs are evaluated on, never trained on, in either stage
    assert {"citeseer", "last-fm"} <= set(card["data"]["never_trained_on"])
    for stage in (card["data"], (card.get("earlier_stage") or {}).get("data") or {}):
        assert not {"citeseer", "last-fm"} & set(stage.get("train_counts") or {})


def test_the_tuned_generator_writes_calls_that_parse() -> None:
    context = ToolformerContext(embedding_model="hash", execute_calls=False)  # the defaults: local, tuned
    for question, dataset in QUESTIONS:
        out = solve(question, context)
        assert out["trace"][0]["generator"] == "tuned"
        assert out["parse_errors"] == [], (question, out["annotated"])
        assert out["calls"] and f'GL("{dataset}"' in out["calls"][0], (question, out["annotated"])
        assert 0 < out["usage"]["output_tokens"] < context.max_tokens  # it stopped on its own


def test_the_merge_is_its_own_cache_entry_beside_the_plain_model() -> None:
    tuned = get_engine(adapter="toolformer")
    plain = get_engine()
    assert tuned is not plain and tuned.adapter == "toolformer" and plain.adapter is None
    merged = model_cache_dir().parent / f"smollm2-135m+toolformer-{adapter_digest(shipped_adapter('toolformer'))}"
    assert (merged / "meta.json").is_file() and (model_cache_dir() / "meta.json").is_file()
