"""Every transition of the Counselor state machine, driven by a scripted model on a fixture graph."""

from __future__ import annotations

from pathlib import Path

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from graphreason.workflows.counselor import CounselorContext, solve
from graphreason.workflows.counselor.graph import build_graph, graph
from graphreason.workflows.models.scripted import ScriptedChatModel, ScriptExhaustedError

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "mini_academic.json"


@pytest.fixture(autouse=True)
def _cache(tmp_path, monkeypatch):
    monkeypatch.setenv("GRAPHREASON_CACHE", str(tmp_path / "cache"))


def ctx(model: ScriptedChatModel, **kw) -> CounselorContext:
    kw.setdefault("graph", str(FIXTURE))
    return CounselorContext(
        embedding_model="hash", reasoner_model=model, reflector_model=model, judge_model=model, **kw
    )


def step(i: int, action: str, plan: bool = True) -> list[str]:
    lines = (
        [f"Plan {i}: look it up in the graph", f"Thought {i}: I need graph information"]
        if plan
        else [f"Thought {i}: next"]
    )
    return [*lines, f"Action {i}: {action}"]


def test_finish_and_judge_yes_stops_after_one_trial():
    m = ScriptedChatModel(
        script=[
            *step(1, "Feature[Retrieve[Sparse coding of natural images], label]"),
            *step(2, "Finish[Vision]"),
            "The observation shows the label Vision. [yes]",
        ]
    )
    out = solve("What is the label of the paper Sparse coding of natural images?", ctx(m))
    assert out["answer"] == "Vision" and out["first_answer"] == "Vision"
    assert out["accepted"] is True
    assert len(out["trials"]) == 1 and out["reflections"] == []
    first = out["trials"][0]["steps"][0]
    assert first["observation"] == "The label feature of p2 are: Vision."
    assert out["trials"][0]["steps"][1]["observation"] == "Answer is Vision"
    assert out["usage"]["llm_calls"] == 7 and m.remaining == 0
    assert [s["llm_calls"] for s in out["trials"][0]["steps"]] == [3, 3]  # per-step accounting
    assert all(s["input_tokens"] > 0 and s["llm_seconds"] >= 0 for s in out["trials"][0]["steps"])


def test_judge_no_triggers_reflection_and_a_fresh_trial():
    m = ScriptedChatModel(
        script=[
            *step(1, "Finish[Alan Turing]"),
            "No graph evidence supports this. [no]",
            "Recap: I answered without looking. Analysis: use the author neighbors. Strategy: Feature[Neighbour[...], name]",
            *step(
                1, "Feature[Neighbour[Retrieve[Graph neural networks for citation analysis], author], name]"
            ),
            *step(2, "Finish[Ada Lovelace]"),
            "The author feature confirms it. [yes]",
        ]
    )
    out = solve("Who wrote Graph neural networks for citation analysis?", ctx(m))
    assert out["first_answer"] == "Alan Turing"
    assert out["answer"] == "Ada Lovelace" and out["accepted"] is True
    assert len(out["trials"]) == 2 and len(out["reflections"]) == 1
    assert [t["verdict"] for t in out["trials"]] == ["no", "yes"]
    assert (
        out["trials"][1]["steps"][0]["observation"] == "The name feature of ['a1'] are: ['Ada Lovelace']."
        or "Ada Lovelace" in out["trials"][1]["steps"][0]["observation"]
    )
    # the second trial's prompt carries the reflection, its scratchpad starts empty
    second_trial_plan_prompt = m.calls[5][0].content
    assert "Recap: I answered without looking" in second_trial_plan_prompt
    assert "Finish[Alan Turing]" not in second_trial_plan_prompt


