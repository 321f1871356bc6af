"""Every method's state is described for Studio and carries the chat channel.

Studio shows a graph's state fields with their descriptions, and its chat view
needs a ``messages`` channel: each method's state schema must describe every
field (internal ones too) and hold ``messages`` with the ``add_messages`` reducer.
"""

from __future__ import annotations

import typing

import pytest
from pydantic.fields import FieldInfo

from graphreason.workflows import METHODS


def _state_schema(method) -> type:
    return method.compiled_graph().builder.state_schema


@pytest.mark.parametrize("method", METHODS, ids=lambda m: m.name)
def test_every_state_field_has_a_description(method) -> None:
    hints = typing.get_type_hints(_state_schema(method), include_extras=True)
    missing = [
        name for name, hint in hints.items()
        if not any(isinstance(m, FieldInfo) and m.description for m in getattr(hint, "__metadata__", ()))
    ]
    assert missing == [], f"{method.name}: state fields without a description: {missing}"


@pytest.mark.parametrize("method", METHODS, ids=lambda m: m.name)
def test_the_state_has_a_messages_channel(method) -> None:
    from langgraph.channels.binop import BinaryOperatorAggregate

    graph = method.compiled_graph()
    assert isinstance(graph.builder.channels["messages"], BinaryOperatorAggregate)
    assert "messages" in graph.get_input_jsonschema()["properties"]
    assert "messages" in graph.get_output_jsonschema()["properties"]


def _chat_cases():
    from pathlib import Path

    from graphreason.workflows.counselor import CounselorContext
    from graphreason.workflows.gar.context import GARContext
    from graphreason.workflows.models.scripted import ScriptedChatModel
    from graphreason.workflows.toolformer.context import ToolformerContext
    from tests.workflows.graphagent.fixtures import context as graphagent_context
    from tests.workflows.graphagent.fixtures import reply

    fixture = Path(__file__).resolve().parents[1] / "fixtures" / "mini_academic.json"
    finish = ScriptedChatModel(script=["Plan 1: answer", "Thought 1: known", "Action 1: Finish[Ada]", "[yes]"])
    return {
        "counselor": ("Who wrote it?", CounselorContext(graph=str(fixture), embedding_model="hash",
                                                        reasoner_model=finish, max_steps=2, max_reflections=0),
                      "Ada"),
        "gar": ("Determine whether two nodes are connected in an undirected graph. Q: The nodes are numbered "
                "from 0 to 2, and the edges are: (0,1). Is there a path between node 0 and node 2?",
                GARContext(master_model=ScriptedChatModel(script=["no idea"]), embedding_model="hash"), "No."),
        "toolformer": ('The order of the bull graph is [GR(GL("gpr", {"bull_graph"}), "toolx:order")-->r].',
                       ToolformerContext(embedding_model="hash", generator_model="scripted:none.json"), None),
        "graphagent": ("107", graphagent_context(reply("answer", {"label": "Theory", "reason": "r"}),
                                                 graph_tool=False), "Theory"),
    }


def _case(method) -> tuple[str, object, str | None]:
    """The method's chat input: from the table above, else the example the method brings itself."""
    cases = _chat_cases()
    if method.name in cases:
        return cases[method.name]
    assert method.example is not None, f"{method.name}: give the Method an example= (an offline input) for the generic tests"
    example = method.example()
    return example.text, example.context, example.answer


@pytest.mark.parametrize("method", METHODS, ids=lambda m: m.name)
def test_a_chat_client_sends_a_message_and_gets_the_answer_as_one(method, tmp_path, monkeypatch) -> None:
    """Studio's chat view: only ``messages`` in; the last human message is the input, the answer comes out."""
    monkeypatch.setenv("GRAPHREASON_CACHE", str(tmp_path / "cache"))
    text, context, answer = _case(method)
    inputs = {"messages": [{"role": "user", "content": text}]}
    if method.name == "toolformer":
        inputs["has_calls"] = True  # the text holds its call: no model runs
    out = method.compiled_graph().invoke(inputs, context=context)
    kinds = [m.type for m in out["messages"]]
    assert kinds == ["human", "ai"] and out["messages"][0].content == text
    reply_text = out["messages"][1].content
    expected = answer if answer is not None else "The order of the bull graph is 5."
    assert reply_text.startswith(expected) or reply_text == expected, reply_text


def test_a_chat_thread_answers_each_new_message_not_the_first_one_again() -> None:
    """On a checkpointed thread the input field keeps the last run's value; a new message must win over it."""
    from langgraph.checkpoint.memory import InMemorySaver

    from graphreason.workflows.toolformer.context import ToolformerContext
    from graphreason.workflows.toolformer.graph import build_graph

    graph = build_graph(checkpointer=InMemorySaver())
    thread = {"configurable": {"thread_id": "chat"}}
    context = ToolformerContext(embedding_model="hash")
    asks = [('The order of the bull graph is [GR(GL("gpr", {"bull_graph"}), "toolx:order")-->r].', "5"),
            ('The diameter of the bull graph is [GR(GL("gpr", {"bull_graph"}), "toolx:diameter")-->r].', "3")]
    for text, value in asks:
        out = graph.invoke({"messages": [{"role": "user", "content": text}], "has_calls": True}, config=thread,
                           context=context)
        assert out["messages"][-1].content.endswith(f"is {value}.")
    assert [m.type for m in out["messages"]] == ["human", "ai", "human", "ai"]
    out = graph.invoke({"text": asks[0][0], "has_calls": True}, config=thread, context=context)  # the field alone
    assert out["final"].endswith("is 5.")


def test_a_new_method_with_its_own_example_passes_the_generic_checks_with_no_edit_here(tmp_path, monkeypatch) -> None:
    """The echo method (tests/fixtures/echo_method) is in no table of this file: its package is all it needs."""
    from tests.fixtures.echo_method import METHOD as ECHO

    test_every_state_field_has_a_description(ECHO)
    test_the_state_has_a_messages_channel(ECHO)
    test_a_chat_client_sends_a_message_and_gets_the_answer_as_one(ECHO, tmp_path, monkeypatch)
