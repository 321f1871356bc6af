"""GraphAgent's faithful agent on the embedded SmolLM2 (plain and tuned), decoding under the reply format.

Without the grammar the 135M model writes no command the loop can run; with it
every decision is a command the run offers, and on its last step the agent
answers with a label of the label set. The label itself is the model's choice
and is not checked (a 135M model is rarely right); the run's shape is.
"""

from __future__ import annotations

import pytest

from graphreason.workflows.graphagent import GraphAgentContext, solve
from tests.workflows.graphagent.fixtures import install

pytestmark = [pytest.mark.integration, pytest.mark.heavy]


def test_the_embedded_agent_writes_runnable_commands_and_answers(cache_sharing_the_model):
    install()  # the tiny dataset of the unit tests, with its label set
    context = GraphAgentContext(
        agent_model="local", dataset="tiny", embedding_model="hash", graph_tool=False, long_term=False,
        summarise=False, max_steps=2, seed=3, tuned_agent=False,
    )  # fmt: skip
    out = solve("107", context)
    assert out["ended_by"] == "answer", out
    assert out["answer"] in out["labels"] and out["agent_answer"] == out["answer"]
    steps = out["steps"]
    assert 1 <= len(steps) <= 2
    for step in steps:
        assert step["valid"], step  # every reply read as a command the run offers


def test_the_tuned_agent_reads_then_answers_with_a_label_of_the_set(cache_sharing_the_model):
    """The default with the embedded model: the shipped adapter, its short prompt, the reply grammar."""
    install()
    context = GraphAgentContext(dataset="tiny", embedding_model="hash", graph_tool=False, seed=3)
    assert context.tuned_spec == "local:smollm2-135m-graphagent"
    out = solve("107", context)
    assert out["ended_by"] == "answer", out
    assert out["answer"] in out["labels"] and out["agent_answer"] == out["answer"]
    steps = out["steps"]
    assert all(step["valid"] for step in steps), steps  # every reply read as a command the run offers
    assert steps and steps[0]["command"] in ("get_features", "get_neighbors")  # it looks before it answers
    assert out["usage"]["llm_calls"] == len(steps)  # one call per decision: no summary or lesson calls
