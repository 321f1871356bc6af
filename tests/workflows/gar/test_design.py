"""The master designs a new algorithm when no library entry fits: checked, sandboxed, repaired, or refused."""

from __future__ import annotations

import networkx as nx
import pytest

from graphreason.tools.gar.graph_text import parse_graph_problem
from graphreason.workflows.gar import GARContext, solve
from graphreason.workflows.gar.design.check import check_design, extract_code, same_answer
from graphreason.workflows.models.scripted import ScriptedChatModel

UNDIRECTED = "In an undirected graph, (i,j) means that node i and node j are connected with an undirected edge."
EDGES = [(0, 1), (1, 2), (2, 0), (2, 3), (3, 4), (4, 2), (4, 5), (5, 6), (6, 4), (1, 3)]
GRAPH_TEXT = (
    f"{UNDIRECTED} Q: The nodes are numbered from 0 to 6, and the edges are: "
    + " ".join(f"({u},{v})" for u, v in EDGES)
    + "."
)
TRIANGLES_Q = GRAPH_TEXT + " How many triangles are in this graph?"
MOST_LINKS_Q = GRAPH_TEXT + " Which node has the largest number of links?"
DESIGN_NEW = '{"algorithm": "design_new"}'

TRIANGLES = """
# State: my neighbours, and the triangles whose smallest node I am (None until counted)
# Message: the sender and its neighbour list
def init(node, neighbors, params):
    return {"nbrs": sorted(set(neighbors)), "count": None}

def send(node, state, neighbors):
    if state["count"] is not None:
        return []
    return [(n, [node, state["nbrs"]]) for n in neighbors]

def update(node, state, messages):
    if state["count"] is not None:
        return state
    mine = set(state["nbrs"])
    count = 0
    for sender, theirs in messages:
        if sender > node:
            count += len([w for w in theirs if w > sender and w in mine])
    return {"nbrs": state["nbrs"], "count": count}

def result(states, params):
    return sum(s["count"] or 0 for s in states.values())
"""
# counts every triangle once per node and per direction: six times too many
TRIANGLES_WRONG = TRIANGLES.replace("if sender > node:", "if True:").replace("w > sender and ", "")

MOST_LINKS = """
# State: my number of links
# Message: none needed
def init(node, neighbors, params):
    return len(neighbors)

def send(node, state, neighbors):
    return []

def update(node, state, messages):
    return state

def result(states, params):
    best = max(states.values())
    return min(v for v, d in states.items() if d == best)
"""
BRUTE = """
def brute_force(adjacency, params):
    best = max(len(n) for n in adjacency.values())
    return min(v for v, n in adjacency.items() if len(n) == best)
"""


def fenced(code: str) -> str:
    return f"Here is my design:\n```python\n{code}\n```\nIt runs in rounds."


def run(question: str, *replies: str, **kw) -> tuple[dict, ScriptedChatModel]:
    model = ScriptedChatModel(script=list(replies))
    out = solve(question, GARContext(master_model=model, embedding_model="hash", **kw))
    return out, model


def truth_triangles() -> int:
    return sum(nx.triangles(nx.Graph(EDGES)).values()) // 3


def test_designed_algorithm_checked_against_brute_force_answers():
    out, model = run(TRIANGLES_Q, DESIGN_NEW, fenced(TRIANGLES))
    assert out["algorithm"] == "design_new"
    assert out["structured"] == {"task": "designed", "kind": "number", "value": truth_triangles(), "complete": True}
    assert out["answer"].startswith(f"{truth_triangles()}.")
    test = next(t for t in out["trace"] if t["step"] == "test_design")
    assert test["judge"] == "oracle" and test["passed"] and test["graphs_checked"] == 6
    assert out["usage"]["llm_calls"] == 2 and model.remaining == 0


def test_a_wrong_design_gets_its_counterexample_and_is_repaired():
    out, model = run(TRIANGLES_Q, DESIGN_NEW, fenced(TRIANGLES_WRONG), fenced(TRIANGLES))
    assert out["structured"]["value"] == truth_triangles()
    repair_prompt = model.calls[2][-1].content
    assert "did not work" in repair_prompt and "wrong on graph" in repair_prompt and "expected" in repair_prompt
    assert TRIANGLES_WRONG.strip().splitlines()[-1].strip() in repair_prompt  # it sees its own code
    assert out["usage"]["llm_calls"] == 3


def test_when_every_attempt_fails_the_run_says_so_and_gives_no_answer():
    out, _ = run(TRIANGLES_Q, DESIGN_NEW, fenced(TRIANGLES_WRONG), "I cannot do this.")
    assert out["structured"]["value"] is None and out["structured"]["complete"] is False
    assert out["answer"].startswith("No answer: none of the library algorithms fits")
    assert "no code" in out["answer"]
    tests = [t for t in out["trace"] if t["step"] == "test_design"]
    assert len(tests) == 2


def test_unsafe_code_is_refused_before_it_runs_and_reported_to_the_master():
    unsafe = "import os\n" + TRIANGLES
    out, model = run(TRIANGLES_Q, DESIGN_NEW, fenced(unsafe), fenced(TRIANGLES))
    assert "refused before running" in model.calls[2][-1].content
    assert "import" in model.calls[2][-1].content
    assert out["structured"]["value"] == truth_triangles()


