"""The GraphAgent workflow end to end on a tiny dataset: scripted model, real parser, environment and memory."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from graphreason.workflows.graphagent import GraphAgentContext, GraphAgentInputError, solve, stream_solve
from graphreason.workflows.graphagent.graph import graph
from graphreason.workflows.models.scripted import ScriptedChatModel
from tests.workflows.graphagent.fixtures import context, reply

ANSWER_NN = reply("answer", {"label": "Neural Networks", "reason": "its title and neighbours"})


def test_full_run_gathers_summarises_and_answers() -> None:
    ctx = context(
        reply("get_features", {"node_id": "107"}), "About training neural networks.",
        reply("get_neighbors", {"node_id": 107}), "Neighbours: one neural network paper, one rule paper.",
        ANSWER_NN, graph_tool=False,
    )
    out = solve("paper#107", ctx)
    assert (out["node"], out["answer"], out["label_id"], out["gold"]) == ("107", "Neural Networks", 0, "Neural Networks")
    assert out["ended_by"] == "answer" and out["reason"] == "its title and neighbours"
    assert [s["command"] for s in out["steps"]] == ["get_features", "get_neighbors", "answer"]
    assert out["steps"][1]["summary"].startswith("Neighbours:") and "Rule Learning" in out["steps"][1]["observation"]
    assert out["tool_prediction"] is None and out["changed_tool_answer"] is None
    assert out["usage"]["llm_calls"] == 5 and out["usage"]["tokens"] > 0
    # the second decision saw the first summary and the previous reply
    second = ctx.agent_model.calls[2][0].content
    assert "About training neural networks." in second and "Your previous reply" in second
    assert "predict_label" not in ctx.agent_model.calls[0][0].content  # faithful mode offers no tool


def test_events_stream_in_order() -> None:
    events: list[dict] = []
    ctx = context(reply("get_features", {}), "summary", ANSWER_NN, graph_tool=False)
    out = stream_solve("107", ctx, on_event=events.append)
    assert [e["event"] for e in events] == ["decide", "command", "observation", "summary", "decide", "answer"]
    assert out["answer"] == "Neural Networks" and "started" not in out  # internal fields are not returned


def test_malformed_replies_become_corrections_and_count_as_steps() -> None:
    ctx = context(
        "I think it is about networks.",  # no JSON
        '```json\n{"thoughts": {"text": "t"}, "command": {"name": "get_features", "args": {"node_id": "107"',  # cut off
        "summary of the text",
        "{'command': {'name': 'answer', 'args': {'label': 0, 'reason': 'title'}}}",  # single quotes, label id
        graph_tool=False,
    )
    out = solve("107", ctx)
    assert out["answer"] == "Neural Networks" and out["ended_by"] == "answer"
    assert [s["valid"] for s in out["steps"]] == [False, True, True]
    assert "no command I could read" in out["steps"][0]["observation"]
    assert out["usage"]["llm_calls"] == 4  # a correction costs no summary call


def test_illegal_and_disabled_commands_are_refused() -> None:
    ctx = context(
        reply("neighbors", {"node_id": 107}), reply("feature", {"node_id": 107}), reply("get_features", {}),
        reply("analyze_label", {"node_id": 107}), ANSWER_NN,
        graph_tool=False, features_action=False, max_bad_replies=0,
    )
    out = solve("107", ctx)
    observations = [s["observation"] for s in out["steps"][:4]]
    assert "Did you mean get_neighbors?" in observations[0] and "not a command" in observations[1]
    assert all("not available in this run" in o for o in observations[2:4])
    prompt = ctx.agent_model.calls[0][0].content
    assert "get_features:" not in prompt and "analyze_label:" not in prompt and "get_neighbors:" in prompt
    assert out["answer"] == "Neural Networks"


def test_unknown_label_and_unknown_node_in_a_command_are_observations() -> None:
    ctx = context(
        reply("answer", {"label": "Robotics"}), reply("get_neighbors", {"node_id": "999"}), "nothing", ANSWER_NN,
        graph_tool=False,
    )
    out = solve("107", ctx)
    assert "not in the label set" in out["steps"][0]["observation"]
    assert "There is no node '999'" in out["steps"][1]["observation"]
    assert out["answer"] == "Neural Networks"


def test_t_max_fallback_in_faithful_mode_uses_the_memory_vote() -> None:
    ctx = context(
        reply("get_neighbors", {}), "Known neighbour labels: Theory x3.",
        reply("get_features", {}),  # the last decision's observation is not summarised: no decision reads it
        graph_tool=False, max_steps=2,
    )
    out = solve("107", ctx)
    assert out["ended_by"] == "t_max" and out["answer"] == "Theory" and out["label_id"] == 2
    assert "most often" in out["reason"] and len(out["steps"]) == 2 and out["steps"][1]["summary"]
    assert out["usage"]["llm_calls"] == 3


def test_t_max_fallback_reads_the_last_reply_and_a_model_that_never_answers_ends_by_errors() -> None:
    named = context(reply("get_features", {}, text="Rule Learning, I guess"), graph_tool=False, max_steps=1)
    out = solve("107", named)
    assert (out["ended_by"], out["answer"]) == ("t_max", "Rule Learning")
    silent = context(*(["..."] * 3), graph_tool=False, max_steps=3, max_bad_replies=0)
    out = solve("107", silent)
    assert out["ended_by"] == "errors" and out["answer"] is None and out["label_id"] is None
    assert len(out["steps"]) == 3 and not any(s["valid"] for s in out["steps"])


def test_bad_replies_in_a_row_end_the_run_early() -> None:
    ctx = context(reply("get_features", {}), "a paper on neural networks", "???", "!!!", graph_tool=False, max_steps=6)
    out = solve("107", ctx)  # default max_bad_replies = 2: two unusable replies in a row end it
    assert out["ended_by"] == "errors" and len(out["steps"]) == 3 and out["usage"]["llm_calls"] == 4
    assert out["reason"].startswith("no usable reply") and out["answer"] == "Neural Networks"  # the memory vote


def test_tool_mode_starts_from_the_prediction_and_falls_back_to_it() -> None:
    ctx = context("garbage", max_steps=1)
    out = solve("108", ctx)
    assert out["tool_prediction"]["label"] == "Neural Networks" and out["answer"] == "Neural Networks"
    assert out["ended_by"] == "errors" and out["changed_tool_answer"] is False
    prompt = ctx.agent_model.calls[0][0].content
    assert "step 0 (given): predict_label(108)" in prompt and "validation nodes" in prompt
    assert "predict_label:" in prompt


def test_guard_refuses_a_confident_override_and_accepts_an_unsure_one() -> None:
    # calibration on the three validation nodes: right at 0.95 and 0.55, wrong at 0.5 -> threshold 0.55
    confident = solve("107", context(reply("answer", {"label": "Rule Learning", "reason": "x"})))
    assert confident["answer"] == "Neural Networks" and confident["agent_answer"] == "Rule Learning"
    assert confident["changed_tool_answer"] is False and not confident["guard"]["accepted"]
    assert "override refused" in confident["reason"]
    unsure = solve("108", context(reply("answer", {"label": "Rule Learning", "reason": "x"})))
    assert unsure["answer"] == "Rule Learning" and unsure["changed_tool_answer"] is True
    assert unsure["guard"]["accepted"] and unsure["guard"]["calibration"]["threshold"] == pytest.approx(0.55)
    third = solve("108", context(reply("answer", {"label": "Theory", "reason": "x"})))  # not in the top 2
    assert third["answer"] == "Neural Networks" and "most probable" in third["guard"]["why"]
    unguarded = solve("107", context(reply("answer", {"label": "Theory"}), tool_guard=False))
    assert unguarded["answer"] == "Theory" and unguarded["changed_tool_answer"] is True
    by_hand = solve("107", context(reply("answer", {"label": "Rule Learning"}), override_threshold=0.99))
    assert by_hand["answer"] == "Rule Learning"


def test_ablation_fields_leave_the_format_prompt() -> None:
    ctx = context(ANSWER_NN, graph_tool=False, reasoning_field=False, plan_field=False)
    solve("107", ctx)
    prompt = ctx.agent_model.calls[0][0].content
    assert '"reasoning"' not in prompt and '"plan"' not in prompt and '"criticism"' in prompt
    full = context(ANSWER_NN, graph_tool=False)
    solve("107", full)
    assert '"reasoning"' in full.agent_model.calls[0][0].content


def test_analyze_label_ablation_is_an_llm_call_over_the_history() -> None:
    ctx = context(reply("analyze_label", {"node_id": 107}), "Neural Networks or Theory", "s", ANSWER_NN,
                  graph_tool=False, analyze_label=True)
    out = solve("107", ctx)
    assert out["steps"][0]["observation"] == "Neural Networks or Theory"
    assert "Name the labels" in ctx.agent_model.calls[1][0].content


def test_summaries_off_keeps_the_bounded_observation() -> None:
    out = solve("107", context(reply("get_features", {}), ANSWER_NN, graph_tool=False, summarise=False))
    assert out["usage"]["llm_calls"] == 2 and out["steps"][0]["summary"].startswith("Node 107.")


def test_an_unknown_node_is_refused_before_any_graph_model_is_loaded(monkeypatch: pytest.MonkeyPatch) -> None:
    """A server client's typo costs nothing: the node is looked up before a model is trained or loaded."""
    from graphreason.workflows.graphagent import resources

    def too_early(*args: object, **kwargs: object) -> None:
        raise AssertionError("the graph model was loaded before the node was checked")

    ctx = context(ANSWER_NN)
    monkeypatch.setattr(resources, "environment", too_early)
    with pytest.raises(GraphAgentInputError, match="no node '999'"):
        solve("999", ctx)
    with pytest.raises(GraphAgentInputError, match="another label set"):
        solve("107", ctx, labels=["Neural Networks", "Robotics"])


