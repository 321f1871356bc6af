"""``graphreason demo`` with the embedded model, as a user runs it: exact GAR answers, the reference
plan right, the tuned reasoner's attempt on CiteSeer beside its gold with its measured rate, and the flag for
a real endpoint.

The demo runs as a real child process (``demo_run`` in conftest.py), started beside the
other slow child of the suite so that the two overlap."""

from __future__ import annotations

import re
import subprocess

import pytest

pytestmark = [pytest.mark.integration, pytest.mark.data]


def test_demo_with_the_embedded_model_is_right_where_it_can_be_and_honest_elsewhere(
    demo_run: subprocess.CompletedProcess[str],
):
    out = demo_run.stdout
    assert demo_run.returncode == 0, demo_run.stderr[-3000:]
    # GAR: the vertex engine's answers, whatever the small master replied
    assert "Answer: No." in out and "Answer: 7." in out
    # Counselor: the reference plan reaches its gold; the tuned reasoner (the shipped adapter, by default) answers
    # a question of the graph it never saw in training, beside its gold, and the card's measured rate is quoted
    gold_lines = [line for line in out.splitlines() if line.startswith("Gold  : ")]
    assert len(gold_lines) == 2 and gold_lines[0].endswith("[right]")
    assert gold_lines[1].endswith(("[right]", "[wrong]"))
    assert "Model 'local:smollm2-135m-counselor', question 1/1 on 'citeseer'" in out
    assert "The tuned reasoner (local:smollm2-135m-counselor" in out and "never citeseer" in out
    assert re.search(r"own templates over citeseer \(in-template\) \d+\.\d%", out), out  # labelled as such
    assert "--model openai:MODEL --base-url URL" in out
    # Graph-ToolFormer: whatever the model wrote, the annotated call runs exactly
    assert "Annotated call run by the executor: The diameter of the lollipop graph is 11." in out
    assert "Generated: " in out and "Final    : " in out
    assert "Generator: tuned (local:smollm2-135m-toolformer" in out  # the shipped adapter by default
    # GraphAgent: the reference policy runs the real loop to an answer; the model's attempt ends one way or another
    part = out[out.index("GraphAgent on Cora paper") :]
    assert "command: get_features" in part and "command: get_neighbors" in part
    assert "The tuned agent's own attempt (local:smollm2-135m-graphagent" in part  # the shipped adapter
    answers = [line for line in part.splitlines() if line.startswith("Answer: ")]
    assert len(answers) == 2 and "gold: " in answers[0] and "ended by: " in answers[1]
    assert answers[0].split()[1] != "None"  # the policy always answers with a label
    # the model's own answer, when it gives one, is said to be right or wrong
    assert "(none)" in answers[1] or answers[1].endswith(("(right)", "(wrong)")), answers[1]