def test_reflection_limit_returns_last_answer():
    script = []
    for answer in ("A", "B", "C"):
        script += [*step(1, f"Finish[{answer}]"), "Wrong. [no]"]
        if answer != "C":
            script.append("Reflection text")
    m = ScriptedChatModel(script=script)
    out = solve("Anything?", ctx(m, max_reflections=2))
    assert [t["answer"] for t in out["trials"]] == ["A", "B", "C"]
    assert out["answer"] == "C" and out["first_answer"] == "A" and out["accepted"] is False
    assert len(out["reflections"]) == 2 and m.remaining == 0


def test_reflection_does_not_replace_a_grounded_answer_with_an_ungrounded_one():
    question = "How many papers cite Sparse coding of natural images?"
    m = ScriptedChatModel(
        script=[
            *step(1, "Degree[Retrieve[Sparse coding of natural images], cited_by]"),
            *step(2, "Finish[3]"),
            "I am not sure. [no]",
            "Reflection: read the abstract instead.",
            *step(1, "Feature[Retrieve[Sparse coding of natural images], title]"),
            *step(2, "Finish[Sparse coding of natural images]"),  # in an observation, but not a number
            "[yes]",
        ]
    )
    out = solve(question, ctx(m, max_reflections=1))
    assert out["first_answer"] == "3" and out["answer"] == "3"
    first, second = out["trials"]
    assert first["grounded"] is True and second["grounded"] is False and second["kept_earlier"] is True
    assert second["answer"] == "Sparse coding of natural images"
    assert out["accepted"] is False  # the judge accepted the other answer, not the one kept


def test_a_grounded_later_answer_replaces_the_earlier_one():
    m = ScriptedChatModel(
        script=[
            *step(1, "Finish[7]"),  # no observation says 7
            "No evidence. [no]",
            "Reflection: count the citing papers.",
            *step(1, "Degree[Retrieve[Sparse coding of natural images], cited_by]"),
            *step(2, "Finish[3]"),
            "[yes]",
        ]
    )
    out = solve("How many papers cite Sparse coding of natural images?", ctx(m, max_reflections=1))
    assert [t["grounded"] for t in out["trials"]] == [False, True]
    assert out["answer"] == "3" and out["accepted"] is True and "kept_earlier" not in out["trials"][1]


def test_step_limit_without_finish_reflects_then_gives_up():
    m = ScriptedChatModel(
        script=[
            *step(1, "Retrieve[Sparse coding]"),
            *step(2, "Degree[p2, cited_by]"),
            "I ran out of steps; next time finish earlier.",
            *step(1, "Degree[p2, cited_by]"),
            *step(2, "Degree[p2, cited_by]"),
        ]
    )
    out = solve(
        "How many papers cite Sparse coding of natural images?", ctx(m, max_steps=2, max_reflections=1)
    )
    assert len(out["trials"]) == 2 and all(not t["finished"] for t in out["trials"])
    assert out["answer"] == "" and out["accepted"] is None
    assert "step limit (2 steps)" in m.calls[6][0].content  # the reflector is told the outcome
    assert out["trials"][0]["steps"][1]["observation"] == "The cited_by neighbor number of p2 is 3."


def test_malformed_action_and_tool_error_become_observations():
    m = ScriptedChatModel(
        script=[
            *step(1, "I think we should look at the graph somehow"),
            *step(2, "Feature[p2, colour]"),
            *step(3, "Neighbour[p999, cites]"),
            *step(4, "Finish[unknown]"),
        ]
    )
    out = solve("What colour is paper p2?", ctx(m, max_reflections=0))
    obs = [s["observation"] for s in out["trials"][0]["steps"]]
    assert not out["trials"][0]["steps"][0]["ok"] and "Finish[" in obs[0]  # corrective: shows valid syntax
    assert "colour" in obs[1] and "title" in obs[1]  # names the valid feature keys
    assert "p999" in obs[2] and "Retrieve" in obs[2]
    assert out["answer"] == "unknown"


