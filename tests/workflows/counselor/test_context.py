"""CounselorContext: the step and reflection budget, and the line budgets, when none is given."""

from __future__ import annotations

from graphreason.workflows.counselor.context import EMBEDDED_BUDGET, PAPER_BUDGET, CounselorContext


def test_an_unset_budget_is_the_papers_or_a_bounded_one_for_the_embedded_model() -> None:
    embedded = CounselorContext()
    assert (embedded.max_steps, embedded.max_reflections) == EMBEDDED_BUDGET == (3, 0)
    assert CounselorContext(reasoner_model="local:smollm2-135m").max_steps == 3
    endpoint = CounselorContext(reasoner_model="openai:gpt-4o-mini")
    assert (endpoint.max_steps, endpoint.max_reflections) == PAPER_BUDGET == (10, 2)
    chosen = CounselorContext(max_steps=7, max_reflections=1)
    assert (chosen.max_steps, chosen.max_reflections) == (7, 1)


def test_plan_and_thought_lines_are_short_only_for_the_embedded_model_unless_set() -> None:
    embedded = CounselorContext()
    assert [embedded.line_tokens(k) for k in ("plan", "thought", "action")] == [48, 48, 128]
    endpoint = CounselorContext(reasoner_model="openai:gpt-4o-mini")
    assert [endpoint.line_tokens(k) for k in ("plan", "thought", "action")] == [128, 128, 128]
    chosen = CounselorContext(note_tokens=90, max_tokens=200)
    assert [chosen.line_tokens(k) for k in ("plan", "thought", "action")] == [90, 90, 200]
    assert CounselorContext(max_tokens=30).line_tokens("plan") == 30  # never above the line budget
