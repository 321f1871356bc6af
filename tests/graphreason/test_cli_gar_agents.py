"""``graphreason run gar`` / ``eval gar`` agent-mode options: parsed, passed into GARContext, run end to end."""

from __future__ import annotations

import json
from pathlib import Path

from graphreason.cli.main import build_parser, main
from graphreason.cli.methods.gar import gar_context
from tests.graphreason.conftest import write_script

GARBAGE = "Sure! I love graphs. 42?"
CONNECTED = (
    "Determine whether two nodes are connected in an undirected graph. In an undirected graph, (i,j) means "
    "that node i and node j are connected with an undirected edge. Q: The nodes are numbered from 0 to 5, "
    "and the edges are: (0,1) (1,2) (2,3) (4,5). Is there a path between node 0 and node 3?"
)




def test_agent_options_are_parsed_and_reach_the_context():
    agents = [
        "--mode",
        "agents",
        "--agent-model",
        "rules",
        "--agent-batch-size",
        "3",
        "--max-agent-calls",
        "40",
        "--agent-max-tokens",
        "300",
    ]
    args = build_parser().parse_args(["run", "gar", "--question", "q", "--model", "local", *agents])
    context = gar_context(args)
    assert context.agent_max_tokens == 300
    assert (context.mode, context.agent_model, context.agent_batch_size, context.max_agent_calls) == (
        "agents",
        "rules",
        3,
        40,
    )
    args = build_parser().parse_args(["eval", "gar", *agents, "--max-nodes", "20"])
    assert (args.mode, args.agent_model, args.agent_batch_size, args.max_agent_calls, args.max_nodes) == (
        "agents",
        "rules",
        3,
        40,
        20,
    )
    defaults = build_parser().parse_args(["eval", "gar"])
    context = gar_context(defaults)  # options left out leave the context's own defaults
    assert (context.mode, context.agent_model, defaults.max_nodes) == ("compiled", None, None)
    context = gar_context(build_parser().parse_args(["run", "gar", "--question", "q"]))
    assert context.mode == "compiled" and context.agent_batch_size == 8 and context.max_agent_calls == 200


def test_run_gar_in_agents_mode_prints_the_agreement(tmp_path, capsys):
    model = write_script(tmp_path, [GARBAGE])
    argv = ["run", "gar", "--question", CONNECTED, "--model", model, "--embedding", "hash"]
    assert main([*argv, "--mode", "agents", "--agent-model", "rules", "--agent-batch-size", "2"]) == 0
    out = capsys.readouterr().out
    assert "agent_round:" in out and "agent_compare:" in out
    assert "Algorithm: connectivity" in out and "Answer: Yes." in out
    assert "Agents vs compiled: agrees" in out
    calls = int(out.split(" LLM call(s)")[0].rsplit("(", 1)[1])
    assert calls >= 1 + 4  # the master plus one node-agent call per round along 0-1-2-3


def test_run_gar_never_claims_agreement_when_no_agent_answered(tmp_path, capsys):
    """Agents that never write a readable reply: the start states happen to give compiled mode's
    "Yes"-or-"No" shape, but the run must say that nothing was compared, not "agrees"."""
    model = write_script(tmp_path, [GARBAGE])
    agents = write_script(tmp_path, ["I am a node and I feel fine."] * 20, name="agents.json")
    argv = ["run", "gar", "--question", CONNECTED, "--model", model, "--embedding", "hash"]
    assert main([*argv, "--mode", "agents", "--agent-model", agents]) == 0
    out = capsys.readouterr().out
    assert "Agents vs compiled: not compared: no node agent answered" in out
    assert "agrees" not in out and "DISAGREES" not in out


def test_eval_gar_agents_mode_end_to_end(tmp_path, capsys):
    out = tmp_path / "run"
    model = write_script(tmp_path, [GARBAGE])
    argv = ["eval", "gar", "--dataset", "generated", "--mode", "agents", "--agent-model", "rules"]
    argv += ["--max-nodes", "10", "--limit", "8", "--out", str(out), "--model", model, "--embedding", "hash"]
    assert main([*argv, "--no-progress"]) == 0
    printed = capsys.readouterr().out
    assert "agrees with compiled" in printed and "| shortest |" in printed and "| flow |" not in printed
    summary = json.loads((out / "summary.json").read_text())
    assert summary["mode"] == "agents" and summary["agent_model"] == "rules" and summary["max_nodes"] == 10
    overall = summary["overall"]
    assert overall["n"] == 8 and overall["accuracy"] == 1.0 and overall["agreement"] == 1.0
    assert overall["max_nodes"] <= 10 and overall["master_calls_per_q"] == 1.0
    assert (out / "report.md").exists() and (out / "accuracy_time.png").exists()


def test_bad_agent_options_exit_2(tmp_path, capsys):
    assert main(["eval", "gar", "--mode", "swarm"]) == 2
    assert "invalid choice" in capsys.readouterr().err
    assert main(["eval", "gar", "--max-nodes", "0"]) == 2
    assert "must be at least 1" in capsys.readouterr().err
    assert main(["run", "gar", "--question", "q", "--agent-batch-size", "0"]) == 2
    model = write_script(tmp_path, [GARBAGE])
    argv = ["eval", "gar", "--dataset", "generated", "--max-nodes", "4", "--out", str(tmp_path / "r")]
    assert main([*argv, "--model", model, "--embedding", "hash", "--no-progress"]) == 2
    assert "no graph has at most 4 nodes" in capsys.readouterr().err


def test_compare_gar_puts_runs_side_by_side(tmp_path: Path):
    master = write_script(tmp_path, [GARBAGE] * 40)
    folders = {}
    for mode in ("compiled", "agents"):
        folders[mode] = tmp_path / mode
        extra = ["--agent-model", "rules"] if mode == "agents" else []
        argv = ["eval", "gar", "--dataset", "generated", "--tasks", "connectivity", "--limit", "2",
                "--model", master, "--embedding", "hash", "--mode", mode, "--out", str(folders[mode]),
                "--no-progress", *extra]  # fmt: skip
        assert main(argv) == 0
    out = tmp_path / "both"
    assert main(["compare", "gar", f"compiled={folders['compiled']}", f"agents={folders['agents']}", "--out", str(out)]) == 0
    table = (out / "modes.md").read_text()
    assert "compiled" in table and "agents" in table and (out / "modes.png").stat().st_size > 0
    assert main(["compare", "gar", "no-label-here", "--out", str(out)]) == 2