def test_compound_and_parallel_calls_in_one_action():
    m = ScriptedChatModel(
        script=[
            *step(
                1,
                "Feature[Neighbour[Retrieve[Attention over graph structure], cites], title], Degree[p2, cited_by]",
            ),
            *step(2, "Finish[Graph neural networks for citation analysis, Sparse coding of natural images]"),
        ]
    )
    out = solve("Which papers does Attention over graph structure cite?", ctx(m, mode="no_reflection"))
    obs = out["trials"][0]["steps"][0]["observation"]
    assert "Graph neural networks for citation analysis" in obs and "Sparse coding of natural images" in obs
    assert "The cited_by neighbor number of p2 is 3." in obs
    assert out["answer"] == "Graph neural networks for citation analysis, Sparse coding of natural images"
    assert out["accepted"] is None  # no judge in this mode


def test_without_compound_a_nested_call_is_refused():
    m = ScriptedChatModel(
        script=[
            *step(1, "Feature[Retrieve[Sparse coding of natural images], label]"),
            *step(2, "Retrieve[Sparse coding of natural images]"),
            *step(3, "Finish[p2]"),
        ]
    )
    out = solve("Label of Sparse coding?", ctx(m, mode="no_reflection", compound=False))
    steps = out["trials"][0]["steps"]
    assert steps[0]["ok"] is False and "one" in steps[0]["observation"].lower()
    assert steps[1]["observation"] == "The ID of this retrieval target node is p2."


def test_graph_cot_mode_has_no_planner_and_no_judge():
    m = ScriptedChatModel(
        script=[*step(1, "Degree[p2, cited_by]", plan=False), *step(2, "Finish[3]", plan=False)]
    )
    out = solve("How many papers cite p2?", ctx(m, mode="graph_cot"))
    assert out["answer"] == "3" and out["usage"]["llm_calls"] == 4
    assert all("plan" not in s for s in out["trials"][0]["steps"])
    examples = m.calls[0][0].content.split("Examples on this graph:")[1].split("(END OF EXAMPLES)")[0]
    assert "Plan" not in examples


def test_without_planner_ablation_in_full_mode():
    m = ScriptedChatModel(script=[*step(1, "Finish[3]", plan=False), "[yes]"])
    out = solve("How many papers cite p2?", ctx(m, use_planner=False))
    assert out["answer"] == "3" and out["accepted"] is True and out["usage"]["llm_calls"] == 3


def test_base_mode_answers_without_the_graph():
    m = ScriptedChatModel(script=["Answer: Paris\nextra words"])
    out = solve("What is the capital of France?", ctx(m, mode="base", graph="/nonexistent/graph.json"))
    assert out["answer"] == "Paris" and out["usage"]["llm_calls"] == 1


def test_empty_question_is_rejected_before_any_call():
    m = ScriptedChatModel(script=[])
    with pytest.raises(ValueError, match="empty"):
        solve("   ", ctx(m))
    with pytest.raises(Exception, match="empty"):
        graph.invoke({"question": ""}, context=ctx(m))


def test_missing_graph_file_fails_clearly():
    m = ScriptedChatModel(script=["Plan 1: x"])
    with pytest.raises(Exception, match="nonexistent"):
        solve("Q?", ctx(m, graph="/nonexistent/graph.json"))
    assert m.remaining == 1  # nothing was asked of the model


def test_exhausted_script_fails_loudly():
    m = ScriptedChatModel(script=["Plan 1: only this"])
    with pytest.raises(ScriptExhaustedError):
        solve("Q?", ctx(m))


def test_weak_model_formats_are_tolerated():
    m = ScriptedChatModel(
        script=[
            "Sure! Plan 1: find the paper\nThought 1: more text",
            '{"thought": "I need its label"}',
            "```\nAction 1: feature[ retrieve[Sparse coding of natural images] , label ].\n```",
            "Plan 2: done",
            "Thought 2: done",
            "Action 2: Finish[Vision]",
            "Verdict: [yes]",
        ]
    )
    out = solve("Label?", ctx(m))
    s = out["trials"][0]["steps"][0]
    assert s["plan"] == "find the paper" and s["thought"] == "I need its label"
    assert s["observation"] == "The label feature of p2 are: Vision."
    assert out["answer"] == "Vision" and out["accepted"] is True


