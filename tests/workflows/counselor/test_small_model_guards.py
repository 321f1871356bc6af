"""What a small model meets on a user's graph (issue 7 §7): prompts, placeholders, the trace.

A generated GRBench-format graph whose edge types are ``reference`` / ``cited_by``
(no ``cites``) is run with a scripted model; assertions are about properties of
prompts, observations and the trace, never about a real model's wording.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from graphreason.workflows.counselor import CounselorContext, solve
from graphreason.workflows.counselor.graph import graph
from graphreason.workflows.models.scripted import ScriptedChatModel

TITLES = {
    "c10": "Mining frequent patterns without candidate generation",
    "c11": "Efficient similarity search in sequence databases",
    "c12": "Learning probabilistic relational models",
}


@pytest.fixture(autouse=True)
def _cache(tmp_path, monkeypatch):
    monkeypatch.setenv("GRAPHREASON_CACHE", str(tmp_path / "cache"))


@pytest.fixture
def citeseer_like(tmp_path: Path) -> Path:
    """A three-paper graph in GRBench format with CiteSeer's relation names."""
    refs = {"c10": ["c11", "c12"], "c11": ["c12"], "c12": []}
    nodes = {
        nid: {
            "features": {"title": title, "label": "DB" if nid != "c12" else "ML"},
            "neighbors": {
                "reference": refs[nid],
                "cited_by": [src for src, dsts in refs.items() if nid in dsts],
            },
        }
        for nid, title in TITLES.items()
    }
    path = tmp_path / "held_out" / "graph.json"  # a name free of "cites"
    path.parent.mkdir()
    path.write_text(json.dumps({"paper_nodes": nodes}))
    return path


def ctx(model: ScriptedChatModel, graph_path: Path, **kw) -> CounselorContext:
    return CounselorContext(
        graph=str(graph_path),
        embedding_model="hash",
        reasoner_model=model,
        reflector_model=model,
        judge_model=model,
        mode=kw.pop("mode", "no_reflection"),
        **kw,
    )


def test_prompts_and_hints_name_only_the_loaded_graphs_relations(citeseer_like: Path) -> None:
    m = ScriptedChatModel(
        script=[
            "Plan 1: look", "Thought 1: need data", "Action 1: I do not know what to call",
            "Plan 2: look", "Thought 2: need data", "Action 2: Degree[c10, reference]",
            "Plan 3: done", "Thought 3: done", "Action 3: Finish[2]",
            "The answer lacks evidence. [no]",
            "Recap: unsure. Strategy: count the references again.",
            "Plan 1: count", "Thought 1: count", "Action 1: Finish[2]",
            "The Degree observation supports it. [yes]",
        ]
    )  # fmt: skip
    # full mode, one reflection: planner, thought, execution, judge and reflection prompts all run
    out = solve(
        "How many papers does c10 reference?", ctx(m, citeseer_like, mode="counselor", max_reflections=1)
    )
    assert out["answer"] == "2" and len(out["trials"]) == 2 and m.remaining == 0
    prompts = [call[0].content for call in m.calls]
    steps = out["trials"][0]["steps"]
    for text in [*prompts, steps[0]["observation"]]:
        assert "cites" not in text and "Neighbour[12" not in text and "Finish[answer]" not in text
    assert "reference" in prompts[0] and "title" in prompts[0]
    assert any(f"[{nid}, reference]" in prompts[0] for nid in TITLES)  # a real node in the examples
    # the corrective hint after an unreadable Action is built from this graph too
    assert steps[0]["ok"] is False and "reference" in steps[0]["observation"]


def test_a_placeholder_answer_is_rejected_and_the_trial_goes_on(citeseer_like: Path) -> None:
    m = ScriptedChatModel(
        script=[
            "Plan 1: finish", "Thought 1: finish", "Action 1: Finish[answer]",
            "Plan 2: finish", "Thought 2: finish", "Action 2: Finish[Answer: <your answer>]",
            "Plan 3: look", "Thought 3: need label", "Action 3: Feature[c12, label]",
            "Plan 4: done", "Thought 4: done", "Action 4: Finish[ML]",
        ]
    )  # fmt: skip
    out = solve("What is the label of c12?", ctx(m, citeseer_like))
    steps = out["trials"][0]["steps"]
    assert out["answer"] == "ML" and len(steps) == 4
    for rejected in steps[:2]:
        assert rejected["ok"] is False and "placeholder" in rejected["observation"]


