"""The executor and post-processing: GPR calls run exactly, bad calls become errors, text survives."""

from __future__ import annotations

import pytest

from graphreason.memory.working import WorkingMemory
from graphreason.tools.toolformer.calls.parse import parse_text
from graphreason.workflows.toolformer.execute import Executor
from graphreason.workflows.toolformer.post_process import substitute_results

BULL = 'GL("gpr", {"bull_graph"})'


def run(text: str, **kwargs):
    executor = Executor(**kwargs)
    outcomes = executor.run(parse_text(text))
    return outcomes, substitute_results(text, outcomes), executor


def test_substitution_of_a_gold_gpr_call() -> None:
    text = f'The diameter of the bull graph is [GR({BULL}, "toolx:diameter")-->r].'
    outcomes, final, _ = run(text)
    assert [o.ok for o in outcomes] == [True]
    assert outcomes[0].value == 3 and final == "The diameter of the bull graph is 3."


def test_variable_binding_reuse_and_background_calls() -> None:
    text = (
        'The [GL("gpr", "lollipop_graph") --> G_l] lollipop graph has [GR(G_l, "toolx:order")-->r] nodes '
        'and [GR(G_l, "toolx:size")] some edges.'
    )
    outcomes, final, executor = run(text)
    assert all(o.ok for o in outcomes)
    assert "G_l" in executor.memory.variables
    # binding and recorded-only brackets leave the text without doubled spaces
    assert final == "The lollipop graph has 14 nodes and some edges."
    assert outcomes[2].value == 16 and executor.memory.stats()["variables"] == 1


def test_spelling_variants_share_one_memory_entry() -> None:
    text = (
        f'[GR({BULL}, "toolx:avg-shortest-path")-->r] [GR(GL( "gpr" , "bull_graph" ), "TOOLX:avg_shortest_path")-->r]'
    )
    outcomes, final, executor = run(text)
    assert outcomes[0].value == outcomes[1].value
    assert outcomes[1].cached and not outcomes[0].cached


def test_keyword_arguments_and_the_paper_convention() -> None:
    text = '[GR(GL("gpr", "lollipop_graph"), "toolx:avg_path_length", convention:"paper")-->r]'
    (outcome,), _, _ = run(text)
    assert outcome.ok, outcome.error
    nx_text = '[GR(GL("gpr", "lollipop_graph"), "toolx:avg_path_length")-->r]'
    (plain,), _, _ = run(nx_text)
    assert outcome.value < plain.value  # n^2 divides by more than n(n-1)


@pytest.mark.parametrize(
    ("call", "words"),
    [
        ('[GR(GL("gpr", "bull_graph"), "toolx:nope")-->r]', "Unknown function"),
        ('[GR(GL("gpr", "bull_graph"), "toolx:order", 1, 2)-->r]', "argument"),
        ('[GR(GL("gpr", "bull_graph"), "toolx:shortest_path", node#0, node#99)-->r]', "99"),
        ('[GR(GL("no-such-data"), "toolx:order")-->r]', "not a Graph-ToolFormer dataset"),
        ('[GR(GL("pubmed"), "graph_bert:topic", paper#1)-->r]', "PubMed"),
        # the prompts' CiteSeer numbering is Graph-Bert's, not the data root's: refused, not answered wrongly
        ('[GR(GL("citeseer"), "graph_bert:topic", paper#1)-->r]', "Graph-Bert's"),
        ('[GL(file-path:"../../etc/passwd")-->r]', "refused"),
        ('[GL(file-path:"/etc")-->r]', "refused"),
        ('[foo(1)-->r]', "unknown call"),
        ('[GR(GL("gpr", "bull_graph"))-->r]', "GR takes a graph"),
        ('[GR("bull", "toolx:order")-->r]', "loaded with GL"),
        ('[GR(GL("gpr", "bull_graph"), "toolx:density", wrong:1)-->r]', "no parameter"),
    ],
)
def test_bad_calls_become_errors_and_keep_their_text(call: str, words: str) -> None:
    text = f"Before {call} after [GR({BULL}, \"toolx:order\")-->r]."
    outcomes, final, _ = run(text)
    assert not outcomes[0].ok and words in outcomes[0].error
    assert outcomes[1].ok  # the rest of the text still runs
    assert final == f"Before {call} after 5."


def test_unparseable_bracket_and_placeholder_stay_as_written() -> None:
    text = 'A [GR(GL("gpr", "bull_graph"), "toolx:order"-->r] and [TBR] and [1].'
    outcomes, final, _ = run(text)
    assert outcomes == [] and final == text


def test_call_budget_stops_runaway_text() -> None:
    text = " ".join(f'[GR(GL("gpr", "bull_graph"), "toolx:shortest_path", node#{i // 5}, node#{i % 5})]' for i in range(20))
    outcomes, _, _ = run(text, max_calls=6)
    assert sum(o.ok for o in outcomes) < 20
    assert any("more than 6 calls" in o.error for o in outcomes)


def test_working_memory_is_bounded() -> None:
    memory = WorkingMemory(capacity=3, max_variables=2)
    text = " ".join(f'[GR(GL("gpr", "bull_graph"), "toolx:eccentricity", node#{i})]' for i in range(5))
    outcomes, _, _ = run(text, memory=memory)
    assert all(o.ok for o in outcomes) and len(memory) == 3
    memory.bind("a", 1)
    memory.bind("b", 2)
    with pytest.raises(ValueError, match="more than 2 variables"):
        memory.bind("c", 3)


def test_each_gr_call_runs_as_its_langchain_tool() -> None:
    from langchain_core.tracers.context import collect_runs

    from graphreason.tools.toolformer.hub import LoadedGraph

    text = (
        f'[GR({BULL}, "toolx:shortest_path", node#0, node#4)-->r] [GR({BULL}, "toolx:nope")-->r] '
        f'[GR({BULL}, "toolx:order", 1, 2)-->r]'
    )
    with collect_runs() as cb:
        outcomes, _, _ = run(text)
    runs = [r for r in cb.traced_runs if r.run_type == "tool"]
    # only the call a tool can take runs one; the unknown name and the wrong arity run nothing
    assert [r.name for r in runs] == ["toolx_shortest_path"]
    assert isinstance(runs[0].inputs["graph"], LoadedGraph) and runs[0].inputs["target"] == "4"
    assert runs[0].outputs["output"].content == outcomes[0].text == "2"
    assert [o.ok for o in outcomes] == [True, False, False]