def test_bad_input_gives_clear_errors() -> None:
    with pytest.raises(GraphAgentInputError, match="no node '999'"):
        solve("999", context(ANSWER_NN))
    with pytest.raises(GraphAgentInputError, match="another label set"):
        solve("107", context(ANSWER_NN), labels=["Neural Networks", "Robotics"])
    with pytest.raises(ValidationError):
        solve("   ", context(ANSWER_NN))
    with pytest.raises(GraphAgentInputError, match="unknown dataset 'nowhere'"):
        solve("1", GraphAgentContext(agent_model=ScriptedChatModel(script=[]), dataset="nowhere", long_term=False))
    # a dataset is a name: a folder never comes in through it, only through data_path
    with pytest.raises(ValueError, match="dataset is a name"):
        GraphAgentContext(dataset="/tmp")
    with pytest.raises(GraphAgentInputError, match="unknown dataset 'tools'"):  # a folder in the cwd
        solve("1", GraphAgentContext(agent_model=ScriptedChatModel(script=[]), dataset="tools", long_term=False))
    with pytest.raises(ValueError, match="max_steps"):
        GraphAgentContext(max_steps=0)


def test_label_order_given_by_the_caller_numbers_the_labels() -> None:
    out = solve("107", context(reply("answer", {"label": 0})), labels=["Theory", "Neural Networks", "Rule Learning"])
    assert out["labels"][0] == "Theory" and out["agent_answer"] == "Theory"