def test_the_trace_shows_the_call_that_was_executed(citeseer_like: Path) -> None:
    reply = "Action 1: The graph is not specified.\nFeature[c10, label]"
    script = [
        "Plan 1: look",
        "Thought 1: label",
        reply,
        "Plan 2: done",
        "Thought 2: done",
        "Action 2: Finish[DB]",
    ]
    m = ScriptedChatModel(script=script)
    events = [
        chunk
        for chunk in graph.stream(
            {"question": "Label of c10?"}, context=ctx(m, citeseer_like), stream_mode="custom"
        )
    ]
    first_action = next(e for e in events if e["event"] == "action")
    assert first_action["text"] == "Feature[c10, label]"
    state = solve("Label of c10?", ctx(ScriptedChatModel(script=script), citeseer_like))
    step = state["trials"][0]["steps"][0]
    assert step["action"] == "Feature[c10, label]" and step["calls"] == ["Feature[c10, label]"]
    assert step["observation"] == "The label feature of c10 are: DB."
    assert step["raw_action"] == reply  # the model's own words stay in the trace


def test_the_embedded_reasoners_action_grammar_speaks_the_loaded_graph(citeseer_like: Path) -> None:
    """With the embedded model, an Action is decoded under the loaded graph's names and what the model saw."""
    from dataclasses import replace

    from graphreason.workflows.counselor.execution import action_grammar

    state = {
        "question": 'Which papers does "Mining frequent patterns without candidate generation" reference?',
        "steps": [{"index": 1, "observation": "The ID of this retrieval target node is c10."}],
    }
    embedded = CounselorContext(
        graph=str(citeseer_like), embedding_model="hash", reasoner_model="local", operation_confidence=0.0
    )  # the operation planner off: the Action's shape is free
    grammar = action_grammar(state, embedded)
    assert grammar is not None
    assert grammar.complete("Neighbour[c10, reference]")
    assert grammar.complete("Neighbour[Retrieve[Mining frequent patterns without candidate generation], reference]")
    assert not grammar.viable("Neighbour[c10, cites")  # this graph has no "cites"
    assert not grammar.viable("Feature[c11, ")  # c11 was never shown to the model
    assert grammar.viable("Finish[c10") and not grammar.viable("Finish[c11")  # answers come from observations
    ran = {**state, "steps": [{**state["steps"][0], "action": "Neighbour[c10, reference]"}]}
    assert not action_grammar(ran, embedded).complete("Neighbour[c10, reference]")  # run in this trial already
    assert not action_grammar(ran, embedded).finish_only  # no skeleton shaped it (the planner is off)
    assert action_grammar(state, replace(embedded, grammar=False)) is None  # --no-grammar
    scripted = ctx(ScriptedChatModel(script=["Finish[x]"]), citeseer_like)
    assert action_grammar(state, scripted) is None  # only the embedded engine takes a grammar


def test_the_operation_planner_shapes_the_embedded_reasoners_action(citeseer_like: Path) -> None:
    """With the shipped planner sure of a question's operation, the Action is decoded in that shape only."""
    from graphreason.workflows.counselor.execution import action_grammar, operation_skeleton
    from graphreason.workflows.counselor.operations import shipped_planner

    assert shipped_planner() is not None  # shipped with the project
    question = 'How many papers does "Mining frequent patterns without candidate generation" reference?'
    embedded = CounselorContext(graph=str(citeseer_like), embedding_model="hash", reasoner_model="local")
    skeleton = operation_skeleton(question, embedded)
    assert skeleton is not None and skeleton.render() == "Degree[_]"
    grammar = action_grammar({"question": question, "steps": []}, embedded)
    assert grammar is not None and grammar.skeleton == skeleton
    assert grammar.complete("Degree[Retrieve[Mining frequent patterns without candidate generation], reference]")
    assert not grammar.viable("Neighbour[")  # another operation
    assert operation_skeleton(question, CounselorContext(
        graph=str(citeseer_like), embedding_model="hash", reasoner_model="local", operation_confidence=0.0
    )) is None  # fmt: skip
    # typed as a chat message, the question is planned as its words written out: "# of" is "number of" (read as
    # typed, the planner's likeliest shape is a list of titles)
    typed = 'Quick q: # of the papers "Mining frequent patterns without candidate generation" references?'
    skeleton = operation_skeleton(typed, embedded)
    assert skeleton is not None and skeleton.render() == "Degree[_]"


def test_an_actions_token_budget_grows_with_the_names_it_must_copy() -> None:
    """A 400-character title copied into ``Retrieve[...]`` would not fit the Action's 128 tokens."""
    from graphreason.workflows.counselor.execution import name_tokens

    title = "A Very Long Title " * 22
    assert name_tokens(f'Which paper cites "{title.strip()}"?') == len(title.strip()) // 2
    assert name_tokens('How many papers cite "A" and "BB"?') == 1
    assert name_tokens("How many papers are there?") == 0