def test_stream_emits_trace_events_in_order():
    m = ScriptedChatModel(script=[*step(1, "Degree[p2, cited_by]"), *step(2, "Finish[3]"), "[yes]"])
    events = [
        e for e in graph.stream({"question": "How many cite p2?"}, context=ctx(m), stream_mode="custom")
    ]
    kinds = [e["event"] for e in events]
    assert kinds == [
        "plan",
        "thought",
        "action",
        "observation",
        "plan",
        "thought",
        "action",
        "answer",
        "verdict",
    ]
    assert events[3]["text"] == "The cited_by neighbor number of p2 is 3."


def test_sqlite_checkpointer_persists_the_run(tmp_path):
    from langgraph.checkpoint.sqlite import SqliteSaver

    m = ScriptedChatModel(script=[*step(1, "Finish[3]"), "[yes]"])
    config = {"configurable": {"thread_id": "sqlite-1"}}
    with SqliteSaver.from_conn_string(str(tmp_path / "runs.sqlite")) as saver:
        build_graph(checkpointer=saver).invoke(
            {"question": "How many cite p2?"}, context=ctx(m), config=config
        )
    with SqliteSaver.from_conn_string(str(tmp_path / "runs.sqlite")) as saver:  # a new process would do this
        saved = build_graph(checkpointer=saver).get_state(config)
    assert saved.values["answer"] == "3" and saved.values["accepted"] is True


def test_checkpointer_keeps_the_run_state_per_thread():
    m = ScriptedChatModel(script=[*step(1, "Finish[3]"), "[yes]"])
    app = build_graph(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "t1"}}
    out = app.invoke({"question": "How many cite p2?"}, context=ctx(m), config=config)
    saved = app.get_state(config)
    assert saved.values["answer"] == out["answer"] == "3" and not saved.next


def test_each_role_gets_its_own_sampling_temperature():
    ctx = CounselorContext(temperature=0.7, judge_temperature=0.0)
    assert (ctx.temperature_of("reasoner"), ctx.temperature_of("reflector"), ctx.temperature_of("judge")) == (
        0.7,
        0.7,
        0.0,
    )


def test_graph_calls_run_as_the_generated_langchain_tools():
    from langchain_core.tracers.context import collect_runs

    m = ScriptedChatModel(
        script=[
            *step(1, "Degree[Retrieve[Attention over graph structure], cites]"),
            *step(2, "Finish[2]"),
        ]
    )
    with collect_runs() as cb:
        out = solve("How many papers does Attention over graph structure cite?", ctx(m, mode="no_reflection"))
    tools = [run for run in cb.traced_runs if run.run_type == "tool"]
    assert [run.name for run in tools] == ["retrieve", "degree"]
    assert tools[-1].outputs["output"].content == out["trials"][0]["steps"][0]["observation"]


def test_the_recursion_guard_comes_from_the_runs_own_budget():
    """A run that spends its whole budget (2 steps, then a reflection and 2 more) fits the derived limit,
    and the limit is not far above what the run needs: the guard still means something."""
    from graphreason.workflows.counselor.graph import RECURSION_LIMIT, graph, recursion_limit

    m = ScriptedChatModel(script=[*step(1, "Retrieve[Sparse coding]"), *step(2, "Degree[p2, cited_by]"),
                                  "Finish earlier next time.", *step(1, "Degree[p2, cited_by]"),
                                  *step(2, "Degree[p2, cited_by]")])
    context = ctx(m, max_steps=2, max_reflections=1)
    limit = recursion_limit(context)
    updates = list(graph.stream({"question": "How many papers cite Sparse coding of natural images?"},
                                context=context, config={"recursion_limit": limit}, stream_mode="updates"))
    assert len(updates) <= limit <= len(updates) + 8
    assert limit == 32 and recursion_limit(CounselorContext()) == 23  # the embedded default: 3 steps, 1 trial
    assert RECURSION_LIMIT == recursion_limit(CounselorContext(max_steps=50, max_reflections=5)) < 2_000