def test_node_without_text_says_so() -> None:
    out = solve("108", context(reply("get_features", {}), "nothing there", ANSWER_NN, graph_tool=False))
    assert out["title"] == "" and "has no text" in out["steps"][0]["observation"]


def test_graph_exports_typed_schemas() -> None:
    assert set(graph.get_input_jsonschema()["properties"]) == {"node", "labels", "messages"}  # messages: chat
    output = set(graph.get_output_jsonschema()["properties"])
    assert {"answer", "label_id", "ended_by", "steps", "tool_prediction", "changed_tool_answer", "usage"} <= output
    assert set(graph.get_graph().nodes) >= {"retrieve_experience", "replay", "decide", "execute", "summarise"}


def test_tool_first_off_leaves_the_prediction_to_the_agent() -> None:
    ctx = context(reply("predict_label", {"node_id": "108"}), "the model says Neural Networks", ANSWER_NN,
                  tool_first=False)
    out = solve("108", ctx)
    assert "step 0 (given)" not in ctx.agent_model.calls[0][0].content
    assert out["steps"][0]["observation"].startswith("Graph model prediction for node 108: Neural Networks")
    assert out["tool_prediction"]["label"] == "Neural Networks" and out["changed_tool_answer"] is False


def test_a_classifier_failure_on_the_target_leaves_a_run_without_tool_answer() -> None:
    from graphreason.workflows.graphagent import provide
    from tests.workflows.graphagent.fixtures import TOOL_TABLE, FakeClassifier, tiny_data

    table = {k: v for k, v in TOOL_TABLE.items() if k != "107"}
    provide("tiny-gap", tiny_data(), FakeClassifier(table))
    ctx = GraphAgentContext(agent_model=ScriptedChatModel(script=[ANSWER_NN]), dataset="tiny-gap",
                            embedding_model="hash", long_term=False)
    out = solve("107", ctx)
    assert out["tool_prediction"] is None and out["answer"] == "Neural Networks"
    assert "could not classify" in out["trace"][0]["note"]


def test_data_path_is_found_in_the_working_directory_then_under_the_data_root(tmp_path, monkeypatch) -> None:
    from tests.tools.core.loaders.ogb_fixture import write_ogb_folder

    root = tmp_path / "root"
    folder = write_ogb_folder(root)
    monkeypatch.setenv("GRAPHREASON_DATA_ROOT", str(root))
    monkeypatch.chdir(tmp_path)
    relative = str(folder.relative_to(root))
    assert GraphAgentContext(data_path=relative).source == folder.resolve()  # under the data root
    assert GraphAgentContext(data_path=str(folder)).source == folder.resolve()
    assert GraphAgentContext().source == "cora"  # a name stays a name


def test_a_run_that_spends_its_whole_budget_fits_the_derived_recursion_limit() -> None:
    from graphreason.workflows.graphagent.graph import RECURSION_LIMIT, recursion_limit

    summaries = ["The paper is about networks."] * 3
    replies = [x for pair in zip([reply("get_features", {"node_id": "107"})] * 3, summaries, strict=True) for x in pair]
    ctx = context(*replies, graph_tool=False, max_steps=3)
    out = solve("107", ctx)  # three decisions, never an answer: the T_max fallback ends it
    assert out["ended_by"] == "t_max" and recursion_limit(ctx) == 18
    assert RECURSION_LIMIT == 206
