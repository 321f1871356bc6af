"""The tuned reasoner's teacher trajectories: recorded from the real workflow, true to the observations, never CiteSeer."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace

import pytest

from graphreason.cli.main import build_parser, main
from graphreason.evals.counselor.trajectories import (
    ROLES,
    build_records,
    copy_name,
    in_observed_order,
    linked_questions,
    needs,
    slip,
    split_questions,
    teacher_records,
    training_questions,
    undirected_cora,
    worked_thought,
)
from graphreason.evals.datasets.generated import generate_questions
from graphreason.evals.datasets.items import QAItem
from graphreason.evals.datasets.templates_citeseer import linked_templates
from graphreason.workflows.counselor import CounselorContext, solve
from graphreason.workflows.models.scripted import ScriptedChatModel
from tests.conftest import require_data


def test_needs_says_what_the_action_reads() -> None:
    assert needs("Feature[Neighbour[Retrieve[A b], cites], title]") == (
        "the title of the cites neighbours of the named node"
    )
    assert needs("Degree[u12, rated_5], Feature[Retrieve[X y], label]") == (
        "the number of rated_5 links of node u12 and the label of the named node"
    )
    assert needs("Count[Neighbour[Neighbour[7, linked], linked]]") == (
        "how many distinct items are in the linked neighbours of the linked neighbours of node 7"
    )
    assert needs("Mode[Feature[Neighbour[7, linked], topic]]") == (
        "the most common value of the topic of the linked neighbours of node 7"
    )
    assert needs("Feature[MaxDegree[Neighbour[7, cites], cited_by], title]") == (
        "the title of the one of the cites neighbours of node 7 with the most cited_by neighbours"
    )


@pytest.mark.parametrize(
    ("rule", "values", "answer", "says"),
    [
        ("value", ["Theory"], "Theory", "The observation gives Theory."),
        ("list", [["B", "A"]], "B, A", "The answer is every item the observation lists."),
        ("count", [["1", "2", "2"]], "2", "lists 2 distinct node(s), so the answer is 2"),
        ("count", [4], "4", "gives the count, 4"),
        ("count_distinct", [["X", "Y", "X"]], "2", "The distinct values are X, Y: 2 in all."),
        ("most_common", [["X", "Y", "X"]], "X", "Counts: X x2, Y x1. The most common is X."),
        ("most_common", ["X"], "X", "The observation gives the most common value, X."),  # Mode gave it
        ("argmax", [["a", "b"], [3, 7]], "b", "The largest count is 7, for b."),
        ("count_differing", ["X", ["X", "Y", "Z"]], "2", "Its own value is X; 2 of the 3 values differ from it."),
    ],
)
def test_the_worked_thought_says_only_what_the_values_show(rule, values, answer, says) -> None:
    assert says in worked_thought(rule, values, answer)


def test_a_list_without_the_subject_names_it_only_when_the_observation_shows_it() -> None:
    shown = worked_thought("list_without_target", [["B", "Self, Again", "A"]], "B, A", target="Self, Again")
    assert shown == "The answer is every item the observation lists except Self, Again itself."
    assert worked_thought("list_without_target", [["B", "A"]], "B, A", target="Self") == (
        "The answer is every item the observation lists."
    )


def test_list_items_keep_the_order_the_observation_shows_them_in() -> None:
    # titles may hold ", ": items are matched whole, never split; empty and repeated values drop out
    values = [["Z, part two", "", "A", "Z, part two", "M"]]
    assert in_observed_order(values, ["A", "M", "Z, part two"]) == ["Z, part two", "A", "M"]
    with pytest.raises(ValueError, match="does not show all"):
        in_observed_order(values, ["A", "Q"])


@pytest.fixture(scope="module")
def cora_items() -> list[QAItem]:
    require_data("cora-citeseer-text")
    return generate_questions("cora", n_per_template=2, seed=0)


@pytest.mark.data
def test_every_template_gives_six_turns_recorded_from_the_workflow(cora_items) -> None:
    for item in cora_items[::2]:  # one question per template
        records = teacher_records(item)
        assert [(r.role, r.step) for r in records] == [(role, i // 3 + 1) for i, role in enumerate(ROLES)]
        assert records[2].output == item.reference_action
        assert records[-1].output.startswith("Finish[")  # the answer the teacher derived (checked against the gold)
        labels = [f"{r.role.capitalize()} {r.step}:" for r in records]
        assert [r.input.splitlines()[-1] for r in records] == labels
        assert all(r.input.startswith("Graph: cora. paper: abstract, label, paper_id, title; ") for r in records)
        assert "Observation 1: " in records[3].input and "Observation 1: " not in records[2].input
        # a replay of the recorded replies through the workflow sends exactly the recorded prompts
        model = ScriptedChatModel(script=[r.output for r in records])
        context = CounselorContext(
            graph="cora", embedding_model="hash", reasoner_model=model, reflector_model=model, judge_model=model,
            mode="no_reflection", reasoner_prompt="tuned", max_steps=3,
        )  # fmt: skip
        solve(item.question, context)
        assert [str(call[-1].content) for call in model.calls] == [r.input for r in records]


@pytest.mark.data
def test_a_recovering_trajectory_reads_the_error_and_never_teaches_the_slip(cora_items) -> None:
    for template in ("paper_label", "citing_majority_area", "most_cited_reference", "citing_other_area_count"):
        item = next(i for i in cora_items if i.template == template)
        records = teacher_records(item, recover=True)
        assert [(r.role, r.step) for r in records] == [
            ("plan", 1), ("thought", 1), ("plan", 2), ("thought", 2), ("action", 2), ("plan", 3), ("thought", 3),
            ("action", 3),
        ]  # fmt: skip
        assert records[4].output == item.reference_action and records[-1].output == teacher_records(item)[-1].output
        slipped = records[2].input.split("Action 1: ")[1].splitlines()[0]  # the misnamed call, in the prompt only
        assert slipped != item.reference_action and slipped not in [r.output for r in records]
        error = records[2].input.split("Observation 1: ")[1].splitlines()[0]
        assert "does not exist" in error and "Valid" in error
        wrong = records[2].output.split("The graph has no ")[1].split(";")[0]
        assert f"'{wrong}' does not exist" in error and re.search(rf", {wrong}[,\]]", slipped)
        right = records[2].output.rsplit(" with ", 1)[1].rstrip(".")
        assert right in error and re.search(rf", {right}[,\]]", item.reference_action)


def test_a_slip_misnames_a_whole_argument_wherever_it_stands() -> None:
    import random

    action = "Differing[Retrieve[Linked Data Sets], linked, label]"
    seen = set()
    for seed in range(12):
        wrong_action, wrong, right = slip(action, ["title", "label"], ["linked"], random.Random(seed))
        assert wrong != right and wrong_action == action.replace(f", {right}", f", {wrong}")
        assert "Retrieve[Linked Data Sets]" in wrong_action  # the title is never touched
        seen.add(right)
    assert seen == {"linked", "label"}  # the relation (followed by a comma) slips too, not only the last argument


@pytest.mark.data
def test_the_answer_is_derived_from_the_observation_never_copied_from_the_gold(cora_items) -> None:
    item = next(i for i in cora_items if i.template == "citation_count")
    assert teacher_records(item)[-1].output == f"Finish[{item.answer}]"
    reordered = 0
    for listed in (i for i in cora_items if i.answers and len(i.answers) > 1):
        records = teacher_records(listed)
        observed = re.findall(r"^Observation 1: (.*)$", records[-1].input, flags=re.MULTILINE)[0]
        finish = records[-1].output.removeprefix("Finish[").removesuffix("]")
        in_order = sorted(listed.answers, key=observed.index)  # the gold's items, as the observation shows them
        assert finish == ", ".join(in_order)
        reordered += in_order != sorted(listed.answers)
    assert reordered  # some list really is copied in an order other than the gold's sorted one
    wrong = replace(item, answer=str(int(item.answer) + 1))
    with pytest.raises(AssertionError, match="misses the gold"):
        teacher_records(wrong)


def test_the_unseen_graph_is_refused_before_any_question_is_read(capsys) -> None:
    item = QAItem("q", "What is the research area of x?", "ML", graph="citeseer", reference_action="Feature[x, label]",
                  meta={"reference_answer_rule": "value"})  # fmt: skip
    with pytest.raises(ValueError, match="citeseer is the unseen graph"):
        teacher_records(item)
    with pytest.raises(ValueError, match="CiteSeer is the unseen graph"):
        build_records(["cora", "CiteSeer"])
    assert main(["train", "reasoner", "--graphs", "cora,citeseer"]) == 2
    assert "citeseer is the unseen graph" in capsys.readouterr().err
    assert main(["train", "reasoner", "--graphs", "wikispeedia"]) == 2
    assert "--graphs takes graphs with question templates (cora, movielens)" in capsys.readouterr().err


def test_resume_without_a_checkpoint_is_refused_before_any_data_is_built(tmp_path, capsys) -> None:
    assert main(["train", "reasoner", "--out", str(tmp_path), "--resume"]) == 2
    assert "no checkpoint" in capsys.readouterr().err
    args = build_parser().parse_args(["train", "reasoner", "--n-per-template", "3", "--steps", "2"])
    assert (args.target, args.graphs, args.n_per_template, args.max_length) == ("reasoner", "cora,movielens", 3, 768)


@pytest.mark.data
def test_held_out_questions_are_split_off_by_template_before_any_record(cora_items) -> None:
    train, held_out = split_questions(cora_items, seed=0)
    assert not {i.qid for i in train} & {i.qid for i in held_out}
    assert Counter(i.template for i in held_out) == Counter(i.template for i in train)  # one each of two


@pytest.mark.data
def test_undirected_cora_copies_ask_the_direction_free_questions_under_their_own_relation(tmp_path) -> None:
    from graphreason.tools.core.loaders import load_graph

    require_data("cora-citeseer-text")
    spec, raw = undirected_cora("connected", tmp_path, label_key="topic")
    copy = load_graph(spec)
    # Cora's 5,429 citations less the 151 pairs that cite each other: 5,278 links, listed at both ends
    assert copy.name == "cora-connected" and copy.relations() == ["connected"]
    assert sum(copy.degree(n, "connected") for n in copy.nodes()) == 2 * 5278
    assert all(set(copy.neighbors(n, "connected")) == raw.linked[n] for n in list(raw.linked)[:200])
    items = linked_questions("connected", tmp_path, n_per_template=1, seed=0)
    assert {i.template for i in items} == {t.name for t in linked_templates("connected")}
    for item in items:
        assert item.meta["graph_name"] == "cora-connected" and item.qid.startswith("cora-connected-")
        assert ", cites]" not in item.reference_action and ", cited_by]" not in item.reference_action
        assert item.template == "paper_label" or ", connected]" in item.reference_action or (
            item.reference_action.endswith(", connected, topic]")  # Differing[node, relation, feature]
        )
        records = teacher_records(item)  # the teacher reaches every gold on the copy too
        assert records[0].graph == "cora-connected"
        assert records[0].input.startswith("Graph: cora-connected. paper: ") and "; connected->paper." in (
            records[0].input
        )
    # the connected copy names the class feature "topic": the model reads feature names off the graph line too
    assert copy.features(next(iter(copy.nodes()))).keys() == {"paper_id", "title", "abstract", "topic"}
    label = next(i for i in items if i.template == "paper_label")
    assert label.reference_action.endswith(", topic]") and "paper: abstract, paper_id, title, topic;" in (
        teacher_records(label)[0].input
    )
    # a copy's graph name is not always Cora's: the name on the graph line is no cue to the questions
    assert copy_name("connected") == "cora-connected" and copy_name("related") == "paper-links"
    related = linked_questions("related", tmp_path, n_per_template=1, seed=0)
    first = teacher_records(next(i for i in related if i.template == "paper_label"))[0]
    assert first.graph == "paper-links" and first.input.startswith("Graph: paper-links. paper: ")
    assert "paper: abstract, category, paper_id, title; related->paper." in first.input
    # the held-out split depends on the copy's name, not on the folder it was written to (a fresh temporary
    # one per training run: a split by path made every run's data differ, and --resume refuse its checkpoints)
    here, elsewhere = (linked_questions("connected", tmp_path / f, n_per_template=2, seed=0) for f in ("a", "b"))
    assert [i.graph for i in elsewhere] != [i.graph for i in here]
    splits = [[[i.qid for i in side] for side in split_questions(v, seed=0)] for v in (here, elsewhere)]
    assert splits[0] == splits[1] and all(splits[0])


def test_too_many_lora_layers_are_refused_before_any_data_is_built(tmp_path, monkeypatch, capsys) -> None:
    from types import SimpleNamespace

    from graphreason.evals.counselor import trajectories
    from graphreason.llm.finetune import base_model

    model = SimpleNamespace(config=SimpleNamespace(num_hidden_layers=30))
    monkeypatch.setattr(base_model, "load_base", lambda: (model, None))
    monkeypatch.setattr(trajectories, "build_records", lambda *a, **k: pytest.fail("the data was built"))
    assert main(["train", "reasoner", "--out", str(tmp_path), "--lora-layers", "31"]) == 2
    assert "--lora-layers is 31, but the model has 30 layers" in capsys.readouterr().err
    assert not (tmp_path / "checkpoints").exists()


def test_relation_names_of_the_copies_are_checked_before_any_data_is_built(tmp_path, capsys) -> None:
    assert main(["train", "reasoner", "--out", str(tmp_path), "--links", "connected,Bad Name"]) == 2
    assert "--links takes relation names of lower-case letters, digits and _; got 'Bad Name'" in capsys.readouterr().err


def test_a_question_whose_observation_is_cut_short_is_left_out_and_listed(monkeypatch, tmp_path) -> None:
    from graphreason.evals.counselor import trajectories
    from graphreason.evals.counselor.reference_agent import ObservationParseError

    items = [QAItem(f"g-t-{i:03d}", "q?", "a", level="easy", template="t", graph="g") for i in range(5)]
    monkeypatch.setattr(trajectories, "generate_questions", lambda graph, **kw: list(items))

    def fake(item, **kw):
        if item.qid == "g-t-001":
            raise ObservationParseError("the observation list is truncated")
        return [trajectories.ReasonerRecord("g", item.qid, "t", "plan", 1, "in", "out")]

    monkeypatch.setattr(trajectories, "teacher_records", fake)
    held_out = tmp_path / "held_out.jsonl"
    train, validation, info = trajectories.build_records(["g"], links=[], held_out_file=held_out)
    assert info["skipped_qids"] == ["g-t-001"] and "g-t-001" not in info["held_out_qids"]
    assert len(train) + len(validation) == 4 and [r.index for r in train] == list(range(len(train)))
    assert {r.qid for r in validation} == set(info["held_out_qids"])
    # the held-out questions are written for `eval counselor --path`, exactly those with records
    from graphreason.evals.datasets.items import load_items

    assert [item.qid for item in load_items(held_out)] == info["held_out_qids"]


def test_program_questions_train_through_the_real_workflow_and_hold_out_a_graph_or_a_family(tmp_path) -> None:
    """Program questions on two small graphs: each teacher trajectory reaches its gold through the workflow;
    one graph is held out whole (leave-one-graph-out), then one wording family (leave-one-family-out)."""
    from graphreason.tools.core.loaders import save_graph_json
    from tests.evals.datasets.test_program_questions import _shop

    shop = str(save_graph_json(_shop(), tmp_path / "shop.json"))
    other = _shop()
    other.name = "store2"
    second = str(save_graph_json(other, tmp_path / "store2.json"))
    train, validation, info = build_records(
        [], links=[], program_graphs=[shop, second], programs_per_shape=2, held_out_graph="store2", seed=4
    )
    assert info["program_questions"] >= 20 and info["held_out_graph"] == "store2"
    assert train and {r.graph for r in train} == {"shop"}  # nothing of the held-out graph is trained on
    assert "store2" in {r.graph for r in validation}
    assert all(r.template.startswith("program:") for r in train + validation)
    train, validation, info = build_records(
        [], links=[], program_graphs=[shop], programs_per_shape=3, held_out_family="terse", seed=4
    )
    held = set(info["held_out_qids"])
    assert info["held_out_whole"] >= 1 and {r.qid for r in validation} <= held
    assert not {r.qid for r in train} & held
    with pytest.raises(ValueError, match="unknown wording family"):
        build_records([], links=[], program_graphs=[shop], held_out_family="shouty")
    with pytest.raises(ValueError, match="evaluation only"):
        build_records([], links=[], program_graphs=["citeseer"])


def test_train_reasoner_refuses_unseen_program_graphs_before_loading_a_model(capsys) -> None:
    assert main(["train", "reasoner", "--graphs", "", "--programs", "cora,last-fm"]) == 2
    err = capsys.readouterr().err
    assert "'last-fm' is an unseen graph" in err and "Loading weights" not in err


def test_a_slip_the_error_cannot_show_is_taught_without_the_slip(monkeypatch) -> None:
    """On a graph with more names than an error lists, a recovering question falls back to the plain trajectory."""
    from graphreason.evals.counselor import trajectories

    items = [QAItem(f"g-t-{i:03d}", "q?", "a", level="easy", template="t", graph="g") for i in range(8)]
    monkeypatch.setattr(trajectories, "generate_questions", lambda graph, **kw: list(items))
    monkeypatch.setattr(trajectories, "RECOVERY_SHARE", 1.0)  # every question would recover
    calls = []

    def fake(item, *, recover=False, **kw):
        calls.append((item.qid, recover))
        if recover:
            raise trajectories.SlipUnseen("the error's list was cut before the right name")
        return [trajectories.ReasonerRecord("g", item.qid, "t", "plan", 1, "in", "out")]

    monkeypatch.setattr(trajectories, "teacher_records", fake)
    train, validation, info = trajectories.build_records(["g"], links=[])
    assert len(train) + len(validation) == 8 and not info["skipped_qids"]
    assert calls == [(qid, flag) for qid, _ in calls[::2] for flag in (True, False)]


def test_filter_questions_count_with_matching_through_the_workflow(tmp_path) -> None:
    """The two shapes that filter by a value the question names: Count[Matching[...]] or Exists[Matching[...]],
    whose observation holds the count (or yes / no), reaching the gold through the real workflow."""
    from graphreason.evals.datasets.program_questions import program_questions
    from graphreason.tools.core.loaders import save_graph_json
    from tests.evals.datasets.test_program_questions import _shop

    store = _shop()
    shop = str(save_graph_json(store, tmp_path / "shop.json"))
    items = [item for item in program_questions(store, 6, seed=1, for_training=True, graph_spec=shop, shapes=("filter_count", "any_with"))
             if item.meta["shape"] in ("filter_count", "any_with") and item.reference_action]  # fmt: skip
    assert {item.meta["shape"] for item in items} == {"filter_count", "any_with"}
    for item in items:
        records = teacher_records(item)
        assert records[2].output == item.reference_action and "Matching[Neighbour[Retrieve[" in item.reference_action
        assert records[-1].output == f"Finish[{item.answer}]"
        if item.meta["shape"] == "any_with":
            assert item.answer in ("yes", "no") and records[-2].output == f"The observation gives {item.answer}."


@pytest.mark.data
def test_no_work_folder_is_made_where_no_graph_is_written(tmp_path, monkeypatch) -> None:
    """Templates alone write no graph: no empty ``reasoner-graphs-*`` folder is left in the temporary directory."""
    require_data("cora-citeseer-text")
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    assert training_questions(["cora"], links=[], n_per_template=1, seed=0)
    assert not list(tmp_path.glob("reasoner-graphs-*"))
