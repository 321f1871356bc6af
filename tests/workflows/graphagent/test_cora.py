"""GraphAgent on the real Cora (public split) with a scripted model: ids, titles, training labels only."""

from __future__ import annotations

import numpy as np
import pytest

from graphreason.tools.core.loaders.cora import DATASET
from graphreason.workflows.graphagent import GraphAgentContext, resources, solve
from graphreason.workflows.models.scripted import ScriptedChatModel
from tests.conftest import require_data
from tests.workflows.graphagent.fixtures import reply

pytestmark = pytest.mark.data


@pytest.fixture(scope="module")
def cora():
    require_data(DATASET)
    pytest.importorskip("graphreason.tools.core.loaders.node_data")
    return resources.node_data("cora", "public")


def test_a_faithful_run_on_a_test_node(cora) -> None:
    node = cora.graph.ids[int(cora.parts["test"][0])]
    model = ScriptedChatModel(script=[reply("get_neighbors", {"node_id": f"paper#{node}"}), "summary",
                                      reply("answer", {"label": 6, "reason": "r"})])
    ctx = GraphAgentContext(agent_model=model, graph_tool=False, long_term=False, embedding_model="hash")
    out = solve(node, ctx)
    assert len(out["labels"]) == 7 and out["answer"] == out["labels"][6] and out["title"]
    assert out["gold"] == cora.label(node) and out["steps"][0]["observation"].startswith(f"Node {node} has")


def test_neighbour_labels_come_from_the_training_part_only(cora) -> None:
    env = resources.environment(GraphAgentContext(graph_tool=False, embedding_model="hash"))
    train = {cora.graph.ids[int(i)] for i in cora.parts["train"]}
    degrees = [len(env.neighbours(n)) for n in env.ids]
    hub = env.ids[int(np.argmax(degrees))]  # Cora's most linked paper: 168 neighbours
    text = env.get_neighbors(hub)
    assert len(text.split()) < 400 and "more not listed" in text
    for line in text.splitlines():
        if "[label:" in line:
            assert line[2:].split(":")[0] in train
