"""The tuned reasoner: its default switch, its short prompt and what it holds, and when the workflow sends it."""

from __future__ import annotations

from pathlib import Path

import pytest

from graphreason.tools.core.loaders import load_graph
from graphreason.tools.core.store import GraphStore
from graphreason.workflows.counselor import CounselorContext, solve
from graphreason.workflows.counselor.tuned import (
    COMPOSED_FUNCTIONS,
    FUNCTIONS,
    SCHEMA_FUNCTIONS,
    SCHEMA_RELATIONS,
    TRAINED_FORM,
    adapter_prompt_form,
    graph_line,
    names_in_graph_line,
    tuned_prompt,
)
from graphreason.workflows.models.scripted import ScriptedChatModel

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "mini_academic.json"
QUESTION = "Who wrote the paper Sparse coding of natural images?"
SCRIPT = [
    "find the paper, then read its authors", "I need the paper node first",
    "Retrieve[Sparse coding of natural images]", "the id is known", "read its authors' names",
    "Feature[Neighbour[p2, author], name]", "the names are in", "they answer the question", "Finish[Olshausen]",
]  # fmt: skip


def _run(prompt: str) -> tuple[ScriptedChatModel, dict]:
    model = ScriptedChatModel(script=list(SCRIPT))
    context = CounselorContext(
        graph=str(FIXTURE), embedding_model="hash", reasoner_model=model, reflector_model=model, judge_model=model,
        mode="no_reflection", max_steps=3, reasoner_prompt=prompt,
    )  # fmt: skip
    return model, solve(QUESTION, context)


TUNED = "local:smollm2-135m-counselor"


def test_the_embedded_model_reasons_with_the_tuned_reasoner_by_default() -> None:
    tuned = CounselorContext()
    assert tuned.tuned_spec == tuned.model_of("reasoner") == TUNED and tuned.short_prompt
    assert tuned.temperature == 0.0  # greedy unless asked
    assert tuned.model_of("judge") == tuned.model_of("reflector") == "local"  # not trained for those roles
    assert CounselorContext(temperature=0.4).temperature == 0.4
    plain = CounselorContext(tuned_reasoner=False)  # --no-tuned-reasoner
    assert plain.tuned_spec is None and plain.model_of("reasoner") == "local" and not plain.short_prompt
    assert plain.temperature == 0.7
    named = CounselorContext(reasoner_model=TUNED, tuned_reasoner=False)  # naming it selects it
    assert named.tuned_spec == TUNED and named.short_prompt
    endpoint = CounselorContext(reasoner_model="openai:gpt-4o-mini")  # endpoints get the paper's prompt
    assert endpoint.tuned_spec is None and not endpoint.short_prompt and endpoint.temperature == 0.7
    assert CounselorContext(reasoner_model="openai:m", reasoner_prompt="tuned").short_prompt  # served elsewhere
    assert not CounselorContext(reasoner_prompt="paper").short_prompt


def test_a_default_run_sends_the_tuned_model_its_short_prompt_greedily(monkeypatch) -> None:
    """The workflow's reasoning calls go to the tuned model spec at temperature 0 with the short prompt."""
    from graphreason.workflows.kit import llm as kit_llm

    model = ScriptedChatModel(script=list(SCRIPT))
    asked: list[tuple[object, object]] = []

    def scripted_role(context, spec, **params):
        asked.append((spec, params.get("temperature")))
        return model

    monkeypatch.setattr(kit_llm, "role_model", scripted_role)
    out = solve(QUESTION, CounselorContext(graph=str(FIXTURE), embedding_model="hash", mode="no_reflection"))
    assert out["answer"] == "Olshausen"
    assert asked and all(spec == TUNED and temperature == 0.0 for spec, temperature in asked)
    assert all(str(call[-1].content).startswith("Graph: mini_academic.") for call in model.calls)


