"""CounselorContext: the step and reflection budget when none is given."""

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
