"""The shipped operation planner: it reads, it never trained on an unseen graph, and its card says what it scored."""

from __future__ import annotations

import json

from graphreason.tools.core.loaders import UNSEEN_GRAPHS
from graphreason.tools.counselor.skeleton import parse_skeleton
from graphreason.workflows.counselor.context import CounselorContext
from graphreason.workflows.counselor.operations import planner_path, shipped_planner


def _card() -> dict:
    return json.loads((planner_path().parent / "card.json").read_text())


def test_the_shipped_planner_reads_and_every_class_is_a_skeleton_of_the_registry() -> None:
    planner = shipped_planner()
    assert planner is not None and len(planner.classes) >= 10
    for label in planner.classes:
        assert parse_skeleton(label).render() == label
    assert planner_path().stat().st_size < 10 * 2**20  # within the adapters' 10 MB


def test_its_card_names_only_training_graphs_and_the_held_out_family_it_was_measured_on() -> None:
    card = _card()
    data = card["data"]
    trained = [str(g).lower() for g in [*data["graphs"], *data["program_graphs"]]]
    assert trained and not any(name in UNSEEN_GRAPHS or name.split("-")[0] in UNSEEN_GRAPHS for name in trained)
    assert sum(data["skeletons"].values()) == data["trained_on"] and set(data["skeletons"]) == set(shipped_planner().classes)
    assert card["confidence"] == CounselorContext.__dataclass_fields__["operation_confidence"].default
    held = next(row for name, row in card["validation"].items() if name.startswith(f"{data['held_out_family']} family"))
    assert held["n"] > 0 and 0 <= held["top1"] <= 100
    assert any("never trained on" in name for name in card["validation"])
