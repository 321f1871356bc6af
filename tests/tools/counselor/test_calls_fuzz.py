"""The Action readers never raise on hostile text (issue 7 §4): fixed cases and a seeded fuzz run."""

from __future__ import annotations

import pytest

from graphreason.tools.counselor.calls import (
    MAX_ACTION_CHARS,
    MAX_NESTING,
    ActionParseError,
    parse_action,
    run_action,
)
from graphreason.tools.counselor.functions import GraphFunctions
from graphreason.workflows.counselor.parsing import clean_line, regularize_answer
from tests.tools.counselor.action_fuzz import fuzz


@pytest.mark.parametrize(
    "text",
    ["x[" * 300 + "1" + "]" * 300, "Feature[" * 300 + "1" + "]" * 300, "Feature(" * 2000, "[" * 5000],
)
def test_deep_nesting_is_a_parse_error_that_names_the_limit(text: str, functions: GraphFunctions) -> None:
    with pytest.raises(ActionParseError, match=f"limit of {MAX_NESTING}"):
        parse_action(text)
    result = run_action(text, functions)
    assert not result.ok and str(MAX_NESTING) in result.observation and "Retrieve[" in result.observation


def test_nesting_within_the_limit_still_parses() -> None:
    text = "Feature[" * 10 + "1" + ", title]" * 10
    assert parse_action(text)[0].depth == 10


def test_overlong_action_is_refused(functions: GraphFunctions) -> None:
    result = run_action("Feature[1, title] " + "x" * MAX_ACTION_CHARS, functions)
    assert not result.ok and "characters long" in result.observation


def test_huge_json_integer_is_kept_as_text(functions: GraphFunctions) -> None:
    digits = "9" * 5000
    calls = parse_action('{"function": "Feature", "args": [' + digits + ', "title"]}')
    assert calls[0].args[0] == digits
    result = run_action('{"function": "Degree", "args": [' + digits + ', "cites"]}', functions)
    assert not result.ok and "node" in result.observation.lower()
    assert clean_line('{"plan": "look up", "step": ' + digits + "}", "plan") == "look up"


def test_deep_json_plan_falls_back_to_text() -> None:
    plan = '{"plan": ' * 3000 + '"x"' + "}" * 3000
    assert isinstance(clean_line(plan, "plan"), str)
    assert isinstance(regularize_answer("[" * 3000 + "]" * 3000), str)


def test_seeded_fuzz_finds_no_crash(functions: GraphFunctions) -> None:
    report = fuzz(functions, n=2000, seed=7)
    assert report.cases == 2000
    assert report.crashes == []
