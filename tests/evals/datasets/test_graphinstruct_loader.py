"""GraphInstruct JSONL and NLGraph JSON question files -> GraphTask items with normalised golds."""

from __future__ import annotations

import json
import math
from collections import Counter
from pathlib import Path

import networkx as nx
import pytest

from graphreason.evals.gar.graphinstruct import (
    GRAPHINSTRUCT_TASKS,
    GraphTask,
    GraphTaskFormatError,
    load_graph_tasks,
    load_graphinstruct,
    load_nlgraph,
    normalise_gold,
    save_graphinstruct,
)
from graphreason.tools.gar.graph_text import parse_graph_problem
from tests.conftest import require_data

NLGRAPH_FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "nlgraph"
CYCLE_PROMPT = (
    "Determine whether or not there is a cycle in an undirected graph. In an undirected graph, (i,j) means that "
    "node i and node j are connected with an undirected edge. Q: The nodes are numbered from 0 to 2, and the edges "
    "are: (0, 1) (1, 2) (2, 0). Is there a cycle in this graph?"
)


def write_jsonl(path: Path, rows: list[dict]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


@pytest.fixture
def gi_folder(tmp_path: Path) -> Path:
    write_jsonl(
        tmp_path / "cycle_dev.jsonl",
        [{"index": 3, "input_prompt": CYCLE_PROMPT, "answer": "### Yes", "node_range": [2, 5]}],
    )
    write_jsonl(
        tmp_path / "triplet_dev.jsonl",
        [
            {
                "index": 7,
                "input_prompt": "What is the maximum sum of the weights of three nodes?",
                "answer": "### 17",
            }
        ],
    )
    write_jsonl(
        tmp_path / "topology_dev.jsonl",
        [
            {
                "index": 1,
                "input_prompt": "Give one topology sorting path of this graph.",
                "answer": "### [[2, 0, 1]]",
            }
        ],
    )
    write_jsonl(
        tmp_path / "cycle_test.jsonl", [{"index": 9, "input_prompt": CYCLE_PROMPT, "answer": "### No"}]
    )
    return tmp_path


def test_graphinstruct_folder_dev_split(gi_folder: Path) -> None:
    items = load_graph_tasks(gi_folder)
    assert [i.qid for i in items] == ["cycle/3", "topology/1", "triangle/7"]
    cycle, topology, triangle = items
    assert cycle.gold is True and cycle.answer == "### Yes" and cycle.meta["node_range"] == [2, 5]
    assert topology.gold == [2, 0, 1]
    assert triangle.gold == 17 and triangle.task == "triangle" and triangle.meta["source_task"] == "triplet"
    assert all(isinstance(i, GraphTask) and i.difficulty is None for i in items)


def test_graphinstruct_split_tasks_filter_and_single_file(gi_folder: Path) -> None:
    assert [i.qid for i in load_graph_tasks(gi_folder, split="test")] == ["cycle/9"]
    assert [i.task for i in load_graph_tasks(gi_folder, tasks=["triplet", "cycle"])] == ["cycle", "triangle"]
    assert load_graphinstruct(gi_folder / "cycle_dev.jsonl")[0].gold is True
    with pytest.raises(ValueError, match="unknown tasks"):
        load_graph_tasks(gi_folder, tasks=["sorting"])


def test_task_from_the_question_when_the_file_name_does_not_say(tmp_path: Path) -> None:
    path = write_jsonl(
        tmp_path / "mine.jsonl", [{"index": 0, "input_prompt": CYCLE_PROMPT, "answer": "### No"}]
    )
    assert load_graph_tasks(path)[0].task == "cycle"
    vague = write_jsonl(
        tmp_path / "vague.jsonl", [{"index": 0, "input_prompt": "Edges (0,1).", "answer": "### 1"}]
    )
    with pytest.raises(GraphTaskFormatError, match="cannot tell the task"):
        load_graph_tasks(vague)
    assert load_graph_tasks(vague, task="edge_count")[0].gold == 1


def test_nlgraph_fixtures_load_with_task_from_folder() -> None:
    items = load_graph_tasks(NLGRAPH_FIXTURES, split="main")
    assert Counter(i.task for i in items) == Counter(
        {
            "connectivity": 2,
            "cycle": 2,
            "shortest": 2,
            "flow": 2,
            "topology": 1,
            "hamilton": 1,
            "matching": 1,
            "gnn": 1,
        }
    )
    by_id = {i.qid: i for i in items}
    assert by_id["shortest/0"].gold == 7 and by_id["shortest/0"].meta["gold_path"] == [0, 3, 4]
    assert by_id["hamilton/0"].gold is True and by_id["hamilton/0"].meta["gold_path"] == [0, 1, 2, 3, 4]
    assert by_id["topology/0"].gold == [0, 1, 2, 3] and by_id["matching/0"].gold == 2
    assert by_id["gnn/0"].gold == [[0, 1], [2, 1], [0, 1]] and by_id["flow/1"].difficulty == "hard"


def test_nlgraph_fixture_answers_hold_on_the_parsed_graphs() -> None:
    """The hand-worked answers of the fixtures, re-derived from the parsed graphs."""
    for item in load_graph_tasks(NLGRAPH_FIXTURES, split="main"):
        p = parse_graph_problem(item.question)
        g = p.to_networkx()
        s, t = p.params.get("source"), p.params.get("target")
        if item.task == "connectivity":
            assert nx.has_path(g, s, t) == item.gold
        elif item.task == "cycle":
            assert bool(nx.cycle_basis(g)) == item.gold
        elif item.task == "shortest":
            path = item.meta["gold_path"]
            assert nx.dijkstra_path_length(g, s, t) == item.gold == nx.path_weight(g, path, "weight")
        elif item.task == "flow":
            assert nx.maximum_flow_value(g, s, t, capacity="weight") == item.gold
        elif item.task == "topology":
            assert list(nx.topological_sort(g)) == item.gold
        elif item.task == "hamilton":
            assert nx.is_simple_path(g, item.meta["gold_path"]) and len(item.meta["gold_path"]) == p.n_nodes
        elif item.task == "matching":
            apps = {n for n, name in p.node_names.items() if name.startswith("applicant")}
            assert len(nx.bipartite.maximum_matching(g, top_nodes=apps)) // 2 == item.gold
        elif item.task == "gnn":
            feats = p.params["node_features"]
            summed = [[sum(feats[m][k] for m in g[n]) for k in range(2)] for n in range(p.n_nodes)]
            assert summed == item.gold


def test_nlgraph_single_file_needs_a_task_name(tmp_path: Path) -> None:
    data = {
        "0": {
            "question": "Q: Is there a cycle in this graph? (0,1) (1,2) (2,0)",
            "answer": "The answer is yes.",
            "difficulty": "easy",
        }
    }
    path = tmp_path / "questions.json"
    path.write_text(json.dumps(data))
    assert load_nlgraph(path)[0].task == "cycle"  # detected from the question
    assert load_nlgraph(path, task="cycle")[0].qid == "cycle/0"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"a": 1}\n', "unknown question format"),
        ("not json at all", "unknown question format"),
        ('[{"question": "q", "answer": "a"}]', "unknown question format"),
    ],
)
def test_unknown_formats(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "x.json"
    path.write_text(content)
    with pytest.raises(GraphTaskFormatError, match=message):
        load_graph_tasks(path)


def test_broken_graphinstruct_lines_name_the_line(tmp_path: Path) -> None:
    path = tmp_path / "cycle_dev.jsonl"
    path.write_text(json.dumps({"index": 0, "input_prompt": CYCLE_PROMPT, "answer": "### Yes"}) + "\n{oops\n")
    with pytest.raises(GraphTaskFormatError, match="line 2: not valid JSON"):
        load_graphinstruct(path)
    path.write_text(json.dumps({"index": 0, "input_prompt": CYCLE_PROMPT}) + "\n")
    with pytest.raises(GraphTaskFormatError, match="line 1: GraphInstruct items need answer"):
        load_graphinstruct(path)
    path.write_text(json.dumps({"index": 0, "input_prompt": CYCLE_PROMPT, "answer": "### maybe"}) + "\n")
    with pytest.raises(GraphTaskFormatError, match="cannot read a cycle answer"):
        load_graphinstruct(path)


def test_missing_paths_and_names(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="neither a file or folder nor a GraphInstruct task"):
        load_graph_tasks(tmp_path / "nope.jsonl")
    with pytest.raises(FileNotFoundError, match="no '\\*_dev.jsonl'"):
        load_graph_tasks(tmp_path)


@pytest.mark.parametrize(
    ("task", "answer", "gold"),
    [
        ("cycle", "### Yes", True),
        ("bipartite", "### No", False),
        ("connectivity", "The answer is no.", False),
        ("cycle", "Yes, there is a cycle.", True),
        ("hamilton", "Yes. The path can be: 0,1,2", True),
        ("edge_existence", "No.", False),
        ("shortest", "### 3", 3),
        ("shortest", "The shortest path from node 0 to node 4 is 0,3,4 with a total weight of 7.", 7),
        ("shortest", "There is no path from node 1 to node 2.", math.inf),
        ("flow", "The maximum flow from node 0 to node 3 is 8.", 8),
        ("triangle", "### 2.5", 2.5),
        ("degree", "3.", 3),
        ("topology", "### [[3, 1, 0, 5, 4, 2]]", [3, 1, 0, 5, 4, 2]),
        ("topology", "The solution is: 0,1,2,3.", [0, 1, 2, 3]),
        ("neighbors", "James, Robert.", ["James", "Robert"]),
        ("neighbors", "No nodes.", []),
        ("pagerank", "[16, 14, 5]", [16, 14, 5]),
        ("gnn", "node 1: [2,1]\nnode 0: [0,1.5]", [[0, 1.5], [2, 1]]),
    ],
)
def test_normalise_gold(task: str, answer: str, gold) -> None:
    value = normalise_gold(task, answer)
    assert value == gold and type(value) is type(gold)


def test_normalise_gold_rejects_what_it_cannot_read() -> None:
    with pytest.raises(ValueError, match="cannot read a flow answer"):
        normalise_gold("flow", "### unknown")


def test_save_and_reload_in_graphinstruct_format(tmp_path: Path) -> None:
    items = [
        GraphTask("cycle/0", "cycle", CYCLE_PROMPT, "### Yes", True, meta={"index": 0}),
        GraphTask(
            "topology/1",
            "topology",
            "Give one topology sorting path of this graph.",
            "",
            [2, 0, 1],
            meta={"index": 1},
        ),
    ]
    path = save_graphinstruct(items, tmp_path / "mixed_dev.jsonl")
    back = load_graph_tasks(path)
    assert [(i.qid, i.gold) for i in back] == [("cycle/0", True), ("topology/1", [2, 0, 1])]


@pytest.mark.data
def test_shared_graphinstruct_dev_set() -> None:
    require_data("GraphInstruct-Test-v4")
    items = load_graph_tasks()
    assert len(items) == 360 and len({i.qid for i in items}) == 360
    assert len(GRAPHINSTRUCT_TASKS) == 9  # every GraphInstruct task, 40 questions each
    assert Counter(i.task for i in items) == dict.fromkeys(GRAPHINSTRUCT_TASKS, 40)
    kinds = {(i.task, type(i.gold).__name__) for i in items}
    assert {
        k for t, k in kinds if t in ("cycle", "connectivity", "bipartite", "hamilton", "substructure")
    } == {"bool"}
    assert {k for t, k in kinds if t in ("shortest", "triangle", "flow")} == {"int"}
    assert all(sorted(i.gold) == list(range(len(i.gold))) for i in items if i.task == "topology")
    assert [i.qid for i in load_graph_tasks("triplet")][:1] == ["triangle/8"]
