"""Odd values returned by a designed ``result()`` fail the design (and go back to the master), never the run."""

from __future__ import annotations

import pytest

from tests.workflows.gar.test_design import (
    DESIGN_NEW,
    MOST_LINKS,
    MOST_LINKS_Q,
    TRIANGLES,
    TRIANGLES_Q,
    fenced,
    run,
    truth_triangles,
)


def with_result(body: str) -> str:
    """MOST_LINKS with its ``result()`` replaced by ``body``."""
    return MOST_LINKS.split("def result")[0] + f"def result(states, params):\n{body}\n"


def test_a_set_of_frozensets_is_read_back_and_repaired_when_wrong():
    """The decoder once crashed on ``{frozenset(...)}``, ending the GAR run at test_design."""
    odd = fenced(with_result("    return {frozenset([1, 2])}"))
    out, model = run(TRIANGLES_Q, DESIGN_NEW, odd, fenced(TRIANGLES))
    assert out["structured"]["value"] == truth_triangles()
    repair = model.calls[2][-1].content
    assert "wrong on graph 1" in repair and "frozenset({1, 2})" in repair


def test_a_set_of_frozensets_is_an_answer_when_nothing_can_judge_it():
    out, _ = run(MOST_LINKS_Q, DESIGN_NEW, fenced(with_result("    return {frozenset([1, 2])}")))
    assert out["structured"]["value"] == [[1, 2]]


ODD_RESULTS = {
    "generator": ("    return (x for x in range(3))", "type generator"),
    "exception object": ("    return ValueError('x')", "type ValueError"),
    "bytes": ("    return b'abc'", "type bytes"),
    "huge int": ("    return 10 ** 5000", "bits cannot pass"),
    "nested 10^4 deep": ("    x = []\n    for i in range(10000):\n        x = [x]\n    return x", "nested"),
    "nan": ("    return float('nan')", "NaN"),
}


@pytest.mark.parametrize(("body", "words"), ODD_RESULTS.values(), ids=ODD_RESULTS.keys())
def test_odd_results_fail_the_design_with_a_reason(body, words):
    # no reference to judge by: only running cleanly (and answering something) is checked
    out, _ = run(MOST_LINKS_Q, DESIGN_NEW, fenced(with_result(body)), design_attempts=1)
    assert out["structured"]["value"] is None and out["structured"]["complete"] is False
    assert out["answer"].startswith("No answer") and words in out["answer"]


def test_a_huge_int_against_an_oracle_is_a_wrong_answer():
    out, _ = run(TRIANGLES_Q, DESIGN_NEW, fenced(with_result("    return 10 ** 400")), design_attempts=1)
    assert out["structured"]["value"] is None and "wrong on graph 1" in out["answer"]
