"""Metrics against hand-computed values."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from graphreason.evals.metrics import (
    answer_items,
    exact_match,
    llm_judge,
    normalize_answer,
    parse_judgement,
    rouge_l,
    score_answer,
)
from graphreason.workflows.models.scripted import ScriptedChatModel


def test_rouge_l_recall_precision_f1_by_hand():
    # prediction: the cat sat on mat (5 tokens); reference: the cat was on the mat (6 tokens)
    # LCS = the cat on mat = 4 -> recall 4/6, precision 4/5, F1 = 2*R*P/(R+P) = 16/22
    score = rouge_l("the cat sat on mat", "the cat was on the mat")
    assert score.recall == pytest.approx(4 / 6)
    assert score.precision == pytest.approx(4 / 5)
    assert score.f1 == pytest.approx(16 / 22)


def test_rouge_l_recall_rewards_covering_the_reference():
    # a verbose answer containing the whole reference has full recall, lower F1
    score = rouge_l("The answer is Ada Lovelace of course", "Ada Lovelace")
    assert score.recall == 1.0
    assert score.f1 == pytest.approx(2 * (2 / 7) / (1 + 2 / 7))
    assert rouge_l("", "Ada Lovelace").recall == 0.0
    assert rouge_l("completely different", "Ada Lovelace").f1 == 0.0


def test_normalize_answer():
    assert normalize_answer("  The  Cat's   HAT! ") == "cat s hat"
    assert normalize_answer("An apple, a pear.") == "apple pear"
    assert normalize_answer("“Quoted” — dash") == "quoted dash"


def test_exact_match_normalises_case_punctuation_articles_space():
    assert exact_match("the Vision.", "vision")
    assert exact_match("  Ada   Lovelace ", "ada lovelace")
    assert not exact_match("Ada", "Ada Lovelace")
    assert not exact_match("", "")  # an empty prediction never matches


def test_exact_match_takes_true_for_yes_and_false_for_no():
    assert exact_match("True", "yes") and exact_match("no", "False") and exact_match("TRUE.", "true")
    assert not exact_match("True", "no") and not exact_match("False", "yes")
    assert not exact_match("yes, 3", "True")  # a yes with more to it is no truth value


def test_exact_match_list_answers_are_order_free_sets():
    gold = ["Carol Newman Cronin", "Laurie Ann Cronin"]
    assert exact_match("Laurie Ann Cronin and Carol Newman Cronin", gold)
    assert exact_match("laurie ann cronin; carol newman cronin.", gold)
    assert not exact_match("Laurie Ann Cronin", gold)  # an item missing
    assert not exact_match("Laurie Ann Cronin, Carol Newman Cronin, Bob", gold)  # an item too many
    # a GRBench-style comma-joined string is a list as well
    assert exact_match("Laurie Ann Cronin, Carol Newman Cronin", "Carol Newman Cronin, Laurie Ann Cronin")
    assert answer_items(["A b", "the C"]) == frozenset({"b", "c"})  # articles dropped per item
    assert answer_items("x, y; z and w") == frozenset({"x", "y", "z", "w"})


def test_score_answer_uses_items_for_em_and_text_for_rouge():
    scores = score_answer("Bo Chen, Ann Lee", "Ann Lee, Bo Chen", ["Ann Lee", "Bo Chen"])
    assert scores["exact_match"] == 1.0
    assert scores["rouge_l"] == pytest.approx(
        2 / 4
    )  # LCS of 'bo chen ann lee' vs 'ann lee bo chen' is 2 tokens
    assert set(scores) == {"rouge_l", "rouge_l_f1", "exact_match"}


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("yes", True),
        ("No.", False),
        ("[yes] The candidate names the same paper.", True),
        ("The candidate is wrong, so: [no]", False),
        ("Correct - both name Ada Lovelace", True),
        ("Incorrect; the reference says Vision.", False),
        ("I cannot tell.", None),
    ],
)
def test_parse_judgement_is_tolerant(reply, expected):
    assert parse_judgement(reply) is expected


def test_llm_judge_sends_question_gold_and_prediction(tmp_path: Path):
    model = ScriptedChatModel(script=["Yes, same person.", "no"])
    assert llm_judge("Who wrote X?", "Ada Lovelace", "It was Ada Lovelace.", model) is True
    prompt = "\n".join(str(m.content) for m in model.calls[0])
    assert (
        "Who wrote X?" in prompt
        and "Reference answer: Ada Lovelace" in prompt
        and "It was Ada Lovelace." in prompt
    )
    assert llm_judge("Who wrote X?", "Ada Lovelace", "Alan Turing", model) is False
    # an empty prediction costs no model call
    assert llm_judge("Who wrote X?", "Ada Lovelace", "  ", model) is False and len(model.calls) == 2


def test_llm_judge_accepts_a_model_spec(tmp_path: Path):
    script = tmp_path / "judge.json"
    script.write_text(json.dumps(["I would say [yes]."]))
    assert llm_judge("Q?", "4", "four (4)", f"scripted:{script}") is True
