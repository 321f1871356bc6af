"""The tuned reasoner's short prompt: what it holds, and that the workflow sends it only when asked."""

from __future__ import annotations

from pathlib import Path

import pytest

from graphreason.tools.core.loaders import load_graph
from graphreason.workflows.counselor import CounselorContext, solve
from graphreason.workflows.counselor.tuned import FUNCTIONS, graph_line, tuned_prompt
from graphreason.workflows.models.scripted import ScriptedChatModel

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "mini_academic.json"
QUESTION = "Who wrote the paper Sparse coding of natural images?"
SCRIPT = [
    "find the paper, then read its authors", "I need the paper node first",
    "Retrieve[Sparse coding of natural images]", "the id is known", "read its authors' names",
    "Feature[Neighbour[p2, author], name]", "the names are in", "they answer the question", "Finish[Olshausen]",
]  # fmt: skip


def _run(tuned: bool) -> tuple[ScriptedChatModel, dict]:
    model = ScriptedChatModel(script=list(SCRIPT))
    context = CounselorContext(
        graph=str(FIXTURE), embedding_model="hash", reasoner_model=model, reflector_model=model, judge_model=model,
        mode="no_reflection", max_steps=3, tuned_reasoner=tuned,
    )  # fmt: skip
    return model, solve(QUESTION, context)


def test_the_prompt_names_the_loaded_graph_and_ends_with_the_line_to_write() -> None:
    store = load_graph(str(FIXTURE))
    steps = [{"index": 1, "plan": "p", "thought": "t", "action": "Retrieve[x]", "observation": "The ID ... is p2."}]
    prompt = tuned_prompt("thought", 2, QUESTION, store, [*steps, {"index": 2, "plan": "next"}], lessons=["Look  again."])
    lines = prompt.splitlines()
    assert lines[0] == graph_line(store) and "Relations: author, cited_by, cites, paper." in lines[0]
    assert lines[1] == f"Functions: {FUNCTIONS}." and lines[2] == "Lesson: Look again."
    assert lines[3] == f"Question: {QUESTION}"
    assert lines[4:] == [
        "Plan 1: p", "Thought 1: t", "Action 1: Retrieve[x]", "Observation 1: The ID ... is p2.", "Plan 2: next",
        "Thought 2:",
    ]  # fmt: skip
    assert "Plan 1" not in tuned_prompt("thought", 1, QUESTION, store, [], with_plan=False)
    with pytest.raises(ValueError, match="role must be one of plan, thought, action"):
        tuned_prompt("judge", 1, QUESTION, store, [])


def test_the_workflow_sends_the_short_prompt_only_when_asked() -> None:
    tuned, out = _run(tuned=True)
    assert out["answer"] == "Olshausen"
    labels = ["Plan 1:", "Thought 1:", "Action 1:", "Plan 2:", "Thought 2:", "Action 2:", "Plan 3:", "Thought 3:"]
    prompts = [str(call[-1].content) for call in tuned.calls]
    assert [p.splitlines()[-1] for p in prompts[:8]] == labels
    assert all(p.startswith("Graph: mini_academic.") and len(p) < 1200 for p in prompts)
    assert "Observation 1: The ID of this retrieval target node is p2." in prompts[3]
    paper, _ = _run(tuned=False)
    assert all("Graph: mini_academic." not in str(call[-1].content) for call in paper.calls)
    assert min(len(str(call[-1].content)) for call in paper.calls) > max(len(p) for p in prompts)
    assert CounselorContext().tuned_reasoner is False  # the paper's prompt unless asked
