"""The operation planner: fitted on labelled questions, written as plain JSON, read back, scored, and used by
the workflow only when it is sure."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from graphreason.evals.counselor.operation_planner import fit_planner, labelled, measure
from graphreason.evals.datasets.items import QAItem
from graphreason.workflows.counselor import operations
from graphreason.workflows.counselor.operations import (
    QUOTED_NAME,
    OperationPlanner,
    PlannerError,
    load_planner,
    planned_skeleton,
    planned_skeletons,
    planner_text,
)

NAMES = ("Blue Train", "Kind of Blue", "Nevermind", "Ten", "Mezzanine", "Ann Lee", "Bo Chen", "Cy Diaz")
ASKS = {
    "Degree[Retrieve[{x}], listens]": ("How many items does {x} listen to?", "Count the items {x} listens to.",
                                       "Number of items {x} listens to?"),
    "Feature[Retrieve[{x}], genre]": ("What is the genre of {x}?", "Tell me the genre of {x}.", "Genre of {x}?"),
    "Count[Intersect[Neighbour[Retrieve[{x}], listener], Neighbour[Retrieve[Ten], listener]]]": (
        "How many listeners do both {x} and Ten share?", "Count the listeners {x} and Ten have in common.",
        "Overlap of the listeners of {x} and Ten: count?"),
}  # fmt: skip


def _items() -> list[QAItem]:
    items = []
    for action, wordings in ASKS.items():
        for name in NAMES:
            for wording in wordings:
                items.append(QAItem(qid=f"q{len(items)}", question=wording.format(x=name), answer="1",
                                    reference_action=action.format(x=name)))  # fmt: skip
    return items


@pytest.fixture(scope="module")
def payload() -> dict:
    return fit_planner(labelled(_items()), min_df=1)


def test_labels_are_the_reference_actions_skeletons_and_multi_call_actions_are_left_out() -> None:
    pairs = labelled([*_items()[:2], QAItem(qid="m", question="?", answer="1", reference_action="Degree[1, a], Degree[2, a]"),
                      QAItem(qid="n", question="?", answer="1")])  # fmt: skip
    assert [label for _, label in pairs] == ["Degree[_]", "Degree[_]"]


def test_a_fitted_planner_is_plain_json_and_reads_back_to_the_same_probabilities(payload: dict, tmp_path: Path) -> None:
    path = tmp_path / "planner.json"
    path.write_text(json.dumps(payload))
    planner = load_planner(path)
    assert set(planner.classes) == {"Degree[_]", "Feature[_]", "Count[Intersect[Neighbour[_], Neighbour[_]]]"}
    rows = planner.probabilities(["How many items does Di Eze listen to?", "Genre of Blue Train?"])
    assert np.allclose(rows.sum(axis=1), 1.0)
    assert planner.predict("How many items does Di Eze listen to?").skeleton == "Degree[_]"  # a name it never saw
    assert planner.predict("Which genre does Mezzanine have?").skeleton == "Feature[_]"


def test_its_figures_say_how_often_it_was_applied_and_right(payload: dict) -> None:
    planner = OperationPlanner(payload)
    row = measure(planner, _items(), confidence=0.0)
    assert row["n"] == len(_items()) and row["applied"] == 100.0
    assert row["top1"] == row["applied_right"] == 100.0  # its own training questions
    strict = measure(planner, _items(), confidence=1.0)
    assert strict["applied"] == 0.0 and strict["applied_right"] is None
    assert measure(planner, [], confidence=0.5) == {"n": 0}


def test_with_the_graph_it_also_scores_the_skeleton_the_questions_words_choose(payload: dict) -> None:
    from graphreason.tools.core.store import GraphStore

    store = GraphStore("music", directed=True, text_keys={"item": "title", "user": "name"})
    for i, name in enumerate(NAMES[:5]):
        store.add_node(f"i{i}", "item", {"title": name, "genre": "jazz"})
    for i, name in enumerate(NAMES[5:]):
        store.add_node(f"u{i}", "user", {"name": name})
    store.add_edge("u0", "i0", "listens", reverse_relation="listener")
    items = [item for item in _items() if "Ten and Ten" not in item.question]  # one node named twice: one name
    # "How many items does <an item> listen to?" asks nothing this graph can answer (an item's links reach users):
    # the words' type check rightly keeps every count from it, so only users are asked what they listen to
    items = [item for item in items if not (item.reference_action.startswith("Degree") and
                                            any(f"[{name}]" in item.reference_action for name in NAMES[:5]))]  # fmt: skip
    row = measure(OperationPlanner(payload), items, 0.0, store)
    assert "worded" not in measure(OperationPlanner(payload), items, 0.0)  # no graph: the planner alone
    assert row["worded"] == {"top1": 100.0, "applied": 100.0, "applied_right": 100.0}


def test_the_sentence_embedding_stands_beside_the_n_grams_and_an_n_gram_planner_still_reads(payload: dict) -> None:
    assert payload["format"] == 3 and payload["embedding"] == {"model": "minilm", "weight": 2.0, "dim": 384}
    planner = OperationPlanner(payload)
    assert planner.features(["Genre of Ten?"]).shape == (1, sum(len(b["idf"]) for b in payload["features"].values()) + 384)
    plain = fit_planner(labelled(_items()), min_df=1, embedding=None)
    assert plain["format"] == 2 and "embedding" not in plain
    assert OperationPlanner(plain).predict("Genre of Blue Train?").skeleton == "Feature[_]"
    first = planner.predict("How many items does Di Eze listen to?")
    assert planner.predict("How many items does Di Eze listen to?") is first  # worked out once per question


def test_one_skeleton_is_too_little_to_fit() -> None:
    with pytest.raises(ValueError, match="at least two skeletons"):
        fit_planner([("How many?", "Degree[_]"), ("How many more?", "Degree[_]")])


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda p: p.update(format=99), "format"),
        (lambda p: p.pop("classes"), "not a planner payload"),
        (lambda p: p.update(intercept=[0.0]), "shapes disagree"),
        (lambda p: p["features"]["words"].update(idf=[1.0]), "shapes disagree"),
        (lambda p: p.pop("embedding"), "embedding block"),
        (lambda p: p["embedding"].update(dim=3), "shapes disagree"),
    ],
)
def test_a_damaged_planner_file_is_refused_with_what_is_wrong(payload: dict, tmp_path: Path, change, message) -> None:
    damaged = json.loads(json.dumps(payload))
    change(damaged)
    path = tmp_path / "planner.json"
    path.write_text(json.dumps(damaged))
    with pytest.raises(PlannerError, match=message):
        load_planner(path)
    path.write_text("{not json")
    with pytest.raises(PlannerError, match="cannot read"):
        load_planner(path)


def test_the_workflow_takes_a_skeleton_only_when_the_planner_is_sure(payload: dict, tmp_path: Path, monkeypatch) -> None:
    path = tmp_path / "planner.json"
    path.write_text(json.dumps(payload))
    monkeypatch.setattr(operations, "planner_path", lambda: path)
    question = "How many items does Di Eze listen to?"
    assert planned_skeleton(question, 0.5) == "Degree[_]"
    ranking = planned_skeletons(question, 0.5)  # what the grammar chooses among: likeliest first
    assert ranking[0].skeleton == "Degree[_]" and len(ranking) <= operations.MAX_CANDIDATES
    assert [g.probability for g in ranking] == sorted((g.probability for g in ranking), reverse=True)
    assert planned_skeleton(question, 0.0) is None and planned_skeletons(question, 0.0) == []  # 0: the planner off
    assert planned_skeleton("", 0.5) is None
    assert planned_skeleton(question, 1.0) is None  # never that sure
    monkeypatch.setattr(operations, "planner_path", lambda: tmp_path / "missing.json")
    assert planned_skeleton(question, 0.5) is None  # none shipped: the Action is free


def test_a_planner_whose_embedding_model_is_missing_leaves_the_action_free(payload: dict, tmp_path: Path, monkeypatch) -> None:
    path = tmp_path / "planner.json"
    path.write_text(json.dumps(payload | {"embedding": {**payload["embedding"], "model": str(tmp_path / "no-model")}}))
    monkeypatch.setattr(operations, "planner_path", lambda: path)
    with pytest.raises(PlannerError, match="sentence embedding could not be computed"):
        load_planner(path).predict("How many items does Di Eze listen to?")
    with pytest.warns(RuntimeWarning, match="operation planner off"):
        assert planned_skeleton("How many items does Di Eze listen to?", 0.5) is None


def test_train_planner_refuses_an_unseen_graph_before_anything_is_read(tmp_path: Path, capsys) -> None:
    from graphreason.cli.main import main

    for argv in (["--graphs", "cora,citeseer"], ["--programs", "last-fm"], ["--programs", "data/citeseer/graph.json"]):
        assert main(["train", "planner", "--out", str(tmp_path / "p"), *argv]) == 2
        assert "unseen graph" in capsys.readouterr().err
    assert not (tmp_path / "p").exists()


def test_train_planner_writes_a_planner_the_workflow_reads_and_a_card(tmp_path: Path, capsys) -> None:
    from graphreason.cli.main import main

    fixture = Path(__file__).resolve().parents[2] / "fixtures" / "mini_academic.json"
    out = tmp_path / "planner"
    argv = ["train", "planner", "--out", str(out), "--graphs", "", "--links", "", "--programs", str(fixture),
            "--programs-per-shape", "4", "--measure-on", ""]  # fmt: skip
    assert main(argv) == 0
    planner = load_planner(out / "planner.json")
    card = json.loads((out / "card.json").read_text())
    assert set(card["data"]["skeletons"]) == set(planner.classes) and card["data"]["program_graphs"] == [str(fixture)]
    assert card["data"]["trained_on"] == sum(card["data"]["skeletons"].values())
    held = card["validation"]["terse family (held out, training graphs)"]
    assert held["n"] > 0 and card["command"].startswith("graphreason train planner")
    assert "operation planner:" in capsys.readouterr().out


def test_the_planner_reads_names_as_one_placeholder_word(payload: dict) -> None:
    """A quoted name, or a node name the question holds unquoted, is masked the same way in fitting and in use."""
    quoted = planner_text('How many listeners do both "Kind of Blue" and \u201cTen\u201d share?')
    assert quoted == planner_text("How many listeners do both Kind of Blue and Ten share?", ["Kind of Blue", "Ten"])
    assert "Blue" not in quoted and quoted.count(QUOTED_NAME) == 2
    planner = OperationPlanner(payload)
    # the words of a title never move the prediction: two questions that differ only in the name read the same
    same = planner.probabilities(['Genre of "Count the Listeners"?', 'Genre of "Mezzanine"?'])
    assert np.allclose(same[0], same[1])
