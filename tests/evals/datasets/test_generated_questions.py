"""Generated question sets: golds from raw files vs what the loaded graph yields."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from graphreason.evals.datasets.answer_rules import apply_answer_rule
from graphreason.evals.datasets.generated import generate_questions, list_templates, make_splits, read_raw
from graphreason.evals.datasets.items import QAItem
from graphreason.tools.core.loaders import load_citeseer, load_cora, load_movielens
from graphreason.tools.core.store import GraphStore
from tests.conftest import require_data
from tests.evals.datasets.reference_eval import ReferenceEvaluator
from tests.tools.core.loaders.tiny_cora import write_tiny_cora

N = 10
DATA = {"cora": "cora-citeseer-text", "citeseer": "cora-citeseer-text", "movielens": "movielens-100k"}
LOADERS = {"cora": load_cora, "citeseer": load_citeseer, "movielens": load_movielens}
RAW_FOLDER = {"cora": "cora", "citeseer": "citeseer", "movielens": ""}  # under the dataset folder


def by_template(items: list[QAItem]) -> dict[str, QAItem]:
    return {item.template: item for item in items}


# ---------------------------------------------------------------------- tiny Cora (no shared data)
@pytest.fixture
def tiny_items(tmp_path: Path) -> list[QAItem]:
    return generate_questions("cora", n_per_template=5, seed=0, root=write_tiny_cora(tmp_path))


def test_tiny_cora_golds_by_hand(tiny_items: list[QAItem]) -> None:
    found = {(i.template, i.meta["subject_id"]): i for i in tiny_items}
    assert found["citation_count", "1"].answer == "3"
    assert found["paper_references", "4"].answers == [
        "Alpha graph learning methods",
        "Beta kernel machines study",
    ]
    assert found["paper_references", "4"].answer == "Alpha graph learning methods, Beta kernel machines study"
    # Citers of 1 are 2, 3, 4; they cite only 1 except 4, which also cites 2.
    assert found["cocited_papers", "1"].answers == ["Beta kernel machines study"]
    # Paper 4 cites 1 (cited 3 times) and 2 (cited once).
    assert found["most_cited_reference", "4"].answer == "Alpha graph learning methods"
    # Citers of 1 are in Theory, Rule Learning, Neural Networks; paper 1 is Neural Networks.
    assert found["citing_other_area_count", "1"].answer == "2"
    assert ("citing_majority_area", "1") not in found  # three-way tie: no single answer
    assert found["second_hop_reference_count", "5"].answer == "2"
    assert found["paper_label", "5"].answer == "Reinforcement Learning"
    assert not [i for i in tiny_items if i.template == "reference_area_count"]  # needs >= 3 references


def test_tiny_cora_golds_match_the_loaded_graph(tmp_path: Path, tiny_items: list[QAItem]) -> None:
    graph = load_cora(write_tiny_cora(tmp_path / "again"))
    assert_golds_match(graph, tiny_items)


# ---------------------------------------------------------------------- real graphs
@pytest.fixture(scope="module")
def real() -> dict[str, tuple[GraphStore, list[QAItem]]]:
    """Loaded graphs and N questions per template, built once for the module."""
    loaded = {}
    for graph, loader in LOADERS.items():
        root = require_data(DATA[graph])
        raw = read_raw(graph, root / RAW_FOLDER[graph])
        loaded[graph] = (loader(root), generate_questions(graph, n_per_template=N, seed=0, raw=raw))
    return loaded


@pytest.mark.data
@pytest.mark.parametrize("graph", sorted(LOADERS))
def test_every_template_at_its_level(real, graph: str) -> None:
    _, items = real[graph]
    counts = Counter((i.level, i.template) for i in items)
    assert counts == {(t.level, t.name): N for t in list_templates(graph)}
    assert {i.level for i in items} == {"easy", "medium", "hard"}
    assert len({i.qid for i in items}) == len(items)
    for item in items:
        assert item.graph == graph and item.reference_action and item.reference_answer_rule
        if item.answers is not None:
            assert 1 <= len(item.answers) <= 15 and item.answer == ", ".join(item.answers)
        else:
            assert item.answer.strip()


@pytest.mark.data
@pytest.mark.parametrize("graph", sorted(LOADERS))
def test_golds_match_what_the_graph_store_gives(real, graph: str) -> None:
    store, items = real[graph]
    assert_golds_match(store, items)


def assert_golds_match(store: GraphStore, items: list[QAItem]) -> None:
    """Run every reference action on the store, apply its rule, compare with the gold."""
    evaluator = ReferenceEvaluator(store)  # its Retrieve asserts the subject title is unique
    for item in items:
        result = evaluator.run(item.reference_action)
        answer, answers = apply_answer_rule(item.reference_answer_rule, result, item.meta["subject"])
        assert (answer, answers) == (item.answer, item.answers), item.qid


@pytest.mark.data
def test_subject_titles_are_unique_and_quoted(real) -> None:
    for graph in LOADERS:
        store, items = real[graph]
        texts = Counter(store.text(n).casefold() for n in store.nodes())
        for item in items:
            subject = item.meta["subject"]
            if subject in store:  # users are named by id
                continue
            assert texts[subject.casefold()] == 1, subject
            assert f'"{subject}"' in item.question and f"Retrieve[{subject}]" in item.reference_action


@pytest.mark.data
def test_citeseer_questions_do_not_assume_a_citation_direction(real) -> None:
    """CiteSeer's files do not say which paper cites which: its questions and actions use only ``linked``."""
    store, items = real["citeseer"]
    assert set(store.relations()) == {"linked"} and not store.directed
    for item in items:
        words = item.question.replace(str(item.meta["subject"]), "").lower()
        assert " cite" not in words and "cited" not in words, item.question
        assert "cites" not in item.reference_action and "cited_by" not in item.reference_action
    two_hops = [i for i in items if i.template == "two_hop_count"]
    for item in two_hops:  # the count includes the paper itself, as the question says
        subject = item.meta["subject_id"]
        around = set(store.neighbors(subject, "linked"))
        second = {m for n in around for m in store.neighbors(n, "linked")}
        assert subject in second and item.answer == str(len(second))


