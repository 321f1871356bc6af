"""A GR call's graph and function must exist: every gold call passes, misspelled and invented names do not."""

from __future__ import annotations

import re

from graphreason.tools.toolformer.calls.constraint import ToolformerCalls
from graphreason.tools.toolformer.calls.known_names import known_names
from graphreason.tools.toolformer.training_data import records_by_dataset
from tests.conftest import require_data

GOLD = '[GR(GL("citeseer"), "graph_bert:topic", paper#2545)-->r]'


def test_every_gold_call_of_the_prompt_data_passes_at_every_prefix_of_its_names() -> None:
    names = known_names()
    checked = 0
    for side in ("train", "val"):
        for records in records_by_dataset(require_data("Graph_Toolformer/prompt"), side).values():
            for record in records:
                if "GR(" not in record.output:
                    continue
                assert names.viable(record.output), record.output
                checked += 1
                if checked % 97 == 0:  # every prefix of a sample: a name being written is never refused
                    cut = [record.output[:i] for i in range(len(record.output))]
                    assert all(names.viable(prefix) for prefix in cut), record.output
    assert checked > 20_000


def test_misspelled_or_invented_names_are_refused_as_they_are_written() -> None:
    names = known_names()
    assert names.viable(GOLD) and names.viable('[GR(GL("Last-fm"), "bpr:recommendation", user#u1, artist#i2)')
    assert names.viable('[GR(GL("citeseer-dataset"), "graph-bert:Topic", paper#1)')  # the hub's spellings
    assert names.viable('[GR(GL("cite')  # still the start of citeseer
    assert not names.viable('[GR(GL("citie')  # no dataset starts so
    assert not names.viable('[GR(GL("graph"), ')  # a closed name that is no dataset
    assert not names.viable('[GR(GL("last-fm"), "arts:')  # no function starts so
    assert not names.viable('[GR(GL("last-fm"), "arts-music", user#u1')
    assert names.viable('[GR(GL("last-fm"), "recommendation", user#u1')  # a bare name: the dataset's default domain
    assert names.viable('[GR(GL("data/my_graph.json"), "toolx:order")-->r]')  # a path is the hub's to resolve
    assert names.viable('[GL("human-brain-connectome-graph", "all regions")]')  # loading names its own graph


def test_a_function_must_run_on_the_call_s_dataset() -> None:
    names = known_names()
    assert names.viable('[GR(GL("last-fm"), "bpr:')
    assert not names.viable('[GR(GL("last-fm"), "transe:')  # TransE has models of the knowledge graphs only
    assert not names.viable('[GR(GL("last-fm"), "transe:head_entity", user#u1')
    assert names.viable('[GR(GL("last-fm"), "t')  # the bare topk_recommendation (bpr) still starts so
    assert not names.viable('[GR(GL("last-fm"), "t-o_p')  # separators only where a spelling has them
    assert not names.viable('[GR(GL("cora"), "bpr:recommendation", user#u1, item#i2)-->r]')


def test_every_domain_runs_on_known_datasets_and_its_description_agrees() -> None:
    from graphreason.tools.toolformer.hub import DATASETS
    from graphreason.tools.toolformer.registry import RUNS_ON, TOOLFORMER_FUNCTIONS

    assert {name.split(":", 1)[0] for name in TOOLFORMER_FUNCTIONS.names()} == set(RUNS_ON)
    assert {d for datasets in RUNS_ON.values() for d in datasets} == set(DATASETS)  # each dataset has a domain
    for entry in TOOLFORMER_FUNCTIONS:
        which = entry.params[0].description.split("). In call text")[0]  # the graphs it runs on, in words
        described = set(re.findall(r'"([a-z0-9\-]+)"', which))
        assert described <= set(RUNS_ON[entry.name.split(":", 1)[0]]), (entry.name, described)


def test_the_workflow_grammar_applies_them() -> None:
    grammar = ToolformerCalls(source="paper #2545 in citeseer", min_calls=1, names=known_names())
    assert grammar.viable("Its area is [GR(GL(\"cites")
    assert not grammar.viable("Its area is [GR(GL(\"citie")
    assert grammar.complete(f"Its area is {GOLD}.")
    assert not grammar.complete(re.sub("graph_bert:topic", "graph_bert:genre", f"Its area is {GOLD}."))
    assert ToolformerCalls().viable('[GR(GL("citie')  # without names, only the syntax is checked
