"""GraphAgent's commands as registry entries, and the tool-calling setting (text by default, native refused for
models that do not call tools)."""

from __future__ import annotations

import argparse

import pytest

from graphreason.cli.context_options import add_context_options
from graphreason.tools.core.registry import Applied, Entry, Param
from graphreason.tools.graphagent.registry import (
    ANALYZE,
    ANSWER,
    COMMANDS,
    FEATURES,
    NEIGHBOURS,
    NODE_ID,
    PREDICT,
    CommandContext,
)
from graphreason.workflows.graphagent import GraphAgentContext, solve
from graphreason.workflows.graphagent.common import command_tools, environment
from graphreason.workflows.graphagent.parsing import read_reply
from graphreason.workflows.graphagent.prompts import main_prompt
from graphreason.workflows.kit.native import NativeToolsError
from graphreason.workflows.models.scripted import ScriptedChatModel
from tests.workflows.graphagent.fixtures import LABELS, context, install, reply


def test_the_registry_declares_every_command_once_and_answer_is_terminal() -> None:
    assert COMMANDS.names() == [FEATURES.name, NEIGHBOURS.name, PREDICT.name, ANALYZE.name, ANSWER.name]
    assert [e.name for e in COMMANDS if e.terminal] == ["answer"]
    assert all(e.params[0].kind is NODE_ID for e in COMMANDS if not e.terminal)
    assert [(p.name, p.optional) for p in ANSWER.params] == [("label", False), ("reason", True)]


def test_the_context_offers_entries_by_its_switches_in_registry_order() -> None:
    install()
    ctx = GraphAgentContext(dataset="tiny", graph_tool=False, features_action=False, analyze_label=True)
    assert ctx.commands() == ["get_neighbors", "analyze_label", "answer"]
    assert GraphAgentContext(dataset="tiny").commands() == ["get_features", "get_neighbors", "predict_label", "answer"]


def test_the_prompt_lists_the_offered_entries_with_their_descriptions_and_args() -> None:
    prompt = main_prompt(["get_neighbors", "answer"], 4000)
    assert f"1. get_neighbors: {NEIGHBOURS.description}, args: {{\"node_id\": <id>}}" in prompt
    assert f"2. answer: {ANSWER.description}, args: {{\"label\": <label id or name>, \"reason\": <why>}}" in prompt
    assert FEATURES.description not in prompt


def test_the_parser_reads_names_aliases_and_arity_from_the_registry() -> None:
    degree = Entry(
        "get_degree", (Param("node_id", NODE_ID, "a node"),), "how many neighbours a node has",
        run=lambda c, node: Applied(len(c.env.neighbours(str(node)))), observe=lambda c, a: f"{a.value} neighbours",
        aliases=("degree of",),
    )
    registry = COMMANDS.extended(degree)
    commands = ["get_degree", "answer"]
    decision = read_reply('{"command": {"name": "Degree Of", "args": "31"}}', commands=commands, labels=LABELS,
                          target="107", registry=registry)
    assert decision.valid and (decision.command, decision.node) == ("get_degree", "31")
    assert read_reply("get_degree(31)", commands=commands, labels=LABELS, target="107", registry=registry).valid
    # the answer's two parameters split a bare call at its first comma
    decision = read_reply("answer[Theory, bounds on learnability, mostly]", commands=commands, labels=LABELS,
                          target="107", registry=registry)
    assert (decision.label, decision.reason) == ("Theory", "bounds on learnability, mostly")
    # without the entry, the same command is not one
    plain = read_reply('{"command": {"name": "get_degree", "args": "31"}}', commands=commands, labels=LABELS,
                       target="107")
    assert not plain.valid and "not a command" in (plain.problem or "")


def test_command_tools_run_the_entries_including_the_analyst() -> None:
    install()
    ctx = GraphAgentContext(dataset="tiny", analyze_label=True)
    asked: list[str] = []
    tools = {t.name: t for t in command_tools(ctx, ctx.commands(), lambda node: asked.append(node) or "Theory?")}
    assert set(tools) == {"get_features", "get_neighbors", "predict_label", "analyze_label"}  # answer is no tool
    assert tools["get_features"].invoke({"node_id": "paper#101"}).startswith("Node 101.\nTitle: Backpropagation")
    assert tools["analyze_label"].invoke({"node_id": "107"}) == "Theory?" and asked == ["107"]
    assert CommandContext(environment(ctx)).analyze("107") == "analyze_label is not available in this run."


def test_the_text_path_is_the_default_and_binds_no_tools() -> None:
    assert GraphAgentContext().tool_calling == "text"
    ctx = context(reply("get_features", {}), "a summary", reply("answer", {"label": "Theory"}), graph_tool=False)
    out = solve("107", ctx)
    assert out["answer"] == "Theory" and [s["command"] for s in out["steps"]] == ["get_features", "answer"]
    assert ctx.agent_model.bound_tools == []  # the reply was read as text
    prompt = ctx.agent_model.calls[0][0].content
    assert "Respond with one JSON object only" in prompt and "offered to you as tools" not in prompt


@pytest.mark.parametrize("model", ["local", "local:smollm2-135m", "scripted:replies.json"])
def test_native_mode_refuses_models_that_do_not_call_tools(model: str) -> None:
    with pytest.raises(NativeToolsError, match=r"tool_calling='native'.*agent_model.*tool_calling='text'"):
        GraphAgentContext(agent_model=model, tool_calling="native")


def test_native_mode_refuses_a_scripted_model_object_and_accepts_an_endpoint_spec() -> None:
    with pytest.raises(NativeToolsError, match="ScriptedChatModel"):
        GraphAgentContext(agent_model=ScriptedChatModel(script=[]), tool_calling="native")
    assert GraphAgentContext(agent_model="openai:fake", tool_calling="native").tool_calling == "native"
    with pytest.raises(ValueError, match="unknown tool_calling 'json'"):
        GraphAgentContext(agent_model="openai:fake", tool_calling="json")


def test_the_setting_is_a_cli_option_with_its_choices() -> None:
    parser = argparse.ArgumentParser()
    add_context_options(parser, GraphAgentContext)
    assert parser.parse_args(["--tool-calling", "native"]).tool_calling == "native"
    with pytest.raises(SystemExit):
        parser.parse_args(["--tool-calling", "json"])