@pytest.mark.data
def test_deterministic_and_seed_dependent(real) -> None:
    raw = read_raw("cora", require_data(DATA["cora"]) / "cora")
    first = [i.to_dict() for i in generate_questions("cora", n_per_template=N, seed=0, raw=raw)]
    assert first == [i.to_dict() for i in real["cora"][1]]
    other = generate_questions("cora", n_per_template=N, seed=1, raw=raw)
    assert [i.question for i in other] != [i["question"] for i in first]
    only = generate_questions("cora", n_per_template=3, seed=0, raw=raw, templates=["paper_label"])
    assert [i.to_dict() for i in only] == first[:3]  # one template's draw does not depend on the others
    json.dumps(first)  # items are plain JSON


@pytest.mark.data
def test_splits_are_disjoint_stratified_and_deterministic(real) -> None:
    items = real["cora"][1] + real["movielens"][1]
    splits = make_splits(items, seed=0)
    dev, val = splits["dev"], splits["validation"]
    assert len(dev) + len(val) == len(items) and not {i.qid for i in dev} & {i.qid for i in val}
    assert (
        Counter(i.template for i in val)
        == Counter(i.template for i in dev)
        == {t: N // 2 for t in Counter(i.template for i in items)}
    )
    assert [i.qid for i in make_splits(items, seed=0)["dev"]] == [i.qid for i in dev]
    assert [i.qid for i in make_splits(items, seed=1)["dev"]] != [i.qid for i in dev]


def test_bad_arguments() -> None:
    with pytest.raises(
        ValueError, match="no question templates for graph 'wikispeedia'; available: cora, citeseer, movielens"
    ):
        generate_questions("wikispeedia")
    with pytest.raises(ValueError, match="n_per_template must be at least 1"):
        generate_questions("cora", n_per_template=0)
    with pytest.raises(ValueError, match=r"unknown cora template\(s\) \['nope'\]"):
        generate_questions("cora", templates=["nope"], raw=object())
    with pytest.raises(ValueError, match="validation_fraction"):
        make_splits([], validation_fraction=1.0)


def test_split_of_small_groups() -> None:
    items = [QAItem(f"q{i}", "?", "a", template=t, graph="g") for i, t in enumerate("aabccc")]
    splits = make_splits(items, seed=3)
    assert Counter(i.template for i in splits["validation"]) == {"a": 1, "c": 2}  # singletons stay in dev
    assert Counter(i.template for i in splits["dev"]) == {"a": 1, "b": 1, "c": 1}
