"""``graphreason run gar`` and ``graphreason eval gar`` through ``main([...])`` with a scripted master."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from graphreason.cli.main import main
from tests.conftest import require_data
from tests.graphreason.conftest import write_script

pytestmark = pytest.mark.heavy  # among the slowest files: scheduled first (tests/conftest.py)

GARBAGE = "Sure! I love graphs. 42?"
SHORTEST = (
    "Find the shortest path between two nodes in an undirected graph. In an undirected graph, (i,j,k) "
    "means that node i and node j are connected with an undirected edge with weight k. "
    "Q: The nodes are numbered from 0 to 4, and the edges are: (0,1,2) (1,2,3) (0,2,9) (2,3,1) (3,4,4) (0,4,20). "
    "Give the weight of the shortest path from node 0 to node 4."
)




def run_gar(tmp_path: Path, *extra: str, replies: list[str] | None = None) -> int:
    model = write_script(tmp_path, replies or [GARBAGE])
    return main(["run", "gar", "--model", model, "--embedding", "hash", *extra])


def test_run_gar_streams_the_steps_and_prints_the_answer(tmp_path, capsys):
    reply = json.dumps({"algorithm": "shortest_path", "params": {}})
    assert run_gar(tmp_path, "--question", SHORTEST, replies=[reply]) == 0
    out = capsys.readouterr().out
    for label in ("graph:", "candidates:", "choice:", "round:", "answer:"):
        assert label in out, label
    assert "Algorithm: shortest_path" in out and "Answer: 10." in out
    structured = json.loads(out.split("Structured: ", 1)[1].splitlines()[0])
    assert structured["value"] == 10 and structured["path"] == [0, 1, 2, 3, 4]
    assert "1 LLM call(s)" in out and "fallback not used" in out


def test_run_gar_json_and_a_structured_graph_file(tmp_path, capsys):
    graph = tmp_path / "g.json"
    graph.write_text(json.dumps({"edges": [[0, 1, 4], [1, 2, 1], [0, 2, 7], [2, 3, 2]], "directed": False}))
    question = "What is the weight of the shortest path from node 0 to node 3?"
    assert (
        run_gar(tmp_path, "--question", question, "--graph-file", str(graph), "--json", "--max-tokens", "40")
        == 0
    )
    output = json.loads(capsys.readouterr().out)
    assert output["structured"]["value"] == 7 and output["fallback_used"] is True
    assert output["usage"]["llm_calls"] == 1 and [s["step"] for s in output["trace"]][-1] == "summarize"


def test_run_gar_bad_input_exits_2(tmp_path, capsys):
    assert run_gar(tmp_path, "--question", "Is there a cycle in the graph of my dreams?") == 2
    assert "no edges could be read" in capsys.readouterr().err
    assert run_gar(tmp_path, "--question", "   ") == 2
    assert "must not be empty" in capsys.readouterr().err
    assert run_gar(tmp_path, "--question", "shortest path from 0 to 1?", "--graph-file", "/no/such.json") == 2
    assert "does not exist" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text("[1, 2]")
    assert run_gar(tmp_path, "--question", "shortest path from 0 to 1?", "--graph-file", str(bad)) == 2
    err = capsys.readouterr().err
    assert "'edges'" in err and "Traceback" not in err


def test_eval_gar_generated_writes_the_report(tmp_path, capsys):
    out = tmp_path / "run"
    model = write_script(tmp_path, [GARBAGE])
    argv = ["eval", "gar", "--dataset", "generated", "--limit", "9", "--out", str(out), "--model", model]
    assert main([*argv, "--embedding", "hash", "--no-progress"]) == 0
    printed = capsys.readouterr().out
    assert "| substructure |" in printed and "Report  :" in printed
    summary = json.loads((out / "summary.json").read_text())
    assert summary["overall"]["n"] == 9 and summary["overall"]["accuracy"] == 1.0
    assert (out / "report.md").exists() and (out / "accuracy_time.png").exists()


def test_eval_gar_bad_options_exit_2(tmp_path, capsys):
    assert main(["eval", "gar", "--dataset", "grbench"]) == 2
    assert "invalid choice" in capsys.readouterr().err
    assert main(["eval", "gar", "--path", str(tmp_path / "missing.jsonl"), "--out", str(tmp_path)]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert main(["eval", "gar", "--tasks", "colouring"]) == 2
    assert main(["eval", "gar", "--limit", "0"]) == 2


@pytest.mark.data
def test_eval_gar_on_graphinstruct_dev_items_is_structurally_right(tmp_path, capsys):
    """10 dev items per task through the CLI with a master that never answers usefully: the fallback gets every
    one right (tests/workflows/gar/test_graph.py runs all 360 through solve())."""
    folder = require_data("GraphInstruct-Test-v4")
    out = tmp_path / "dev"
    model = write_script(tmp_path, [GARBAGE])
    argv = ["eval", "gar", "--dataset", "graphinstruct", "--path", str(folder), "--out", str(out), "--limit", "90"]
    assert main([*argv, "--model", model, "--embedding", "hash", "--concurrency", "2", "--no-progress"]) == 0
    summary = json.loads((out / "summary.json").read_text())
    print(json.dumps({t: r["accuracy"] for t, r in summary["tasks"].items()}))
    assert summary["overall"]["n"] == 90 and summary["overall"]["errors"] == 0
    assert {r["n"] for r in summary["tasks"].values()} == {10}
    assert {t: r["accuracy"] for t, r in summary["tasks"].items()} == dict.fromkeys(summary["tasks"], 1.0)
    assert len(summary["tasks"]) == 9 and summary["overall"]["llm_calls_per_q"] == 1.0
    # GraphInstruct's hamilton "No" labels are often contradicted by verified paths (4 of these 10)
    assert summary["tasks"]["hamilton"]["path_validity"] == 1.0
    assert summary["tasks"]["hamilton"]["label_agreement"] == 0.6


@pytest.mark.parametrize(("edges", "found"), [("oops", "a string"), ({"0": 1}, "an object"), (7, "a number")])
def test_graph_file_edges_that_are_not_a_list_are_refused(tmp_path, capsys, edges, found):
    path = tmp_path / "graph.json"
    path.write_text(json.dumps({"edges": edges}))
    code = main(["run", "gar", "--graph-file", str(path), "--question", "Is node 0 connected to node 1?"])
    assert code == 2
    err = capsys.readouterr().err
    assert "'edges' must be a list" in err and found in err and "edge 'o'" not in err