def test_the_prompt_names_the_loaded_graph_and_ends_with_the_line_to_write() -> None:
    store = load_graph(str(FIXTURE))
    steps = [{"index": 1, "plan": "p", "thought": "t", "action": "Retrieve[x]", "observation": "The ID ... is p2."}]
    prompt = tuned_prompt("thought", 2, QUESTION, store, [*steps, {"index": 2, "plan": "next"}], lessons=["Look  again."])
    lines = prompt.splitlines()
    assert lines[0] == graph_line(store, question=QUESTION)
    assert lines[0] == "Graph: mini_academic. author: name; paper->paper. paper: label, title, year; " \
        "author->author, cited_by->paper, cites->paper."  # each type: its features, its relations and their targets
    assert lines[1] == f"Functions: {COMPOSED_FUNCTIONS}." and lines[2] == "Lesson: Look again."
    assert "Matching[nodes, feature, value]" in SCHEMA_FUNCTIONS and "Matching" not in FUNCTIONS
    assert lines[3] == f"Question: {QUESTION}"
    assert lines[4:] == [
        "Plan 1: p", "Thought 1: t", "Action 1: Retrieve[x]", "Observation 1: The ID ... is p2.", "Plan 2: next",
        "Thought 2:",
    ]  # fmt: skip
    assert "Plan 1" not in tuned_prompt("thought", 1, QUESTION, store, [], with_plan=False)
    with pytest.raises(ValueError, match="role must be one of plan, thought, action"):
        tuned_prompt("judge", 1, QUESTION, store, [])


def test_the_prompt_shows_the_question_with_its_chat_shorthand_spelled_out() -> None:
    """The reasoner reads what the grammar reads: "r", "w/o", "# of" written out, a quoted name as typed."""
    store = load_graph(str(FIXTURE))
    prompt = tuned_prompt("action", 1, 'Quick q: # of the papers "U R" cites w/o dupes?', store, [])
    assert 'Question: Quick question: number of the papers "U R" cites without duplicates?' in prompt.splitlines()


def test_the_workflow_sends_the_short_prompt_only_when_asked() -> None:
    tuned, out = _run("tuned")
    assert out["answer"] == "Olshausen"
    labels = ["Plan 1:", "Thought 1:", "Action 1:", "Plan 2:", "Thought 2:", "Action 2:", "Plan 3:", "Thought 3:"]
    prompts = [str(call[-1].content) for call in tuned.calls]
    assert [p.splitlines()[-1] for p in prompts[:8]] == labels
    assert all(p.startswith("Graph: mini_academic.") and len(p) < 1500 for p in prompts)
    assert "Observation 1: The ID of this retrieval target node is p2." in prompts[3]
    for form in ("auto", "paper"):  # a scripted model is not the tuned reasoner: auto gives it the paper's
        paper, _ = _run(form)
        assert all("Graph: mini_academic." not in str(call[-1].content) for call in paper.calls)
        assert min(len(str(call[-1].content)) for call in paper.calls) > max(len(p) for p in prompts)