def test_with_the_embedded_judge_only_a_grounded_accepted_answer_replaces_a_grounded_one():
    from types import SimpleNamespace

    from graphreason.workflows.counselor.trials import _keeps_earlier

    embedded = SimpleNamespace(model_of=lambda role: "local")
    earlier = {"answer_grounded": True}
    for grounded_now, verdict, kept in [(True, "yes", False), (True, "unclear", True), (True, "no", True),
                                        (False, "yes", True)]:
        state = {**earlier, "verdict": verdict}
        assert _keeps_earlier(state, {"grounded": grounded_now}, embedded) is kept, (grounded_now, verdict)
    # an earlier answer that was not grounded is always replaced
    assert _keeps_earlier({"answer_grounded": False, "verdict": "no"}, {"grounded": False}, embedded) is False
    other = SimpleNamespace(model_of=lambda role: "openai:gpt-4o-mini")
    assert _keeps_earlier({**earlier, "verdict": "unclear"}, {"grounded": True}, other) is False
    assert _keeps_earlier({**earlier, "verdict": "yes"}, {"grounded": False}, other) is True


def test_a_finish_cut_short_while_copying_a_list_answers_the_whole_list():
    """The reply's token budget ends a Finish mid-list (no closing bracket): the answer is the list it was copying, and
    the trace says the final was mapped from a cut list."""
    m = ScriptedChatModel(
        script=[
            *step(1, "Feature[Neighbour[Retrieve[Sparse coding of natural images], cited_by], title]"),
            *step(2, "Finish[Graph neural networks for citation analysis, Attention over gra"),
            "The list is shown. [yes]",
        ]
    )
    out = solve("Which papers cite the paper Sparse coding of natural images?", ctx(m, max_reflections=0))
    assert out["answer"] == (
        "Graph neural networks for citation analysis, Attention over graph structure, Edge detection with learned filters"
    )
    assert out["trials"][0]["steps"][1]["final_check"]["kind"] == "cut list"


def test_a_closed_finish_with_words_after_it_is_not_taken_for_a_cut_list():
    m = ScriptedChatModel(
        script=[
            *step(1, "Feature[Neighbour[Retrieve[Sparse coding of natural images], cited_by], title]"),
            *step(2, "Finish[Graph neural networks for citation analysis, Attention over graph structure] as shown"),
            "The list is shown. [yes]",
        ]
    )
    out = solve("Which papers cite the paper Sparse coding of natural images?", ctx(m, max_reflections=0))
    assert out["answer"] == "Graph neural networks for citation analysis, Attention over graph structure"
    assert "final_check" not in out["trials"][0]["steps"][1]


def test_a_count_leaves_out_the_node_the_question_leaves_out():
    """"..., not counting X itself?": the workflow has Count leave X out (X cites p2 and p3, cited by X, p4 and p5),
    and the observation says so; the same call for a question that leaves nothing out counts X."""
    title = "Graph neural networks for citation analysis"
    action = f"Count[Neighbour[Neighbour[Retrieve[{title}], cites], cited_by]]"
    left = ScriptedChatModel(script=[*step(1, action), *step(2, "Finish[2]"), "[yes]"])
    out = solve(f'How many papers cite the papers "{title}" cites, not counting "{title}" itself?', ctx(left))
    observation = out["trials"][0]["steps"][0]["observation"]
    assert observation == f"The number of distinct values ({title} left out, as the question asks) is: 2."
    whole = ScriptedChatModel(script=[*step(1, action), *step(2, "Finish[3]"), "[yes]"])
    out = solve(f'How many papers cite the papers "{title}" cites?', ctx(whole))
    assert out["trials"][0]["steps"][0]["observation"] == "The number of distinct values is: 3."
