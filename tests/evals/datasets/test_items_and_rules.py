"""QAItem validation and JSONL storage; the reference answer rules."""

from __future__ import annotations

from pathlib import Path

import pytest

from graphreason.evals.datasets.answer_rules import apply_answer_rule, format_number
from graphreason.evals.datasets.items import QAItem, load_items, save_items


def test_items_round_trip_through_jsonl(tmp_path: Path) -> None:
    items = [
        QAItem(
            "1",
            "Which papers?",
            "A, B",
            answers=["A", "B"],
            level="easy",
            template="t",
            graph="cora",
            reference_action="Feature[Neighbour[Retrieve[X], cites], title]",
            meta={"reference_answer_rule": "list", "subject": "X"},
        ),
        QAItem("2", "Qui a écrit « Dune » ?", "Frank Herbert"),
    ]
    path = save_items(items, tmp_path / "sub" / "items.jsonl")
    assert len(path.read_text(encoding="utf-8").splitlines()) == 2
    loaded = load_items(path)
    assert (
        loaded == items
        and loaded[0].reference_answer_rule == "list"
        and loaded[1].reference_answer_rule is None
    )


def test_unknown_keys_go_to_meta_and_qid_becomes_text() -> None:
    item = QAItem.from_dict({"qid": 7, "question": "q", "answer": "a", "difficulty": "hard"})
    assert item.qid == "7" and item.meta == {"difficulty": "hard"}


def test_invalid_items_are_rejected(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="level must be one of"):
        QAItem("1", "q", "a", level="expert")
    with pytest.raises(TypeError, match="answer must be a string"):
        QAItem("1", "q", 3)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="missing answer"):
        QAItem.from_dict({"qid": "1", "question": "q"})
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"qid": "1", "question": "q", "answer": "a"}\n{oops\n', encoding="utf-8")
    with pytest.raises(ValueError, match="bad.jsonl line 2"):
        load_items(bad)
    with pytest.raises(FileNotFoundError, match="not found"):
        load_items(tmp_path / "none.jsonl")


@pytest.mark.parametrize(
    ("rule", "result", "expected"),
    [
        ("value", "Theory", ("Theory", None)),
        ("value", 4, ("4", None)),
        ("list", ["b", "A", "b", ""], ("A, b", ["A", "b"])),
        ("list", [["Drama", "War"], ["Drama"]], ("Drama, War", ["Drama", "War"])),
        ("list_without_target", ["X", "Y", "Z"], ("Y, Z", ["Y", "Z"])),
        ("count", 12, ("12", None)),
        ("count", ["1", "2", "2"], ("2", None)),
        ("count_distinct", ["Theory", "Theory", "Case Based"], ("2", None)),
        ("most_common", [["Drama", "War"], ["Drama"], ["War", "Comedy"], ["Drama"]], ("Drama", None)),
        ("mean", [20, 25, 31], ("25.33", None)),
        ("weighted_mean", (0, 0, 1, 1, 2), ("4.25", None)),
        ("argmax", (["P", "Q", "R"], [3, 7, 1]), ("Q", None)),
        ("count_differing", ("Theory", ["Theory", "Case Based", "Rule Learning"]), ("2", None)),
        ("count_same", ("Theory", ["Theory", "Case Based", "Theory"]), ("2", None)),
        ("argmin", (["P", "Q", "R"], [3, 7, 1]), ("R", None)),
        ("count_common", (["a", "b", "c", "c"], ["c", "d", "a"]), ("2", None)),
        ("count_common", (["a"], []), ("0", None)),
        ("count_union", (["a", "b", "c"], ["c", "d"]), ("4", None)),
        ("contains", (["u1", "u2"], "u2"), ("yes", None)),
        ("contains", (["u1", "u2"], "u3"), ("no", None)),
        ("contains", (["07212190", "00521562"], 7212190), ("yes", None)),  # an id read once as a number
        ("count_common", (["07212190"], [7212190, "x"]), ("1", None)),
    ],
)
def test_answer_rules(rule: str, result: object, expected: tuple) -> None:
    assert apply_answer_rule(rule, result, target="X") == expected


def test_answer_rules_refuse_ties_and_bad_shapes() -> None:
    with pytest.raises(ValueError, match="no single most common"):
        apply_answer_rule("most_common", ["a", "b"])
    with pytest.raises(ValueError, match="tie"):
        apply_answer_rule("argmax", (["a", "b"], [2, 2]))
    with pytest.raises(ValueError, match="'argmin' found a tie"):
        apply_answer_rule("argmin", (["a", "b", "c"], [1, 1, 3]))
    with pytest.raises(ValueError, match="needs a scalar"):
        apply_answer_rule("value", ["a"])
    with pytest.raises(ValueError, match="unknown answer rule 'median'"):
        apply_answer_rule("median", [1])


def test_number_format() -> None:
    assert [format_number(x) for x in (3.0, 3.876, 2.5, 0.004, 47.75)] == ["3", "3.88", "2.5", "0", "47.75"]
