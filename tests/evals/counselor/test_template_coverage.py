"""Tool-set coverage: every question template is answerable through the real workflow, and the embedded model's Action grammar
lets every reference step through.

For each template on each real graph, a scripted agent runs the template's
reference action through the Counselor workflow (parser, graph functions,
retriever, observation text) and must reach the gold answer, which the
generator computed from the raw files without the graph layer.
"""

from __future__ import annotations

import pytest

from graphreason.evals.counselor.reference_agent import (
    answer_from_observation,
    observation_values,
    reference_script,
)
from graphreason.evals.datasets.generated import generate_questions, list_templates
from graphreason.evals.metrics import exact_match
from graphreason.tools.counselor.constraint import CounselorAction
from graphreason.tools.counselor.resources import get_graph_functions
from graphreason.workflows.counselor import CounselorContext, solve
from graphreason.workflows.models.scripted import ScriptedChatModel
from tests.conftest import require_data

GRAPHS = {"cora": "cora-citeseer-text", "citeseer": "cora-citeseer-text", "movielens": "movielens-100k"}


@pytest.mark.data
@pytest.mark.parametrize("graph", sorted(GRAPHS))
def test_every_template_reaches_its_gold_through_the_workflow(graph, tmp_path, monkeypatch):
    require_data(GRAPHS[graph])
    monkeypatch.setenv("GRAPHREASON_CACHE", str(tmp_path))
    items = generate_questions(graph=graph, n_per_template=3, seed=0)
    assert {i.template for i in items} == {t.name for t in list_templates(graph)}
    store = get_graph_functions(graph, "hash").store
    failures, refused = [], []
    for item in items:
        model = ScriptedChatModel(script=reference_script(item))
        context = CounselorContext(
            graph=graph,
            embedding_model="hash",
            reasoner_model=model,
            reflector_model=model,
            judge_model=model,
            mode="no_reflection",
        )
        out = solve(item.question, context)
        if not exact_match(out["answer"], item.answers or item.answer):
            failures.append((item.template, item.question, out["answer"], item.answer))
        # the embedded model's Action grammar lets the reference plan and its answer through, step by step
        observations: list[str] = []
        for step in out["trials"][0]["steps"]:
            grammar = CounselorAction(store, item.question, observations)
            if not grammar.complete(step["action"]):
                refused.append((item.template, step["action"][:120]))
            observations.append(step["observation"])
    coverage = 1 - len(failures) / len(items)
    assert coverage == 1.0, f"coverage {coverage:.1%}; failures: {failures[:3]}"
    assert not refused, f"the Action grammar refuses reference steps: {refused[:3]}"


def test_observation_values_read_every_documented_format():
    obs = (
        "The title feature of ['1', '2'] are: ['A, b', \"it's\"]. The cited_by neighbor numbers of ['1', '2'] are: [3, 0]. "
        "The ID of this retrieval target node is p2. The cites neighbor number of p2 is 4. The label feature of p2 are: Vision."
    )
    assert observation_values(obs) == [["A, b", "it's"], [3, 0], "p2", 4, "Vision"]


def test_truncated_lists_are_not_guessed():
    from graphreason.evals.datasets.items import QAItem

    item = QAItem(
        qid="x",
        question="q",
        answer="1",
        reference_action="Neighbour[a, b]",
        meta={"reference_answer_rule": "count"},
    )
    with pytest.raises(ValueError, match="truncated"):
        answer_from_observation(item, "The b neighbors of a are: ['1', '2', ... (300 nodes in all)].")
