"""The embedded agent's decisions are decoded under the reply format; other models are left free."""

from __future__ import annotations

import pytest

from graphreason.tools.graphagent.constraint import AgentReply
from graphreason.workflows.graphagent import GraphAgentContext, solve
from graphreason.workflows.graphagent import decide as decide_module
from graphreason.workflows.graphagent.decide import reply_grammar
from graphreason.workflows.graphagent.parsing import read_reply
from tests.tools.graphagent.test_constraint import LABELS, VALID
from tests.workflows.graphagent.fixtures import install, reply

ANSWER_NN = reply("answer", {"label": "Neural Networks", "reason": "its title and neighbours"})


@pytest.mark.parametrize("text", VALID)
def test_every_reply_the_grammar_accepts_reads_as_a_valid_command(text: str) -> None:
    commands = ["get_features", "get_neighbors", "predict_label", "analyze_label", "answer"]
    assert AgentReply(commands, LABELS).complete(text)
    decision = read_reply(text, commands=commands, labels=LABELS, target="31336")
    assert decision.valid and decision.problem is None, decision
    assert decision.command in commands


def test_the_grammar_is_for_the_embedded_model_only() -> None:
    commands, labels = ["get_features", "answer"], LABELS
    embedded = GraphAgentContext(agent_model="local", dataset="cora", embedding_model="hash")
    assert isinstance(reply_grammar(embedded, commands, labels), AgentReply)
    assert reply_grammar(GraphAgentContext(agent_model="local:smollm2-135m", grammar=False), commands, labels) is None
    assert reply_grammar(GraphAgentContext(agent_model="openai:gpt-4o-mini"), commands, labels) is None


def test_the_embedded_agents_decision_call_carries_the_grammar(monkeypatch: pytest.MonkeyPatch) -> None:
    install()
    seen: list[object] = []

    def fake_ask(context, prompt, max_tokens, grammar=None, model=None):
        from graphreason.workflows.usage import Usage

        seen.append(grammar)
        return ANSWER_NN, Usage()

    monkeypatch.setattr(decide_module, "ask", fake_ask)
    context = GraphAgentContext(
        agent_model="local", dataset="tiny", embedding_model="hash", long_term=False, summarise=False,
        graph_tool=False, tuned_agent=False,
    )  # fmt: skip
    out = solve("107", context)
    assert out["answer"] == "Neural Networks"
    grammar = seen[0]
    assert isinstance(grammar, AgentReply)
    assert grammar.commands == context.commands() and "predict_label" not in grammar.commands
    assert "Neural Networks" in grammar.labels  # the goal's label set


def test_a_scripted_model_gets_no_grammar(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[object] = []
    real_ask = decide_module.ask

    def spy(context, prompt, max_tokens, grammar=None, model=None):
        seen.append(grammar)
        return real_ask(context, prompt, max_tokens, grammar, model)

    monkeypatch.setattr(decide_module, "ask", spy)
    from tests.workflows.graphagent.fixtures import context as scripted_context

    solve("107", scripted_context(reply("answer", {"label": "Neural Networks", "reason": "r"}), graph_tool=False))
    assert seen == [None]


def test_on_its_last_decision_the_embedded_agent_may_only_answer() -> None:
    context = GraphAgentContext(agent_model="local", max_steps=3, tuned_agent=False)
    grammar = reply_grammar(context, ["get_features", "get_neighbors", "answer"], LABELS, last=True)
    assert grammar.commands == ["answer"]
    assert not grammar.viable(reply("get_features", {"node_id": 1})[:-15])
    assert grammar.complete(reply("answer", {"label": "Theory", "reason": "r"}))
    # the tuned agent's replies have no reasoning or plan field; its last decision is an answer too
    tuned = reply_grammar(GraphAgentContext(agent_model="local"), ["get_features", "answer"], LABELS, last=True)
    assert tuned.commands == ["answer"] and not tuned.reasoning and not tuned.plan
    assert not tuned.complete(reply("answer", {"label": "Theory", "reason": "r"}))
    assert tuned.complete('{"thoughts": {"text": "t", "criticism": "", "speak": ""}, '
                          '"command": {"name": "answer", "args": {"label": "Theory", "reason": "r"}}}')