def test_the_measured_rate_comes_from_the_shipped_cards_scores(monkeypatch, tmp_path) -> None:
    import json

    from graphreason.llm.engine import adapter
    from graphreason.workflows.counselor.tuned import tuned_reasoner_scores

    monkeypatch.setattr(adapter, "shipped_adapter", lambda name: tmp_path)
    (tmp_path / "card.json").write_text(json.dumps({"validation_scores": {
        "graph": "citeseer", "modes": {"counselor": {"n": 45, "exact_match": 31.111}}}}))  # fmt: skip
    in_template = "on 45 questions from the project's own templates over citeseer (in-template) 31.1%"
    assert tuned_reasoner_scores() == f"it answers {in_template} exactly; out of distribution it was not measured"
    ood = {"adapter_sha256": "abc", "out_of_distribution_exact_match": 12.345, "out_of_distribution_questions": 90,
           "graphs": {"wn18rr": {"kind": "never trained on"}, "last-fm": {"kind": "unseen graph"},
                      "cora": {"kind": "trained on (other questions)"}}}  # fmt: skip
    scores = {"graph": "citeseer", "modes": {"counselor": {"n": 45, "exact_match": 31.111}}}
    (tmp_path / "card.json").write_text(json.dumps(
        {"validation_scores": scores, "generalization_scores": ood, "shipped": {"sha256": "abc"}}))  # fmt: skip
    assert tuned_reasoner_scores() == (
        f"on 90 question programs over graphs it never trained on (last-fm, wn18rr) it answers 12.3% exactly, {in_template}"
    )
    family = {"held_out_family": "terse", "family_out_exact_match": 40.0, "family_out_questions": 30,
              "graphs": {**ood["graphs"], "cora": {"kind": "held-out wording family"}}}  # fmt: skip
    (tmp_path / "card.json").write_text(json.dumps(
        {"validation_scores": scores, "generalization_scores": ood | family, "shipped": {"sha256": "abc"}}))  # fmt: skip
    assert tuned_reasoner_scores() == (
        "on 90 question programs over graphs it never trained on (last-fm, wn18rr) it answers 12.3% exactly, "
        f"on 30 over its training graphs worded in a family it never saw (terse) 40.0%, {in_template}"
    )
    others = {"others_wording_exact_match": 55.55, "others_wording_questions": 90}
    (tmp_path / "card.json").write_text(json.dumps(
        {"validation_scores": scores, "generalization_scores": ood | family | others, "shipped": {"sha256": "abc"}}))  # fmt: skip
    assert tuned_reasoner_scores() == (
        "on 90 question programs over graphs it never trained on (last-fm, wn18rr) it answers 12.3% exactly, "
        "on 30 over its training graphs worded in a family it never saw (terse) 40.0%, "
        f"on 90 over those graphs in wordings kept for evaluation only 55.5%, {in_template}"
    )
    (tmp_path / "card.json").write_text(json.dumps(
        {"validation_scores": scores, "generalization_scores": ood, "shipped": {"sha256": "new weights"}}))  # fmt: skip
    assert tuned_reasoner_scores().endswith("out of distribution it was not measured")  # measured on other bytes
    from graphreason.workflows.counselor.operations import planner_digest

    for planner, quoted in ((planner_digest(), True), ("another planner", False)):
        (tmp_path / "card.json").write_text(json.dumps({"validation_scores": scores, "shipped": {"sha256": "abc"},
                                                        "generalization_scores": ood | {"operation_planner": planner}}))  # fmt: skip
        said = tuned_reasoner_scores()
        assert ("12.3% exactly (its Actions shaped by the operation planner)" in said) is quoted, said
        assert said.endswith("out of distribution it was not measured") is not quoted  # measured with other weights
    (tmp_path / "card.json").write_text(json.dumps({"history": []}))  # no scores recorded: no number is made up
    assert tuned_reasoner_scores() == "its measured exact-match rate is in docs/methods/counselor.md"


def test_the_flat_form_is_the_one_older_adapters_read() -> None:
    store = load_graph(str(FIXTURE))
    flat, functions = tuned_prompt("thought", 1, QUESTION, store, [], form="flat").splitlines()[:2]
    assert functions == f"Functions: {FUNCTIONS}."  # the line the flat form's adapters were trained on
    assert flat == "Graph: mini_academic. Nodes: author, paper. Features: title, label, year, name. " \
        "Relations: author, cited_by, cites, paper."
    with pytest.raises(ValueError, match="prompt form must be one of flat, schema, composed"):
        graph_line(store, "typed")  # type: ignore[arg-type]


def _wide_store() -> GraphStore:
    """One node type with 30 relations (a wide schema, like FB15k-237's), and a second type."""
    store = GraphStore(name="wide", directed=True, text_keys={"singer": "name", "album": "name"})
    store.add_node("s", "singer", {"name": "Ann"})
    store.add_node("a", "album", {"name": "First", "year": 1999})
    for i in range(30):
        store.add_node(f"t{i}", "singer", {"name": f"T{i}"})
        store.add_edge("s", f"t{i}", f"relation_{i:02d}")
    store.add_edge("s", "a", "sings_on_album")
    return store


def test_a_wide_schema_shows_the_questions_relations_within_the_cap() -> None:
    store = _wide_store()
    line = graph_line(store, question="On which albums does Ann sing?")
    assert line.startswith("Graph: wide. album: name, year; no relations. singer: name; ")
    features, relations = names_in_graph_line(line)
    assert features == ["name", "year"] and len(relations) == SCHEMA_RELATIONS
    assert "sings_on_album" in relations and "+21 more" in line  # the question's words pick it from 31
    assert "sings_on_album" not in names_in_graph_line(graph_line(store, question="How old is Ann?"))[1]
    assert line.count("->") == SCHEMA_RELATIONS and "sings_on_album->album" in line