def test_model_written_brute_force_is_the_judge_when_no_oracle_exists():
    out, _ = run(MOST_LINKS_Q, DESIGN_NEW, fenced(MOST_LINKS + BRUTE))
    degrees = dict(nx.Graph(EDGES).degree())
    assert out["structured"]["value"] == min(v for v, d in degrees.items() if d == max(degrees.values()))
    test = next(t for t in out["trace"] if t["step"] == "test_design")
    assert test["judge"] == "brute_force"
    assert "checked against its own brute force" in out["answer"]


def test_without_any_reference_the_answer_is_marked_unchecked():
    out, _ = run(MOST_LINKS_Q, DESIGN_NEW, fenced(MOST_LINKS))
    assert out["structured"]["value"] == 2
    assert "not checkable against a reference" in out["answer"]


def test_a_design_that_hangs_on_the_real_graph_is_stopped():
    # fine on the check graphs (at most 8 nodes), an endless loop on the question's 12-node path
    hangs = MOST_LINKS.replace(
        "    return len(neighbors)", "    while node > 9:\n        pass\n    return len(neighbors)"
    )
    path = " ".join(f"({i},{i + 1})" for i in range(11))
    question = f"{UNDIRECTED} Q: The nodes are numbered from 0 to 11, and the edges are: {path}. Which node has the largest number of links?"
    out, _ = run(question, DESIGN_NEW, fenced(hangs + BRUTE), design_attempts=1, design_cpu_seconds=1)
    assert out["structured"]["value"] is None
    assert "on the question's graph: timeout" in out["answer"] and "CPU-time limit" in out["answer"]


def test_designing_switched_off_answers_nothing_without_asking():
    out, model = run(TRIANGLES_Q, DESIGN_NEW, design_attempts=0)
    assert out["structured"]["value"] is None and "switched off" in out["answer"]
    assert out["usage"]["llm_calls"] == 1 and model.remaining == 0


def test_a_library_task_is_never_sent_to_design():
    question = GRAPH_TEXT + " Is there a cycle in this graph?"
    out, _ = run(question, DESIGN_NEW)
    assert out["algorithm"] == "cycle_detection" and out["structured"]["value"] is True
    choose = next(t for t in out["trace"] if t["step"] == "choose")
    assert "overrode the master's design_new" in choose["text"]


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("```python\ndef init(a, b, c):\n    return 1\n```", "def init(a, b, c):\n    return 1\n"),
        ("Sure.\n```py\nx = 1\n```\nand\n```\ny = 2\n```", "x = 1\n\ny = 2\n"),
        ("```python\n# State: s\ndef init(a, b, c):\n    return 1", "# State: s\ndef init(a, b, c):\n    return 1\n"),
        ("Plan first.\n# State: s\ndef send(a, b, c):\n    return []", "# State: s\ndef send(a, b, c):\n    return []\n"),
        ("No code, sorry.", ""),
    ],
    ids=["fenced", "two-blocks", "cut-off", "bare", "none"],
)
def test_code_is_read_out_of_replies(reply, expected):
    assert extract_code(reply) == expected


def test_answers_compare_with_tolerance_and_yes_no_words():
    assert same_answer(1.0000000001, 1) and not same_answer(1.1, 1)
    assert same_answer("Yes", True) and same_answer(False, "no.") and not same_answer(True, 1)
    assert same_answer({0: [1, 2.0]}, {0: (1, 2)}) and not same_answer([1, 2], [2, 1])


def test_weighted_questions_give_the_design_edge_weights():
    problem = parse_graph_problem(
        "In an undirected graph, (i,j,w) means that node i and node j are connected with an undirected edge "
        "with weight w. Q: The nodes are numbered from 0 to 3, and the edges are: (0,1,4) (1,2,5) (2,3,1). "
        "What is the total weight of all edges?"
    )
    total_weight = """
def init(node, neighbors, params):
    return sum(params["weights"][(node, n)] for n in neighbors if n > node)
def send(node, state, neighbors):
    return []
def update(node, state, messages):
    return state
def result(states, params):
    return sum(states.values())
def brute_force(adjacency, params):
    return sum(w for (u, v), w in params["weights"].items() if u < v)
"""
    check = check_design(total_weight, problem, {}, None)
    assert check.passed and check.judge == "brute_force", check.message


@pytest.mark.parametrize("master_reply", ["Sure! I love graphs.", '{"algorithm": "degree"}'])
def test_a_task_the_library_cannot_answer_goes_to_design_whatever_the_master_says(master_reply):
    out, _ = run(TRIANGLES_Q, master_reply, fenced(TRIANGLES))
    assert out["algorithm"] == "design_new" and out["structured"]["value"] == truth_triangles()
    choose = next(t for t in out["trace"] if t["step"] == "choose")
    assert "no library entry answers triangle_count" in choose["text"]


def test_every_nodes_degree_is_a_list_answer():
    out, _ = run(GRAPH_TEXT + " What is the degree of each node?", '{"algorithm": "degree"}')
    assert out["structured"]["kind"] == "list" and out["structured"]["value"] == [2, 3, 4, 3, 4, 2, 2]
