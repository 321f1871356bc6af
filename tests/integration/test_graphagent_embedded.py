"""GraphAgent's faithful agent on the embedded SmolLM2, decoding under the reply format.

Without the grammar the 135M model writes no command the loop can run; with it
every decision is a command the run offers, and on its last step the agent
answers with a label of the label set. The label itself is the model's choice
and is not checked (a 135M model is rarely right); the run's shape is.
"""

from __future__ import annotations

import pytest

from graphreason.workflows.graphagent import GraphAgentContext, solve
from tests.workflows.graphagent.fixtures import install

pytestmark = [pytest.mark.integration]


def test_the_embedded_agent_writes_runnable_commands_and_answers(cache_sharing_the_model):
    install()  # the tiny dataset of the unit tests, with its label set
    context = GraphAgentContext(
        agent_model="local", dataset="tiny", embedding_model="hash", graph_tool=False, long_term=False,
        summarise=False, max_steps=2, seed=3,
    )  # fmt: skip
    out = solve("107", context)
    assert out["ended_by"] == "answer", out
    assert out["answer"] in out["labels"] and out["agent_answer"] == out["answer"]
    steps = out["steps"]
    assert 1 <= len(steps) <= 2
    for step in steps:
        assert step["valid"], step  # every reply read as a command the run offers