def test_the_graph_line_is_read_back_in_both_forms() -> None:
    store = load_graph(str(FIXTURE))
    expected = (["name", "label", "title", "year"], ["paper", "author", "cited_by", "cites"])
    assert names_in_graph_line(graph_line(store)) == expected
    flat_features, flat_relations = names_in_graph_line(graph_line(store, "flat"))
    assert sorted(flat_features) == sorted(expected[0]) and sorted(flat_relations) == sorted(expected[1])
    with pytest.raises(ValueError, match="not a graph line"):
        names_in_graph_line("Question: who?")


def test_the_adapter_reads_the_form_its_card_names(monkeypatch, tmp_path) -> None:
    import json

    from graphreason.llm.engine import adapter

    monkeypatch.setattr(adapter, "shipped_adapter", lambda name: tmp_path)
    card = tmp_path / "card.json"
    card.write_text(json.dumps({"prompt": "tuned_prompt"}))  # trained before the schema form: the flat line
    assert adapter_prompt_form() == "flat"
    card.write_text(json.dumps({"prompt_form": "schema", "pad": "x"}))
    assert adapter_prompt_form() == "schema"
    tuned = CounselorContext()
    assert tuned.tuned_spec == TUNED and tuned.prompt_form == "schema"
    card.write_text(json.dumps({"prompt_form": "typed", "pad": "xy"}))
    with pytest.raises(ValueError, match="names prompt form 'typed', not one of flat, schema, composed"):
        adapter_prompt_form()
    scripted = CounselorContext(reasoner_model=ScriptedChatModel(script=["x"]), reasoner_prompt="tuned")
    assert scripted.prompt_form == TRAINED_FORM  # the teacher records the form training writes


def test_the_training_data_is_told_from_the_shipped_card(monkeypatch, tmp_path) -> None:
    import json

    from graphreason.llm.engine import adapter
    from graphreason.workflows.counselor.tuned import tuned_reasoner_data

    monkeypatch.setattr(adapter, "shipped_adapter", lambda name: tmp_path)
    (tmp_path / "card.json").write_text(json.dumps({"data": {
        "graphs": ["cora", "movielens"], "undirected_cora_relations": ["connected", "linked"],
        "program_graphs": ["wn18rr", "cora-notes"], "held_out_family": "terse"}}))  # fmt: skip
    assert tuned_reasoner_data() == (
        "teacher trajectories over template questions on cora, movielens; 2 undirected copies of Cora; "
        "question programs over wn18rr, cora-notes; never citeseer or last-fm, nor the terse wording family"
    )
    (tmp_path / "card.json").write_text(json.dumps({"data": {"graphs": ["cora"]}}))
    assert tuned_reasoner_data() == "teacher trajectories over template questions on cora; never citeseer or last-fm"
    (tmp_path / "card.json").write_text(json.dumps({  # a second stage names what both stages were trained on
        "data": {"graphs": [], "program_graphs": ["cora", "cora-web"], "held_out_family": "terse"},
        "earlier_stage": {"data": {"graphs": ["movielens"], "program_graphs": ["cora", "wn18rr"]}}}))  # fmt: skip
    assert tuned_reasoner_data() == (
        "teacher trajectories over template questions on movielens; question programs over cora, cora-web, wn18rr; "
        "never citeseer or last-fm, nor the terse wording family"
    )
    (tmp_path / "card.json").write_text("{")  # nothing made up from a broken card
    assert tuned_reasoner_data() == "teacher trajectories (its card is unreadable)"


def test_each_form_sends_the_functions_line_its_adapters_were_trained_on() -> None:
    store = load_graph(str(FIXTURE))
    composed = tuned_prompt("action", 1, "How many?", store, [], form="composed").splitlines()[1]
    for name in ("MinDegree[", "Same[", "Intersect[", "Union[", "Contains[", "Exists[", "Matching["):
        assert name in composed
    assert tuned_prompt("action", 1, "How many?", store, [], form="schema").splitlines()[1] == f"Functions: {SCHEMA_FUNCTIONS}."
    assert tuned_prompt("action", 1, "How many?", store, [], form="flat").splitlines()[1] == f"Functions: {FUNCTIONS}."
